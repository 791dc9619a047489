"""A game the engine finishes without a winner is a draw (end_reason "draw"), not "unfinished".

Battlecards ends "on points ... at the turn limit" (games/engine/battlecards/outcome.py) and a tie on points
has no winner. "unfinished" stays for games stopped before the engine finished them (expired, cancelled).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import engine
from games.models import Game
from tests.games.conftest import game_body
from tests.games.test_full_games import drive_to_the_end


def _play_a_drawn_game(api: Any, user: Any, monkeypatch: Any) -> str:
    """One turn (max_turns 1), then the engine ends the game on points: nobody has won a battle, 0-0."""
    # A fixed server salt makes the deal the same at every run.
    monkeypatch.setattr("games.services.seeds.new_salt", lambda: "5a" * 16)
    body = game_body(opponent={"kind": "bot", "bot": "random"}, options={"max_turns": 1}, seed=7)
    game = api(user).post("/api/games/", body, format="json").json()
    seat = game["my_seat"]
    drive_to_the_end(game_id=game["id"], clients={seat: api(user)}, bots={seat: engine.HeuristicBot()})
    return game["id"]


@pytest.mark.django_db
def test_a_game_ending_on_equal_points_at_the_turn_limit_is_recorded_as_a_draw(
    catalog_rows, api, alice, monkeypatch
):
    gid = _play_a_drawn_game(api, alice, monkeypatch)

    stored = Game.objects.get(pk=gid)
    result = stored.state["result"]
    assert stored.state["status"] == "finished" and stored.state["winner"] is None  # the engine's own verdict
    assert result["kind"] == "turn-limit" and result["points"] == {"axis": 0, "allies": 0}, result
    assert stored.status == "finished" and stored.winner == "" and stored.end_reason == "draw"
    detail = api(alice).get(f"/api/games/{gid}/").json()
    assert detail["end_reason"] == "draw" and detail["winner"] is None
    listed = api(alice).get("/api/games/?end_reason=draw").json()
    assert [g["id"] for g in listed["results"]] == [gid]


@pytest.mark.django_db
def test_a_cancelled_game_stays_unfinished_not_a_draw(catalog_rows, api, alice):
    game = api(alice).post("/api/games/", game_body(), format="json").json()  # nobody joined yet
    body = api(alice).post(f"/api/games/{game['id']}/resign/").json()
    assert body["result"]["kind"] == "cancelled" and body["end_reason"] == "unfinished"


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_draws_recorded_as_unfinished_into_draws(catalog_rows, api, alice, monkeypatch):
    drawn = _play_a_drawn_game(api, alice, monkeypatch)
    cancelled = api(alice).post("/api/games/", game_body(seed=8), format="json").json()["id"]
    api(alice).post(f"/api/games/{cancelled}/resign/")
    MigrationExecutor(connection).migrate([("games", "0006_game_type")])  # before: both "unfinished"
    assert set(Game.objects.values_list("end_reason", flat=True)) == {"unfinished"}
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Game.objects.get(pk=drawn).end_reason == "draw"
    assert Game.objects.get(pk=cancelled).end_reason == "unfinished"
