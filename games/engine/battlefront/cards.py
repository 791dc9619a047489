"""Battlefront card data as frozen values: the 70 cards, the 5 optional Special cards and each nationality's
uses of them (fixtures/battlefront/cards.json, written from the rules' printed card list).

Two ways to build a catalog, which give equal values:
  * `load_cards(path)`                                   - straight from the fixture JSON (tests, bots, bench)
  * `BattlefrontCatalog.from_dicts(cards, special_cards, special_uses)` - from plain dicts (DB rows)

Notes are structured abilities, never text parsed at play time:
  {"kind": "scout"}                                  "Scout"
  {"kind": "extra", "type": X}                       "Play an Extra <type>"
  {"kind": "negate", "type": X, "wording": W}        "Opposing <type> Negated" / "Negate Opposing <type>"
  {"kind": "discard_and_draw", "count": 2}           Industrial Giant (US special use)
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import SetupError

TYPES = ("L", "I", "P", "T", "A", "S", "F")  # CARD LIST NOTATION
TYPE_NAMES = {"L": "Leader", "I": "Infantry", "P": "Plane", "T": "Tank", "A": "Artillery", "S": "Strategy",
              "F": "Fortification", "X": "Special"}
NATIONALITIES = ("DE", "RU", "US", "GB", "JP")
ABILITY_KINDS = ("scout", "extra", "negate", "discard_and_draw")
NEGATE_WORDINGS = ("opposing_negated", "negate_opposing")

DEFAULT_CARDS_FILE = Path(__file__).resolve().parents[3] / "fixtures" / "battlefront" / "cards.json"


@dataclass(frozen=True, slots=True)
class Ability:
    kind: str
    type: str | None = None      # extra / negate: the card type concerned
    wording: str | None = None   # negate: how the note is printed (same effect; see README rulings)
    count: int | None = None     # discard_and_draw

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Ability:
        kind = d.get("kind")
        if kind not in ABILITY_KINDS:
            raise SetupError(f"unknown ability kind {kind!r}", code="bad_catalog")
        if kind in ("extra", "negate") and d.get("type") not in TYPES:
            raise SetupError(f"{kind}: type must be one of {TYPES}", code="bad_catalog")
        if kind == "negate" and d.get("wording") not in NEGATE_WORDINGS:
            raise SetupError(f"negate: wording must be one of {NEGATE_WORDINGS}", code="bad_catalog")
        if kind == "discard_and_draw" and not isinstance(d.get("count"), int):
            raise SetupError("discard_and_draw: count must be an int", code="bad_catalog")
        return cls(kind=kind, type=d.get("type"), wording=d.get("wording"), count=d.get("count"))

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("kind", self.kind), ("type", self.type), ("wording", self.wording),
                                  ("count", self.count)) if v is not None}


def _abilities(items: Any) -> tuple[Ability, ...]:
    if not isinstance(items, list | tuple):
        raise SetupError("abilities must be a list", code="bad_catalog")
    return tuple(a if isinstance(a, Ability) else Ability.from_dict(a) for a in items)


@dataclass(frozen=True, slots=True)
class Card:
    """One printed card (type L/I/P/T/A/S/F, force 1-10) or a Special card (type X, no force)."""

    code: str
    name: str
    type: str
    force: int | None
    notes: str = ""
    abilities: tuple[Ability, ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, special: bool = False) -> Card:
        try:
            code, name, type_, force = str(d["code"]), str(d["name"]), d["type"], d.get("force")
        except (KeyError, TypeError) as exc:
            raise SetupError(f"bad card {d!r}: {exc!r}", code="bad_catalog") from exc
        if special:
            if type_ != "X" or force is not None:
                raise SetupError(f"{code}: a Special card has type X and no force", code="bad_catalog")
        elif type_ not in TYPES or not isinstance(force, int) or isinstance(force, bool):
            raise SetupError(f"{code}: type must be one of {TYPES} and force an int", code="bad_catalog")
        return cls(code=code, name=name, type=type_, force=force, notes=str(d.get("notes") or ""),
                   abilities=_abilities(d.get("abilities", [])))

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "type": self.type, "force": self.force,
                "notes": self.notes, "abilities": [a.to_dict() for a in self.abilities]}


@dataclass(frozen=True, slots=True)
class SpecialUse:
    """How a nationality may use a Special card: as a card of `type` with `force` and abilities, or (type
    None) as an action of its own (Industrial Giant: discard & draw 2 cards)."""

    id: str            # slug of the name, e.g. "panzer-tanks": the `use` field of an action
    nationality: str
    name: str
    type: str | None
    force: int | None
    abilities: tuple[Ability, ...]
    text: str

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SpecialUse:
        try:
            nat, name, type_, force = d["nationality"], str(d["name"]), d.get("type"), d.get("force")
        except (KeyError, TypeError) as exc:
            raise SetupError(f"bad special use {d!r}: {exc!r}", code="bad_catalog") from exc
        if nat not in NATIONALITIES:
            raise SetupError(f"unknown nationality {nat!r}", code="bad_catalog")
        if type_ is not None and (type_ not in TYPES or not isinstance(force, int)):
            raise SetupError(f"{name}: type must be one of {TYPES} with an int force", code="bad_catalog")
        abilities = _abilities(d.get("abilities", []))
        if type_ is None and not any(a.kind == "discard_and_draw" for a in abilities):
            raise SetupError(f"{name}: a use without a type must discard & draw", code="bad_catalog")
        return cls(id=slug(name), nationality=nat, name=name, type=type_, force=force, abilities=abilities,
                   text=str(d.get("text") or ""))

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "nationality": self.nationality, "name": self.name, "type": self.type,
                "force": self.force, "abilities": [a.to_dict() for a in self.abilities], "text": self.text}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True)
class BattlefrontCatalog:
    cards: dict[str, Card]                          # the 70 cards of the shared deck, in printed order
    special_cards: dict[str, Card]                  # the 5 Special cards (OPTIONAL SPECIAL CARDS RULES)
    special_uses: dict[str, tuple[SpecialUse, ...]]  # nationality -> its uses, printed order

    def __hash__(self) -> int:
        return id(self)

    @classmethod
    def from_dicts(cls, cards: Iterable[Mapping[str, Any]], special_cards: Iterable[Mapping[str, Any]] = (),
                   special_uses: Iterable[Mapping[str, Any]] = ()) -> BattlefrontCatalog:
        main: dict[str, Card] = {}
        for d in cards:
            card = Card.from_dict(d)
            if card.code in main:
                raise SetupError(f"card {card.code} twice", code="bad_catalog")
            main[card.code] = card
        specials: dict[str, Card] = {}
        for d in special_cards:
            card = Card.from_dict(d, special=True)
            if card.code in main or card.code in specials:
                raise SetupError(f"card {card.code} twice", code="bad_catalog")
            specials[card.code] = card
        uses: dict[str, list[SpecialUse]] = {nat: [] for nat in NATIONALITIES}
        for d in special_uses:
            use = SpecialUse.from_dict(d)
            if any(u.id == use.id for u in uses[use.nationality]):
                raise SetupError(f"special use {use.id} twice", code="bad_catalog")
            uses[use.nationality].append(use)
        return cls(main, specials, {nat: tuple(u) for nat, u in uses.items()})

    def card(self, code: str) -> Card:
        card = self.cards.get(code) or self.special_cards.get(code)
        if card is None:
            raise KeyError(code)
        return card

    def use(self, nationality: str, use_id: str) -> SpecialUse | None:
        for u in self.special_uses.get(nationality, ()):
            if u.id == use_id:
                return u
        return None


def load_cards(path: str | Path = DEFAULT_CARDS_FILE) -> BattlefrontCatalog:
    """The catalog from fixtures/battlefront/cards.json (a pure file read)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return BattlefrontCatalog.from_dicts(data["cards"], data.get("special_cards", ()),
                                         data.get("special_uses", ()))
