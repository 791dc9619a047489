"""Phases 1-3 of a turn: restore, draw (and the end of the game), resources; the scout party."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    Category,
    Feature,
)

from ...core.machine import Decision, emit
from ..setup import (
    DRAW_PER_TURN,
    FIRST_TURN_DRAW,
    OTHER,
    RESOURCES_PER_TURN,
    SEATS,
)
from ..state import TurnFrame, WarState
from .book import TURN_PHASES, next_stage
from .cards import card, ctrl, draw, features, in_lines, move_card


def st_restore(st: WarState, fr: TurnFrame) -> None:
    """1. "A player restores all his cards that were rotated during his previous turn or opponent's turn." """
    st.rotated = {c for c in st.rotated if ctrl(st, c) != fr.seat}
    st.scouted[fr.seat] = None
    emit(st, "restored", {"seat": fr.seat})
    next_stage(fr, TURN_PHASES)


def st_draw(st: WarState, fr: TurnFrame) -> None:
    """2. Draw two (the starting player's first turn: one); unable to draw two -> lose."""
    n = FIRST_TURN_DRAW if fr.first else DRAW_PER_TURN
    if len(st.zones[fr.seat]["deck"]) < n:
        finish(st, OTHER[fr.seat], "deck_exhausted")
        return
    draw(st, fr.seat, n)
    next_stage(fr, TURN_PHASES)


def finish(st: WarState, winner: str, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {"kind": kind, "winner": winner, "turns": st.turn,
                 "deck": {s: len(st.zones[s]["deck"]) for s in SEATS}}
    emit(st, "game_over", dict(st.result))


def scout_keys(st: WarState, seat: str) -> list[tuple]:
    return [("scout", seat, u) for u in in_lines(st, seat)
            if u not in st.rotated and Feature.SCOUT_PARTY in features(st, u)]


def act_scout(st: WarState, action: Any) -> None:
    st.rotated.add(action.unit)
    hand = sorted(st.codes[c] for c in st.zones[OTHER[action.seat]]["hand"])
    st.scouted[action.seat] = hand
    emit(st, "scouted", {"seat": action.seat, "unit": action.unit})
    emit(st, "scouted_hand", {"seat": action.seat, "cards": hand}, action.seat)


def st_resources(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "resources", {"played": fr.resources_played, "max": RESOURCES_PER_TURN})


def legal_resources(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if fr.resources_played < RESOURCES_PER_TURN:
        seen: set[str] = set()
        for c in st.zones[seat]["hand"]:
            code = st.codes[c]
            if code not in seen and card(st, c).category == Category.RESOURCE:
                seen.add(code)
                keys.append(("play_resource", seat, c))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_resources(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "play_resource":
        move_card(st, action.card, "resources")
        fr.resources_played += 1
        emit(st, "resource_played", {"seat": fr.seat, "card": action.card, "code": st.codes[action.card]})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        next_stage(fr, TURN_PHASES)
