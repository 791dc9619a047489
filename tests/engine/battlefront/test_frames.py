"""Typed frames (issue 22): a Battlefront game stored while its frames were still dicts loads, serialises
to the very JSON it was stored as and plays on to the same end. (That its frames are slotted dataclasses,
not mappings: tests/engine/test_frames.py.)"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games.engine import battlefront as bf
from games.engine.battlefront.rules import RULES
from games.engine.battlefront.state import DeployFrame, GameFrame, frame_from_json
from tests.engine.helpers import rng_as_numbers

STORED = Path(__file__).parent / "stored" / "mid_game_dict_frames.json"


def test_a_game_stored_with_dict_frames_loads_with_the_same_json_and_plays_on_to_the_same_end(catalog):
    stored = json.loads(STORED.read_text())
    data = stored["state"]
    assert [f["kind"] for f in data["frames"]] == ["game", "deploy"]  # mid-deployment
    st = bf.BattlefrontState.from_json(copy.deepcopy(data), catalog)
    assert isinstance(st.frames[0], GameFrame) and isinstance(st.frames[1], DeployFrame)
    assert st.frames[1].placed == data["frames"][1]["placed"]
    assert rng_as_numbers(st.to_json()) == data
    assert st.decision is not None and st.decision.kind == "deploy"
    # today's engine reaches the stored state from the same actions, and the stored game plays on to the
    # final state stored with it
    setup = bf.GameSetup.from_json(stored["setup"])
    assert rng_as_numbers(bf.replay(catalog, setup, stored["actions"]).to_json()) == data
    for action in stored["rest"]:
        bf.apply(st, action)
    assert st.status == "finished"
    assert rng_as_numbers(st.to_json()) == stored["final"]


def test_frames_keep_their_json_through_a_game(catalog):
    st = bf.new_game(catalog, bf.GameSetup(5, bf.Options(special_cards={"west": "US", "east": "DE"})))
    bot = bf.RandomBot("frames")
    kinds = set()
    while st.decision is not None:
        data = st.to_json()
        assert [frame_from_json(f) for f in data["frames"]] == st.frames
        assert bf.BattlefrontState.from_json(data, catalog).to_json() == data
        kinds |= {f.kind for f in st.frames}
        bf.apply(st, bot.choose(bf.view(st, st.decision.seat), bf.legal_actions(st), st.decision.seat))
    assert kinds == {"game", "deploy"}


@pytest.mark.parametrize("bad", [
    {"kind": "battle", "stage": "x"},
    {"kind": "game", "stage": "battle", "changed": False},  # a field missing
    {"kind": "deploy", "seat": "west", "passes": 0, "placed": {}, "extra": 1},  # an unknown field
])
def test_a_malformed_frame_is_a_state_error(catalog, bad):
    data = bf.new_game(catalog, bf.GameSetup(1, bf.Options())).to_json()
    data["frames"] = [bad]
    with pytest.raises(bf.StateError):
        bf.BattlefrontState.from_json(data, catalog)


def test_the_turn_moves_only_along_its_declared_stages():
    assert RULES.flows["game"] == {"logistics": {"battle"}, "battle": {"hand_limit"},
                                   "hand_limit": {"end_turn"}, "end_turn": {"logistics"}}
    with pytest.raises(RuntimeError):
        RULES.move(GameFrame("battle"), "logistics")
