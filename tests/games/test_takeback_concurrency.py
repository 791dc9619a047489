"""Two answers to one takeback request at the same version, on two real database connections: exactly one
is written (the game row's lock), the other gets 409 stale_version."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from config.errors import DomainError
from games.models import Game, GameAction
from games.selectors import game_player_view
from games.services import (
    game_action_submit,
    game_create,
    game_join,
    game_takeback_answer,
    game_takeback_request,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgresql_only(reason="row locks under concurrency (SELECT ... FOR UPDATE)"),
]


def _pending_request(alice: Any, bob: Any) -> tuple[Game, Any, Any]:
    """A 1v1 game with a takeback request waiting: (game, the asking user, the answering user)."""
    game = game_create(
        user=alice,
        my_deck={"starter": "gb-we-starter"},
        opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "human"},
        seed=4242,
    )
    game_join(game_id=game.pk, user=bob)
    for _ in range(200):
        mover = next(u for u in (alice, bob) if game_player_view(game_id=game.pk, user=u)["your_turn"])
        view = game_player_view(game_id=game.pk, user=mover)
        legal = view["view"]["decision"]["legal_actions"]
        action = next((a for a in legal if a["type"] == "deploy"), legal[0])
        game_action_submit(game_id=game.pk, user=mover, version=view["version"], action=action)
        version = Game.objects.get(pk=game.pk).version
        try:
            game_takeback_request(game_id=game.pk, user=mover, version=version)
        except DomainError:
            continue
        return Game.objects.get(pk=game.pk), mover, (bob if mover == alice else alice)
    raise AssertionError("no takeback could be asked")


def test_two_concurrent_answers_are_written_exactly_once(catalog_rows, alice, bob):
    game, _asker, answerer = _pending_request(alice, bob)
    version = game.version
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []
    lock = threading.Lock()

    def answer(accept: bool) -> None:
        try:
            barrier.wait(timeout=10)
            game_takeback_answer(game_id=game.pk, user=answerer, version=version, accept=accept)
            with lock:
                outcomes.append(("written", accept))
        except DomainError as exc:
            with lock:
                outcomes.append((exc.status, exc.code))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=answer, args=(a,)) for a in (True, False)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)

    written = [o for o in outcomes if o[0] == "written"]
    assert len(written) == 1, outcomes
    assert [o for o in outcomes if o[0] != "written"] == [(409, "stale_version")]
    game.refresh_from_db()
    assert game.version == version + 1
    answers = GameAction.objects.filter(game=game, kind="takeback", seq__gt=game.last_seq - 1)
    assert answers.count() == 1
