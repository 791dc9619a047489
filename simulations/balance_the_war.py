"""Swap proposals for a The War deck: pure Python (decks.rules_the_war decides what is legal).

A proposal swaps a few copies of the deck for other cards of its army's pool (the army's cards and the cards
of no army), one copy out and one copy in per change, so the deck keeps its size; every candidate is checked
by decks.rules_the_war.validate_deck (copies per title, one copy of a hero, the army, the size: 60 cards, or
any size in casual play), so a proposal is always a legal deck of the same army and size. The proposals are
spread over the deck: each removes a different card and adds a different one (code order, deterministic).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from decks.rules_the_war import validate_deck
from vocabulary.the_war import TheWarCatalog


@dataclass(frozen=True)
class WarProposal:
    entries: dict[str, int]
    removed: dict[str, int]
    added: dict[str, int]

    @property
    def changes(self) -> int:
        return sum(self.removed.values()) + sum(self.added.values())

    def to_dict(self) -> dict[str, object]:
        return {
            "remove": dict(sorted(self.removed.items())),
            "add": dict(sorted(self.added.items())),
            "changes": self.changes,
            "card_difference": 0,
            "point_difference": 0,
        }


def army_pool(catalog: TheWarCatalog, army: str) -> list[str]:
    """The cards a deck of `army` may hold: the army's own and those of no army, in code order."""
    return sorted(code for code, card in catalog.cards.items() if card.army is None or card.army == army)


def war_propose_swaps(
    catalog: TheWarCatalog, *, army: str, entries: Mapping[str, int], casual: bool = False, limit: int = 4
) -> list[WarProposal]:
    """Up to `limit` one-for-one swaps within the army pool that leave the deck legal."""
    base = dict(entries)
    pool = [code for code in army_pool(catalog, army) if code not in base]
    found: list[WarProposal] = []
    used_in: set[str] = set()
    for out in sorted(base):
        if len(found) >= limit:
            break
        for code in pool:
            if code in used_in:
                continue
            candidate = dict(base)
            candidate[out] -= 1
            if not candidate[out]:
                del candidate[out]
            candidate[code] = candidate.get(code, 0) + 1
            if validate_deck(catalog, army=army, entries=candidate, casual=casual).is_valid:
                found.append(WarProposal(entries=candidate, removed={out: 1}, added={code: 1}))
                used_in.add(code)
                break
    return found
