"""The Tide of Iron Strategy-card referee: set-up, the decision, legal actions and `apply`.

The referee holds what neither player should control (the decks' order, every die) and what both see
(HQ areas, play areas, the box, command points and the board as the players report them). A round is an
Action Phase, a Command Phase and a Status Phase; the players advance them (`next_phase`). Every reading
the text leaves open is listed in README.md ("Readings") with the sentence it rests on and its test.

The referee runs on the shared rule machine (core.machine): `RULES`, one RuleBook, with one frame (the
referee, whose step derives the decision from the state) and the decisions, each declaring its legal
actions and its act together: `act` (the seat whose turn it is: activate, retry contact, discard (revision 1
only), pass the turn, next phase, end the match, and the board reports), `confirm` (revision 2: the other
player's report), `target` / `target_column` / `target_row` (place the target token), `los` (report the LOS
to it). The board reports take free values the referee cannot list: each decision is an open one
(RuleBook.open_decision) declaring the action types it accepts, and each type's handler checks the values
(raising before it changes anything).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import SetupError
from ..core.machine import Decision, RuleBook, declare_resume
from .actions import ACTION_CLASSES, REPORTS, Action
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
from .state import RefereeFrame, TideOfIronState
from .toolkit import RESULTS, board_of, draw_cards, effective_cost, retry_allowed

RULES = RuleBook("tide-of-iron", ACTION_CLASSES, Action, over="the match is over")


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


# ---- the referee's frame: the decision, derived from the state (nothing is rolled here) ----------------
def referee(st: TideOfIronState, fr: RefereeFrame) -> Decision:
    if st.claim is not None:  # the other player confirms or disputes a report first
        return Decision(OTHER[st.claim["by"]], "confirm", {"claim": dict(st.claim)})
    p = st.pending
    if p is not None and p.need == "target":
        prompt = {"card": p.card, "board": board_of(st).to_json()}
        if st.revision == LEGACY_REVISION:  # one step: every full hex is a choice
            return Decision(p.seat, "target", prompt)
        if p.column is None:  # revision 2: the column, then the row (a few dozen choices each)
            return Decision(p.seat, "target_column", prompt)
        return Decision(p.seat, "target_row", {**prompt, "column": p.column})
    if p is not None and p.need == "los":
        return Decision(p.seat, "los", {"card": p.card, "target": p.target, "los": list(LOS)})
    seat = st.turn_seat
    return Decision(
        seat,
        "act",
        {"round": st.round, "phase": st.phase, "command": st.command[seat], "reports": list(REPORTS)},
    )


RULES.frame(RefereeFrame.kind, referee)


# ---- the decisions: each one's legal actions and the handlers of the action types it accepts ------------
def legal_act(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    """The choices the referee can list (the board reports take free values: the prompt lists them)."""
    seat = st.turn_seat
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


def legal_confirm(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    seat = _seat(st)
    return [("confirm", seat), ("dispute", seat)]


def legal_target(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    seat = _seat(st)
    return [("target", seat, h.name) for h in board_of(st).hexes()]


def legal_target_column(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    seat = _seat(st)
    return [("target_column", seat, str(c)) for c in target_columns(board_of(st))]


def legal_target_row(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    seat = _seat(st)
    column = st.pending.column if st.pending is not None else None
    return [("target_row", seat, str(r)) for r in target_rows(board_of(st), column)]


def legal_los(st: TideOfIronState, fr: RefereeFrame) -> list[tuple]:
    seat = _seat(st)
    return [("los", seat, los) for los in LOS if los != "officer" or officer_ok(st, seat)]


def _seat(st: TideOfIronState) -> str:
    d = st.decision
    assert d is not None  # a decision's legal actions are asked while it is pending
    return d.seat


Handler = Callable[[TideOfIronState, Any], None]


def _decision(kind: str, legal: Callable[[TideOfIronState, RefereeFrame], list[tuple]],
              handlers: dict[str, Handler]) -> None:
    """Declare a decision: its legal actions, and the handler of each action type it accepts (listed or
    not: a handler checks its action's values and raises before it changes anything)."""

    def act(st: TideOfIronState, fr: RefereeFrame, action: Any) -> None:
        handlers[action.type](st, action)

    RULES.open_decision(kind, legal=legal, act=act, accepts=handlers)


_decision("act", legal_act, {
    "activate": on_activate,
    "retry_contact": on_retry,
    "discard": on_discard,
    "pass_turn": on_pass,
    "next_phase": on_next_phase,
    "end_match": on_end,
    "report_command": on_report_command,
    "place_unit": on_place,
    "remove_unit": on_remove,
    "set_cover": on_set_cover,
})
_decision("target", legal_target, {"target": on_target})
# revision 2 still takes the whole hex in one step at its column decision (not listed)
_decision("target_column", legal_target_column, {"target_column": on_target_column, "target": on_target})
_decision("target_row", legal_target_row, {"target_row": on_target_row})
_decision("los", legal_los, {"los": on_los})
_decision("confirm", legal_confirm, {"confirm": on_confirm, "dispute": on_dispute})

DECISION_KINDS = tuple(RULES.decisions)  # act, target, target_column, target_row, los, confirm

advance = RULES.advance  # derive the pending decision (new_game; a loaded state through resume)
declare_resume(TideOfIronState, advance)  # TideOfIronState.from_json recomputes the decision
legal_keys = RULES.legal_keys
materialize = RULES.materialize
legal_actions = RULES.legal_actions
apply = RULES.apply  # validate, then apply one action; returns its events (errors: the state unchanged)
apply_legal = RULES.apply_legal
