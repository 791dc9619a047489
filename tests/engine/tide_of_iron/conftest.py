"""Helpers of the Tide of Iron referee tests: the real catalog (fixtures/tide_of_iron/) and scripted dice."""

from __future__ import annotations

import pytest

from games.engine import tide_of_iron as toi
from vocabulary.tide_of_iron import read_documents


def catalog() -> toi.TideOfIronCatalog:
    cards, decks = read_documents()
    return toi.TideOfIronCatalog.from_dicts(
        cards=cards["cards"], decks=decks["decks"], scenarios=decks["scenarios"]
    )


class ScriptedDice:
    """Stands in for the match's RNG after set-up: each die is the next scripted value."""

    def __init__(self, *dice: int) -> None:
        self.dice = list(dice)

    def randint(self, low: int, high: int) -> int:
        assert (low, high) == (1, 6) and self.dice, "a die was rolled that the test did not script"
        return self.dice.pop(0)


@pytest.fixture
def new_match():
    def make(seed: int = 7, **options) -> toi.TideOfIronState:
        opts = {"board_width": 12, "board_height": 10, **options}
        return toi.new_game(catalog(), toi.GameSetup(seed=seed, options=toi.Options(**opts)))

    return make


def give(st: toi.TideOfIronState, seat: str, code: str) -> None:
    """Put a card of the seat's decks into its HQ area (as if drawn)."""
    for cards in st.decks[seat].values():
        if code in cards:
            cards.remove(code)
            break
    st.hq[seat].append(code)


def act(st: toi.TideOfIronState, seat: str, type_: str, **fields) -> list:
    """Apply an action; a report it makes (rules revision 2: command points, a phase end, the result, LOS)
    is confirmed at once by the other player, and the events of both are returned. The referee protocol's
    own tests (test_referee_protocol.py) call toi.apply to confirm or dispute themselves."""
    events = toi.apply(st, {"type": type_, "seat": seat, **fields})
    if st.decision is not None and st.decision.kind == "confirm":
        events += toi.apply(st, {"type": "confirm", "seat": st.decision.seat})
    return events


def types(events) -> list[str]:
    return [e.type for e in events]
