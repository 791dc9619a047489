"""Deck legality: pure Python, no Django (import-linter contract "Deck legality is pure Python").

Sources (the LAW): battlecards-faq-v1.6.txt "DECK CUSTOMIZATION" and the Western European rules
"TO SET UP THE GAME".

* Customized decks must have at least 40 cards.                          -> `too_few_cards`
* Units must be from the proper side ("No placing Me-262 Jet fighters in the RAF"): a card's nation
  must be the deck's nation. A card of the other side is `wrong_side`; a card of another nation on
  the same side is `wrong_nation` (reported separately: a softer mistake, but still illegal).
* The MAX / DECK column of every arsenal list.                           -> `over_max_per_deck`
* "Make sure only one representation of each LEADER or GENERAL is in the respective arsenal decks",
  whatever a list prints (the East Front list prints "-" for Adolf Hitler). -> `general_leader_single`
* Points: the VALUE of a deck is the sum of its cards' points. Ukrainian-marked cards are their own
  cards and "cost 1 point less per unit": the totals expose that discount.
* "Merely using an entire expansion pack is not customizing a deck": a deck that is exactly an
  official starter (optionally several copies of it, optional rule 2 "Multiple Starter Sets", generals
  and leaders still single), plus the whole arsenal contents of expansion packs of its nation, is
  legal regardless of the customization limits.
* Matchup: "For 2 decks to play against each other, they must be within 10 cards in total card count,
  and within 10 total points of each other." That is a balancing rule of customization: it does not
  bind two official starter decks (the US starter is 675 points, the Japanese 633), and the cards of
  expansion packs used whole ("all German, British, and Conflict cards ... from a particular expansion
  pack") are left out of the balance. A pack is used whole when its conflict cards are in the conflict
  deck and each deck holds all of the pack's cards of its nation. A deck that is legal only as a starter
  plus packs (not as a custom deck) must use those packs whole.
* Conflict decks "cannot be customized": THIN (no expansion conflict cards), FAT (all expansion
  conflict cards of the theater) or whole packs: "if any conflict cards from an expansion pack are
  used, then ALL conflict cards from that expansion pack must be used".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import Any

from decks.rule_results import DeckValidation, OfficialComposition, Totals, Violation
from vocabulary.battlecards import SINGLE_COPY_MAX, ArsenalCardDef, CardSetDef, Catalog

GAME = "battlecards"  # the registry's id of the game these rules are of

MIN_DECK_CARDS = 40
MATCHUP_MAX_CARD_DIFFERENCE = 10
MATCHUP_MAX_POINT_DIFFERENCE = 10
MAX_STARTER_COPIES = 4  # optional rule 2 allows any number; more than 4 copies of a starter is not searched
MAX_PACKS_SEARCHED = (
    12  # subsets of at most this many candidate packs are searched for an official composition
)


class Code(StrEnum):
    """Stable machine codes of violations (API clients switch on these)."""

    UNKNOWN_NATION = "unknown_nation"
    UNKNOWN_CARD = "unknown_card"
    NOT_ARSENAL_CARD = "not_arsenal_card"
    INVALID_COUNT = "invalid_count"
    TOO_FEW_CARDS = "too_few_cards"
    WRONG_SIDE = "wrong_side"
    WRONG_NATION = "wrong_nation"
    OVER_MAX_PER_DECK = "over_max_per_deck"
    GENERAL_LEADER_SINGLE = "general_leader_single"
    # matchup
    DECK_INVALID = "deck_invalid"
    SAME_SIDE = "same_side"
    CARD_DIFFERENCE = "card_difference"
    POINT_DIFFERENCE = "point_difference"
    NATION_NOT_IN_THEATER = "nation_not_in_theater"
    PACK_INCOMPLETE = "pack_incomplete"
    PACK_CONFLICT_CARDS_MISSING = "pack_conflict_cards_missing"
    # conflict deck choice
    UNKNOWN_THEATER = "unknown_theater"
    INVALID_CONFLICT_MODE = "invalid_conflict_mode"
    UNKNOWN_PACK = "unknown_pack"
    PACK_WRONG_THEATER = "pack_wrong_theater"
    PACKS_WITHOUT_PACK_MODE = "packs_without_pack_mode"


@dataclass(frozen=True, slots=True)
class DeckTotals(Totals):
    """A Battlecards deck's totals: cards, and points (what the deck is worth: Ukrainian-marked cards already
    1 point cheaper), the points before the discount, the Ukrainian cards and their discount."""

    points: int
    points_before_discount: int
    ukrainian_cards: int
    ukrainian_discount: int

    def to_dict(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "points": self.points,
            "points_before_discount": self.points_before_discount,
            "ukrainian_cards": self.ukrainian_cards,
            "ukrainian_discount": self.ukrainian_discount,
        }


class ConflictMode(StrEnum):
    THIN = "thin"
    FAT = "fat"
    PACKS = "packs"


@dataclass(frozen=True, slots=True)
class ConflictChoice:
    """How a game's conflict deck is made: a set-up value, not part of any arsenal deck."""

    theater: str
    mode: str = ConflictMode.THIN
    packs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"theater": self.theater, "mode": str(self.mode), "packs": list(self.packs)}


