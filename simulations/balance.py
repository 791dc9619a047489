"""Swap proposals for a deck against an opponent: pure Python (decks.rules decides what is legal).

A proposal changes a few cards of the deck within its nation's list: one copy out, one copy in, or one
swap of a copy for another card. The search keeps the states nearest to a legal matchup (cards and points
within decks.rules' limits of the opponent's) for a few steps (a beam search), then every candidate is
checked by decks.rules.validate_matchup, so a proposal is always a legal deck in a legal matchup (max per
deck, single generals and leaders, 40 cards, the 10-card / 10-point rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from decks.rules import (
    MATCHUP_MAX_CARD_DIFFERENCE,
    MATCHUP_MAX_POINT_DIFFERENCE,
    MIN_DECK_CARDS,
    ConflictChoice,
    DeckInput,
    deck_totals,
    validate_matchup,
)
from vocabulary.battlecards import Catalog

BEAM_WIDTH = 12
MAX_CHANGES = 4


@dataclass(frozen=True)
class Proposal:
    entries: dict[str, int]
    removed: dict[str, int]
    added: dict[str, int]
    card_difference: int
    point_difference: int

    @property
    def changes(self) -> int:
        return sum(self.removed.values()) + sum(self.added.values())

    def to_dict(self) -> dict[str, object]:
        return {
            "remove": dict(sorted(self.removed.items())),
            "add": dict(sorted(self.added.items())),
            "changes": self.changes,
            "card_difference": self.card_difference,
            "point_difference": self.point_difference,
        }


def _cap(catalog: Catalog, code: str) -> int:
    cap = catalog.arsenal[code].effective_max_per_deck
    return cap if cap is not None else 99


def _excess(cards: int, points: int, target_cards: int, target_points: int) -> int:
    """How far a deck of these totals is from the matchup limits and the 40-card minimum (0: within)."""
    over_cards = max(0, abs(cards - target_cards) - MATCHUP_MAX_CARD_DIFFERENCE)
    over_points = max(0, abs(points - target_points) - MATCHUP_MAX_POINT_DIFFERENCE)
    return 10 * over_cards + over_points + 10 * max(0, MIN_DECK_CARDS - cards)


def _moves(catalog: Catalog, nation_list: list[str], entries: Mapping[str, int]):
    """(code out or None, code in or None) for every one-card change inside the nation's list."""
    outs = [code for code, count in entries.items() if count > 0 and code in catalog.arsenal]
    ins = [code for code in nation_list if entries.get(code, 0) < _cap(catalog, code)]
    for out in outs:
        yield out, None
        for add in ins:
            if add != out:
                yield out, add
    for add in ins:
        yield None, add


def propose_swaps(
    catalog: Catalog,
    deck: DeckInput,
    opponent: DeckInput,
    choice: ConflictChoice,
    *,
    limit: int = 4,
    max_changes: int = MAX_CHANGES,
) -> list[Proposal]:
    """Up to `limit` legal variants of `deck` against `opponent`, fewest changes first.

    When the matchup is already legal the proposals are single changes that keep it legal, picked to
    spread the point difference both ways (the simulation then says which comes nearest to even)."""
    nation_list = sorted(code for code, card in catalog.arsenal.items() if card.nation == deck.nation)
    opp = deck_totals(catalog, opponent.entries)
    start = {code: count for code, count in deck.entries.items() if count > 0}
    legal_now = validate_matchup(catalog, deck, opponent, choice).is_legal

    def totals(entries: Mapping[str, int]) -> tuple[int, int]:
        t = deck_totals(catalog, entries)
        return t.cards, t.points

    def apply(entries: Mapping[str, int], out: str | None, add: str | None) -> dict[str, int]:
        new = dict(entries)
        if out is not None:
            new[out] -= 1
            if not new[out]:
                del new[out]
        if add is not None:
            new[add] = new.get(add, 0) + 1
        return new

    def key(entries: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
        return tuple(sorted(entries.items()))

    seen = {key(start)}
    found: list[Proposal] = []

    def consider(entries: dict[str, int]) -> bool:
        result = validate_matchup(catalog, DeckInput(deck.nation, entries), opponent, choice)
        if not result.is_legal:
            return False
        removed = {c: n - entries.get(c, 0) for c, n in start.items() if n > entries.get(c, 0)}
        added = {c: n - start.get(c, 0) for c, n in entries.items() if n > start.get(c, 0)}
        found.append(
            Proposal(
                entries, removed, added, result.balanced_card_difference, result.balanced_point_difference
            )
        )
        return True

    if legal_now:
        singles = []
        for out, add in _moves(catalog, nation_list, start):
            new = apply(start, out, add)
            cards, points = totals(new)
            if _excess(cards, points, opp.cards, opp.points) == 0 and key(new) not in seen:
                seen.add(key(new))
                singles.append((points, new))
        singles.sort(key=lambda item: (item[0], key(item[1])))
        # alternate between the strongest and the weakest variants (by points) until `limit` are legal
        order = [item for pair in zip(reversed(singles), singles, strict=False) for item in pair]
        for _points, new in order:
            if len(found) >= limit:
                break
            consider(new)
        return found

    beam = [start]
    for _depth in range(max_changes):
        scored = []
        for entries in beam:
            for out, add in _moves(catalog, nation_list, entries):
                new = apply(entries, out, add)
                k = key(new)
                if k in seen:
                    continue
                seen.add(k)
                cards, points = totals(new)
                scored.append(
                    (_excess(cards, points, opp.cards, opp.points), abs(points - opp.points), k, new)
                )
        scored.sort(key=lambda item: item[:3])
        for excess, _gap, _k, new in scored:
            if excess or len(found) >= limit:
                break
            consider(new)
        if len(found) >= limit:
            break
        beam = [new for *_rest, new in scored[:BEAM_WIDTH]]
    return found[:limit]
