"""Tide of Iron's Strategy decks through the games API (issue 27): two users create and join a match, the
server referees it (shuffles, every die, the public HQ and play areas) and every keyword is activated,
with the hidden-information oracle on every answer either seat receives: the order of an undrawn
Strategy deck (and any card never shown) never leaves the server, nor the RNG state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import tide_of_iron as toi
from games.models import Game, GameAction
from games.selectors import state_digest
from games.services import game_rebuild_state
from tests.games.conftest import current_state_json, json_strings

pytestmark = pytest.mark.django_db

MAX_STEPS = 400
BOARD = {"board_width": 12, "board_height": 10}
UNITS = [  # label, hex, side, kind: a crowd around the centre, so that drifted attacks still find figures
    ("A", "6,5", "axis", "squad"),
    ("B", "6,5", "axis", "vehicle"),
    ("C", "7,5", "axis", "squad"),
    ("D", "5,5", "allies", "squad"),
    ("E", "6,4", "axis", "squad"),
    ("F", "6,6", "axis", "vehicle"),
    ("G", "5,4", "allies", "squad"),
    ("H", "7,6", "axis", "squad"),
    ("I", "8,5", "axis", "squad"),
]


class TideOfIronOracle:
    """A seat must never receive a card code that is only in undrawn decks (every copy still hidden), nor
    the remaining order of any deck, nor the RNG state. Cards drawn face up (HQ areas), placed in a play
    area or put back in the box are public from then on."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.public: set[str] = set()

    def _state(self) -> dict[str, Any]:
        state = current_state_json(Game.objects.get(pk=self.game_id))
        for seat in toi.SEATS:
            self.public.update(state["hq"][seat])
            self.public.update(e["card"] for e in state["play"][seat])
        self.public.update(state["box"])
        return state

    def check(self, payload: Any, seat: str) -> int:
        state = self._state()
        decks = [  # a list of {"deck", "cards"} (rules revision 2) or the legacy {deck: cards} object
            d["cards"] if isinstance(d, dict) else d
            for s in toi.SEATS
            for d in (
                state["decks"][s] if isinstance(state["decks"][s], list) else state["decks"][s].values()
            )
        ]
        secret = {c for cards in decks for c in cards} - self.public
        text = json.dumps(payload)
        strings = json_strings(payload)
        assert not secret & strings, f"{seat} received hidden cards {sorted(secret & strings)[:5]}"
        for cards in decks:
            if len(cards) >= 2:
                assert json.dumps(cards) not in text and json.dumps(cards[::-1]) not in text, "a deck's order"
        assert "rng" not in strings, f"{seat} received RNG state"
        return len(secret) + sum(1 for cards in decks if len(cards) >= 2)


def create(client: Any, **overrides: Any) -> dict[str, Any]:
    body = {
        "game_type": "tide-of-iron",
        "opponent": {"kind": "human"},
        "seed": 1944,
        "options": {"scenario": "toi-scenario-all-decks", **BOARD},
    }
    body.update(overrides)
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def stream_entries(client: Any, game_id: str) -> tuple[list[dict[str, Any]], str]:
    response = client.get(f"/api/games/{game_id}/events/stream/?since=0&timeout=1")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    entries = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in lines and "event" not in lines:
            entries.append(json.loads(lines["data"]))
    return entries, text


def _plain(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in a.items() if k != "seat"} for a in legal]


def choose(view: dict[str, Any], seat: str, seen: set[str], placed: set[str]) -> dict[str, Any]:
    """A player's choice from his own view: report the board and his command points, activate what he can
    (an attack aims at the crowd), retry a failed contact, else end the phase."""
    decision = view["decision"]
    legal = decision["legal_actions"]
    if decision["kind"] == "target":
        return {"type": "target", "hex": "6,5"}
    if decision["kind"] == "confirm":
        return {"type": "confirm"}
    if decision["kind"] == "target_column":
        return {"type": "target_column", "column": "6"}
    if decision["kind"] == "target_row":
        return {"type": "target_row", "row": "5"}
    if decision["kind"] == "los":
        wanted = "officer" if len(seen) % 2 else "normal"
        # rules revision 2 offers officer only with an officer squad reported (no unit here has one)
        return {"type": "los", "los": wanted if {"type": "los", "los": wanted} in _plain(legal) else "normal"}
    for label, hex_, side, kind in UNITS:
        if label not in placed:
            return {"type": "place_unit", "unit": label, "hex": hex_, "side": side, "kind": kind}
    if "6,5" not in view["board"]["cover"]:
        return {"type": "set_cover", "hex": "6,5", "cover": "1"}
    if view["me"]["command"] < 6:
        return {"type": "report_command", "points": "12"}
    for wanted in ("retry_contact", "activate"):
        found = [a for a in legal if a["type"] == wanted]
        if found:
            return found[0]
    return {"type": "next_phase"}


