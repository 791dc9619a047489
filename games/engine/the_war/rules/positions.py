"""Phase 5, change positions: moving units rotate."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    UnitType,
)

from ...core.machine import emit
from ..state import TurnFrame, WarState
from .book import TURN_PHASES, next_stage
from .cards import R, card, in_lines, is_air, move_card, zone_of
from .turn import act_scout, scout_keys


def can_move(st: WarState, fr: TurnFrame, u: str) -> bool:
    c = card(st, u)
    return (u not in st.rotated and R.FIXED_POSITION not in c.restrictions and not is_air(c)
            and st.built_turn.get(u, 0) < st.turn and c.unit_type != UnitType.FORTIFICATION)


def legal_positions(st: WarState, fr: TurnFrame) -> list[tuple]:
    keys = [("move", fr.seat, u) for u in in_lines(st, fr.seat) if can_move(st, fr, u)]
    return keys + scout_keys(st, fr.seat) + [("done", fr.seat)]


def act_positions(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "move":
        u = action.unit
        dest = "line2" if zone_of(st, u) == "line1" else "line1"
        move_card(st, u, dest)
        st.rotated.add(u)  # "Moving units rotate"
        emit(st, "moved", {"seat": fr.seat, "unit": u, "to": dest[-1]})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        next_stage(fr, TURN_PHASES)
