"""The set-up: decks shuffled, the first player (R1), 7-card hands and the re-draw (R2)."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    Category,
    TheWarCatalog,
)

from ...core.errors import SetupError
from ...core.machine import Decision, emit
from ..setup import (
    HAND_SIZE,
    OTHER,
    SEATS,
    GameSetup,
)
from ..state import SetupFrame, TurnFrame, WarState
from .book import RULES
from .cards import card, draw, rules_revision


def new_game(catalog: TheWarCatalog, setup: GameSetup) -> WarState:
    for seat in SEATS:
        deck = setup.decks.get(seat)
        if not deck:
            raise SetupError(f"{seat} has no deck")
        for code in deck:
            if code not in catalog.cards:
                raise SetupError(f"unknown card {code!r}")
    st = WarState(catalog, setup)
    for seat in SEATS:
        ids = []
        for i, code in enumerate(setup.decks[seat]):
            cid = f"{seat}.{i + 1:02d}"
            st.codes[cid] = code
            ids.append(cid)
        st.rng.shuffle(ids)
        st.zones[seat]["deck"] = ids
    # R1: the seeded RNG decides who moves first
    st.first_seat = SEATS[st.rng.randrange(2)]
    for seat in SEATS:
        draw(st, seat, HAND_SIZE)
    order = [st.first_seat, OTHER[st.first_seat]]
    st.frames = [SetupFrame(order)]
    emit(st, "game_started", {"first": st.first_seat})
    RULES.advance(st)
    return st


def redraw_size(st: WarState, seat: str) -> int | None:
    """The new hand's size if this starting hand may be re-drawn (all or no resources: 7; exactly one
    resource: one card fewer), else None. One re-draw per player (R2)."""
    if st.redraws[seat]:
        return None
    hand = st.zones[seat]["hand"]
    n = sum(1 for c in hand if card(st, c).category == Category.RESOURCE)
    if n == len(hand) or n == 0:
        return HAND_SIZE
    if n == 1:
        return len(hand) - 1
    return None


def step_setup(st: WarState, fr: SetupFrame) -> Decision | None:
    while fr.index < len(fr.order):
        seat = fr.order[fr.index]
        size = redraw_size(st, seat)
        if rules_revision(st) >= 3:
            # asked from public facts only: every player once, whatever his hand (a kept hand says nothing)
            if not st.redraws[seat]:
                return Decision(seat, "redraw", {"new_hand_size": size})
        elif size is not None:
            return Decision(seat, "redraw", {"new_hand_size": size})
        fr.index += 1
    st.frames.pop()
    st.turn = 1
    st.frames.append(TurnFrame(st.first_seat, first=True))
    emit(st, "turn_started", {"seat": st.first_seat, "turn": 1})
    return None


def legal_redraw(st: WarState, fr: SetupFrame) -> list[tuple]:
    seat = fr.order[fr.index]
    if rules_revision(st) >= 3 and redraw_size(st, seat) is None:
        return [("keep", seat)]
    return [("redraw", seat), ("keep", seat)]


def act_redraw(st: WarState, fr: SetupFrame, action: Any) -> None:
    seat = action.seat
    if action.type == "redraw":
        size = redraw_size(st, seat) or HAND_SIZE
        hand = st.zones[seat]["hand"]
        st.revealed[seat] = sorted(st.codes[c] for c in hand)
        emit(st, "hand_revealed", {"seat": seat, "cards": st.revealed[seat]})
        st.zones[seat]["deck"].extend(hand)
        st.zones[seat]["hand"] = []
        st.rng.shuffle(st.zones[seat]["deck"])
        st.redraws[seat] += 1
        draw(st, seat, size)
    else:
        emit(st, "kept", {"seat": seat})
        fr.index += 1
