"""Battlecards' deck rules for one deck: its totals, whether it is an official composition (a starter plus
whole packs), every violation of the customization rules, and its stats. Pure Python (import-linter contract
"Deck legality is pure Python"); the rules themselves are quoted in decks.rules (the package's docstring)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any

from decks.rule_results import DeckValidation, OfficialComposition, Totals, Violation
from vocabulary.battlecards import SINGLE_COPY_MAX, ArsenalCardDef, CardSetDef, Catalog

GAME = "battlecards"  # the registry's id of the game these rules are of

MIN_DECK_CARDS = 40
MAX_STARTER_COPIES = 4  # optional rule 2 allows any number; more than 4 copies of a starter is not searched
MAX_PACKS_SEARCHED = (
    12  # subsets of at most this many candidate packs are searched for an official composition
)


class Code(StrEnum):
    """Stable machine codes of the violations of every Battlecards deck rule (API clients switch on these)."""

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


# --------------------------------------------------------------------------------------------------- helpers


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


def cap_singles(counts: Mapping[str, int], catalog: Catalog) -> dict[str, int]:
    out = {}
    for code, count in counts.items():
        card = catalog.arsenal.get(code)
        out[code] = min(count, SINGLE_COPY_MAX) if card is not None and card.is_single_copy else count
    return out


def capped_equal(counts: Mapping[str, int], wanted: Mapping[str, int], catalog: Catalog) -> bool:
    """cap_singles(counts, catalog) == wanted, stopping at the first difference."""
    if len(counts) != len(wanted):
        return False
    arsenal = catalog.arsenal
    for code, count in counts.items():
        card = arsenal.get(code)
        if card is not None and card.is_single_copy:
            count = min(count, SINGLE_COPY_MAX)
        if wanted.get(code) != count:
            return False
    return True


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


SetCounts = tuple[tuple[str, dict[str, int]], ...]  # (set code, its arsenal counts) in code order

_sets_lock = threading.Lock()
_sets_memo: dict[int, tuple[Catalog, dict[str, tuple[SetCounts, SetCounts]]]] = {}


def nation_set_counts(catalog: Catalog, nation: str) -> tuple[SetCounts, SetCounts]:
    """The packs holding cards of `nation` with their counts of the nation's cards, and the nation's starters
    with their whole counts (packs_of, starters_of, set_arsenal_counts): worked out once per catalog object
    (a catalog is frozen; the last two are kept), since every deck check of the nation needs them.
    Callers only read them."""
    with _sets_lock:
        held = _sets_memo.get(id(catalog))
        known = held[1].get(nation) if held is not None and held[0] is catalog else None
    if known is not None:
        return known
    packs = tuple((p.code, set_arsenal_counts(p, catalog, nation)) for p in packs_of(catalog, nation=nation))
    starters = tuple((s.code, set_arsenal_counts(s, catalog)) for s in starters_of(catalog, nation))
    with _sets_lock:
        held = _sets_memo.get(id(catalog))
        if held is None or held[0] is not catalog:
            if len(_sets_memo) >= 2:
                _sets_memo.clear()
            held = _sets_memo[id(catalog)] = (catalog, {})
        held[1][nation] = (packs, starters)
    return packs, starters


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
    packs, starters = nation_set_counts(catalog, nation)
    for pack_code, contents in packs:
        if all(
            wanted.get(code, 0) >= count if not catalog.arsenal[code].is_single_copy else code in wanted
            for code, count in contents.items()
        ):
            candidates.append((pack_code, contents))
    candidates = candidates[:MAX_PACKS_SEARCHED]
    for starter_code, base in starters:
        if not base or set(wanted) - set(base).union(*(contents for _, contents in candidates)):
            continue  # some card is neither in this starter nor in a candidate pack
        for copies in range(1, MAX_STARTER_COPIES + 1):
            for size in range(len(candidates) + 1):
                for combo in combinations(candidates, size):
                    expected: Counter[str] = Counter({code: count * copies for code, count in base.items()})
                    for _code, contents in combo:
                        expected.update(contents)
                    if capped_equal(expected, wanted, catalog):
                        return OfficialComposition(
                            starter=starter_code, copies=copies, packs=tuple(code for code, _ in combo)
                        )
    return None


# -------------------------------------------------------------------------------------------------- one deck


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


# ------------------------------------------------------------------------------------------------ statistics


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
