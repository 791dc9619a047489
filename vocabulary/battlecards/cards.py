"""Battlecards' card definitions as frozen values (arsenal, conflict and battlecards, sets, nations), each
built from its fixture dict by `from_dict` and checked against the terms (vocabulary.battlecards.terms)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vocabulary.battlecards.terms import (
    CONFLICT_CATEGORIES,
    CONFLICT_EFFECTS,
    KINDS,
    PROVENANCES,
    UNIT_CLASSES,
    CatalogError,
    freeze,
    is_single_copy,
    max_copies,
    thaw,
    validate_ability,
)


@dataclass(frozen=True, slots=True)
class Ability:
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "") -> Ability:
        validate_ability(data, where=where)
        params = tuple(sorted((k, freeze(v)) for k, v in data.items() if k != "kind"))
        return cls(kind=data["kind"], params=params)

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        return default

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: thaw(v) for k, v in self.params}}


@dataclass(frozen=True, slots=True)
class Stats:
    """Attack or defense against ground / air / sea. None means N/A (cannot attack / not applicable)."""

    ground: int | None = None
    air: int | None = None
    sea: int | None = None

    def vs(self, kind: str) -> int | None:
        return getattr(self, kind)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Stats:
        data = data or {}
        return cls(ground=data.get("ground"), air=data.get("air"), sea=data.get("sea"))

    def to_dict(self) -> dict[str, int | None]:
        return {"ground": self.ground, "air": self.air, "sea": self.sea}

    def is_empty(self) -> bool:
        return self.ground is None and self.air is None and self.sea is None


@dataclass(frozen=True, slots=True)
class ArsenalCardDef:
    code: str
    name: str
    nation: str
    side: str
    kind: str  # ground / air / sea: the stack it deploys to
    classes: tuple[str, ...]
    points: int
    max_per_deck: int | None  # the printed MAX / DECK, None: no limit (copies: effective_max_per_deck)
    attack: Stats
    defense: Stats
    phase: int | None  # 1-4; None for cards that never fire (leaders, devices)
    abilities: tuple[Ability, ...] = ()
    ukrainian: bool = False
    variant_of: str | None = None
    provenance: tuple[tuple[str, str], ...] = ()  # field -> "seed" | "estimated"

    @property
    def is_general(self) -> bool:
        return "general" in self.classes

    @property
    def is_leader(self) -> bool:
        return "leader" in self.classes

    @property
    def is_infantry(self) -> bool:
        return "infantry" in self.classes

    @property
    def is_artillery(self) -> bool:
        # FAQ GU3: anything with ARTILLERY on top; self-propelled guns count as non-artillery.
        artillery = ("artillery", "anti-aircraft-artillery", "railroad-gun", "coastal-gun")
        return any(c in self.classes for c in artillery)

    @property
    def is_combat_unit(self) -> bool:
        """Can fire or be fired at. Leaders and devices (radar, intelligence...) are not."""
        return not (self.attack.is_empty() and self.defense.is_empty())

    @property
    def is_single_copy(self) -> bool:
        """A general or a leader: one copy per deck (`max_copies`)."""
        return is_single_copy(self.classes)

    @property
    def effective_max_per_deck(self) -> int | None:
        """Copies allowed per deck (None: no limit); see `max_copies`."""
        return max_copies(classes=self.classes, max_per_deck=self.max_per_deck)

    def ability(self, kind: str) -> Ability | None:
        return next((a for a in self.abilities if a.kind == kind), None)

    def has(self, kind: str) -> bool:
        return self.ability(kind) is not None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, sides: Mapping[str, str]) -> ArsenalCardDef:
        code = d["code"]
        if d["nation"] not in sides:
            raise CatalogError(f"{code}: unknown nation {d['nation']!r}")
        if d["kind"] not in KINDS:
            raise CatalogError(f"{code}: kind must be one of {KINDS}")
        for c in d["classes"]:
            if c not in UNIT_CLASSES:
                raise CatalogError(f"{code}: unknown unit class {c!r}")
        phase = d.get("phase")
        if phase is not None and phase not in (1, 2, 3, 4):
            raise CatalogError(f"{code}: phase must be 1-4 or null")
        prov = d.get("provenance") or {}
        for key, value in prov.items():
            source = value["source"] if isinstance(value, Mapping) else value
            if source not in PROVENANCES:
                raise CatalogError(f"{code}: provenance of {key} must be seed or estimated")
        return cls(
            code=code,
            name=d["name"],
            nation=d["nation"],
            side=sides[d["nation"]],
            kind=d["kind"],
            classes=tuple(d["classes"]),
            points=int(d["points"]),
            max_per_deck=d.get("max_per_deck"),
            attack=Stats.from_dict(d.get("attack")),
            defense=Stats.from_dict(d.get("defense")),
            phase=phase,
            abilities=tuple(Ability.from_dict(a, where=code) for a in d.get("abilities", ())),
            ukrainian=bool(d.get("ukrainian", False)),
            variant_of=d.get("variant_of"),
            provenance=tuple(sorted(
                (k, v["source"] if isinstance(v, Mapping) else v) for k, v in prov.items()
            )),
        )


@dataclass(frozen=True, slots=True)
class ConflictCardDef:
    """A card of a conflict deck that is not a battlecard (events, build-ups, kept cards, the list card)."""

    code: str
    name: str
    theater: str
    set_code: str
    count: int
    category: str  # military-build-up / kept / immediate / battlecard-list
    action_number: int
    effect: str  # effect key the engine implements
    params: tuple[tuple[str, Any], ...] = ()
    text: str = ""

    def param(self, name: str, default: Any = None) -> Any:
        for key, value in self.params:
            if key == name:
                return thaw(value)
        return default

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ConflictCardDef:
        if d["category"] not in CONFLICT_CATEGORIES or d["category"] == "battlecard":
            raise CatalogError(f"{d['code']}: bad conflict category {d['category']!r}")
        schema = CONFLICT_EFFECTS.get(d["effect"])
        if schema is None:
            raise CatalogError(f"{d['code']}: unknown conflict effect {d['effect']!r}")
        params = d.get("params") or {}
        if set(params) != set(schema) or any(not isinstance(params[k], t) for k, t in schema.items()):
            raise CatalogError(f"{d['code']}: effect {d['effect']} takes params {sorted(schema)}")
        return cls(
            code=d["code"], name=d["name"], theater=d["theater"], set_code=d["set"], count=int(d["count"]),
            category=d["category"], action_number=int(d["action_number"]), effect=d["effect"],
            params=tuple(sorted((k, freeze(v)) for k, v in (d.get("params") or {}).items())),
            text=d.get("text", ""),
        )


@dataclass(frozen=True, slots=True)
class Forces:
    """Which stacks a side may commit to a battle."""

    ground: bool = False
    air: bool = False
    sea: bool = False
    non_artillery_ground_required: bool = False  # FAQ GU3: needed to START the battle, not to win it
    # e.g. ("artillery",) Baltic Sea, ("anti-aircraft-artillery",) Battle of Britain
    optional_ground_classes: tuple[str, ...] = ()

    def kinds(self) -> tuple[str, ...]:
        return tuple(k for k in KINDS if getattr(self, k))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Forces:
        return cls(
            ground=bool(d.get("ground")), air=bool(d.get("air")), sea=bool(d.get("sea")),
            non_artillery_ground_required=bool(d.get("non_artillery_ground_required", False)),
            optional_ground_classes=tuple(d.get("optional_ground_classes", ())),
        )


@dataclass(frozen=True, slots=True)
class Prerequisite:
    """`holder` (a nation code, or "allies"/"axis") must hold battlecard `battlecard` (FAQ CA3)."""

    holder: str
    battlecard: str


@dataclass(frozen=True, slots=True)
class BattlecardDef:
    code: str
    name: str
    theater: str
    set_code: str
    count: int
    action_number: int
    aggressor: str  # a nation code (e.g. "GB", "DE") or "drawing-player"
    aggressor_forces: Forces
    defender_forces: Forces
    prerequisites: tuple[Prerequisite, ...]
    victory_points: int
    homeland_of: str | None = None  # nation eliminated when it loses this battle as defender
    emergency_deployment: bool = False  # defender may emergency deploy when this is drawn
    special_victory: str | None = None  # e.g. "aggressor-loses-if-no-ground": see the engine
    special_victory_text: str = ""
    text: str = ""
    provenance: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BattlecardDef:
        prov = d.get("provenance") or {}
        return cls(
            code=d["code"], name=d["name"], theater=d["theater"], set_code=d["set"],
            count=int(d.get("count", 1)),
            action_number=int(d["action_number"]), aggressor=d["aggressor"],
            aggressor_forces=Forces.from_dict(d["aggressor_forces"]),
            defender_forces=Forces.from_dict(d["defender_forces"]),
            prerequisites=tuple(
                Prerequisite(p["holder"], p["battlecard"]) for p in d.get("prerequisites", ())
            ),
            victory_points=int(d["victory_points"]), homeland_of=d.get("homeland_of"),
            emergency_deployment=bool(d.get("emergency_deployment", False)),
            special_victory=d.get("special_victory"), special_victory_text=d.get("special_victory_text", ""),
            text=d.get("text", ""),
            provenance=tuple(sorted(
                (k, v["source"] if isinstance(v, Mapping) else v) for k, v in prov.items()
            )),
        )


@dataclass(frozen=True, slots=True)
class SetEntry:
    card: str
    count: int | None
    printed_name: str = ""
    count_provenance: str = "seed"


@dataclass(frozen=True, slots=True)
class CardSetDef:
    code: str
    name: str
    kind: str  # starter / expansion / conflict
    nation: str | None
    theater: str | None
    entries: tuple[SetEntry, ...]
    printed_points: int | None = None
    printed_cards: int | None = None

    def arsenal_counts(self) -> dict[str, int]:
        return {e.card: e.count for e in self.entries if e.count}


@dataclass(frozen=True, slots=True)
class NationDef:
    code: str
    name: str
    side: str
