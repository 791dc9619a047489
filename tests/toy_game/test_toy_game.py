"""The toy game, added as docs/architecture.md "Adding a game" says and nowhere but this folder: it
registers (both layers, one id), implements the Engine protocol, and is played through the API like any
game: listed in GET /api/game-types/, created, joined, viewed, acted, spectated, replayed and verified."""

from __future__ import annotations

import json

import pytest

from games.engine import registry
from games.engine.core.engine import Engine
from games.engine.core.errors import EngineError
from games.models import Game
from games.selectors import state_digest
from tests.decks.factories import UserFactory
from tests.games.conftest import token_client

from . import engine as toy


def test_the_toy_engine_implements_the_protocol_and_replays_through_it(toy_game):
    engine = registry.get("toy").engine
    assert isinstance(engine, Engine) and engine.decision_kinds == ("play",)
    for seed in range(20):
        catalog, setup = engine.example(seed)
        players = {seat: engine.random_player(f"s{seed}") for seat in engine.seats}
        state = engine.play_game(catalog, setup, players, max_plies=10)
        assert state.status == "finished" and state.winner in engine.seats
        log = []
        replayed = engine.new_game(catalog, setup)
        while replayed.decision is not None:  # the same game again, action by action, through JSON
            seat = replayed.decision.seat
            action = players[seat].choose(engine.view(replayed, seat), engine.legal_actions(replayed), seat)
            log.append(action.to_json())
            engine.apply(replayed, engine.parse_action(action.to_json()))
            loaded = engine.state_from_json(json.loads(json.dumps(engine.state_to_json(replayed))), catalog)
            assert engine.state_to_json(loaded) == engine.state_to_json(replayed)
        assert engine.state_to_json(replayed) == engine.state_to_json(state)
        assert engine.state_to_json(engine.replay(catalog, setup, log)) == engine.state_to_json(state)
    before = engine.state_to_json(state)
    with pytest.raises(EngineError):
        engine.apply(state, toy.Action("play", "p1"))
    assert engine.state_to_json(state) == before


@pytest.mark.django_db
def test_the_toy_game_is_listed_only_while_registered(toy_game):
    listed = token_client(None).get("/api/game-types/").json()
    assert {"id": "toy", "label": "Toy (two cards)", "seats": ["p1", "p2"], "bots": False, "bot_kinds": [],
            "decks": False, "live_play": False} in listed
    kinds = {t["id"]: t["bot_kinds"] for t in listed}
    search = ["random", "heuristic", "search-1", "search-2", "search-3", "search-4"]
    assert kinds["battlefront"] == kinds["battlecards"] == kinds["the-war"] == search
    assert kinds["tide-of-iron"] == []
    assert [t["id"] for t in listed][:4] == ["battlecards", "battlefront", "the-war", "tide-of-iron"]


@pytest.mark.django_db
def test_without_its_registration_the_toy_game_is_unknown():
    assert "toy" not in [t["id"] for t in token_client(None).get("/api/game-types/").json()]
    created = token_client(UserFactory(username="alice")).post(
        "/api/games/", {"game_type": "toy", "opponent": {"kind": "human"}}, format="json"
    )
    assert created.status_code == 400, created.json()


@pytest.mark.django_db
def test_a_toy_game_through_the_api_create_join_view_act_spectate_replay_verify(toy_game):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    created = token_client(alice).post(
        "/api/games/", {"game_type": "toy", "opponent": {"kind": "human"}, "spectators": {"allowed": True}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    assert created.json()["game_type"] == "toy" and created.json()["my_seat"] == "p1"
    joined = token_client(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    clients = {"p1": token_client(alice), "p2": token_client(bob)}
    for seat in ("p1", "p2"):
        view = clients[seat].get(f"/api/games/{gid}/view/").json()
        assert view["game_type"] == "toy" and view["your_turn"] is True
        if seat == "p1":  # the other card is still hidden
            hidden = Game.objects.get(pk=gid).state["hands"]["p2"]
            assert hidden not in json.dumps(view) and len(view["view"]["hand"]) == 1
            assert set(view["cards"]) == {view["view"]["hand"][0]["code"]}  # only its own card is described
        answer = clients[seat].post(
            f"/api/games/{gid}/actions/",
            {"version": view["version"], "action": {"type": "play", "seat": seat}},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    spectated = token_client(UserFactory(username="carol")).get(f"/api/games/{gid}/spectate/")
    assert spectated.status_code == 200, spectated.json()
    replay = token_client(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["game_type"] == "toy" and len(replay["actions"]) == 2
    rerun = toy.replay(toy.Catalog.from_dicts(**replay["catalog"]), toy.GameSetup.from_json(replay["setup"]),
                       replay["actions"])
    assert rerun.winner == next(s for s, c in rerun.hands.items() if c == "toy-high")
    assert state_digest(rerun.to_json()) == replay["final_state_sha256"]


API_ROOT_KEYS = [  # GET /api/ before the links moved into the games' definitions (same keys, same order)
    "nations", "theaters", "sets", "arsenal_cards", "conflict_cards", "battlecards", "battlefront_cards",
    "battlefront_special_uses", "the_war_cards", "the_war_starters", "the_war_changes", "tide_of_iron_cards",
    "tide_of_iron_decks", "tide_of_iron_scenarios", "decks", "deck_validate", "deck_matchup", "starters",
    "games", "game_types", "bot_ratings", "auth_token", "auth_register", "auth_logout", "schema", "docs",
]


def test_the_api_root_lists_each_registered_games_own_collections(toy_game, monkeypatch):
    assert list(token_client(None).get("/api/").json()) == API_ROOT_KEYS
    monkeypatch.setattr(toy_game, "api_links", (("toy_cards", "game-type-list"), ("toy_unrouted", "no-such")))
    links = token_client(None).get("/api/").json()
    assert list(links) == [*API_ROOT_KEYS[:14], "toy_cards", *API_ROOT_KEYS[14:]]
    assert links["toy_cards"] == "http://testserver/api/game-types/"
