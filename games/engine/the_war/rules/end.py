"""Phase 7: reserves committed, locations, conditions discarded or eliminated by deck cards, the end of the
turn."""
from __future__ import annotations

from typing import Any

from ...core.machine import Decision, emit
from ..setup import (
    OTHER,
    SEATS,
)
from ..state import PaymentFrame, TurnFrame, WarState
from .book import TURN_PHASES, next_stage
from .cards import card, mill, move_card
from .resources import affordable, start_payment


def st_reserves(st: WarState, fr: TurnFrame) -> None:
    """Units in the reserve zone move to the line their card text gives (R7)."""
    for u in list(st.zones[fr.seat]["reserve"]):
        line = card(st, u).line or 1
        move_card(st, u, f"line{line}")
        emit(st, "committed", {"seat": fr.seat, "unit": u, "line": line})
    next_stage(fr, TURN_PHASES)


def location_in_play(st: WarState) -> bool:
    return any(card(st, b).location for s in SEATS for b in st.zones[s]["conditions"])


def st_end(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "end_of_turn", {})


def legal_end(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if not location_in_play(st):
        seen: set[str] = set()
        for c in st.zones[seat]["hand"]:
            cd = card(st, c)
            if cd.location and st.codes[c] not in seen and affordable(st, seat, cd.cost):
                seen.add(st.codes[c])
                keys.append(("play_location", seat, c))
    keys += [("discard_condition", seat, b) for b in st.zones[seat]["conditions"]]
    deck = len(st.zones[seat]["deck"])
    for b in st.zones[OTHER[seat]]["conditions"]:
        el = card(st, b).elimination
        if el and el.deck_cards and el.deck_cards <= deck:
            keys.append(("eliminate", seat, b))
    return keys + [("done", seat)]


def act_end(st: WarState, fr: TurnFrame, action: Any) -> None:
    seat = fr.seat
    t = action.type
    if t == "play_location":
        start_payment(st, seat, "location", action.card, card(st, action.card).cost)
    elif t == "discard_condition":
        move_card(st, action.card, "losses")
        emit(st, "condition_lost", {"seat": seat, "card": action.card, "code": st.codes[action.card]})
    elif t == "eliminate":
        el = card(st, action.card).elimination
        mill(st, seat, (el.deck_cards or 0) if el else 0)
        move_card(st, action.card, "losses")
        emit(st, "condition_eliminated", {"seat": seat, "card": action.card, "code": st.codes[action.card]})
    else:
        for s in SEATS:  # R5: unspent resources are lost at the end of the turn
            st.pool[s] = [0, 0, 0, 0, 0, 0]
        st.specials_this_turn = []
        st.frames.pop()
        st.turn += 1
        nxt = OTHER[seat]
        st.frames.append(TurnFrame(nxt))
        emit(st, "turn_started", {"seat": nxt, "turn": st.turn})


def paid_location(st: WarState, fr: PaymentFrame) -> None:
    move_card(st, fr.card, "conditions")
    emit(st, "condition_played", {"seat": fr.seat, "card": fr.card, "code": st.codes[fr.card]})