class ConflictChoiceError(ValueError):
    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__("; ".join(v.message for v in self.violations))


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


# --------------------------------------------------------------------------------------------- helpers


def set_arsenal_counts(card_set: CardSetDef, catalog: Catalog, nation: str | None = None) -> dict[str, int]:
    """Arsenal counts of a set, optionally only the cards of one nation.

    An unprinted count (None) counts as 1:
    expansion lists print no counts, and a pack holds at least one of each card it lists."""
    counts: Counter[str] = Counter()
    for entry in card_set.entries:
        card = catalog.arsenal.get(entry.card)
        if card is None or (nation is not None and card.nation != nation):
            continue
        counts[entry.card] += entry.count if entry.count is not None else 1
    return {code: count for code, count in counts.items() if count > 0}


def _cap_singles(counts: Mapping[str, int], catalog: Catalog) -> dict[str, int]:
    out = {}
    for code, count in counts.items():
        card = catalog.arsenal.get(code)
        out[code] = min(count, SINGLE_COPY_MAX) if card is not None and card.is_single_copy else count
    return out


def ukrainian_discount(catalog: Catalog, card: ArsenalCardDef) -> int:
    """Points a Ukrainian-marked card saves against its Soviet card ("10/9*": 1). Cards printed only as
    Ukrainian (Ukrainian Infantry, 3 points) have no Soviet card and save nothing."""
    base = catalog.arsenal.get(card.variant_of) if card.ukrainian and card.variant_of else None
    return max(0, base.points - card.points) if base is not None else 0


def deck_totals(catalog: Catalog, entries: Mapping[str, int]) -> DeckTotals:
    """Card count and point value. Unknown codes and non-positive counts are left out."""
    cards = points = ukrainian = discount = 0
    for code, count in entries.items():
        card = catalog.arsenal.get(code)
        if card is None or not isinstance(count, int) or count <= 0:
            continue
        cards += count
        points += card.points * count
        if card.ukrainian:
            ukrainian += count
            discount += ukrainian_discount(catalog, card) * count
    return DeckTotals(
        cards=cards,
        points=points,
        points_before_discount=points + discount,
        ukrainian_cards=ukrainian,
        ukrainian_discount=discount,
    )


def starters_of(catalog: Catalog, nation: str) -> list[CardSetDef]:
    return sorted((s for s in catalog.starters() if s.nation == nation), key=lambda s: s.code)


def packs_of(catalog: Catalog, *, nation: str | None = None, theater: str | None = None) -> list[CardSetDef]:
    """Expansion packs, optionally those holding arsenal cards of `nation` and/or of `theater`."""
    packs = []
    for s in catalog.sets.values():
        if s.kind != "expansion":
            continue
        if theater is not None and s.theater != theater:
            continue
        if nation is not None and not set_arsenal_counts(s, catalog, nation):
            continue
        packs.append(s)
    return sorted(packs, key=lambda s: s.code)


