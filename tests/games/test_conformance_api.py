"""The conformance suite's API part (issue 35 item 4): every registered game through the API, on the database
the suite runs on (PostgreSQL and SQLite alike).

For every game the registry of games has a Django-side definition of (games.game_types.GAME_TYPES, and the
toy game of tests/toy_game/, registered for its case only): create (open to spectators), join, view as each
seat, act with the legal actions the deciding seat's own view offers (a seeded random choice, as the short
journeys choose) until the game ends or MAX_PLIES, then resign (the end every game has); spectate, replay,
and verify: the replay's catalog, set-up and log, replayed through the game's own definition, reproduce the
published final-state hash, and `verify_games` finds the stored game equal to its log re-run.

The hidden-information oracle of the game holds on every answer: each seat's views, the answers to its
actions and its events, and the spectator's view and events (seat None).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from games.game_types import GAME_TYPES, get_game_type
from games.models import Game
from games.selectors import state_digest
from tests.games.conftest import (
    BattlefrontOracle,
    HiddenInfoOracle,
    TheWarOracle,
    current_state_json,
    json_strings,
)
from tests.games.test_short_journeys import CREATION, choose, legal_actions
from tests.games.test_tide_of_iron_api import TideOfIronOracle
from tests.toy_game.conftest import toy_game  # noqa: F401 (the fixture registering the toy game)
from tests.toy_game.definition import SPEC as TOY_SPEC

MAX_PLIES = 20  # then the player to move resigns: every game type stays a few seconds per database
WATCH_EVERY = 3  # the spectator's view and everyone's events every third ply (and at the end)
SEED = 1944


class ToyOracle:
    """The toy game's oracle: a hand's card is secret to every other viewer until it is played."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def check(self, payload: Any, seat: str | None) -> int:
        state = current_state_json(Game.objects.get(pk=self.game_id))
        secret = {card for owner, card in state["hands"].items()
                  if owner != seat and owner not in state["played"]}
        leaked = secret & json_strings(payload)
        assert not leaked, f"{seat} received the hidden card {sorted(leaked)}"
        return len(secret)


# The oracle of each game (tests/games/conftest.py and the games' own API tests): which strings a viewer must
# never receive. Every game the registry plays must have one (the first test).
ORACLES: dict[str, Callable[[str], Any]] = {
    "battlecards": HiddenInfoOracle,
    "battlefront": BattlefrontOracle,
    "the-war": TheWarOracle,
    "tide-of-iron": TideOfIronOracle,
    TOY_SPEC.id: ToyOracle,
}
GAMES = [*GAME_TYPES, TOY_SPEC.id]  # the registered games (at collection) and the toy game


