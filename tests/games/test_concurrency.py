"""Two submissions at the same version, on two real database connections: exactly one applies."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from config.errors import DomainError
from games.models import GameAction
from games.selectors import game_player_view
from games.services import game_action_submit, game_create, game_join

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgresql_only(reason="row locks under concurrency (SELECT ... FOR UPDATE)"),
]


def test_two_concurrent_submissions_at_the_same_version_apply_exactly_once(catalog_rows, alice, bob):
    game = game_create(
        user=alice,
        my_deck={"starter": "gb-we-starter"},
        opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "human"},
        seed=4242,
    )
    game_join(game_id=game.pk, user=bob)
    mover = next(u for u in (alice, bob) if game_player_view(game_id=game.pk, user=u)["your_turn"])
    view = game_player_view(game_id=game.pk, user=mover)
    legal = view["view"]["decision"]["legal_actions"]
    version = view["version"]

    barrier = threading.Barrier(2)
    outcomes: list[Any] = []
    lock = threading.Lock()

    def submit(action: dict[str, Any]) -> None:
        try:
            barrier.wait(timeout=10)
            result = game_action_submit(game_id=game.pk, user=mover, version=version, action=action)
            with lock:
                outcomes.append(("applied", result.game.version))
        except DomainError as exc:
            with lock:
                outcomes.append((exc.status, exc.code))
        finally:
            connections.close_all()  # each thread had its own connection

    # Two different legal actions when there are (a double click sends the same one twice: also covered).
    actions = [legal[0], legal[-1]]
    threads = [threading.Thread(target=submit, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)

    applied = [o for o in outcomes if o[0] == "applied"]
    refused = [o for o in outcomes if o[0] != "applied"]
    assert len(applied) == 1, outcomes
    assert refused == [(409, "stale_version")]
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game, kind="action").count() == 1
    assert GameAction.objects.filter(game=game, version__gt=version).count() == game.version - version
