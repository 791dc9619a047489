"""Issue 36 item 8: the referee no longer takes one player's word for what changes the outcome. Each of the
four cheats of the issue, played through the API (rules revision 2, README.md "The referee protocol"):
a player declares himself the winner; reports 99 command points before activating; steps through all three
phases alone; claims an officer's LOS with only a squad without an officer, six hexes away."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.games.test_tide_of_iron_api import create

pytestmark = pytest.mark.django_db

ARTILLERY_DUEL = {"scenario": "toi-scenario-artillery-duel", "board_width": 12, "board_height": 10}


class Table:
    """Alice (allies, the first player) and Bob (axis) at one match, through the API."""

    def __init__(self, api: Any, alice: Any, bob: Any, *, seed: int = 1944) -> None:
        game = create(api(alice), seed=seed, options=ARTILLERY_DUEL)
        self.gid = game["id"]
        assert api(bob).post(f"/api/games/{self.gid}/join/", {}, format="json").status_code == 200
        self.clients = {"allies": api(alice), "axis": api(bob)}

    def view(self, seat: str) -> dict[str, Any]:
        return self.clients[seat].get(f"/api/games/{self.gid}/view/").json()

    def send(self, seat: str, action: dict[str, Any], status: int = 200) -> dict[str, Any]:
        version = self.view(seat)["version"]
        response = self.clients[seat].post(
            f"/api/games/{self.gid}/actions/", {"version": version, "action": action}, format="json"
        )
        assert response.status_code == status, response.json()
        return response.json()

    def decision(self, seat: str) -> dict[str, Any]:
        return self.view(seat)["view"]["decision"]

    def game(self) -> Game:
        return Game.objects.get(pk=self.gid)


def test_a_player_declaring_himself_the_winner_is_no_victory_when_the_other_disputes(
    api, alice, bob, catalog_rows
):
    table = Table(api, alice, bob)
    table.send("allies", {"type": "end_match", "result": "allies"})
    assert table.game().status == "active"  # the result waits for the other player
    bob_decides = table.decision("axis")
    assert bob_decides["kind"] == "confirm" and bob_decides["prompt"]["claim"] == {
        "by": "allies",
        "type": "result",
        "result": "allies",
    }
    assert {a["type"] for a in bob_decides["legal_actions"]} == {"confirm", "dispute"}
    table.send("allies", {"type": "confirm"}, status=403)  # not his to confirm
    table.send("axis", {"type": "dispute"})
    game = table.game()
    assert game.status == "finished" and game.winner == "" and game.end_reason == "unfinished"
    assert game.result["kind"] == "no_result" and game.result["disputed_by"] == "axis"


def test_a_result_both_players_agree_on_is_recorded(api, alice, bob, catalog_rows):
    table = Table(api, alice, bob)
    table.send("allies", {"type": "end_match", "result": "axis"})
    table.send("axis", {"type": "confirm"})
    game = table.game()
    assert game.status == "finished" and game.winner == "axis" and game.end_reason == "victory"


def test_a_disputed_command_report_keeps_the_previous_count(api, alice, bob, catalog_rows):
    table = Table(api, alice, bob)
    table.send("allies", {"type": "report_command", "points": "1"})
    table.send("axis", {"type": "confirm"})
    assert table.view("allies")["view"]["me"]["command"] == 1
    table.send("allies", {"type": "report_command", "points": "99"})
    assert table.view("allies")["view"]["me"]["command"] == 1  # not yet taken
    answer = table.send("axis", {"type": "dispute"})
    assert answer["state"]["status"] == "active"
    me = table.view("allies")["view"]
    assert me["me"]["command"] == 1 and me["decision"]["kind"] == "act"
    dear = [c["code"] for c in me["me"]["hq"] if catalog_cost(table, c["code"]) > 1]
    assert dear
    for code in dear:  # nothing the 99 points would have paid for is offered or taken
        assert {"type": "activate", "seat": "allies", "card": code} not in me["decision"]["legal_actions"]
        assert table.send("allies", {"type": "activate", "card": code}, status=400)["code"] in (
            "cannot_afford",
            "wrong_phase",
        )


def catalog_cost(table: Table, code: str) -> int:
    return table.view("allies")["cards"][code]["cost"]


def test_the_first_player_cannot_step_through_the_phases_alone(api, alice, bob, catalog_rows):
    table = Table(api, alice, bob)
    decided = {"axis": set()}
    for phase in ("action", "command", "status"):
        assert table.view("allies")["view"]["phase"] == phase
        table.send("allies", {"type": "next_phase"})
        table.send("allies", {"type": "next_phase"}, status=403)  # the other player decides now
        assert table.decision("axis")["kind"] == "confirm"
        decided["axis"].add(phase)
        table.send("axis", {"type": "confirm"})
    assert decided["axis"] == {"action", "command", "status"}
    assert table.view("axis")["view"]["round"] == 2
    # a phase end disputed: the phase goes on and the disputing player decides in it (once per phase)
    table.send("allies", {"type": "next_phase"})
    table.send("axis", {"type": "dispute"})
    view = table.view("axis")["view"]
    assert (
        view["phase"] == "action" and view["decision"]["kind"] == "act" and view["decision"]["seat"] == "axis"
    )
    table.send("axis", {"type": "next_phase"})
    table.send("allies", {"type": "dispute"})
    table.send("allies", {"type": "next_phase"})  # both disputed once: this end is settled at once
    assert table.view("allies")["view"]["phase"] == "command"


def _with_a_drift_card(api: Any, alice: Any, bob: Any) -> tuple[Table, str]:
    """A match (fixed salt) whose allies hold Strafing Run (target, drift, no contact roll) in their HQ."""
    for seed in range(1, 40):
        table = Table(api, alice, bob, seed=seed)
        if "toi-strafing-run" in table.game().state["hq"]["allies"]:
            return table, "toi-strafing-run"
    pytest.fail("no deal with Strafing Run")


def test_an_officer_los_needs_a_reported_officer_squad_or_the_others_confirmation(
    api, alice, bob, catalog_rows, fixed_salt
):
    table, card = _with_a_drift_card(api, alice, bob)
    table.send("allies", {"type": "report_command", "points": "5"})
    table.send("axis", {"type": "confirm"})
    # the allies' only reported squad has no officer, six hexes from the target
    table.send(
        "allies",
        {"type": "place_unit", "unit": "E", "hex": "0,4", "side": "allies", "kind": "squad", "officer": "no"},
    )
    table.send("allies", {"type": "activate", "card": card})
    table.send("allies", {"type": "target_column", "column": "6"})
    table.send("allies", {"type": "target_row", "row": "4"})
    los = table.decision("allies")
    assert los["kind"] == "los" and {a["los"] for a in los["legal_actions"]} == {"none", "normal"}
    assert table.send("allies", {"type": "los", "los": "officer"}, status=400)["code"] == "no_officer"
    # normal LOS is a report too: Bob disputes it before any drift die is rolled; it counts as none
    claim = table.send("allies", {"type": "los", "los": "normal"})
    assert not [e for entry in claim["entries"] for e in entry["events"] if e["type"] == "drift_roll"]
    settled = table.send("axis", {"type": "dispute"})
    drift = [e["data"] for entry in settled["entries"] for e in entry["events"] if e["type"] == "drift_roll"]
    assert len(drift) == 1 and drift[0]["drift_basis"] == "none" and drift[0]["drift_number"] == 6


def test_with_no_unit_reported_an_officer_los_waits_for_the_others_confirmation(
    api, alice, bob, catalog_rows, fixed_salt
):
    table, card = _with_a_drift_card(api, alice, bob)
    table.send("allies", {"type": "report_command", "points": "5"})
    table.send("axis", {"type": "confirm"})
    table.send("allies", {"type": "activate", "card": card})
    table.send("allies", {"type": "target", "hex": "6,4"})
    table.send("allies", {"type": "los", "los": "officer"})
    assert table.decision("axis")["prompt"]["claim"]["los"] == "officer"
    settled = table.send("axis", {"type": "confirm"})
    drift = [e["data"] for entry in settled["entries"] for e in entry["events"] if e["type"] == "drift_roll"]
    assert drift[0]["drift_basis"] == "officer" and drift[0]["drift_number"] == 3
