"""Battlecards' matchup: may two decks play each other with this conflict deck? Both decks' own rules, one
deck of each side, each nation in the conflict deck's theater, packs used whole, and the 10-card / 10-point
balance of what is left. Pure Python; the rules are quoted in decks.rules (the package's docstring)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from decks.rule_results import DeckValidation, Violation
from decks.rules.conflict import ConflictChoice, build_conflict_deck, check_conflict_choice, conflict_sets
from decks.rules.deck import (
    Code,
    cap_singles,
    custom_violations,
    deck_totals,
    nation_theaters,
    official_composition,
    packs_of,
    set_arsenal_counts,
    validate_deck,
)
from vocabulary.battlecards import SINGLE_COPY_MAX, CardSetDef, Catalog

MATCHUP_MAX_CARD_DIFFERENCE = 10
MATCHUP_MAX_POINT_DIFFERENCE = 10


@dataclass(frozen=True, slots=True)
class DeckInput:
    nation: str
    entries: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchupResult:
    is_legal: bool
    card_difference: int  # a - b, whole decks
    point_difference: int
    balance_exempt: bool  # both decks official starters (+ whole packs): the 10/10 balance does not apply
    balanced_card_difference: int  # a - b after leaving out packs used whole
    balanced_point_difference: int
    packs_used_whole: tuple[str, ...]
    deck_a: DeckValidation
    deck_b: DeckValidation
    conflict_deck: tuple[str, ...]
    violations: tuple[Violation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "is_legal": self.is_legal,
            "differences": {
                "cards": self.card_difference,
                "points": self.point_difference,
                "balanced_cards": self.balanced_card_difference,
                "balanced_points": self.balanced_point_difference,
            },
            "balance_exempt": self.balance_exempt,
            "packs_used_whole": list(self.packs_used_whole),
            "deck_a": self.deck_a.to_dict(),
            "deck_b": self.deck_b.to_dict(),
            "conflict_deck": {"cards": len(self.conflict_deck), "codes": list(self.conflict_deck)},
            "violations": [v.to_dict() for v in self.violations],
        }


@dataclass(frozen=True, slots=True)
class Balance:
    """The 10-card / 10-point rule of what is left once packs used whole are set aside (a - b)."""

    exempt: bool  # two official starters (several copies allowed): not customized, not balanced
    card_difference: int
    point_difference: int
    violations: tuple[Violation, ...]


def validate_matchup(
    catalog: Catalog, deck_a: DeckInput, deck_b: DeckInput, choice: ConflictChoice
) -> MatchupResult:
    """May these two decks play each other with this conflict deck? Every failed rule is reported."""
    result_a = validate_deck(catalog, nation=deck_a.nation, entries=deck_a.entries)
    result_b = validate_deck(catalog, nation=deck_b.nation, entries=deck_b.entries)
    violations = deck_violations({"a": result_a, "b": result_b})
    violations += side_violations(catalog, deck_a, deck_b)
    choice_violations = check_conflict_choice(catalog, choice)
    violations += choice_violations
    conflict_deck: list[str] = []
    in_deck: set[str] = set()  # the sets whose conflict cards are in the conflict deck
    if not choice_violations:
        conflict_deck = build_conflict_deck(catalog, choice)
        in_deck = conflict_sets(catalog, choice)
        violations += theater_violations(catalog, choice, {"a": deck_a, "b": deck_b})
    packs_whole = packs_used_whole(catalog, choice, in_deck, deck_a, deck_b)
    if not choice_violations:
        violations += whole_pack_violations(
            catalog, in_deck, ("a", deck_a, result_a), ("b", deck_b, result_b)
        )
    balance = balance_of(catalog, packs_whole, deck_a, deck_b)
    violations += balance.violations
    whole_a, whole_b = deck_totals(catalog, deck_a.entries), deck_totals(catalog, deck_b.entries)
    return MatchupResult(
        is_legal=not violations,
        card_difference=whole_a.cards - whole_b.cards,
        point_difference=whole_a.points - whole_b.points,
        balance_exempt=balance.exempt,
        balanced_card_difference=balance.card_difference,
        balanced_point_difference=balance.point_difference,
        packs_used_whole=tuple(packs_whole),
        deck_a=result_a,
        deck_b=result_b,
        conflict_deck=tuple(conflict_deck),
        violations=tuple(violations),
    )


def deck_violations(results: Mapping[str, DeckValidation]) -> list[Violation]:
    """Each illegal deck: `deck_invalid`, then its own violations tagged with its label."""
    violations: list[Violation] = []
    for label, result in results.items():
        if not result.is_valid:
            violations.append(
                Violation(
                    Code.DECK_INVALID,
                    f"Deck {label} is not a legal deck ({len(result.violations)} violation(s)).",
                    deck=label,
                    actual=len(result.violations),
                )
            )
            violations.extend(v.in_deck(label) for v in result.violations)
    return violations


def side_violations(catalog: Catalog, deck_a: DeckInput, deck_b: DeckInput) -> list[Violation]:
    """A game needs one deck of each side."""
    nations_known = deck_a.nation in catalog.nations and deck_b.nation in catalog.nations
    if nations_known and catalog.side_of(deck_a.nation) == catalog.side_of(deck_b.nation):
        return [
            Violation(
                Code.SAME_SIDE,
                f"Both decks fight for the {catalog.side_of(deck_a.nation)}: "
                "a game needs one deck of each side.",
            )
        ]
    return []


def theater_violations(
    catalog: Catalog, choice: ConflictChoice, decks: Mapping[str, DeckInput]
) -> list[Violation]:
    """Each deck's nation fights in the conflict deck's theater (a valid choice)."""
    violations = []
    for label, deck in decks.items():
        if deck.nation in catalog.nations:
            theaters = nation_theaters(catalog, deck.nation)
            if theaters and choice.theater not in theaters:
                violations.append(
                    Violation(
                        Code.NATION_NOT_IN_THEATER,
                        f"{catalog.nations[deck.nation].name} does not fight in theater {choice.theater}.",
                        deck=label,
                    )
                )
    return violations


def missing_of_pack(catalog: Catalog, pack: CardSetDef, deck: DeckInput) -> list[tuple[str, int, int]]:
    """(code, needed, held) of the pack's arsenal cards of the deck's nation the deck holds too few of."""
    out = []
    for code, count in set_arsenal_counts(pack, catalog, deck.nation).items():
        need = min(count, SINGLE_COPY_MAX) if catalog.arsenal[code].is_single_copy else count
        if deck.entries.get(code, 0) < need:
            out.append((code, need, deck.entries.get(code, 0)))
    return out


def packs_used_whole(
    catalog: Catalog, choice: ConflictChoice, in_deck: set[str], deck_a: DeckInput, deck_b: DeckInput
) -> list[str]:
    """A pack is "used whole" when its conflict cards are in the conflict deck and each deck holds all of the
    pack's arsenal cards of its nation (FAQ: "all German, British, and Conflict cards ... are used")."""
    return [
        pack.code
        for pack in packs_of(catalog, theater=choice.theater)
        if pack.code in in_deck
        and not missing_of_pack(catalog, pack, deck_a)
        and not missing_of_pack(catalog, pack, deck_b)
    ]


