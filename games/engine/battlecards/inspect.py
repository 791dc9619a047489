"""A small read-only API on a game in progress, for views and tests (no private tables needed)."""
from __future__ import annotations

from .combat.values import BattleValues, battle_values
from .frames import BattleFrame, Frame
from .phases.deploy import setup_pending
from .state import GameState
from .zones import army_map, battle_frame


def frames_in_progress(st: GameState) -> tuple[Frame, ...]:
    """Every frame in progress, outermost first (a copy: reading it changes nothing)."""
    return tuple(st.frames)


def innermost_frame(st: GameState, *kinds: str) -> Frame | None:
    """The innermost frame in progress of one of `kinds` (e.g. "battlecard", "battle"), or None."""
    for fr in reversed(st.frames):
        if fr.kind in kinds:
            return fr
    return None


def armies_in_battle(st: GameState, fr: BattleFrame) -> dict[str, str]:
    """Card id -> the army whose deployed card it is, for the armies fighting in the battle (team games)."""
    return army_map(st, fr)


def current_values(st: GameState, fr: BattleFrame) -> BattleValues:
    """The battle's current unit values (memoised, kept up to date as supports and units change)."""
    return battle_values(st, fr)


def fresh_values(st: GameState, fr: BattleFrame) -> BattleValues:
    """The same values computed from scratch (tests compare the two)."""
    return BattleValues(st, fr)


__all__ = ["BattleValues", "armies_in_battle", "battle_frame", "current_values", "frames_in_progress",
           "fresh_values", "innermost_frame", "setup_pending"]
