"""The Battlecards catalog (every definition keyed by stable code) and the two ways to build it: from the
fixture JSON (`load_catalog_dir`) or from plain dicts (`Catalog.from_dicts`), which give equal values."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vocabulary.battlecards.cards import (
    ArsenalCardDef,
    BattlecardDef,
    CardSetDef,
    ConflictCardDef,
    NationDef,
    SetEntry,
)
from vocabulary.battlecards.terms import SIDES, CatalogError


@dataclass(frozen=True)
class Catalog:
    """Every definition, keyed by stable code. Immutable once built."""

    nations: Mapping[str, NationDef]
    arsenal: Mapping[str, ArsenalCardDef]
    conflict: Mapping[str, ConflictCardDef]
    battlecards: Mapping[str, BattlecardDef]
    sets: Mapping[str, CardSetDef]
    theaters: Mapping[str, str] = field(default_factory=dict)

    def side_of(self, nation: str) -> str:
        return self.nations[nation].side

    def starters(self) -> list[CardSetDef]:
        return [s for s in self.sets.values() if s.kind == "starter"]

    def conflict_deck(self, theater: str, *, set_codes: Iterable[str] | None = None) -> list[str]:
        """Card codes (with repeats for counts) of a theater's conflict deck from the given sets.

        The battlecard list card is included; set-up removes it from the deck (rules: TO SET UP THE GAME).
        """
        wanted = set(set_codes) if set_codes is not None else None
        codes: list[str] = []
        for table in (self.conflict, self.battlecards):
            for card in table.values():
                if card.theater == theater and (wanted is None or card.set_code in wanted):
                    codes.extend([card.code] * card.count)
        return sorted(codes)

    @classmethod
    def from_dicts(
        cls,
        *,
        nations: Iterable[Mapping[str, Any]],
        theaters: Iterable[Mapping[str, Any]],
        sets: Iterable[Mapping[str, Any]],
        arsenal: Iterable[Mapping[str, Any]],
        conflict_cards: Iterable[Mapping[str, Any]],
        battlecards: Iterable[Mapping[str, Any]],
    ) -> Catalog:
        nation_defs = {n["code"]: NationDef(n["code"], n["name"], n["side"]) for n in nations}
        for n in nation_defs.values():
            if n.side not in SIDES:
                raise CatalogError(f"nation {n.code}: side must be one of {SIDES}")
        sides = {code: n.side for code, n in nation_defs.items()}
        arsenal_defs: dict[str, ArsenalCardDef] = {}
        for d in arsenal:
            card = ArsenalCardDef.from_dict(d, sides=sides)
            if card.code in arsenal_defs:
                raise CatalogError(f"duplicate arsenal code {card.code}")
            arsenal_defs[card.code] = card
        conflict_defs = {d["code"]: ConflictCardDef.from_dict(d) for d in conflict_cards}
        battle_defs = {d["code"]: BattlecardDef.from_dict(d) for d in battlecards}
        overlap = (set(arsenal_defs) & set(conflict_defs)) | (set(arsenal_defs) & set(battle_defs)) | (
            set(conflict_defs) & set(battle_defs))
        if overlap:
            raise CatalogError(f"codes used by two kinds of card: {sorted(overlap)}")
        set_defs = {}
        for s in sets:
            entries = tuple(
                SetEntry(card=e["card"], count=e.get("count"), printed_name=e.get("printed_name", ""),
                         count_provenance=e.get("count_provenance", "seed"))
                for e in s.get("entries", ())
            )
            for e in entries:
                if e.card not in arsenal_defs:
                    raise CatalogError(f"set {s['code']}: unknown arsenal card {e.card}")
            set_defs[s["code"]] = CardSetDef(
                code=s["code"], name=s["name"], kind=s["kind"], nation=s.get("nation"),
                theater=s.get("theater"),
                entries=entries, printed_points=s.get("printed_points"), printed_cards=s.get("printed_cards"),
            )
        for b in battle_defs.values():
            for p in b.prerequisites:
                if p.battlecard not in battle_defs:
                    raise CatalogError(f"{b.code}: prerequisite names unknown battlecard {p.battlecard}")
        return cls(
            nations=nation_defs, arsenal=arsenal_defs, conflict=conflict_defs, battlecards=battle_defs,
            sets=set_defs, theaters={t["code"]: t["name"] for t in theaters},
        )


def read_fixture_dicts(root: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Read fixtures/catalog/ into the keyword arguments of Catalog.from_dicts (also used by load_catalog)."""
    root = Path(root)

    def load(path: Path) -> Any:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)

    arsenal: list[dict[str, Any]] = []
    for path in sorted((root / "arsenal").glob("*.json")):
        arsenal.extend(load(path))
    conflict_cards: list[dict[str, Any]] = []
    battlecards: list[dict[str, Any]] = []
    for path in sorted((root / "conflict").glob("*.json")):
        data = load(path)
        conflict_cards.extend(data.get("conflict_cards", []))
        battlecards.extend(data.get("battlecards", []))
    return {
        "nations": load(root / "nations.json"),
        "theaters": load(root / "theaters.json"),
        "sets": load(root / "sets.json"),
        "arsenal": arsenal,
        "conflict_cards": conflict_cards,
        "battlecards": battlecards,
    }


DEFAULT_CATALOG_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "catalog"


def load_catalog_dir(root: str | Path = DEFAULT_CATALOG_DIR) -> Catalog:
    return Catalog.from_dicts(**read_fixture_dicts(root))
