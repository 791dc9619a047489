"""Games stored before the canonical state shape keep loading and playing on (engine README, "State shape").

tests/engine/old_shape/*.json were written by the engine before classic and team games shared one state
shape (tests/engine/old_shape/generate.py, run on commit 0853cac): a classic game with Optional Rule 5, a
2 v 2 team game and an uneven 1 v 2 game, each with its action log, a state saved mid-battle and the
sha256 of its final state and of its event log. The engine must read the saved states, write them back
unchanged, and continue them (and replay them from the seed) to the same final state and events.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Action, GameSetup, GameState, apply, new_game
from games.engine.frames import BattleFrame

from .old_shape.generate import GAMES, sha

FIXTURES = Path(__file__).parent / "old_shape"


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_saved_mid_battle_in_the_old_shape_loads_and_writes_back_the_same_json(catalog, name):
    saved = _fixture(name)["saved"]
    st = GameState.from_json(saved["state"], catalog)
    assert isinstance(st.frames[-1], BattleFrame) and st.decision is not None
    assert json.loads(json.dumps(st.to_json(), sort_keys=True)) == saved["state"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_saved_in_the_old_shape_continues_to_the_same_end(catalog, name):
    fx = _fixture(name)
    st = GameState.from_json(fx["saved"]["state"], catalog)
    for data in fx["actions"][fx["saved"]["ply"] :]:
        apply(st, Action.from_json(data))
    assert st.status == "finished" and st.ply == fx["plies"]
    assert sha(st.to_json()) == fx["final_state"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_old_game_replays_from_its_seed_to_the_same_states_and_events(catalog, name):
    fx = _fixture(name)
    st = new_game(catalog, GameSetup.from_json(fx["setup"]))
    events = []
    for ply, data in enumerate(fx["actions"], start=1):
        events.extend(e.to_json() for e in apply(st, Action.from_json(data)))
        if ply == fx["saved"]["ply"]:
            assert json.loads(json.dumps(st.to_json(), sort_keys=True)) == fx["saved"]["state"]
    assert sha(st.to_json()) == fx["final_state"]
    assert sha(events) == fx["events"]
