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
from .cards import card, ctrl, draw, features, in_lines, move_card, rules_revision


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
    """Asked at every decision (revision 3): a unit without improvements has its card's features only, so
    `features` (which looks through every improvement in play) is asked only of improved units."""
    improved = set(st.attached.values()) if st.attached else ()
    return [("scout", seat, u) for u in in_lines(st, seat)
            if u not in st.rotated and Feature.SCOUT_PARTY in (features(st, u) if u in improved
                                                               else card(st, u).features)]


def _wave_units(st: WarState) -> set[str]:
    """The units declared in the assault wave under way (attackers, targets, blockers, supporters, escorts,
    interceptors, artillery): a unit already used in it is not rotated a second time to scout."""
    for fr in reversed(st.frames):
        if fr.kind == "wave":
            pairs = fr.targeted + fr.blocks + fr.supports + fr.escorts + fr.intercepts + fr.fire + fr.strikes
            return {u for p in pairs for u in p} | set(fr.general)
    return set()


def anytime_scout(legal: Any, act: Any) -> tuple[Any, Any]:
    """A decision's legal/act functions with the scout party offered to the deciding seat (rules revision 3,
    ruling R13: "may rotate it at any time to look at cards in opponent's hand"): the hand shown is the one
    at that moment, the decision stays pending. Not while paying for a card that needs a unit's rotation
    to be played (the payment must still find it)."""

    def legal_with_scout(st: WarState, fr: Any) -> list[tuple]:
        keys = legal(st, fr)
        if rules_revision(st) < 3 or fr.kind == "payment" and card(st, fr.card).rotate_to_play:
            return keys
        if st.decision is None:  # legal actions are asked of a pending decision; kept for the type checker
            return keys
        scouts = scout_keys(st, st.decision.seat)
        if not scouts:
            return keys
        used = _wave_units(st)
        return keys + [k for k in scouts if k[2] not in used]

    def act_with_scout(st: WarState, fr: Any, action: Any) -> None:
        if action.type == "scout":
            act_scout(st, action)
        else:
            act(st, fr, action)

    return legal_with_scout, act_with_scout


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
