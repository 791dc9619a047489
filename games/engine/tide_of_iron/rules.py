"""The Tide of Iron Strategy-card referee: set-up, the decision, legal actions and `apply`.

The referee holds what neither player should control (the decks' order, every die) and what both see
(HQ areas, play areas, the box, command points and the board as the players report them). A round is an
Action Phase, a Command Phase and a Status Phase; the players advance them (`next_phase`). Every reading
the text leaves open is listed in README.md ("Readings") with the sentence it rests on and its test.

Decisions: `act` (the seat whose turn it is: activate, retry contact, discard (revision 1 only), pass the
turn, next phase, end the match, and the board reports), `target` (place the target token), `los`
(report the LOS to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import IllegalAction, MalformedAction, SetupError
from ..core.events import Event
from ..core.machine import Decision, declare_resume
from .actions import (
    ACTION_CLASSES,
    REPORTS,
    Action,
)
from .activation import (
    officer_ok,
    on_activate,
    on_los,
    on_retry,
    on_target,
    on_target_column,
    on_target_row,
    target_columns,
    target_rows,
)
from .referee import (
    on_confirm,
    on_discard,
    on_dispute,
    on_end,
    on_next_phase,
    on_pass,
    on_place,
    on_remove,
    on_report_command,
    on_set_cover,
)
from .setup import LEGACY_REVISION, LOS, OTHER, SEATS, GameSetup, TideOfIronCatalog
from .state import TideOfIronState
from .toolkit import RESULTS, board_of, draw_cards, effective_cost, retry_allowed


# ---- set-up ---------------------------------------------------------------------------------------------
def new_game(catalog: TideOfIronCatalog, setup: GameSetup) -> TideOfIronState:
    """Shuffle each player's Strategy decks (the scenario's) and draw the opening cards into the HQ areas:
    "At the beginning of the game [...] players will draw Strategy cards from their Strategy decks"."""
    scenario = catalog.scenarios.get(setup.options.scenario)
    if scenario is None:
        raise SetupError(
            f"unknown scenario {setup.options.scenario!r} (one of {sorted(catalog.scenarios)})",
            code="bad_options",
        )
    st = TideOfIronState(catalog, setup)
    st.record_events = False
    for seat in SEATS:
        for deck in scenario.seats[seat]["decks"]:
            if deck not in catalog.decks:
                raise SetupError(f"scenario deck {deck!r} is not in the catalog", code="bad_catalog")
            cards = list(catalog.decks[deck].cards)
            st.rng.shuffle(cards)
            st.decks[seat][deck] = cards
    for seat in SEATS:
        draw_cards(st, seat, scenario.seats[seat]["start_draw"])
    st.record_events = True
    advance(st)
    return st


# ---- the decision ---------------------------------------------------------------------------------------
def advance(st: TideOfIronState) -> None:
    """Derive the pending decision from the state (nothing is rolled here)."""
    if st.status != "active":
        st.decision = None
        return
    if st.claim is not None:  # the other player confirms or disputes a report first
        st.decision = Decision(OTHER[st.claim["by"]], "confirm", {"claim": dict(st.claim)})
        return
    p = st.pending
    if p is not None and p.need == "target":
        prompt = {"card": p.card, "board": board_of(st).to_json()}
        if st.revision == LEGACY_REVISION:  # one step: every full hex is a choice
            st.decision = Decision(p.seat, "target", prompt)
        elif p.column is None:  # revision 2: the column, then the row (a few dozen choices each)
            st.decision = Decision(p.seat, "target_column", prompt)
        else:
            st.decision = Decision(p.seat, "target_row", {**prompt, "column": p.column})
    elif p is not None and p.need == "los":
        st.decision = Decision(p.seat, "los", {"card": p.card, "target": p.target, "los": list(LOS)})
    else:
        seat = st.turn_seat
        st.decision = Decision(
            seat,
            "act",
            {"round": st.round, "phase": st.phase, "command": st.command[seat], "reports": list(REPORTS)},
        )


declare_resume(TideOfIronState, advance)  # TideOfIronState.from_json recomputes the decision


def legal_keys(st: TideOfIronState) -> list[tuple]:
    d = st.decision
    if d is None:
        return []
    seat = d.seat
    if d.kind == "target":
        return [("target", seat, h.name) for h in board_of(st).hexes()]
    if d.kind == "target_column":
        return [("target_column", seat, str(c)) for c in target_columns(board_of(st))]
    if d.kind == "target_row":
        column = st.pending.column if st.pending is not None else None
        return [("target_row", seat, str(r)) for r in target_rows(board_of(st), column)]
    if d.kind == "los":
        return [("los", seat, los) for los in LOS if los != "officer" or officer_ok(st, seat)]
    if d.kind == "confirm":
        return [("confirm", seat), ("dispute", seat)]
    keys: list[tuple] = []
    for code in dict.fromkeys(st.hq[seat]):
        card = st.catalog.card(code)
        if card.phase == st.phase and effective_cost(st, seat, card) <= st.command[seat]:
            keys.append(("activate", seat, code))
    for code in dict.fromkeys(e["card"] for e in st.play[seat] if retry_allowed(st, seat, e)):
        keys.append(("retry_contact", seat, code))
    if st.revision == LEGACY_REVISION:  # revision 1 only: reading 14 as it was (README.md, "Rules revisions")
        for code in dict.fromkeys(e["card"] for e in st.play[seat]):
            keys.append(("discard", seat, code))
    keys += [("pass_turn", seat), ("next_phase", seat)]
    keys += [("end_match", seat, r) for r in RESULTS]
    return keys


def materialize(key: tuple) -> Action:
    return ACTION_CLASSES[key[0]](*key[1:])


def legal_actions(st: TideOfIronState) -> list[Action]:
    return [materialize(k) for k in legal_keys(st)]


# ---- apply ----------------------------------------------------------------------------------------------
def apply(st: TideOfIronState, action: Any) -> list[Event]:
    """Validate, then apply one action; returns its events. Errors (state unchanged): malformed_action,
    game_over, not_your_turn, illegal_action (or a more precise code)."""
    if isinstance(action, dict):
        action = Action.from_json(action)
    if not isinstance(action, Action):
        raise MalformedAction("not an action")
    if st.status != "active" or st.decision is None:
        raise IllegalAction("the match is over", code="game_over")
    d = st.decision
    if action.seat != d.seat:
        raise IllegalAction(f"it is {d.seat}'s decision", code="not_your_turn")
    handler = HANDLERS.get((d.kind, action.type))
    if handler is None:
        raise IllegalAction(f"{action.type} is not a choice of the {d.kind} decision")
    st._events = []
    handler(st, action)
    st.ply += 1
    advance(st)
    events, st._events = st._events, []
    return events


# ---- the referee protocol (revision 2) ------------------------------------------------------------------


HANDLERS: dict[tuple[str, str], Callable[[TideOfIronState, Any], None]] = {
    ("act", "activate"): on_activate,
    ("act", "retry_contact"): on_retry,
    ("act", "discard"): on_discard,
    ("act", "pass_turn"): on_pass,
    ("act", "next_phase"): on_next_phase,
    ("act", "end_match"): on_end,
    ("act", "report_command"): on_report_command,
    ("act", "place_unit"): on_place,
    ("act", "remove_unit"): on_remove,
    ("act", "set_cover"): on_set_cover,
    ("confirm", "confirm"): on_confirm,
    ("confirm", "dispute"): on_dispute,
    ("target", "target"): on_target,
    ("target_column", "target_column"): on_target_column,
    ("target_column", "target"): on_target,  # revision 2 still takes the whole hex in one step (not listed)
    ("target_row", "target_row"): on_target_row,
    ("los", "los"): on_los,
}
DECISION_KINDS = ("act", "target", "target_column", "target_row", "los", "confirm")