def nation_theaters(catalog: Catalog, nation: str) -> set[str]:
    return {
        s.theater
        for s in catalog.sets.values()
        if s.kind in ("starter", "expansion") and s.theater and set_arsenal_counts(s, catalog, nation)
    }


def official_composition(
    catalog: Catalog, entries: Mapping[str, int], nation: str
) -> OfficialComposition | None:
    """Is the deck exactly `copies` x an official starter of its nation plus whole packs of its nation?

    Generals and leaders stay single however many sets are combined (rules: "Make sure only one
    representation of each LEADER or GENERAL is in the respective arsenal decks"). Among several
    decompositions the one with the fewest starter copies, then the fewest packs, is returned.
    """
    wanted = {code: count for code, count in entries.items() if count}
    if not wanted or any(code not in catalog.arsenal for code in wanted):
        return None
    candidates = []
    for pack in packs_of(catalog, nation=nation):
        contents = set_arsenal_counts(pack, catalog, nation)
        if all(
            wanted.get(code, 0) >= count if not catalog.arsenal[code].is_single_copy else code in wanted
            for code, count in contents.items()
        ):
            candidates.append((pack.code, contents))
    candidates = candidates[:MAX_PACKS_SEARCHED]
    for starter in starters_of(catalog, nation):
        base = set_arsenal_counts(starter, catalog)
        if not base or set(wanted) - set(base).union(*(contents for _, contents in candidates)):
            continue  # some card is neither in this starter nor in a candidate pack
        for copies in range(1, MAX_STARTER_COPIES + 1):
            for size in range(len(candidates) + 1):
                for combo in combinations(candidates, size):
                    expected: Counter[str] = Counter({code: count * copies for code, count in base.items()})
                    for _code, contents in combo:
                        expected.update(contents)
                    if _cap_singles(expected, catalog) == wanted:
                        return OfficialComposition(
                            starter=starter.code, copies=copies, packs=tuple(code for code, _ in combo)
                        )
    return None


# --------------------------------------------------------------------------------------------- one deck


def _custom_checks(
    catalog: Catalog, nation_def: Any, nation: str, entries: Mapping[str, int], totals: DeckTotals
) -> list[Violation]:
    """The customization limits: 40 cards, own nation only, max per deck, single generals and leaders."""
    violations: list[Violation] = []
    if totals.cards < MIN_DECK_CARDS:
        violations.append(
            Violation(
                Code.TOO_FEW_CARDS,
                f"A customized deck must have at least {MIN_DECK_CARDS} cards; this one has {totals.cards}.",
                limit=MIN_DECK_CARDS,
                actual=totals.cards,
            )
        )
    for code, count in sorted(entries.items()):
        card = catalog.arsenal.get(code)
        if card is None or not isinstance(count, int) or count <= 0:
            continue  # already reported
        if nation_def is not None and card.nation != nation:
            if card.side != nation_def.side:
                violations.append(
                    Violation(
                        Code.WRONG_SIDE,
                        f"{card.name} ({card.nation}, {card.side}) fights for the other side: a "
                        f"{nation_def.name} deck may only hold {nation_def.name} units "
                        "(no Me-262 in the RAF).",
                        card=code,
                        limit=0,
                        actual=count,
                    )
                )
            else:
                violations.append(
                    Violation(
                        Code.WRONG_NATION,
                        f"{card.name} is a {card.nation} unit: a {nation_def.name} deck may only "
                        f"hold {nation_def.name} units, even of an allied nation.",
                        card=code,
                        limit=0,
                        actual=count,
                    )
                )
        cap = card.effective_max_per_deck
        if cap is None or count <= cap:
            continue
        if card.is_single_copy:
            role = "general" if card.is_general else "leader"
            violations.append(
                Violation(
                    Code.GENERAL_LEADER_SINGLE,
                    f"Only one {card.name} may be in a deck: each {role} is single.",
                    card=code,
                    limit=cap,
                    actual=count,
                )
            )
        else:
            violations.append(
                Violation(
                    Code.OVER_MAX_PER_DECK,
                    f"At most {cap} {card.name} per deck; this one has {count}.",
                    card=code,
                    limit=cap,
                    actual=count,
                )
            )
    return violations


