"""The short journeys through the API (issue 34 §1; later issues reuse them): a whole game of every game type,
from creation to its end, by two people's API clients (Tide of Iron: both seats of a refereed match, to
`end_match`), then the replay and `verify_games`. They run on every database the suite runs on: on SQLite as
`make run` configures it (WAL, IMMEDIATE transactions, a busy timeout), and on PostgreSQL.

Each seat chooses at random (its own seeded Random) among the legal actions its own view offers, exactly as a
third-party client would; nothing here reads the engine state.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command

from games.game_types import GAME_TYPES
from games.models import Game
from games.selectors import state_digest
from games.services import game_rebuild_state
from tests.games.conftest import DE, GB

# How each game type is created for a journey between two people (the deck choices its rules ask for).
CREATION: dict[str, dict[str, Any]] = {
    "battlecards": {"my_deck": {"starter": GB}, "opponent_deck": {"starter": DE}},
    "battlefront": {},
    "the-war": {"options": {"casual": True}},  # and decks each player builds (DECKS)
    "tide-of-iron": {"options": {"scenario": "toi-scenario-all-decks"}},
}
MAX_ACTIONS = 3000
# The decks a game type's players build through the deck API before the game, as new players would (each
# player's deck is named at creation and at join). The War: an 18-card casual deck each, 66 actions (its
# 60-card starters between random players took 1,100-1,230 actions, 33 s of the suite; starter games are
# created and played in tests/games/test_the_war_api.py and the conformance suite).
DECKS: dict[str, dict[str, Any]] = {
    "the-war": {"game": "the-war", "nation": "red-army", "name": "A casual 18",
                "entries": [{"card": "tw-depot", "count": 14}, {"card": "tw-guardsmen", "count": 4}]},
}
# Tide of Iron referees a physical board: its match ends when a player reports the end (`end_match`); the
# journey reports it once this many of its actions have been played.
REFEREE_ACTIONS = 60


def legal_actions(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal actions of a seat's view (under its decision; The War's view has them at its root)."""
    decision = view.get("decision") or {}
    return list(decision.get("legal_actions") or view.get("legal_actions") or [])


def choose(legal: list[dict[str, Any]], rng: random.Random, played: int) -> dict[str, Any]:
    """A random legal action; a referee's match is ended after REFEREE_ACTIONS; a report that needs values
    from the physical board is never picked while another action is offered."""
    if played >= REFEREE_ACTIONS:
        for action in legal:
            if action.get("type") == "end_match":
                return {**action, "result": action.get("result", "draw")}
    complete = [a for a in legal if a.get("type") != "end_match" and "choices" not in a]
    return rng.choice(complete or legal)


def play_through_the_api(*, game_id: str, clients: dict[str, Any], seed: int) -> int:
    """Plays the human seats until the game is over; returns the number of actions posted."""
    rngs = {seat: random.Random(f"{seed}-{seat}") for seat in clients}
    played = 0
    while played < MAX_ACTIONS:
        views = {}
        for seat, client in clients.items():
            response = client.get(f"/api/games/{game_id}/view/")
            assert response.status_code == 200, response.json()
            views[seat] = response.json()
        if next(iter(views.values()))["status"] == "finished":
            return played
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1, {s: v["your_turn"] for s, v in views.items()}
        seat = movers[0]
        legal = legal_actions(views[seat]["view"])
        assert legal, "the seat that must decide has a legal action"
        action = choose(legal, rngs[seat], played)
        body = {"version": views[seat]["version"], "action": action}
        answer = clients[seat].post(f"/api/games/{game_id}/actions/", body, format="json")
        assert answer.status_code == 200, (action, answer.json())
        played += 1
    pytest.fail(f"the game did not end within {MAX_ACTIONS} actions")


@pytest.mark.slow  # whole games
@pytest.mark.django_db
@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_a_whole_game_of_every_type_through_the_api(game_type, api, alice, bob, catalog_rows):
    assert set(CREATION) == set(GAME_TYPES), "every game type has a journey"
    body = {"game_type": game_type, "opponent": {"kind": "human"}, "seed": 1944, **CREATION[game_type]}
    join: dict[str, Any] = {}
    if game_type in DECKS:
        built = {who: api(who).post("/api/decks/", DECKS[game_type], format="json") for who in (alice, bob)}
        assert all(r.status_code == 201 for r in built.values()), [r.json() for r in built.values()]
        body["my_deck"] = {"deck_id": built[alice].json()["id"]}
        join = {"deck": {"deck_id": built[bob].json()["id"]}}
    created = api(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    joined = api(bob).post(f"/api/games/{gid}/join/", join, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    seats = {s["seat"]: s["player"] for s in joined.json()["seats"]}
    clients = {seat: api(alice if player == "alice" else bob) for seat, player in seats.items()}

    played = play_through_the_api(game_id=gid, clients=clients, seed=1944)

    game = Game.objects.get(pk=gid)
    assert game.status == "finished" and played >= 5
    replay = api(None).get(f"/api/games/{gid}/replay/")
    assert replay.status_code == 200, replay.json()
    assert replay.json()["final_state_sha256"] == state_digest(game.state)
    assert game_rebuild_state(game=game).to_json() == game.state
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
