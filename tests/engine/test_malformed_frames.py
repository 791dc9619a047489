"""A stored Battlecards state whose frame lacks a field that an earlier stage fills in (the engine is
type-checked with strict Optional, issue 22) is refused with StateError, naming what is missing."""
from __future__ import annotations

import pytest

from games.engine import GameState, new_game
from games.engine.battlecards.setup import starter_setup
from games.engine.core.errors import StateError, required


@pytest.mark.parametrize(("frame", "missing"), [
    ({"kind": "divide", "seat": "axis", "stage": "split"}, "a divide frame splits no stack"),
    ({"kind": "reorganize", "seat": "axis", "stage": "swap"}, "a reorganize frame swaps without its counts"),
    ({"kind": "capture", "seat": "axis", "stage": "pick"}, "no stack picked from"),
])
def test_a_frame_missing_what_its_stage_needs_is_a_state_error(real_catalog, frame, missing):
    data = new_game(real_catalog, starter_setup(real_catalog, 3)).to_json()
    data["frames"] = [data["frames"][0], frame]
    with pytest.raises(StateError) as exc:
        GameState.from_json(data, real_catalog)
    assert exc.value.code == "bad_state" and missing in exc.value.message


def test_required_returns_a_set_value_and_refuses_none():
    assert required(0, "count") == 0 and required("", "ref") == ""
    with pytest.raises(StateError, match="no pending shot"):
        required(None, "pending shot")