def custom_violations(catalog: Catalog, *, nation: str, entries: Mapping[str, int]) -> list[Violation]:
    """Violations of the deck read as a customized deck (no official-starter exemption)."""
    return _custom_checks(
        catalog, catalog.nations.get(nation), nation, entries, deck_totals(catalog, entries)
    )


def validate_deck(catalog: Catalog, *, nation: str, entries: Mapping[str, int]) -> DeckValidation:
    """Every violation of a deck (not just the first), its totals, and whether it is official."""
    violations: list[Violation] = []
    nation_def = catalog.nations.get(nation)
    if nation_def is None:
        violations.append(Violation(Code.UNKNOWN_NATION, f"Unknown nation {nation!r}.", actual=None))
    for code, count in sorted(entries.items()):
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            violations.append(
                Violation(
                    Code.INVALID_COUNT,
                    f"{code}: a count must be a positive whole number.",
                    card=code,
                    limit=1,
                    actual=count if isinstance(count, int) else None,
                )
            )
        if code not in catalog.arsenal:
            if code in catalog.conflict or code in catalog.battlecards:
                violations.append(
                    Violation(
                        Code.NOT_ARSENAL_CARD,
                        f"{code} is a conflict card: conflict decks "
                        "cannot be customized and belong to the game set-up.",
                        card=code,
                    )
                )
            else:
                violations.append(
                    Violation(Code.UNKNOWN_CARD, f"No arsenal card has the code {code!r}.", card=code)
                )
    totals = deck_totals(catalog, entries)
    if not violations:
        official = official_composition(catalog, entries, nation)
        if official is not None:
            # Not customizing: legal regardless of the customization limits (FAQ).
            return DeckValidation(
                game=GAME, nation=nation, is_valid=True, totals=totals, violations=(), official=official
            )

    violations.extend(_custom_checks(catalog, nation_def, nation, entries, totals))
    return DeckValidation(
        game=GAME, nation=nation, is_valid=not violations, totals=totals, violations=tuple(violations)
    )


# --------------------------------------------------------------------------------------------- conflict deck


def _base_conflict_sets(catalog: Catalog, theater: str) -> set[str]:
    return {s.code for s in catalog.sets.values() if s.kind != "expansion" and s.theater == theater}


def check_conflict_choice(catalog: Catalog, choice: ConflictChoice) -> list[Violation]:
    violations: list[Violation] = []
    if choice.theater not in catalog.theaters:
        violations.append(Violation(Code.UNKNOWN_THEATER, f"Unknown theater {choice.theater!r}."))
    modes = {m.value for m in ConflictMode}
    if choice.mode not in modes:
        violations.append(
            Violation(
                Code.INVALID_CONFLICT_MODE,
                f"Conflict deck mode must be one of {sorted(modes)}, not {choice.mode!r}.",
            )
        )
    elif choice.mode != ConflictMode.PACKS and choice.packs:
        violations.append(
            Violation(
                Code.PACKS_WITHOUT_PACK_MODE,
                "Packs can only be chosen with the 'packs' mode (THIN has no expansion "
                "conflict cards, FAT has all of them).",
            )
        )
    for code in choice.packs:
        pack = catalog.sets.get(code)
        if pack is None or pack.kind != "expansion":
            violations.append(Violation(Code.UNKNOWN_PACK, f"{code!r} is not an expansion pack.", pack=code))
        elif pack.theater != choice.theater:
            violations.append(
                Violation(
                    Code.PACK_WRONG_THEATER,
                    f"{pack.name} belongs to theater {pack.theater}, not {choice.theater}.",
                    pack=code,
                )
            )
    return violations


