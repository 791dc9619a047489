"""Battlecards' conflict deck: how a game's conflict deck is made (THIN, FAT or whole packs of the theater),
the checks of that choice, and the deck it makes. Pure Python; the rules are quoted in decks.rules."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from decks.rule_results import Violation
from decks.rules.deck import Code, packs_of
from vocabulary.battlecards import Catalog


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