def test_every_registered_game_has_its_oracle_and_its_creation():
    assert set(GAME_TYPES) <= set(ORACLES) and set(GAME_TYPES) <= set(CREATION)


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", GAMES)
def test_every_game_through_the_api_with_the_oracle_on_every_answer(
    game_type, request, api, alice, bob, carol, catalog_rows
):
    if game_type not in GAME_TYPES:  # the toy game: registered for this case only
        request.getfixturevalue("toy_game")
    body = {"game_type": game_type, "opponent": {"kind": "human"}, "seed": SEED,
            "spectators": {"allowed": True}, **CREATION.get(game_type, {})}
    created = api(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    assert created.json()["game_type"] == game_type
    joined = api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    seats = {s["seat"]: s["player"] for s in joined.json()["seats"]}
    assert sorted(seats) == sorted(get_game_type(game_type).seats)
    clients = {seat: api(alice if player == "alice" else bob) for seat, player in seats.items()}
    watcher = api(carol)
    oracle = ORACLES[game_type](gid)
    checked = {"answers": 0, "secrets": 0}

    def ok(response: Any, seat: str | None) -> dict[str, Any]:
        assert response.status_code == 200, response.json()
        payload = response.json()
        checked["secrets"] += oracle.check(payload, seat)
        checked["answers"] += 1
        return payload

    since: dict[str | None, int] = dict.fromkeys([*clients, None], 0)

    def follow_events() -> None:
        for seat, client in [*clients.items(), (None, watcher)]:
            path = "events" if seat else "spectate/events"
            log = ok(client.get(f"/api/games/{gid}/{path}/?since={since[seat]}"), seat)
            if log["entries"]:
                since[seat] = log["entries"][-1]["seq"]

    rng = random.Random(f"{game_type}-{SEED}")
    plies = 0
    while True:
        views = {seat: ok(client.get(f"/api/games/{gid}/view/"), seat) for seat, client in clients.items()}
        assert all(v["game_type"] == game_type for v in views.values())
        finished = next(iter(views.values()))["status"] == "finished"
        if finished or plies % WATCH_EVERY == 0:
            ok(watcher.get(f"/api/games/{gid}/spectate/"), None)
            follow_events()
        if not finished and plies % WATCH_EVERY == 0:  # the analysis: nothing before the end (issue 41)
            for seat, client in [*clients.items(), (None, watcher)]:
                for method in ("get", "post"):
                    answer = getattr(client, method)(f"/api/games/{gid}/analysis/")
                    assert answer.status_code == (409 if seat else 404), answer.json()
                    checked["secrets"] += oracle.check(answer.json(), seat)
        if finished:
            break
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1, {s: v["your_turn"] for s, v in views.items()}
        seat = movers[0]
        if plies >= MAX_PLIES:  # long enough: the player to move resigns
            resigned = clients[seat].post(f"/api/games/{gid}/resign/", {}, format="json")
            assert resigned.status_code == 200, resigned.json()
            continue
        legal = legal_actions(views[seat]["view"])
        assert legal, "the seat that must decide has a legal action"
        action = choose(legal, rng, 0)
        answer = clients[seat].post(
            f"/api/games/{gid}/actions/", {"version": views[seat]["version"], "action": action}, format="json"
        )
        ok(answer, seat)
        plies += 1

    game = Game.objects.get(pk=gid)
    assert game.status == "finished" and plies >= 2
    assert checked["answers"] > 3 * plies and checked["secrets"] > 0, "the oracle's checks were not vacuous"
    assert api(carol).get(f"/api/games/{gid}/view/").json()["code"] == "not_a_player"

    replay = api(None).get(f"/api/games/{gid}/replay/").json()  # after the end: seed and log are public
    assert replay["game_type"] == game_type and len(replay["actions"]) == plies
    kind = get_game_type(game_type)
    rerun = kind.replay(kind.catalog_from_dicts(replay["catalog"]), replay["setup"], replay["actions"])
    published = replay["final_state_sha256"]
    assert state_digest(kind.engine.state_to_json(rerun)) == published == state_digest(game.state)
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    _analysis_names_only_what_each_deciding_seat_saw(request, kind, gid, api(alice), replay)


def _analysis_names_only_what_each_deciding_seat_saw(request: Any, kind: Any, gid: str, player: Any,
                                                    replay: dict[str, Any]) -> None:
    """After the end, a game whose engine has a search bot is analysed (a tiny budget): every move its
    analysis names at a ply is in the deciding seat's own view of that ply (issue 41)."""
    from games.analysis_selectors import analysis_available

    if not analysis_available(game_type=kind):
        assert player.post(f"/api/games/{gid}/analysis/").json()["code"] == "analysis_not_available"
        return
    settings = request.getfixturevalue("settings")
    settings.GAMES_ANALYSIS_ITERATIONS, settings.GAMES_ANALYSIS_RUNNER = 4, "inline"
    with request.getfixturevalue("django_capture_on_commit_callbacks")(execute=True):
        assert player.post(f"/api/games/{gid}/analysis/").status_code == 202
    shown = player.get(f"/api/games/{gid}/analysis/").json()
    assert shown["status"] == "done" and len(shown["plies"]) == len(replay["actions"])
    state = kind.replay(kind.catalog_from_dicts(replay["catalog"]), replay["setup"], [])
    for entry, action in zip(shown["plies"], replay["actions"], strict=True):
        seen = json_strings(kind.view(state, entry["seat"]))
        assert entry["played"] == action and json_strings(entry["best"]) <= seen, entry
        kind.apply(state, kind.parse_action(action))
