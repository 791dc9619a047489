"""Persistence: games survive a restart, rebuild from seed + log, and the log is append-only."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games import catalog_snapshot
from games.models import Game, GameAction
from games.selectors import game_player_view

pytestmark = pytest.mark.django_db


def test_a_game_survives_a_restart_and_rebuilds_from_seed_and_log(two_player_game, api, alice, bob):
    gid = two_player_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    for _ in range(10):
        for client in clients.values():
            view = client.get(f"/api/games/{gid}/view/").json()
            if view["your_turn"]:
                action = view["view"]["decision"]["legal_actions"][-1]
                client.post(
                    f"/api/games/{gid}/actions/",
                    {"version": view["version"], "action": action},
                    format="json",
                )
    before = {u.username: game_player_view(game_id=gid, user=u) for u in (alice, bob)}
    catalog_snapshot._CACHE.clear()  # a fresh process: nothing cached, everything read back from the database
    after = {u.username: game_player_view(game_id=gid, user=u) for u in (alice, bob)}
    assert after == before
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()


OLD_SHAPE = Path(__file__).parents[1] / "engine" / "old_shape"


@pytest.mark.parametrize("name", ["classic", "team"])
def test_verify_games_passes_on_a_game_stored_in_the_old_state_shape(two_player_game, name):
    """A game stored mid-battle by the engine before classic and team games shared one state shape
    (tests/engine/old_shape: its set-up, log and state as that engine wrote them) still verifies."""
    fx = json.loads((OLD_SHAPE / f"{name}.json").read_text())
    actions = fx["actions"][: fx["saved"]["ply"]]
    game = Game.objects.get(pk=two_player_game["id"])
    GameAction.objects.filter(game=game).delete()
    GameAction.objects.bulk_create(
        GameAction(game=game, seq=i, seat=a["seat"], action=a, version=i) for i, a in enumerate(actions, 1)
    )
    Game.objects.filter(pk=game.pk).update(
        setup=fx["setup"], state=fx["saved"]["state"], last_seq=len(actions), version=len(actions)
    )
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()


def test_verify_games_reports_a_state_whose_rng_was_changed(two_player_game):
    """The RNG is stored as one base64 string (issue 42): another generator than the replay's differs."""
    from games.engine.core.rng import rng_to_json

    other = rng_to_json(random.Random(12345))
    Game.objects.filter(pk=two_player_game["id"]).update(state={**Game.objects.get().state, "rng": other})
    with pytest.raises(SystemExit):
        call_command("verify_games", stdout=io.StringIO(), stderr=io.StringIO())


def test_verify_games_reports_a_tampered_state(two_player_game):
    Game.objects.filter(pk=two_player_game["id"]).update(state={**Game.objects.get().state, "turn": 999})
    with pytest.raises(SystemExit):
        call_command("verify_games", stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.postgresql_only(reason="the append-only trigger on the action log is PostgreSQL's")
def test_log_entries_cannot_be_changed(two_player_game):
    entry = GameAction.objects.filter(game_id=two_player_game["id"]).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAction.objects.filter(pk=entry.pk).update(action={"type": "forged"})
    entry.refresh_from_db()
    assert entry.action != {"type": "forged"}
