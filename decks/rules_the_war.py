"""The War's deck rules: pure Python, no Django (import-linter contract "Deck legality is pure Python").

Source (the law): `../shared/seeds/the-war-rules.txt`, "Main Part" and "Hero cards"; the readings are
decided in fixtures/README.md, "The War". Every violation is reported, not just the first.

* "Total number of cards in a deck must be 60."                     -> `too_few_cards` / `too_many_cards`
* "Only four copies of each card (except "basic resource" cards) are allowed in a deck. Two cards are
  identical if they have the same title." Copies are counted per title (a year in parentheses is part of
  the title: KV-1 (1940) is its own title).                         -> `over_max_copies`
* "Only one copy of a particular hero card is allowed in a deck."   -> `hero_single`
* Army: "Usually one player fights for the Red Army and the other for Wehrmacht": a deck fights for one
  army and holds that army's cards and the cards of no army (basic resources, locations, Panic,
  Capture). A card of the other army is `wrong_army`. Two decks of the same army may play each other
  ("field exercises").
* Casual play: "players may increase or decrease their decks' size, but number of cards in two decks must
  still be equal (e.g. 80 each)": any size (at least one card), the two decks the same size
  (`deck_size_mismatch`). `validate_casual_pair` is the pure rule that game creation and join call.
* `deck_stats`: a deck in numbers (GET /api/decks/{id}/stats/), as decks.rules.deck_stats for Battlecards.

Wired into the deck API by the deck's game (decks.selectors, decks.services; decks/README.md, "The War
decks").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from decks.rule_results import DeckValidation, Totals, Violation  # one result shape for every game
from vocabulary.the_war import (
    COST_ORDER,
    DECK_SIZE,
    MAX_COPIES_PER_TITLE,
    MAX_HERO_COPIES,
    Army,
    TheWarCatalog,
)

GAME = "the-war"  # the registry's id of the game these rules are of
CASUAL_MIN_CARDS = 1


class Code(StrEnum):
    """Stable machine codes of The War's deck violations (API clients switch on these)."""

    UNKNOWN_ARMY = "unknown_army"
    UNKNOWN_CARD = "unknown_card"
    INVALID_COUNT = "invalid_count"
    TOO_FEW_CARDS = "too_few_cards"
    TOO_MANY_CARDS = "too_many_cards"
    OVER_MAX_COPIES = "over_max_copies"
    HERO_SINGLE = "hero_single"
    WRONG_ARMY = "wrong_army"
    # two decks
    DECK_INVALID = "deck_invalid"
    DECK_SIZE_MISMATCH = "deck_size_mismatch"


@dataclass(frozen=True, slots=True)
class DeckInput:
    army: str
    entries: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PairValidation:
    is_legal: bool
    deck_a: DeckValidation
    deck_b: DeckValidation
    violations: tuple[Violation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "is_legal": self.is_legal,
            "deck_a": self.deck_a.to_dict(),
            "deck_b": self.deck_b.to_dict(),
            "violations": [v.to_dict() for v in self.violations],
        }


def _valid_count(count: Any) -> bool:
    return isinstance(count, int) and not isinstance(count, bool) and count > 0


def deck_size(entries: Mapping[str, int]) -> int:
    """Cards in a deck (counts that are not positive whole numbers are left out)."""
    return sum(count for count in entries.values() if _valid_count(count))


def validate_deck(
    catalog: TheWarCatalog, *, army: str, entries: Mapping[str, int], casual: bool = False
) -> DeckValidation:
    """Every violation of a The War deck. `casual`: any size (the pair must match: `validate_casual_pair`)."""
    violations: list[Violation] = []
    army_known = army in {a.value for a in Army}
    if not army_known:
        violations.append(
            Violation(
                Code.UNKNOWN_ARMY,
                f"Unknown army {army!r}: a The War deck fights for {' or '.join(a.value for a in Army)}.",
            )
        )
    per_title: Counter[str] = Counter()
    codes_of_title: dict[str, list[str]] = {}
    for code, count in sorted(entries.items()):
        if not _valid_count(count):
            violations.append(
                Violation(
                    Code.INVALID_COUNT,
                    f"{code}: a count must be a positive whole number.",
                    card=code,
                    limit=1,
                    actual=count if isinstance(count, int) and not isinstance(count, bool) else None,
                )
            )
            continue
        card = catalog.cards.get(code)
        if card is None:
            violations.append(
                Violation(Code.UNKNOWN_CARD, f"No The War card has the code {code!r}.", card=code)
            )
            continue
        if army_known and card.army is not None and card.army != army:
            violations.append(
                Violation(
                    Code.WRONG_ARMY,
                    f"{card.title} fights for the {card.army}: a {army} deck holds only {army} cards and "
                    "cards of no army (basic resources, locations...).",
                    card=code,
                    limit=0,
                    actual=count,
                )
            )
        if card.max_copies is not None:
            per_title[card.title] += count
            codes_of_title.setdefault(card.title, []).append(code)

    for title, title_codes in sorted(codes_of_title.items(), key=lambda item: item[1][0]):
        first_code = title_codes[0]
        card = catalog.cards[first_code]
        count = per_title[title]
        limit = card.max_copies
        if limit is None or count <= limit:
            continue
        if card.is_hero:
            violations.append(
                Violation(
                    Code.HERO_SINGLE,
                    f"Only one copy of a particular hero card is allowed in a deck: {title} x{count}.",
                    card=first_code,
                    limit=MAX_HERO_COPIES,
                    actual=count,
                )
            )
        else:
            violations.append(
                Violation(
                    Code.OVER_MAX_COPIES,
                    f"At most {MAX_COPIES_PER_TITLE} copies of {title} (cards with the same title are "
                    f"identical); this deck has {count}.",
                    card=first_code,
                    limit=MAX_COPIES_PER_TITLE,
                    actual=count,
                )
            )

    cards = deck_size(entries)
    if casual:
        if cards < CASUAL_MIN_CARDS:
            violations.append(
                Violation(
                    Code.TOO_FEW_CARDS,
                    "A casual deck may be of any size, but not empty.",
                    limit=CASUAL_MIN_CARDS,
                    actual=cards,
                )
            )
    elif cards < DECK_SIZE:
        violations.append(
            Violation(
                Code.TOO_FEW_CARDS,
                f"A deck must have exactly {DECK_SIZE} cards; this one has {cards}.",
                limit=DECK_SIZE,
                actual=cards,
            )
        )
    elif cards > DECK_SIZE:
        violations.append(
            Violation(
                Code.TOO_MANY_CARDS,
                f"A deck must have exactly {DECK_SIZE} cards; this one has {cards}.",
                limit=DECK_SIZE,
                actual=cards,
            )
        )
    return DeckValidation(
        game=GAME,
        nation=army,
        is_valid=not violations,
        totals=Totals(cards=cards),
        violations=tuple(violations),
        side_aliases=("army",),  # the deck API gives a The War deck's army under both keys
        casual=casual,
    )


