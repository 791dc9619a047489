"""Turn a game request's deck references into legal, matched arsenal decks and a conflict deck.

A deck reference is {"deck_id": n} (the user's own deck or any public deck) or {"starter": set_code}
(an official starter deck, straight from the catalog): the decks app reads them (decks.selectors). Legality
and the matchup rule are decks.rules; this module only gathers the inputs and turns violations into one 400
with every reason listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from config.errors import ValidationFailed
from decks.rules import (
    ConflictChoice,
    ConflictMode,
    DeckInput,
    nation_theaters,
    validate_deck,
    validate_matchup,
)
from vocabulary.battlecards import Catalog


@dataclass(frozen=True)
class ResolvedDeck:
    nation: str
    side: str
    entries: Mapping[str, int]
    label: str
    source: dict[str, Any]

    @property
    def codes(self) -> tuple[str, ...]:
        """Arsenal card codes with repeats (the engine's deck format), sorted."""
        return tuple(code for code in sorted(self.entries) for _ in range(self.entries[code]))


def _deck_from_db(*, user: Any, deck_id: Any, catalog: Catalog) -> ResolvedDeck:
    from decks import selectors as deck_selectors

    deck = deck_selectors.deck_for_play(user=user, deck_id=deck_id)
    if deck.nation not in catalog.nations:
        raise ValidationFailed(f"Deck {deck.pk} has an unknown nation {deck.nation!r}.", code="deck_invalid")
    return ResolvedDeck(
        nation=deck.nation,
        side=catalog.side_of(deck.nation),
        entries=deck_selectors.deck_entries(deck),
        label=f"deck {deck.pk}: {deck.name}".strip(),
        # "public": whether the deck was public when the game was made (decides what a replay shows).
        source={"deck_id": deck.pk, "name": deck.name, "public": bool(deck.is_public)},
    )


def _starter(*, code: Any, catalog: Catalog) -> ResolvedDeck:
    from decks import selectors as deck_selectors

    card_set = deck_selectors.starter_get(code=str(code), cat=catalog)
    nation = str(card_set.nation)  # a starter names its nation (starter_get refuses a set without one)
    return ResolvedDeck(
        nation=nation,
        side=catalog.side_of(nation),
        entries=deck_selectors.starter_entries(card_set, catalog),
        label=f"starter {card_set.code}: {card_set.name}",
        source={"starter": card_set.code},
    )


def resolve_deck(*, user: Any, ref: Mapping[str, Any], catalog: Catalog) -> ResolvedDeck:
    if ref.get("deck_id") is not None:
        return _deck_from_db(user=user, deck_id=ref["deck_id"], catalog=catalog)
    if ref.get("starter"):
        return _starter(code=ref["starter"], catalog=catalog)
    raise ValidationFailed('A deck is {"deck_id": id} or {"starter": set code}.', code="invalid_deck_ref")


def conflict_choice(
    *, catalog: Catalog, first: ResolvedDeck, second: ResolvedDeck, conflict: Mapping[str, Any] | None
) -> ConflictChoice:
    conflict = dict(conflict or {})
    theater = conflict.get("theater")
    if not theater:
        shared = nation_theaters(catalog, first.nation) & nation_theaters(catalog, second.nation)
        if len(shared) != 1:
            raise ValidationFailed(
                "Say which theater's conflict deck to play: conflict.theater "
                f"(the two nations share {sorted(shared) or 'none'}).",
                code="theater_required",
                theaters=sorted(shared),
            )
        theater = next(iter(shared))
    return ConflictChoice(
        theater=str(theater),
        mode=str(conflict.get("mode") or ConflictMode.THIN),
        packs=tuple(conflict.get("packs") or ()),
    )


def validate_pairing(
    *, catalog: Catalog, first: ResolvedDeck, second: ResolvedDeck, conflict: Mapping[str, Any] | None
) -> tuple[ConflictChoice, tuple[str, ...]]:
    """The decks pass the deck rules and the matchup rule: returns the conflict choice and deck (codes)."""
    choice = conflict_choice(catalog=catalog, first=first, second=second, conflict=conflict)
    result = validate_matchup(
        catalog,
        DeckInput(first.nation, dict(first.entries)),
        DeckInput(second.nation, dict(second.entries)),
        choice,
    )
    if not result.is_legal:
        raise ValidationFailed(
            "These decks cannot play each other: " + "; ".join(v.message for v in result.violations[:5]),
            code="illegal_matchup",
            violations=[v.to_dict() for v in result.violations],
        )
    check_theater_playable(catalog=catalog, theater=choice.theater, conflict_deck=result.conflict_deck)
    return choice, tuple(result.conflict_deck)


def check_theater_playable(*, catalog: Catalog, theater: str, conflict_deck: Sequence[str]) -> None:
    """A game needs battles to fight: a conflict deck without battlecards can never be won.

    The decks of such a theater can still be built, validated and matched (decks.rules); only a game
    (or a simulation) is refused, before anything is written.
    """
    if not any(code in catalog.battlecards for code in conflict_deck):
        raise ValidationFailed(
            f"The {theater} theater has no conflict deck with battlecards yet, so no game can be played "
            "in it. Decks of its nations can be built, validated and matched.",
            code="theater_not_playable",
            theater=theater,
        )


def validate_deck_alone(*, catalog: Catalog, deck: ResolvedDeck) -> None:
    """One deck passes the deck rules (the matchup rule waits until the opponent's deck is known)."""
    result = validate_deck(catalog, nation=deck.nation, entries=dict(deck.entries))
    if not result.is_valid:
        raise ValidationFailed(
            "Your deck is not legal: " + "; ".join(v.message for v in result.violations[:5]),
            code="illegal_matchup",
            violations=[v.to_dict() for v in result.violations],
        )