def test_two_players_referee_a_match_through_the_api_never_seeing_a_deck_order(
    api, alice, bob, carol, catalog_rows
):
    """The issue's done-when: a match between two users plays through the API, with activations of every
    keyword, the hidden-information oracle on every answer, the events, the stream and the replay."""
    game = create(api(alice))
    gid = game["id"]
    assert game["game_type"] == "tide-of-iron" and game["status"] == "open" and game["my_seat"] == "allies"
    assert game["seed"] is None and game["seed_hash"]
    joined = api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    clients = {"allies": api(alice), "axis": api(bob)}
    oracle = TideOfIronOracle(gid)
    checked = {"responses": 0, "secrets": 0}

    def ok(seat: str, response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.json()
        payload = response.json()
        checked["secrets"] += oracle.check(payload, seat)
        checked["responses"] += 1
        return payload

    seen: set[str] = set()  # the event types so far
    placed: set[str] = set()
    since = dict.fromkeys(clients, 0)
    for step in range(MAX_STEPS):
        # the deciding seat's view every step, the other seat's every fourth (both are oracle-checked)
        views = {
            s: ok(s, c.get(f"/api/games/{gid}/view/"))
            for s, c in clients.items()
            if step % 4 == 0 or s == Game.objects.get(pk=gid).current_seat
        }
        for v in views.values():
            assert v["game_type"] == "tide-of-iron" and v["view"]["game"] == "tide-of-iron"
            assert all(d.keys() == {"code", "title", "size"} for d in v["view"]["opponent"]["decks"])
            assert set(v["cards"]) <= json_strings(v["view"])  # only the cards the view names are described
            assert {c["code"] for c in v["view"]["me"]["hq"]} <= set(v["cards"])
        movers = [s for s, v in views.items() if v["your_turn"]]
        assert len(movers) == 1
        seat = movers[0]
        other = next(s for s in clients if s != seat)
        if other in views:
            assert "legal_actions" not in views[other]["view"]["decision"], (
                "only the deciding seat sees choices"
            )
        done = {
            "contact_roll",
            "target_placed",
            "drift_roll",
            "area_attack",
            "wide_blast_attack",
            "unit_attacked",
            "unit_unaffected",
            "placed_in_play_area",
        } <= seen
        if done and views[seat]["view"]["decision"]["kind"] == "act":
            action = {"type": "end_match", "result": "draw"}
        else:
            action = choose(views[seat]["view"], seat, seen, placed)
        if action["type"] == "place_unit":
            placed.add(action["unit"])
        answer = ok(
            seat,
            clients[seat].post(
                f"/api/games/{gid}/actions/",
                {"version": views[seat]["version"], "action": action},
                format="json",
            ),
        )
        for entry in answer["entries"]:
            seen.update(e["type"] for e in entry["events"])
        if step % 8 == 0 or action["type"] == "end_match":
            for s, c in clients.items():
                log = ok(s, c.get(f"/api/games/{gid}/events/?since={since[s]}"))
                if log["entries"]:
                    since[s] = log["entries"][-1]["seq"]
        if answer["state"]["status"] == "finished":
            break
    else:
        pytest.fail(f"the match did not cover every keyword in {MAX_STEPS} steps: {sorted(seen)}")

    stored = Game.objects.get(pk=gid)
    assert stored.status == "finished" and stored.winner == "" and stored.end_reason == "draw"
    assert checked["secrets"] > checked["responses"], "the oracle's checks were not vacuous"
    log = list(GameAction.objects.filter(game=stored).order_by("seq"))
    dice = [e for entry in log for e in entry.events if e["type"] in ("contact_roll", "drift_roll")]
    assert dice and all(e["visible_to"] == "all" for entry in log for e in entry.events)  # every die public
    sustained = [e["data"] for entry in log for e in entry.events if e["type"] == "wide_blast_attack"]
    assert sustained and all(len(b["dice"]) == b["strength"] for b in sustained if b["rolled"])

    for seat, client in clients.items():
        streamed, text = stream_entries(client, gid)
        assert [e["seq"] for e in streamed] == list(range(1, stored.last_seq + 1)) and "event: end" in text
        oracle.check(streamed, seat)

    # a stranger sees the finished match and its replay, never a seat's view
    assert api(carol).get(f"/api/games/{gid}/view/").json()["code"] == "not_a_player"
    detail = api(alice).get(f"/api/games/{gid}/").json()
    assert detail["seed"] == 1944 and detail["seed_salt"]
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["game_type"] == "tide-of-iron" and replay["deck_lists_public"] is True
    rerun = toi.replay(
        toi.TideOfIronCatalog.from_dicts(**replay["catalog"]),
        toi.GameSetup.from_json(replay["setup"]),
        replay["actions"],
    )
    assert rerun.to_json() == stored.state and state_digest(rerun.to_json()) == replay["final_state_sha256"]
    assert game_rebuild_state(game=stored).to_json() == stored.state


def test_no_bots_no_decks_and_the_options_are_checked(api, alice, catalog_rows):
    client = api(alice)
    for overrides, code in (
        ({"opponent": {"kind": "bot", "bot": "random"}}, "bots_not_available"),
        ({"my_deck": {"starter": "gb-we-starter"}}, "deck_not_allowed"),
        ({"options": {"scenario": "toi-nope"}}, "bad_options"),
        ({"options": {"marker": "north"}}, "invalid_options"),
        ({"options": {"board_width": 1}}, "invalid_options"),
        ({"seat": "west"}, "invalid_seat"),
    ):
        body = {"game_type": "tide-of-iron", "opponent": {"kind": "human"}, **overrides}
        response = client.post("/api/games/", body, format="json")
        assert response.status_code == 400 and response.json()["code"] == code, (overrides, response.json())
    assert not Game.objects.exists()
    game = create(client, seat="axis", options={"first_player": "axis", "marker": "e", **BOARD})
    assert game["my_seat"] == "axis"


def test_a_report_out_of_turn_or_out_of_range_is_refused(api, alice, bob, catalog_rows):
    game = create(api(alice))
    gid = game["id"]
    api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    view = api(bob).get(f"/api/games/{gid}/view/").json()
    assert view["your_turn"] is False  # allies (alice) act first
    answer = api(bob).post(
        f"/api/games/{gid}/actions/",
        {"version": view["version"], "action": {"type": "report_command", "points": "3"}},
        format="json",
    )
    assert answer.status_code == 403 and answer.json()["code"] == "not_your_turn"
    answer = api(alice).post(
        f"/api/games/{gid}/actions/",
        {"version": view["version"], "action": {"type": "report_command", "points": "300"}},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "bad_report"


def test_no_clocks_takebacks_or_ratings_for_a_referee(api, alice, bob, catalog_rows):
    """Issue 27: a match gets spectators, but clocks, takebacks and ratings do not apply (every activation
    rolls dice): asked for at creation they are a 400, a takeback request a 409."""
    client = api(alice)
    for overrides, field in (
        ({"time_control": {"kind": "realtime", "minutes": 5}}, "time_control"),
        ({"rated": True}, "rated"),
    ):
        body = {"game_type": "tide-of-iron", "opponent": {"kind": "human"}, **overrides}
        response = client.post("/api/games/", body, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "not_for_this_game_type" and response.json()["field"] == field
    assert not Game.objects.exists()
    game = create(client)
    api(bob).post(f"/api/games/{game['id']}/join/", {}, format="json")
    view = client.get(f"/api/games/{game['id']}/view/").json()
    answer = client.post(f"/api/games/{game['id']}/takeback/", {"version": view["version"]}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "takebacks_not_supported"
    detail = client.get(f"/api/games/{game['id']}/").json()
    assert detail["clock"] is None and detail["rated"] is False


def test_a_match_is_watched_with_the_oracle_on_every_spectator_answer(api, alice, bob, carol, catalog_rows):
    """Issue 27: a match gets spectators (the engine's spectator view: both sides' public areas, no
    choices); no spectator answer shows a deck's order, an undrawn card or the RNG."""
    game = create(api(alice), spectators={"allowed": True})
    gid = game["id"]
    api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    oracle = TideOfIronOracle(gid)
    watcher = api(carol)
    seen = set()
    for step in range(12):
        for path in (f"/api/games/{gid}/spectate/", f"/api/games/{gid}/spectate/events/?since=0"):
            answer = watcher.get(path)
            assert answer.status_code == 200, answer.json()
            oracle.check(answer.json(), "spectator")
        spectated = watcher.get(f"/api/games/{gid}/spectate/").json()
        assert spectated["game_type"] == "tide-of-iron" and not spectated["view"].get("legal_actions")
        seen.add(spectated["seq"])
        player = alice if step % 2 == 0 else bob
        view = api(player).get(f"/api/games/{gid}/view/").json()
        if not view["your_turn"]:
            player = bob if player is alice else alice
            view = api(player).get(f"/api/games/{gid}/view/").json()
        actions = view["view"]["decision"]["legal_actions"] if view["view"].get("decision") else []
        if view["status"] != "active" or not actions:
            break
        api(player).post(
            f"/api/games/{gid}/actions/", {"version": view["version"], "action": actions[0]}, format="json"
        )
    assert len(seen) > 1  # the spectator followed the match as it went on