def conflict_sets(catalog: Catalog, choice: ConflictChoice) -> set[str]:
    """Set codes whose conflict cards make up the conflict deck of a (valid) choice."""
    sets = _base_conflict_sets(catalog, choice.theater)
    if choice.mode == ConflictMode.FAT:
        sets |= {p.code for p in packs_of(catalog, theater=choice.theater)}
    elif choice.mode == ConflictMode.PACKS:
        sets |= set(choice.packs)
    return sets


def build_conflict_deck(catalog: Catalog, choice: ConflictChoice) -> list[str]:
    """Codes (repeated per count, sorted) of the conflict deck for a choice; raises ConflictChoiceError.

    Conflict cards whose set is not an expansion pack (the starter's conflict deck) are always in. Packs are
    all-or-nothing: every conflict card of a chosen pack is in. The BATTLECARD LIST card is included, as in
    Catalog.conflict_deck; set-up puts it aside face up (rules: TO SET UP THE GAME).
    """
    violations = check_conflict_choice(catalog, choice)
    if violations:
        raise ConflictChoiceError(violations)
    expansion = {p.code for p in packs_of(catalog, theater=choice.theater)}
    wanted = conflict_sets(catalog, choice)
    codes: list[str] = []
    for table in (catalog.conflict, catalog.battlecards):
        for card in table.values():
            if card.theater != choice.theater:
                continue
            if card.set_code in wanted or card.set_code not in expansion:
                codes.extend([card.code] * card.count)
    return sorted(codes)


def pack_conflict_codes(catalog: Catalog, pack: str) -> list[str]:
    return sorted(
        c.code
        for table in (catalog.conflict, catalog.battlecards)
        for c in table.values()
        if c.set_code == pack
    )


# --------------------------------------------------------------------------------------------- matchup


@dataclass(frozen=True, slots=True)
class DeckInput:
    nation: str
    entries: Mapping[str, int] = field(default_factory=dict)


def _subtract(entries: Mapping[str, int], remove: Mapping[str, int]) -> dict[str, int]:
    out = dict(entries)
    for code, count in remove.items():
        out[code] = out.get(code, 0) - count
    return {code: count for code, count in out.items() if count > 0}


