"""The pure registry of games (games.engine.core.registry, issue 35 §1-2): one id per game, and one `Engine`
protocol that every registered game implements, exercised only through the protocol (never a game's own
names): set-up, legal actions, apply, views, bots or seeded random players, self-play, state JSON, replay."""
from __future__ import annotations

import json

import pytest

from games.engine import registry
from games.engine.core.engine import Engine, ModuleEngine, NoBots
from games.engine.core.errors import EngineError, SetupError

GAMES = registry.ids()


def test_the_four_games_are_registered_under_one_id_each():
    assert GAMES == ["battlecards", "battlefront", "the-war", "tide-of-iron"]
    assert registry.canonical("the_war") == "the-war"  # the old id is read, and means the one id
    assert registry.get("the_war") is registry.get("the-war")
    assert registry.canonical("the war") is None
    with pytest.raises(SetupError) as err:
        registry.get("chess")
    assert err.value.code == "unknown_game_type"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_engine_implements_the_protocol(game_id):
    spec = registry.get(game_id)
    assert isinstance(spec.engine, Engine)
    assert spec.engine.id == game_id
    assert set(spec.seats) == set(spec.engine.package.SEATS[:2])
    assert spec.engine.decision_kinds


def _random_players(engine):
    if engine.has_bots:
        return {seat: engine.bot("random", catalog=None, salt=f"r{i}") for i, seat in enumerate(engine.seats)}
    with pytest.raises(NoBots):
        engine.bot("random", catalog=None)
    return {seat: engine.random_player(f"r{i}") for i, seat in enumerate(engine.seats)}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_played_through_the_protocol_round_trips_and_replays(game_id):
    engine = registry.get(game_id).engine
    catalog, setup = engine.example(3)
    setup = engine.setup_from_json(json.loads(json.dumps(setup.to_json())))
    state = engine.new_game(catalog, setup)
    players = _random_players(engine)
    log = []
    for _ in range(40):
        if state.decision is None:
            break
        seat = state.decision.seat
        legal = engine.legal_actions(state)
        action = players[seat].choose(engine.view(state, seat), legal, seat)
        engine.apply(state, engine.parse_action(action.to_json()))
        log.append(action.to_json())
        loaded = engine.state_from_json(json.loads(json.dumps(engine.state_to_json(state))), catalog)
        assert engine.state_to_json(loaded) == engine.state_to_json(state)
        for viewer in engine.seats:
            assert engine.view(loaded, viewer) == engine.view(state, viewer)
        assert engine.public_view(loaded) == engine.public_view(state)
    assert log, "the sample game asks at least one decision"
    replayed = engine.replay(catalog, setup, log)
    assert engine.state_to_json(replayed) == engine.state_to_json(state)


@pytest.mark.parametrize("game_id", GAMES)
def test_self_play_through_the_protocol_is_reproducible(game_id):
    engine = registry.get(game_id).engine
    catalog, setup = engine.example(5)
    first = engine.play_game(catalog, setup, _random_players(engine), max_plies=60)
    again = engine.play_game(catalog, setup, _random_players(engine), max_plies=60)
    assert first.ply > 0
    assert engine.state_to_json(first) == engine.state_to_json(again)


def test_an_illegal_action_raises_the_engines_typed_error_and_changes_nothing():
    engine = registry.get("battlefront").engine
    catalog, setup = engine.example(1)
    state = engine.new_game(catalog, setup)
    before = json.dumps(engine.state_to_json(state), sort_keys=True)
    with pytest.raises(EngineError):
        engine.apply(state, engine.parse_action({"type": "pass", "seat": "nobody"}))
    assert json.dumps(engine.state_to_json(state), sort_keys=True) == before


def test_a_registration_under_a_taken_id_or_alias_or_a_mismatched_engine_is_refused():
    engine = ModuleEngine(id="toy", module="tests.toy_game", seats=("a", "b"))
    with pytest.raises(SetupError):
        registry.register(registry.GameSpec(id="toy2", label="Toy", engine=engine))
    with pytest.raises(SetupError):
        registry.register(registry.GameSpec(id="toy", label="Toy", engine=engine, aliases=("the_war",)))
    assert "toy" not in registry.ids()
    assert registry.canonical("the_war") == "the-war"