def casual_size_violations(size_a: int, size_b: int) -> list[Violation]:
    """The casual variant's own rule: "number of cards in two decks must still be equal"."""
    if size_a == size_b:
        return []
    return [
        Violation(
            Code.DECK_SIZE_MISMATCH,
            f"In casual play both decks must have the same number of cards; they have {size_a} and {size_b}.",
            limit=size_a,
            actual=size_b,
        )
    ]


def validate_pair(
    catalog: TheWarCatalog, deck_a: DeckInput, deck_b: DeckInput, *, casual: bool = False
) -> PairValidation:
    """May these two decks play each other? Both decks' violations (tagged "a"/"b") and, in casual play,
    the equal-size rule. Two decks of the same army may ("field exercises")."""
    results = {
        label: validate_deck(catalog, army=deck.army, entries=deck.entries, casual=casual)
        for label, deck in (("a", deck_a), ("b", deck_b))
    }
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
    if casual:
        violations.extend(casual_size_violations(results["a"].cards, results["b"].cards))
    return PairValidation(
        is_legal=not violations, deck_a=results["a"], deck_b=results["b"], violations=tuple(violations)
    )


def validate_casual_pair(catalog: TheWarCatalog, deck_a: DeckInput, deck_b: DeckInput) -> PairValidation:
    """The casual variant: any size, both decks the same size, every other deck rule still applies."""
    return validate_pair(catalog, deck_a, deck_b, casual=True)


def deck_stats(tw: TheWarCatalog, entries: Mapping[str, int]) -> dict[str, Any]:
    """A The War deck in numbers: cards per category, unit type, subtype and line; the resource curve per
    resource type (cards by their cost in depot, plant and fuel, resource cards left out) and the resource
    cards by what they yield. Unknown codes count in the totals only."""
    by_category: dict[str, int] = {}
    by_unit_type: dict[str, int] = {}
    by_subtype: dict[str, int] = {}
    by_line: dict[str, int] = {}
    curve: dict[str, dict[int, int]] = {r.value: {} for r in COST_ORDER}
    yields: dict[str, int] = {r.value: 0 for r in COST_ORDER}
    for code, count in entries.items():
        card = tw.cards.get(code)
        if card is None:
            continue
        by_category[card.category.value] = by_category.get(card.category.value, 0) + count
        if card.unit_type is not None:
            by_unit_type[card.unit_type.value] = by_unit_type.get(card.unit_type.value, 0) + count
        if card.subtype is not None:
            by_subtype[card.subtype.value] = by_subtype.get(card.subtype.value, 0) + count
        if card.line is not None:
            by_line[str(card.line)] = by_line.get(str(card.line), 0) + count
        if card.category.value == "resource":
            for item in card.yields:
                yields[item.resource.value] += count
            continue
        for resource in COST_ORDER:
            amount = card.cost_of(resource)
            curve[resource.value][amount] = curve[resource.value].get(amount, 0) + count
    return {
        "totals": {"cards": sum(entries.values())},
        "by_category": dict(sorted(by_category.items())),
        "by_unit_type": dict(sorted(by_unit_type.items())),
        "by_subtype": dict(sorted(by_subtype.items())),
        "by_line": dict(sorted(by_line.items())),
        "resource_curve": {
            resource: [{"cost": cost, "cards": n} for cost, n in sorted(costs.items())]
            for resource, costs in curve.items()
        },
        "resource_cards": yields,
    }