def validate_matchup(
    catalog: Catalog, deck_a: DeckInput, deck_b: DeckInput, choice: ConflictChoice
) -> MatchupResult:
    """May these two decks play each other with this conflict deck? Every failed rule is reported."""
    result_a = validate_deck(catalog, nation=deck_a.nation, entries=deck_a.entries)
    result_b = validate_deck(catalog, nation=deck_b.nation, entries=deck_b.entries)
    violations: list[Violation] = []
    for label, result in (("a", result_a), ("b", result_b)):
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

    nations_known = deck_a.nation in catalog.nations and deck_b.nation in catalog.nations
    if nations_known and catalog.side_of(deck_a.nation) == catalog.side_of(deck_b.nation):
        violations.append(
            Violation(
                Code.SAME_SIDE,
                f"Both decks fight for the {catalog.side_of(deck_a.nation)}: "
                "a game needs one deck of each side.",
            )
        )

    choice_violations = check_conflict_choice(catalog, choice)
    violations.extend(choice_violations)
    conflict_deck: list[str] = [] if choice_violations else build_conflict_deck(catalog, choice)

    if not choice_violations:
        for label, deck in (("a", deck_a), ("b", deck_b)):
            if deck.nation in catalog.nations:
                theaters = nation_theaters(catalog, deck.nation)
                if theaters and choice.theater not in theaters:
                    violations.append(
                        Violation(
                            Code.NATION_NOT_IN_THEATER,
                            f"{catalog.nations[deck.nation].name} "
                            f"does not fight in theater {choice.theater}.",
                            deck=label,
                        )
                    )

    # A pack is "used whole" when its conflict cards are in the conflict deck and each deck holds all of the
    # pack's arsenal cards of its nation (FAQ: "all German, British, and Conflict cards ... are used").
    in_deck = conflict_sets(catalog, choice) if not choice_violations else set()

    def missing(pack: CardSetDef, deck: DeckInput) -> list[tuple[str, int, int]]:
        out = []
        for code, count in set_arsenal_counts(pack, catalog, deck.nation).items():
            need = min(count, SINGLE_COPY_MAX) if catalog.arsenal[code].is_single_copy else count
            if deck.entries.get(code, 0) < need:
                out.append((code, need, deck.entries.get(code, 0)))
        return out

    packs_whole = [
        pack.code
        for pack in packs_of(catalog, theater=choice.theater)
        if pack.code in in_deck and not missing(pack, deck_a) and not missing(pack, deck_b)
    ]

    # A deck that is legal only as an official starter plus whole packs (not as a custom deck) must use those
    # packs whole: all of their conflict cards in the conflict deck, their other-side cards in the other deck.
    sides = (("a", deck_a, result_a, "b", deck_b), ("b", deck_b, result_b, "a", deck_a))
    for label, deck, result, other_label, other in sides:
        if choice_violations or result.official is None or not result.official.packs:
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
            for code, need, have in missing(pack, other):
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

    # Balance (10 cards, 10 points) of what is left once packs used whole are set aside; two official
    # starters (several copies allowed) are not customized decks and are not balanced.
    whole_a: Counter[str] = Counter()
    whole_b: Counter[str] = Counter()
    for pack_code in packs_whole:
        whole_a.update(set_arsenal_counts(catalog.sets[pack_code], catalog, deck_a.nation))
        whole_b.update(set_arsenal_counts(catalog.sets[pack_code], catalog, deck_b.nation))
    base_a = _subtract(deck_a.entries, _cap_singles(whole_a, catalog))
    base_b = _subtract(deck_b.entries, _cap_singles(whole_b, catalog))
    official_a = official_composition(catalog, base_a, deck_a.nation)
    official_b = official_composition(catalog, base_b, deck_b.nation)
    exempt = (
        official_a is not None and official_b is not None and not official_a.packs and not official_b.packs
    )
    totals_a, totals_b = deck_totals(catalog, base_a), deck_totals(catalog, base_b)
    whole_totals_a = deck_totals(catalog, deck_a.entries)
    whole_totals_b = deck_totals(catalog, deck_b.entries)
    card_diff = totals_a.cards - totals_b.cards
    point_diff = totals_a.points - totals_b.points
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
    return MatchupResult(
        is_legal=not violations,
        card_difference=whole_totals_a.cards - whole_totals_b.cards,
        point_difference=whole_totals_a.points - whole_totals_b.points,
        balance_exempt=exempt,
        balanced_card_difference=card_diff,
        balanced_point_difference=point_diff,
        packs_used_whole=tuple(packs_whole),
        deck_a=result_a,
        deck_b=result_b,
        conflict_deck=tuple(conflict_deck),
        violations=tuple(violations),
    )


# --------------------------------------------------------------------------------------------- statistics


def deck_stats(catalog: Catalog, entries: Mapping[str, int]) -> dict[str, Any]:
    """Cards and points by kind (stack), unit class, firing phase and point cost (unknown codes skipped)."""

    def bucket() -> dict[str, int]:
        return {"cards": 0, "points": 0}

    by_kind: dict[str, dict[str, int]] = {}
    by_class: dict[str, dict[str, int]] = {}
    by_phase: dict[str, dict[str, int]] = {}
    by_cost: dict[int, dict[str, int]] = {}
    for code, count in entries.items():
        card = catalog.arsenal.get(code)
        if card is None or count <= 0:
            continue
        points = card.points * count
        targets = [
            by_kind.setdefault(card.kind, bucket()),
            by_phase.setdefault(str(card.phase) if card.phase else "none", bucket()),
            by_cost.setdefault(card.points, bucket()),
        ]
        targets += [by_class.setdefault(cls, bucket()) for cls in card.classes]
        for target in targets:
            target["cards"] += count
            target["points"] += points
    return {
        "totals": deck_totals(catalog, entries).to_dict(),
        "by_kind": dict(sorted(by_kind.items())),
        "by_class": dict(sorted(by_class.items())),
        "by_phase": dict(sorted(by_phase.items())),
        "by_cost": [{"cost": cost, **by_cost[cost]} for cost in sorted(by_cost)],
    }
