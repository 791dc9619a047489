"""Games stored before the canonical state shape keep loading and playing on (engine README, "State shape").

tests/engine/old_shape/*.json were written by the engine before classic and team games shared one state
shape (tests/engine/old_shape/generate.py, run on commit 0853cac): a classic game with Optional Rule 5, a
2 v 2 team game and an uneven 1 v 2 game, each with its action log, a state saved mid-battle and the
sha256 of its final state and of its event log. The engine must read the saved states, write them back
unchanged, and continue them (and replay them from the seed) to the same final state and events. In
memory, classic and team games keep their zones in the one shape the README describes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Action, GameSetup, GameState, apply, new_game, starter_setup, team_setup
from games.engine.battlecards.frames import BattleFrame
from tests.engine.helpers import rng_as_numbers

from .old_shape.generate import GAMES, sha

FIXTURES = Path(__file__).parent / "old_shape"


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_saved_mid_battle_in_the_old_shape_loads_and_writes_back_the_same_json(catalog, name):
    saved = _fixture(name)["saved"]
    st = GameState.from_json(saved["state"], catalog)
    assert isinstance(st.frames[-1], BattleFrame) and st.decision is not None
    assert json.loads(json.dumps(rng_as_numbers(st.to_json()), sort_keys=True)) == saved["state"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_saved_in_the_old_shape_continues_to_the_same_end(catalog, name):
    fx = _fixture(name)
    st = GameState.from_json(fx["saved"]["state"], catalog)
    for data in fx["actions"][fx["saved"]["ply"] :]:
        apply(st, Action.from_json(data))
    assert st.status == "finished" and st.ply == fx["plies"]
    assert sha(rng_as_numbers(st.to_json())) == fx["final_state"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_old_game_replays_from_its_seed_to_the_same_states_and_events(catalog, name):
    fx = _fixture(name)
    st = new_game(catalog, GameSetup.from_json(fx["setup"]))
    events = []
    for ply, data in enumerate(fx["actions"], start=1):
        events.extend(e.to_json() for e in apply(st, Action.from_json(data)))
        if ply == fx["saved"]["ply"]:
            saved = json.loads(json.dumps(rng_as_numbers(st.to_json()), sort_keys=True))
            assert saved == fx["saved"]["state"]
    assert sha(rng_as_numbers(st.to_json())) == fx["final_state"]
    assert sha(events) == fx["events"]


def test_classic_and_team_games_keep_their_zones_in_one_shape(catalog):
    classic = new_game(catalog, starter_setup(catalog, 1))
    team = new_game(catalog, team_setup(catalog, 1, axis=["DE", "DE"], allies=["GB"]))
    for st in (classic, team):
        assert set(st.sides) == {"axis", "allies"}
        assert all(p.keys() == team.players["axis-1"].keys() for p in st.players.values())
        assert all(pool.keys() == {"deck", "discard", "removed"} for pool in st.pools.values())
        assert set(st.owner.values()) == set(st.pools)  # every arsenal card belongs to one nation's arsenal
        for army in st.armies:
            assert st.arsenal(army) is st.pools[f"{st.side(army)}:{st.players[army]['nation']}"]
            assert st.team(army) is st.sides[st.side(army)]
    assert set(classic.pools) == {"axis:DE", "allies:GB"}
    assert team.arsenal("axis-1") is team.arsenal("axis-2")  # one German arsenal for both armies (OR3)
    assert [classic.players[a]["across"] for a in classic.armies] == ["allies", "axis"]
