"""Issue 36 item 7 through the API: a Tide of Iron match played to `end_match` (the state reloaded from the
database on every request) replays from its published log to its published `final_state_sha256`. On
PostgreSQL, jsonb returned a stored state's deck keys shortest first and the allies of the artillery duel
drew Air Support before Artillery II after any reload."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import tide_of_iron as toi
from games.models import Game
from games.selectors import state_digest
from tests.engine.tide_of_iron.golden import script_choice
from tests.games.test_tide_of_iron_api import create

pytestmark = pytest.mark.django_db

ROUNDS = 3


def play_to_the_end(api: Any, alice: Any, bob: Any, *, seed: int) -> str:
    game = create(
        api(alice),
        seed=seed,
        options={"scenario": "toi-scenario-artillery-duel", "board_width": 12, "board_height": 10},
    )
    gid = game["id"]
    assert api(bob).post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    clients = {"allies": api(alice), "axis": api(bob)}
    for _ in range(600):
        seat = Game.objects.get(pk=gid).current_seat
        view = clients[seat].get(f"/api/games/{gid}/view/").json()
        state = view["view"]
        if state["round"] > ROUNDS and state["decision"]["kind"] == "act":
            action = {"type": "end_match", "result": "draw"}
        else:
            action = script_choice(state, state["ply"])
        answer = clients[seat].post(
            f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
        )
        assert answer.status_code == 200, answer.json()
        if answer.json()["state"]["status"] == "finished":
            return gid
    pytest.fail("the match did not end")


@pytest.mark.parametrize("seed", [11])
def test_a_match_played_through_the_api_replays_to_its_published_hash(api, alice, bob, catalog_rows, seed):
    gid = play_to_the_end(api, alice, bob, seed=seed)
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    cat = toi.TideOfIronCatalog.from_dicts(**replay["catalog"])
    rerun = toi.replay(cat, toi.GameSetup.from_json(replay["setup"]), replay["actions"])
    assert state_digest(rerun.to_json()) == replay["final_state_sha256"]
    drawn = [
        e["data"]["deck"]
        for entry in replay["log"]
        for e in entry["events"]
        if e["type"] == "card_drawn" and e["data"]["seat"] == "allies"
    ]
    assert drawn[:4] == ["toi-artillery-ii", "toi-air-support"] * 2  # the scenario's order