def whole_pack_violations(
    catalog: Catalog, in_deck: set[str], *sides: tuple[str, DeckInput, DeckValidation]
) -> list[Violation]:
    """A deck that is legal only as an official starter plus whole packs (not as a custom deck) must use
    those packs whole: all of their conflict cards in the conflict deck, their other-side cards in the other
    deck."""
    violations: list[Violation] = []
    for (label, deck, result), (other_label, other, _) in zip(sides, reversed(sides), strict=True):
        if result.official is None or not result.official.packs:
            continue
        if not custom_violations(catalog, nation=deck.nation, entries=deck.entries):
            continue  # also a legal custom deck: nothing relies on the packs being whole
        for pack_code in result.official.packs:
            pack = catalog.sets[pack_code]
            if pack_code not in in_deck:
                violations.append(
                    Violation(
                        Code.PACK_CONFLICT_CARDS_MISSING,
                        f"Deck {label} is legal only as a starter plus the whole {pack.name}, so all of its "
                        "conflict cards must be in the conflict deck (choose FAT or that pack).",
                        deck=label,
                        pack=pack_code,
                    )
                )
            for code, need, have in missing_of_pack(catalog, pack, other):
                violations.append(
                    Violation(
                        Code.PACK_INCOMPLETE,
                        f"Deck {label} uses {pack.name} as a whole pack: deck {other_label} must hold all of "
                        f"its {catalog.arsenal[code].name} cards ({need}).",
                        card=code,
                        limit=need,
                        actual=have,
                        deck=other_label,
                        pack=pack_code,
                    )
                )
    return violations


def _subtract(entries: Mapping[str, int], remove: Mapping[str, int]) -> dict[str, int]:
    out = dict(entries)
    for code, count in remove.items():
        out[code] = out.get(code, 0) - count
    return {code: count for code, count in out.items() if count > 0}


def balance_of(catalog: Catalog, packs_whole: list[str], deck_a: DeckInput, deck_b: DeckInput) -> Balance:
    """Balance (10 cards, 10 points) of what is left once packs used whole are set aside; two official
    starters (several copies allowed) are not customized decks and are not balanced."""
    whole_a: Counter[str] = Counter()
    whole_b: Counter[str] = Counter()
    for pack_code in packs_whole:
        whole_a.update(set_arsenal_counts(catalog.sets[pack_code], catalog, deck_a.nation))
        whole_b.update(set_arsenal_counts(catalog.sets[pack_code], catalog, deck_b.nation))
    base_a = _subtract(deck_a.entries, cap_singles(whole_a, catalog))
    base_b = _subtract(deck_b.entries, cap_singles(whole_b, catalog))
    official_a = official_composition(catalog, base_a, deck_a.nation)
    official_b = official_composition(catalog, base_b, deck_b.nation)
    exempt = (
        official_a is not None and official_b is not None and not official_a.packs and not official_b.packs
    )
    totals_a, totals_b = deck_totals(catalog, base_a), deck_totals(catalog, base_b)
    card_diff = totals_a.cards - totals_b.cards
    point_diff = totals_a.points - totals_b.points
    violations = []
    if not exempt:
        if abs(card_diff) > MATCHUP_MAX_CARD_DIFFERENCE:
            violations.append(
                Violation(
                    Code.CARD_DIFFERENCE,
                    f"The decks must be within {MATCHUP_MAX_CARD_DIFFERENCE} cards of each "
                    f"other; they are {abs(card_diff)} apart ({totals_a.cards} vs {totals_b.cards}).",
                    limit=MATCHUP_MAX_CARD_DIFFERENCE,
                    actual=abs(card_diff),
                )
            )
        if abs(point_diff) > MATCHUP_MAX_POINT_DIFFERENCE:
            violations.append(
                Violation(
                    Code.POINT_DIFFERENCE,
                    f"The decks must be within {MATCHUP_MAX_POINT_DIFFERENCE} points of each "
                    f"other; they are {abs(point_diff)} apart ({totals_a.points} vs {totals_b.points}).",
                    limit=MATCHUP_MAX_POINT_DIFFERENCE,
                    actual=abs(point_diff),
                )
            )
    return Balance(exempt, card_diff, point_diff, tuple(violations))
