"""The War decks for a game: a deck reference ({"deck_id"}: a saved `decks` deck of game "the-war", the
army in its `nation`; or {"starter": code}: a starter of fixtures/the_war/starters.json) becomes a
`ResolvedWarDeck`; two of them become the TheWar adapter's rules options (decks.rules_the_war: every deck
rule, and in casual play the equal-size rule), checked at creation and again at join.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from config.errors import NotFound, ValidationFailed
from decks.rules_the_war import DeckInput, validate_deck, validate_pair

THE_WAR_DECK_GAME = "the-war"  # decks.models.Game.THE_WAR


@dataclass(frozen=True)
class ResolvedWarDeck:
    army: str
    entries: Mapping[str, int]
    label: str
    source: dict[str, Any]

    def as_input(self) -> DeckInput:
        return DeckInput(army=self.army, entries=dict(self.entries))


def _catalog() -> Any:
    from vocabulary.the_war import load_catalog

    return load_catalog()


def war_deck_resolve(*, user: Any, ref: Mapping[str, Any], catalog: Any = None) -> ResolvedWarDeck:
    """A The War deck reference: the user's own or a public saved deck, or a starter (404 otherwise)."""
    catalog = catalog or _catalog()
    if ref.get("deck_id") is not None:
        from decks import selectors as deck_selectors

        deck = deck_selectors.deck_for_play(
            user=user, deck_id=ref["deck_id"], game=THE_WAR_DECK_GAME, what="The War deck"
        )
        return ResolvedWarDeck(
            army=deck.nation,
            entries=deck_selectors.deck_entries(deck),
            label=f"deck {deck.pk}: {deck.name}".strip(),
            source={"deck_id": deck.pk, "name": deck.name, "public": bool(deck.is_public)},
        )
    if ref.get("starter"):
        starter = catalog.starters.get(str(ref["starter"]))
        if starter is None:
            raise NotFound(
                f"No The War starter deck has the code {ref['starter']!r}.",
                code="starter_not_found",
                starter=ref["starter"],
            )
        return ResolvedWarDeck(
            army=str(starter.army),
            entries=dict(starter.entries),
            label=f"starter {starter.code}: {starter.name}",
            source={"starter": starter.code, "public": True},
        )
    raise ValidationFailed('A deck is {"deck_id": id} or {"starter": code}.', code="invalid_deck_ref")


def war_deck_check_alone(*, deck: ResolvedWarDeck, casual: bool, catalog: Any = None) -> None:
    """One deck passes the deck rules (the casual size rule waits for the opponent's deck)."""
    result = validate_deck(catalog or _catalog(), army=deck.army, entries=deck.entries, casual=casual)
    if not result.is_valid:
        raise ValidationFailed(
            "Your deck is not legal: " + "; ".join(v.message for v in result.violations[:5]),
            code="illegal_matchup",
            violations=[v.to_dict() for v in result.violations],
        )


def war_decks_rules(
    *, decks: Mapping[str, ResolvedWarDeck], casual: bool, catalog: Any = None
) -> dict[str, tuple[str, ...]]:
    """The engine's decks {seat: codes with repeats} of two decks that may play each other (400
    illegal_matchup with every violation, e.g. deck_size_mismatch in casual play)."""
    p1, p2 = decks["p1"], decks["p2"]
    pair = validate_pair(catalog or _catalog(), p1.as_input(), p2.as_input(), casual=casual)
    if not pair.is_legal:
        raise ValidationFailed(
            "These decks cannot play each other: " + "; ".join(v.message for v in pair.violations[:5]),
            code="illegal_matchup",
            violations=[v.to_dict() for v in pair.violations],
        )
    return {
        seat: tuple(c for c, n in sorted(d.entries.items()) for _ in range(n)) for seat, d in decks.items()
    }
