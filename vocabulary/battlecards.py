"""Battlecards' card vocabulary: card definitions as frozen values, and the catalog they form.

This module is the one contract between the catalog data (fixtures/catalog/*.json, loaded into the
database by `manage.py load_catalog`) and every consumer: the rules engine (games.engine), deck rules
(decks/rules.py) and the catalog app (cards). No app owns it. Pure Python: no Django, no app imports
(import-linter contract "The card vocabulary is pure Python").

It is also the one home of "max copies per card" (`max_copies`, `SINGLE_COPY_CLASSES`): the catalog API,
its filters and `?q=` search, deck rules, the engine's set-up check and the balance proposals all read it.

Two ways to build a Catalog, which must give equal values:
  * `load_catalog_dir(path)`      - straight from the fixture JSON (engine tests, bots, benchmarks)
  * `Catalog.from_dicts(...)`     - from plain dicts (the Django app serialises its rows to the same dicts)

Fixture JSON format (one file per kind; see fixtures/README.md for sources and estimation):
  nations.json      [{"code": "GB", "name": "British", "side": "allies"}, ...]
  theaters.json     [{"code": "WE", "name": "Western Europe"}, ...]
  sets.json         [{"code", "name", "kind": "starter"|"expansion"|"conflict", "nation": "GB"|null,
                      "theater": "WE", "printed_points": int|null, "printed_cards": int|null,
                      "notes": str, "entries": [{"card": code, "printed_name": str, "count": int|null,
                      "count_provenance": "seed"|"estimated", "count_note": str}]}]
  arsenal/*.json    [ArsenalCard dicts, see ArsenalCardDef.from_dict]
  conflict/*.json   {"conflict_cards": [ConflictCardDef dicts], "battlecards": [BattlecardDef dicts]}
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("ground", "air", "sea")
SIDES = ("allies", "axis")
PROVENANCES = ("seed", "estimated")

# Max copies per card. TO SET UP THE GAME: "only one representation of each LEADER or GENERAL" per arsenal
# deck, whatever its arsenal list prints; every other card allows the MAX / DECK its list prints (None: no
# limit). Everything that counts copies (deck rules, the engine's set-up check, the catalog API, its filters
# and search, balance proposals) asks here.
SINGLE_COPY_CLASSES = ("general", "leader")
SINGLE_COPY_MAX = 1


def is_single_copy(classes: Iterable[str]) -> bool:
    """True for a card of which a deck holds at most one copy (a general or a leader)."""
    return any(c in SINGLE_COPY_CLASSES for c in classes)


def max_copies(*, classes: Iterable[str], max_per_deck: int | None) -> int | None:
    """Copies of a card allowed in one deck (None: no limit), from its unit classes and printed MAX / DECK."""
    return SINGLE_COPY_MAX if is_single_copy(classes) else max_per_deck

UNIT_CLASSES = (
    "infantry", "special-forces", "tank", "self-propelled-gun", "tank-destroyer", "armored-car",
    "artillery", "anti-aircraft-artillery", "railroad-gun", "coastal-gun", "rocket",
    "general", "leader",
    "fighter", "fighter-bomber", "dive-bomber", "bomber", "interceptor", "jet",
    "battleship", "battlecruiser", "cruiser", "destroyer", "submarine", "fleet-carrier", "escort-carrier",
    "special",
)

# The ability vocabulary: kind -> {param name: type}. Every ability in the data uses one of these
# kinds with exactly these parameters (checked by validate_ability). The engine implements each kind.
ABILITY_SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    # Bonus to every OTHER friendly ground unit in the battle, while the general is present (FAQ G1, G3).
    "general_aura": {"attack": int, "defense": int},
    # Replaces the unit's normal fire in its phase (FAQ GU4): destroy one enemy unit of target_kinds whose
    # defense vs this unit's kind, bonuses included, is <= max_defense (FAQ G2). requires_infantry: a friendly
    # infantry unit must be present in the battle (FAQ GU5). first_round_only: special forces.
    "autokill": {
        "max_defense": int, "target_kinds": list, "requires_infantry": bool, "first_round_only": bool,
    },
    # Instead of firing, add bonus to the attack (all values) OR the defense (all values) of one
    # friendly unit, assigned at any time before the infantry fires; lasts the round (FAQ GU1, GP4).
    "infantry_support": {"bonus": int},
    # Instead of firing, add bonus to one friendly unit's attack against targets of target_kinds
    # (FAQ S5, GU2).
    "artillery_support": {"bonus": int, "target_kinds": list},
    # Instead of firing, add bonus to ALL attack values of another friendly ship (FAQ S3).
    "ship_support": {"bonus": int},
    # Each bonus goes once a round to the attack (all values) or the air defense of any friendly unit,
    # itself included; gone when the carrier dies (FAQ S4, GP7).
    "carrier_bonus": {"bonuses": list},
    # Fires once at each group of enemy units present (FAQ S1).
    "big_guns": {},
    # Big guns plus one more shot at any group (FAQ S1).
    "heavy_guns": {},
    # Untargetable before it fires except by destroyers/submarines (unless the enemy played Military
    # Intelligence or Stolen Plans); may withdraw right after firing (FAQ S6, S7, GP2).
    "submarine": {},
    # A deployed leader lets its owner draw and deploy `draw` extra arsenal cards at the start of any battle
    # involving any of the owner's stacks, Air Raids included (FAQ G5, C15).
    "leader": {"draw": int},
    # Ground-stack device: may join sea and air battles (optional), must join ground battles (FAQ C12, GP5);
    # adds air_defense_bonus to the air defense of every friendly unit in the battle.
    "radar": {"air_defense_bonus": int},
    # Before firing phase 1 ("phase 0"): destroy one enemy deployed unit of target_classes (FAQ GU4 note, G4).
    "sabotage": {"target_classes": list},
    # Bomber that fires twice a round; the delivery system an A-Bomb needs (FAQ C8).
    "double_attack": {},
    # When deployed: the top card of the enemy arsenal deck is removed from the game; this rocket is discarded
    # and its owner draws and deploys a replacement (Rules update 1.2 for a V-2 drawn as replacement).
    "v2_rocket": {},
    # In any battle with a sea unit (FAQ C13), every friendly unit gets attack_bonus and enemy submarines
    # lose their stealth.
    "codebreaker": {"attack_bonus": int},
    # Industry: whenever a military build-up card lets its owner draw and deploy, draw and deploy
    # `extra` more.
    "industry": {"extra": int},
    # Standing intelligence: counts as a played Military Intelligence card for its owner (submarine stealth,
    # A-Bomb prerequisite) and shows the enemy reserve hand to its owner.
    "intelligence": {},
}

CONFLICT_CATEGORIES = ("battlecard", "military-build-up", "kept", "immediate", "battlecard-list")

# Conflict-card effects: key -> {param: type}. The engine implements every key; the data uses only these.
# Play windows (when a kept card may be played) are part of each effect's definition in the engine.
CONFLICT_EFFECTS: dict[str, dict[str, type]] = {
    "battlecard-list": {},                      # set aside face up at set-up; never in play
    "build-up": {"draw": int, "deploy": int},   # draw N arsenal cards into the reserve hand, then deploy N
    # empty reserve hand: draw N (3); otherwise draw 1 and deploy 1
    "replenish": {"draw": int},
    # kept: re-fight a battlecard the enemy holds, as aggressor (FAQ CA1-3)
    "counterattack": {},
    # kept: on a DRAWN battlecard: shuffled back into the conflict deck
    "delay-tactics": {},
    # kept: on a DRAWN battlecard: discarded; the enemy draws the next conflict card; the drawing player
    # stays the same (FAQ C20)
    "misinformation": {},
    # kept: in a battle: enemy subs targetable by any unit (FAQ S6); shows the enemy reserve hand;
    # British A-Bomb prerequisite (FAQ C8)
    "military-intelligence": {},
    # kept: as military-intelligence, and shows the enemy kept cards
    "stolen-plans": {},
    # immediate: the enemy splits a chosen stack in two (FAQ C1, C2)
    "divide-and-conquer": {},
    # immediate: draw 3 if no reserve hand, OR swap hand<->stacks (C3, C4)
    "reorganize-forces": {},
    # immediate: browse one enemy stack, take one unit (FAQ C5, C7)
    "capture": {},
    # kept: turn over conflict cards until a battlecard (FAQ C6, C16)
    "pre-emptive-strike": {},
    "a-bomb": {},                               # kept: phase 2, destroys a whole enemy stack (FAQ G6, C8-C10)
    # kept: phase 0 each round: attack vs air defense of enemy ground (C11)
    "chemical-warfare": {"attack": int},
    # kept: battle start: destroy a chosen enemy ground unit (FAQ C13)
    "mine-fields": {},
    # kept: in a battle: one enemy unit must withdraw; discarded (FAQ C14)
    "lack-of-valor": {},
    # kept: a one-round air battle (counts as a battle, C15) or kills an IC
    "air-raid": {},
    "scorched-earth": {},                       # kept: on a battlecard you just lost: worth 0 VP (FAQ C17)
    "industrial-complex": {"extra": int},       # kept (stays): build-ups draw and deploy `extra` more
    "industrial-strike": {},                    # kept: destroys the enemy Industrial Complex (FAQ C18)
    # kept: destroy an enemy deployed general or leader (FAQ G4) or an IC
    "sabotage": {},
    # kept (Pacific, estimated): battle round start: one of your air units in the battle and one enemy ship in
    # it are destroyed
    "kamikaze": {},
    # kept (Eastern Front, estimated): battle round start: every enemy tank / self-propelled gun / tank
    # destroyer / armored car in the battle withdraws
    "russian-winter": {},
}


class CatalogError(ValueError):
    """The catalog data breaks the schema (raised while building definitions)."""


def validate_ability(ability: Mapping[str, Any], *, where: str = "") -> None:
    kind = ability.get("kind")
    if kind not in ABILITY_SCHEMA:
        raise CatalogError(f"{where}: unknown ability kind {kind!r}")
    params = {k: v for k, v in ability.items() if k != "kind"}
    schema = ABILITY_SCHEMA[kind]
    missing = set(schema) - set(params)
    extra = set(params) - set(schema)
    if missing or extra:
        raise CatalogError(
            f"{where}: ability {kind} params missing={sorted(missing)} unexpected={sorted(extra)}"
        )
    for name, typ in schema.items():
        value = params[name]
        if typ is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise CatalogError(f"{where}: ability {kind}.{name} must be an integer")
        if not isinstance(value, typ):
            raise CatalogError(f"{where}: ability {kind}.{name} must be {typ}")


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Ability:
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "") -> Ability:
        validate_ability(data, where=where)
        params = tuple(sorted((k, _freeze(v)) for k, v in data.items() if k != "kind"))
        return cls(kind=data["kind"], params=params)

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        return default

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: _thaw(v) for k, v in self.params}}


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
                return _thaw(value)
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
            params=tuple(sorted((k, _freeze(v)) for k, v in (d.get("params") or {}).items())),
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


DEFAULT_CATALOG_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "catalog"


def load_catalog_dir(root: str | Path = DEFAULT_CATALOG_DIR) -> Catalog:
    return Catalog.from_dicts(**read_fixture_dicts(root))
