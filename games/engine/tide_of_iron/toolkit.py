"""What the Tide of Iron referee's modules share: the result names, the revision-2 dispute bounds, events,
the dice, the board, drawing, reading a reported number or hex, and what an activation costs."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from ..core.machine import emit
from .hexes import Board, Hex, HexError
from .setup import LEGACY_REVISION, OTHER, Card
from .state import TideOfIronState

RESULTS = ("axis", "allies", "draw")


# revision 2: each player may dispute the end of a phase once in every phase (disputes stay bounded: a
# later phase end he has not disputed is settled at once); README.md, "The referee protocol"
PHASE_DISPUTES = 1


# what a disputed report comes to (the `outcome` of `claim_disputed`)
DISPUTED = {"command": "kept", "phase": "phase_goes_on", "result": "no_result", "los": "none"}


def uses_protocol(st: TideOfIronState) -> bool:
    """Revision 2: the reports that change the outcome wait for the other player's confirm or dispute."""
    return st.revision != LEGACY_REVISION


# Every event is public (core.machine.emit's "all"): the HQ and play areas are face up and every die is rolled
# in the open.
emit_event = emit


def roll_die(st: TideOfIronState) -> int:
    return st.rng.randint(1, 6)


def board_of(st: TideOfIronState) -> Board:
    return st.options.board


def draw_cards(st: TideOfIronState, seat: str, per_deck: int) -> None:
    """Draw `per_deck` cards from each of the seat's decks; "After the last card of a Strategy card deck is
    drawn, the deck is not replenished. That deck is simply no longer available to the player.\""""
    for deck, cards in st.decks[seat].items():
        for _ in range(per_deck):
            if not cards:
                break
            card = cards.pop()
            st.hq[seat].append(card)
            emit_event(st, "card_drawn", {"seat": seat, "deck": deck, "card": card, "left": len(cards)})
            if not cards:
                emit_event(st, "deck_exhausted", {"seat": seat, "deck": deck})


def effective_cost(st: TideOfIronState, seat: str, card: Card) -> int:
    """The printed cost less the lasting reductions in the seat's play area: "When you activate another
    Artillery card, its cost is reduced by 1 (to a minimum of 0)." A card "type" is a word of the deck
    title: "This always refers to the title of a Strategy card deck"."""
    # "another": the activated card is in the HQ area, never one of the play area's cards
    title = st.catalog.deck_title(card.code)
    cost, floor = card.cost, 0
    for entry in st.play[seat]:
        if entry["pending"]:  # a card waiting for contact has not resolved its effects
            continue
        for effect in st.catalog.card(entry["card"]).effects:
            if effect["kind"] == "cost-reduction" and effect["card_type"] in title:
                cost -= effect["amount"]
                floor = max(floor, effect.get("minimum", 0))
    return max(floor, cost) if cost < card.cost else card.cost


def retry_allowed(st: TideOfIronState, seat: str, entry: dict[str, Any]) -> bool:
    """ "Once during every subsequent round, as an action, the player may again seek to establish contact"."""
    return st.phase == "action" and entry["pending"] and entry["tried"] < st.round


def reported_int(value: str, low: int, high: int, what: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise IllegalAction(f"{what} must be an integer {low}..{high}", code="bad_report") from None
    if not low <= n <= high:
        raise IllegalAction(f"{what} must be an integer {low}..{high}", code="bad_report")
    return n


def hex_named(st: TideOfIronState, name: str) -> Hex:
    try:
        return board_of(st).hex(name)
    except HexError as exc:
        raise IllegalAction(str(exc), code="not_a_board_hex") from None


def units_in(st: TideOfIronState, hex_name: str) -> list[tuple[str, dict[str, Any]]]:
    return sorted((label, u) for label, u in st.units.items() if u["hex"] == hex_name)


def after_action(st: TideOfIronState) -> None:
    """In the Action Phase an activation (or a retry) is the player's action: the other player decides."""
    if st.phase == "action":
        st.turn_seat = OTHER[st.turn_seat]


def make_claim(st: TideOfIronState, seat: str, claim: dict[str, Any]) -> None:
    """A report that changes the outcome waits for the other player's confirm or dispute."""
    st.claim = {"by": seat, **claim}
    emit_event(st, "claim_made", dict(st.claim))
