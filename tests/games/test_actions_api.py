"""Submitting actions: versions, the error matrix, and that a refused action changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.catalog_snapshot import catalog_from_snapshot
from games.models import Game, GameAction

pytestmark = pytest.mark.django_db


def _snapshot(gid: str) -> tuple[Any, ...]:
    game = Game.objects.get(pk=gid)
    return game.version, game.last_seq, game.state, GameAction.objects.filter(game=game).count()


def _mover(two_player_game: dict[str, Any], api, alice, bob) -> tuple[str, Any, Any, dict[str, Any]]:
    """(seat, client of the seat to move, client of the other seat, view of the mover)."""
    gid = two_player_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    for seat, client in clients.items():
        view = client.get(f"/api/games/{gid}/view/").json()
        if view["your_turn"]:
            other = clients["axis" if seat == "allies" else "allies"]
            return seat, client, other, view
    raise AssertionError("nobody to move")


def test_view_shows_the_pending_decision_with_legal_actions_only_to_its_seat(
    two_player_game, api, alice, bob
):
    seat, mover, waiting, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    assert view["seat"] == seat and view["status"] == "active"
    assert view["version"] == Game.objects.get(pk=gid).version
    assert view["view"]["decision"]["legal_actions"]
    other_view = waiting.get(f"/api/games/{gid}/view/").json()
    assert other_view["your_turn"] is False and other_view["waiting_on"] == seat
    assert not other_view["view"]["decision"].get("legal_actions")


def test_a_legal_action_applies_and_bumps_the_version(two_player_game, api, alice, bob):
    seat, mover, _, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    action = view["view"]["decision"]["legal_actions"][0]
    response = mover.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["state"]["version"] == view["version"] + 1
    assert body["entries"][0]["seat"] == seat and body["entries"][0]["action"] == action
    logged = GameAction.objects.get(game_id=gid, seq=body["entries"][0]["seq"])
    assert logged.action == action and logged.by_bot is False


def test_the_seat_may_be_left_out_of_the_action(two_player_game, api, alice, bob):
    seat, mover, _, view = _mover(two_player_game, api, alice, bob)
    action = {k: v for k, v in view["view"]["decision"]["legal_actions"][0].items() if k != "seat"}
    response = mover.post(
        f"/api/games/{two_player_game['id']}/actions/",
        {"version": view["version"], "action": action},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["entries"][0]["action"]["seat"] == seat


def test_stale_version_is_409_and_changes_nothing(two_player_game, api, alice, bob):
    _, mover, _, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    before = _snapshot(gid)
    action = view["view"]["decision"]["legal_actions"][0]
    for version in (view["version"] - 1, view["version"] + 1):
        response = mover.post(
            f"/api/games/{gid}/actions/", {"version": version, "action": action}, format="json"
        )
        assert response.status_code == 409
        body = response.json()
        assert body["code"] == "stale_version" and body["current_version"] == view["version"]
        assert set(body) >= {"status", "code", "detail"}
    assert _snapshot(gid) == before


@pytest.mark.parametrize(
    "action",
    [
        "draw",
        ["draw"],
        {},
        {"type": "no_such_action"},
        {"type": "fire"},  # missing unit and target
        {"type": "draw", "bogus": "field"},
        {"type": "deploy", "card": 17, "stack": "ground:0"},
    ],
)
def test_malformed_actions_are_400_malformed_action_and_change_nothing(
    two_player_game, api, alice, bob, action
):
    _, mover, _, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    before = _snapshot(gid)
    response = mover.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "malformed_action"
    assert _snapshot(gid) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": {"type": "draw"}},
        {"version": "seven", "action": {}},
        {"version": -1, "action": {"type": "draw"}},
    ],
)
def test_a_malformed_request_body_is_400_malformed_action(two_player_game, api, alice, bob, body):
    _, mover, _, _ = _mover(two_player_game, api, alice, bob)
    response = mover.post(f"/api/games/{two_player_game['id']}/actions/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_action"


def test_an_illegal_action_is_400_with_the_engines_code_and_changes_nothing(two_player_game, api, alice, bob):
    seat, mover, _, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    game = Game.objects.get(pk=gid)
    legal = view["view"]["decision"]["legal_actions"]
    candidates = [
        {"type": "fire", "seat": seat, "unit": "c0", "target": "c1"},
        {"type": "withdraw", "seat": seat, "unit": "c0"},
        {"type": "draw", "seat": seat},
        {"type": "pass", "seat": seat},
    ]
    action = next(a for a in candidates if a not in legal)
    state = engine.GameState.from_json(game.state, catalog_from_snapshot(game.snapshot.data))
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply(state, engine.Action.from_json(action))
    before = _snapshot(gid)
    response = mover.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == refused.value.code != "malformed_action"
    assert _snapshot(gid) == before


def test_acting_out_of_turn_is_403_and_changes_nothing(two_player_game, api, alice, bob):
    seat, _, waiting, view = _mover(two_player_game, api, alice, bob)
    gid = two_player_game["id"]
    before = _snapshot(gid)
    other = "axis" if seat == "allies" else "allies"
    action = dict(view["view"]["decision"]["legal_actions"][0], seat=other)
    response = waiting.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_turn"
    # Acting in the other seat's name is refused too.
    _, mover, _, _ = _mover(two_player_game, api, alice, bob)
    response = mover.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_seat"
    assert _snapshot(gid) == before


def test_no_action_before_the_open_seat_is_taken(create_game, api, alice):
    game = create_game(alice)
    assert game["status"] == "open"
    # QA finding: no peek at the dealt hand before the other seat is taken (keep good deals, cancel the rest)
    response = api(alice).get(f"/api/games/{game['id']}/view/")
    assert response.status_code == 409 and response.json()["code"] == "game_not_active"
    assert "view" not in response.json()
    response = api(alice).post(
        f"/api/games/{game['id']}/actions/",
        {"version": game["version"], "action": {"type": "draw"}},
        format="json",
    )
    assert response.status_code in (403, 409)


def test_resignation_ends_the_game_for_the_other_seat_and_reveals_the_seed(two_player_game, api, alice, bob):
    gid = two_player_game["id"]
    assert api(alice).get(f"/api/games/{gid}/replay/").status_code == 409
    response = api(alice).post(f"/api/games/{gid}/resign/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["winner"] == "axis" and body["end_reason"] == "resignation"
    assert body["seed"] == 20020101 and body["seed_salt"]
    import hashlib

    assert hashlib.sha256(f"{body['seed']}:{body['seed_salt']}".encode()).hexdigest() == body["seed_hash"]
    for user in (alice, bob):  # the embedded engine view says so too, not "active"
        seen = api(user).get(f"/api/games/{gid}/view/").json()["view"]
        assert seen["status"] == "finished" and seen["winner"] == "axis"
        assert not seen["decision"] or not seen["decision"].get("legal_actions")
    again = api(bob).post(f"/api/games/{gid}/resign/")
    assert again.status_code == 409 and again.json()["code"] == "game_finished"
    late = api(bob).post(
        f"/api/games/{gid}/actions/", {"version": body["version"], "action": {"type": "draw"}}, format="json"
    )
    assert late.status_code == 409 and late.json()["code"] == "game_finished"
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["log"][-1]["kind"] == "resign"
    game = Game.objects.get(pk=gid)
    rerun = engine.replay(
        catalog_from_snapshot(replay["catalog"]),
        engine.GameSetup.from_json(replay["setup"]),
        replay["actions"],
    )
    assert rerun.to_json() == game.state


def test_resigning_a_game_nobody_joined_cancels_it(create_game, api, alice, bob):
    game = create_game(alice)
    response = api(alice).post(f"/api/games/{game['id']}/resign/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and not body["winner"]
    assert body["end_reason"] == "unfinished" and body["result"]["kind"] == "cancelled"
    assert api(bob).post(f"/api/games/{game['id']}/join/").json()["code"] == "game_not_open"


def test_a_body_that_is_not_json_is_a_malformed_action(two_player_game, api, alice, bob):
    _, mover, _, _ = _mover(two_player_game, api, alice, bob)
    response = mover.post(
        f"/api/games/{two_player_game['id']}/actions/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_action"
