"""The one result shape of every game's deck rules: pure Python, no Django (import-linter contract "Deck
legality is pure Python").

A game's deck rules (decks.rules: Battlecards, decks.rules_the_war: The War; the module the registry's spec
names as `deck_rules`) answer a deck's validation as a `DeckValidation`: its game, its side, whether it is
legal, its totals, every violation and, when the deck is an official composition, which. `to_dict()` is the
shape the deck API answers (POST /api/decks/validate/, GET /api/decks/{id}/validation/, a deck's totals,
is_valid and official), the same keys for every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a stable machine code, a message, and what it concerns (None: not applicable)."""

    code: str
    message: str
    card: str | None = None
    limit: int | None = None
    actual: int | None = None
    deck: str | None = None  # "a" / "b" in a matchup or pair
    pack: str | None = None  # an expansion pack (Battlecards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "message": self.message,
            "card": self.card,
            "limit": self.limit,
            "actual": self.actual,
            "deck": self.deck,
            "pack": self.pack,
        }

    def in_deck(self, label: str) -> Violation:
        """The same violation, tagged as deck `label`'s ("a" / "b") in a check of two decks."""
        return Violation(
            self.code,
            self.message,
            card=self.card,
            limit=self.limit,
            actual=self.actual,
            deck=label,
            pack=self.pack,
        )


@dataclass(frozen=True, slots=True)
class Totals:
    """A deck's totals: its cards (every game). A game whose cards have a value adds its own fields in a
    subclass (Battlecards: points and the Ukrainian discount, decks.rules.DeckTotals)."""

    cards: int

    def to_dict(self) -> dict[str, int]:
        return {"cards": self.cards}


@dataclass(frozen=True, slots=True)
class OfficialComposition:
    """The deck is `copies` x the official starter `starter` plus the whole contents of `packs`."""

    starter: str
    copies: int = 1
    packs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"starter": self.starter, "copies": self.copies, "packs": list(self.packs)}


@dataclass(frozen=True, slots=True)
class DeckValidation:
    """Every violation of one deck by its game's rules, its totals and whether it is official.

    `nation` is the deck's side (a Battlecards nation, a The War army); `side_aliases` names the other keys
    the API also gives it under (The War: "army"). `casual`: checked by a game's casual variant."""

    game: str
    nation: str
    is_valid: bool
    totals: Totals
    violations: tuple[Violation, ...] = ()
    official: OfficialComposition | None = None
    side_aliases: tuple[str, ...] = ()
    casual: bool = False

    @property
    def cards(self) -> int:
        return self.totals.cards

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "nation": self.nation,
            **dict.fromkeys(self.side_aliases, self.nation),
            "is_valid": self.is_valid,
            "totals": self.totals.to_dict(),
            "official": self.official.to_dict() if self.official else None,
            "violations": [v.to_dict() for v in self.violations],
        }
