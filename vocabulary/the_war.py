"""The War's card vocabulary: categories, unit types, features, effects, deck limits, and the fixture loader.

Source (the law of this game): `../shared/seeds/the-war-rules.txt`, the second-edition rulebook. Every
name in the enums below is a word that rulebook defines; a card in `fixtures/the_war/cards.json` may carry
nothing else (`load_catalog` rejects it). Pure Python: no Django, no app imports (import-linter contract
"The card vocabulary is pure Python").

The card format (one JSON object per card; `fixtures/README.md`, "The War", has the readings it rests on):

    code           stable lowercase code, "tw-<name>"                     (never changes)
    title          the printed name; two cards are identical when their titles are ("Main Part")
    category       resource | unit | improvement | battlefield-condition | special | hero
    army           red-army | wehrmacht | null (no army: basic resources, locations, Panic, Capture)
    number, rarity the printed collector number and rarity (only KV-1 (1940) prints them: ST-005, U)
    cost           [{resource, amount, resource_cards_only}]: depot / plant / fuel, the "red symbol" flag
    resource_kind  basic | special (resources);  yields: the resources a resource card gives when rotated
    unit_type, subtype, line (1 or 2), attack, defense, aa_attack, bombing_power, deck_hit
                   (resource cards have a defense too: "they have "defense" parameter")
    bonuses        [{against: [unit types or subtypes], attack, defense}]
                   ("+1/2 in combat against armored units")
    features       the rulebook's unit features only (Feature)
    restrictions   the rulebook's type rules a card states (Restriction)
    attack_cost    resources spent for each attack ("For attacks: {F}")
    abilities      [{kind, value, cost, rotate}] (AbilityKind)
    effects        [{kind, ...}] what an improvement, condition, special card or hero does (EffectKind)
    elimination    {deck_cards: N, breakthrough_power: N} how an opponent removes a battlefield condition
    maintenance    resources paid at the start of each build phase to keep a battlefield condition
    location       true for a Location battlefield condition;  hero_mode: improvement | special | unit
    rotate_to_play [feature]: playing the card rotates one of its owner's non-rotated units in play with that
                   feature ("Rotation of such unit may also be a requirement of playing some special cards")
    text           the card's text lines (printed where seed)
    provenance     {field: {source: "seed", section, quote} | {source: "estimated", note}} for every value
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

GAME = "the-war"

# "Main Part": "Total number of cards in a deck must be 60. Only four copies of each card (except "basic
# resource" cards) are allowed in a deck. Two cards are identical if they have the same title."
DECK_SIZE = 60
MAX_COPIES_PER_TITLE = 4
# "Hero cards": "Only one copy of a particular hero card is allowed in a deck."
MAX_HERO_COPIES = 1

RULEBOOK = "../shared/seeds/the-war-rules.txt"

# The rulebook's section headings, in order (a seed value's `section` is one of them).
SECTIONS: tuple[str, ...] = (
    "Main Part",
    "Rotating and restoring cards",
    "Types and categories of cards",
    "Unit parameters",
    "Building units",
    "Defense (blocking)",
    "Combat engagement and units fighting jointly.",
    "Calculating combat results",
    "Breakthrough to the 2nd line",
    "Attacking opponent's deck",
    "Winning and losing",
    "Unit types and subtypes and their features",
    "Unit features.",
    "Rules for particular cards and card types",
    "Turn scheme (order of phases)",
)


class Army(StrEnum):
    """ "Usually one player fights for the Red Army and the other for Wehrmacht (Nazi army)." """

    RED_ARMY = "red-army"
    WEHRMACHT = "wehrmacht"


class Category(StrEnum):
    """ "All cards are classified into following categories: resource cards, unit cards, improvement cards,
    battlefield condition cards, special (tactical) cards and hero cards." """

    RESOURCE = "resource"
    UNIT = "unit"
    IMPROVEMENT = "improvement"
    BATTLEFIELD_CONDITION = "battlefield-condition"
    SPECIAL = "special"
    HERO = "hero"


class ResourceKind(StrEnum):
    """ "Resource cards are sub-classified into "basic" ("depot", "plant", "fuel") and "special"." """

    BASIC = "basic"
    SPECIAL = "special"


class Resource(StrEnum):
    """Depot ({D}), Plant ({P}), Fuel ({F}). A cost "1/5/1" is depot/plant/fuel ("Unit parameters")."""

    DEPOT = "depot"
    PLANT = "plant"
    FUEL = "fuel"


RESOURCE_SYMBOLS = {"D": Resource.DEPOT, "P": Resource.PLANT, "F": Resource.FUEL}
COST_ORDER = (Resource.DEPOT, Resource.PLANT, Resource.FUEL)


class Rarity(StrEnum):
    """Only "U" is printed (the KV-1 (1940) example); C and R are the other letters of the usual scale."""

    COMMON = "C"
    UNCOMMON = "U"
    RARE = "R"


class UnitType(StrEnum):
    """ "Unit types and subtypes and their features" (and "special troops" of the introduction)."""

    INFANTRY = "infantry"
    ARMORED = "armored"
    FORTIFICATION = "fortification"
    ARTILLERY = "artillery"
    AIR = "air"
    SPECIAL_TROOPS = "special-troops"


class UnitSubtype(StrEnum):
    """Every subtype the rulebook lists, exactly (its wording in the comment)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"  # "Cavalry and motorized infantry are also considered as infantry."
    MOTORIZED_INFANTRY = "motorized-infantry"
    LIGHT_TANK = "light-tank"  # "tanks (light, medium and heavy), armored cars, self-propelled guns (SPG),
    MEDIUM_TANK = "medium-tank"  # armored trains, assault guns"
    HEAVY_TANK = "heavy-tank"
    ARMORED_CAR = "armored-car"
    SELF_PROPELLED_GUN = "self-propelled-gun"
    ARMORED_TRAIN = "armored-train"
    ASSAULT_GUN = "assault-gun"
    FORTIFICATION = "fortification"  # "Fortifications are well-protected stationary firing positions"
    ANTI_TANK_GUN = "anti-tank-gun"  # "Field artillery (Anti-tank and close support guns)"
    CLOSE_SUPPORT_GUN = "close-support-gun"
    HEAVY_MORTAR = "heavy-mortar"  # "Heavy mortars, howitzers and self-propelled howitzers"
    HOWITZER = "howitzer"
    SELF_PROPELLED_HOWITZER = "self-propelled-howitzer"
    ROCKET_LAUNCHER = "rocket-launcher"  # "Rocket launchers are positioned at the 2nd line"
    HEAVY_ARTILLERY = "heavy-artillery"  # "Heavy artillery is positioned at the 2nd line"
    LIGHT_AA = "light-aa-artillery"  # "Two types of AA artillery exist - heavy and light."
    HEAVY_AA = "heavy-aa-artillery"
    FIGHTER = "fighter"  # "Fighters may intercept"
    BOMBER = "bomber"  # "Bombers can attack units at 1st and 2nd lines"
    STRATEGIC_BOMBER = "strategic-bomber"  # "can't fight strategic bombers"
    GROUND_ATTACK_AIRCRAFT = (
        "ground-attack-aircraft"  # "Ground-attack aircrafts are a special kind of bombers"
    )
    TROOP_CARRYING_AIRCRAFT = "troop-carrying-aircraft"  # "Paratroopers" and "Troop-carrying aircraft"
    SCOUTS = "scouts"  # "Scout party"
    PARATROOPERS = "paratroopers"
    GUERILLAS = "guerillas"  # "special troops (e.g. Guerillas)"


S = UnitSubtype
SUBTYPES: dict[UnitType, tuple[UnitSubtype, ...]] = {
    UnitType.INFANTRY: (S.INFANTRY, S.CAVALRY, S.MOTORIZED_INFANTRY),
    UnitType.ARMORED: (
        S.LIGHT_TANK,
        S.MEDIUM_TANK,
        S.HEAVY_TANK,
        S.ARMORED_CAR,
        S.SELF_PROPELLED_GUN,
        S.ARMORED_TRAIN,
        S.ASSAULT_GUN,
    ),
    UnitType.FORTIFICATION: (S.FORTIFICATION,),
    UnitType.ARTILLERY: (
        S.ANTI_TANK_GUN,
        S.CLOSE_SUPPORT_GUN,
        S.HEAVY_MORTAR,
        S.HOWITZER,
        S.SELF_PROPELLED_HOWITZER,
        S.ROCKET_LAUNCHER,
        S.HEAVY_ARTILLERY,
        S.LIGHT_AA,
        S.HEAVY_AA,
    ),
    UnitType.AIR: (
        S.FIGHTER,
        S.BOMBER,
        S.STRATEGIC_BOMBER,
        S.GROUND_ATTACK_AIRCRAFT,
        S.TROOP_CARRYING_AIRCRAFT,
    ),
    UnitType.SPECIAL_TROOPS: (S.SCOUTS, S.PARATROOPERS, S.GUERILLAS),
}
FIELD_ARTILLERY = frozenset({S.ANTI_TANK_GUN, S.CLOSE_SUPPORT_GUN})
TANKS = frozenset({S.LIGHT_TANK, S.MEDIUM_TANK, S.HEAVY_TANK})
BOMBERS = frozenset({S.BOMBER, S.STRATEGIC_BOMBER, S.GROUND_ATTACK_AIRCRAFT})
# Non-artillery units with an AA attack ("tank or APC based AA guns") keep their own type.


class Feature(StrEnum):
    """ "Units may have one or more of the following features: tactical mobility, targeted attack,
    breakthrough, elite, scout party, lend-lease unit, captured equipment." """

    MOBILITY = "mobility"
    TARGETED_ATTACK = "targeted-attack"
    BREAKTHROUGH = "breakthrough"
    ELITE = "elite"
    SCOUT_PARTY = "scout-party"
    LEND_LEASE = "lend-lease"
    CAPTURED_EQUIPMENT = "captured-equipment"  # "Trophy unit"


class Restriction(StrEnum):
    """Type rules of the rulebook that a card states (or its type implies)."""

    CANNOT_BE_BLOCKED_BY_INFANTRY = "cannot-be-blocked-by-infantry"  # heavy tanks
    CANNOT_BLOCK_HEAVY_TANKS = "cannot-block-heavy-tanks"  # "Infantry can't block heavy tanks"
    CANNOT_ATTACK = "cannot-attack"  # field artillery, fortifications, mortars, howitzers, AA artillery
    CANNOT_BLOCK = "cannot-block"  # mortars, howitzers, heavy artillery ("can't attack or block")
    FIXED_POSITION = "fixed-position"  # "Position of some units can't be changed"
    BLOCKED_ONLY_BY_FIGHTERS = "blocked-only-by-fighters"  # bombers "can't be blocked ... except fighters"
    FIRST_LINE_TARGETS_ONLY = "first-line-targets-only"  # ground-attack aircraft


class AbilityKind(StrEnum):
    """Units' special abilities the rulebook describes."""

    ARTILLERY_SUPPORT = "artillery-support"  # value: the attack bonus given (howitzers, some mortars)
    SALVO = (
        "salvo"  # rocket launchers: value damage to a 1st-line unit, not struck back; resources + rotation
    )
    DECK_HIT = "deck-hit"  # heavy artillery: value cards put from the deck to losses; rotation
    ASSAULT_LANDING = "assault-landing"  # paratroopers, carried by a troop-carrying aircraft


class EffectKind(StrEnum):
    """What improvements, battlefield conditions, special cards and heroes do, in the rulebook's terms."""

    MODIFY = "modify"  # attack/defense change (+1/+1 of "Awarded infantryman", -2/-1 of "River")
    FORBID = "forbid"  # action: attack | targeted-attack | block ("heavy tanks can't attack at all")
    GRANT_FEATURE = "grant-feature"  # feature: one of Feature
    DAMAGE = "damage"  # amount: damage dealt outside combat engagement ("a salvo of rocket launcher")
    DECK_HIT = "deck-hit"  # amount: "some special cards are also able to hit the deck"
    ROTATE = "rotate"  # the target rotates (cannot attack, block or support this turn)
    TAKE_CONTROL = "take-control"  # the target unit changes sides ("Capture")
    MOVE_LINE = "move-line"  # the target unit moves to its owner's other line (a fortification is lost)
    LOOK_AT_HAND = "look-at-hand"  # see the opponent's hand (what a scout party does)
    ENABLE_LEND_LEASE = (
        "enable-lend-lease"  # "Lend-lease units. May be built only if ... "Lend-lease" resources"
    )
    UNIT = "unit"  # a hero that "come[s] into play as units themselves": the card's unit values apply


class Side(StrEnum):
    OWN = "own"
    ENEMY = "enemy"
    BOTH = "both"  # locations "affect both sides"


class When(StrEnum):
    ALWAYS = "always"
    ATTACKING = "attacking"
    BLOCKING = "blocking"


class Domain(StrEnum):
    GROUND = "ground"
    AIR = "air"


class Action(StrEnum):
    ATTACK = "attack"
    TARGETED_ATTACK = "targeted-attack"
    BLOCK = "block"


class HeroMode(StrEnum):
    """ "These cards may improve parameters of units, work like special cards or come into play as units." """

    IMPROVEMENT = "improvement"
    SPECIAL = "special"
    UNIT = "unit"


class Source(StrEnum):
    SEED = "seed"
    ESTIMATED = "estimated"


# What each subtype is, by the rulebook: its line, the features every card of it bears, the rules it states.
@dataclass(frozen=True, slots=True)
class SubtypeRules:
    line: int
    features: frozenset[Feature] = frozenset()
    restrictions: frozenset[Restriction] = frozenset()
    attack_fuel: bool = False  # "Fuel spending is required for attack of heavy tanks" / "bomber attacks"


R, F = Restriction, Feature
_ARTY_2ND = frozenset({R.CANNOT_ATTACK, R.CANNOT_BLOCK, R.FIXED_POSITION})
_BOMBER = frozenset({R.FIXED_POSITION, R.BLOCKED_ONLY_BY_FIGHTERS})
SUBTYPE_RULES: dict[UnitSubtype, SubtypeRules] = {
    S.INFANTRY: SubtypeRules(1, restrictions=frozenset({R.CANNOT_BLOCK_HEAVY_TANKS})),
    S.CAVALRY: SubtypeRules(1, restrictions=frozenset({R.CANNOT_BLOCK_HEAVY_TANKS})),
    S.MOTORIZED_INFANTRY: SubtypeRules(1, restrictions=frozenset({R.CANNOT_BLOCK_HEAVY_TANKS})),
    S.LIGHT_TANK: SubtypeRules(1, features=frozenset({F.TARGETED_ATTACK})),
    S.MEDIUM_TANK: SubtypeRules(1, features=frozenset({F.TARGETED_ATTACK})),
    S.HEAVY_TANK: SubtypeRules(
        1, restrictions=frozenset({R.CANNOT_BE_BLOCKED_BY_INFANTRY}), attack_fuel=True
    ),
    S.ARMORED_CAR: SubtypeRules(1),
    S.SELF_PROPELLED_GUN: SubtypeRules(1, features=frozenset({F.TARGETED_ATTACK})),
    S.ARMORED_TRAIN: SubtypeRules(1),
    S.ASSAULT_GUN: SubtypeRules(1),
    S.FORTIFICATION: SubtypeRules(1, restrictions=frozenset({R.CANNOT_ATTACK, R.FIXED_POSITION})),
    S.ANTI_TANK_GUN: SubtypeRules(1, restrictions=frozenset({R.CANNOT_ATTACK})),
    S.CLOSE_SUPPORT_GUN: SubtypeRules(1, restrictions=frozenset({R.CANNOT_ATTACK})),
    S.HEAVY_MORTAR: SubtypeRules(2, restrictions=_ARTY_2ND),
    S.HOWITZER: SubtypeRules(2, restrictions=_ARTY_2ND),
    S.SELF_PROPELLED_HOWITZER: SubtypeRules(2, restrictions=_ARTY_2ND),
    S.ROCKET_LAUNCHER: SubtypeRules(2, restrictions=frozenset({R.FIXED_POSITION})),
    S.HEAVY_ARTILLERY: SubtypeRules(2, restrictions=_ARTY_2ND),
    S.LIGHT_AA: SubtypeRules(2, restrictions=frozenset({R.CANNOT_ATTACK})),
    S.HEAVY_AA: SubtypeRules(2, restrictions=frozenset({R.CANNOT_ATTACK})),
    S.FIGHTER: SubtypeRules(2, restrictions=frozenset({R.FIXED_POSITION})),
    S.BOMBER: SubtypeRules(
        2, features=frozenset({F.TARGETED_ATTACK}), restrictions=_BOMBER, attack_fuel=True
    ),
    S.STRATEGIC_BOMBER: SubtypeRules(
        2, features=frozenset({F.TARGETED_ATTACK}), restrictions=_BOMBER, attack_fuel=True
    ),
    S.GROUND_ATTACK_AIRCRAFT: SubtypeRules(
        2,
        features=frozenset({F.TARGETED_ATTACK}),
        restrictions=_BOMBER | {R.FIRST_LINE_TARGETS_ONLY},
        attack_fuel=True,
    ),
    S.TROOP_CARRYING_AIRCRAFT: SubtypeRules(2, restrictions=frozenset({R.FIXED_POSITION})),
    S.SCOUTS: SubtypeRules(
        1, features=frozenset({F.SCOUT_PARTY}), restrictions=frozenset({R.FIXED_POSITION})
    ),
    S.PARATROOPERS: SubtypeRules(2, restrictions=frozenset({R.FIXED_POSITION})),
    S.GUERILLAS: SubtypeRules(1, restrictions=frozenset({R.FIXED_POSITION})),
}
del R, F


def unit_type_of(subtype: UnitSubtype) -> UnitType:
    return next(t for t, subs in SUBTYPES.items() if subtype in subs)


# --------------------------------------------------------------------------------------------- card data


class TheWarDataError(ValueError):
    """A bad value in The War's fixture files; the message names the file, the card and the field."""


@dataclass(frozen=True, slots=True)
class Provenance:
    source: Source
    section: str | None = None  # seed: a heading of SECTIONS
    quote: str | None = None  # seed: a short quote that occurs verbatim in the rulebook
    note: str | None = None  # estimated: the method


@dataclass(frozen=True, slots=True)
class CostItem:
    resource: Resource
    amount: int
    resource_cards_only: bool = False  # the red symbol: "must be obtained only from resource cards"


@dataclass(frozen=True, slots=True)
class Bonus:
    """ "gains +1/2 in combat against armored units": applies only when every enemy unit in the engagement
    belongs to one of `against` (unit types or subtypes)."""

    against: tuple[str, ...]
    attack: int = 0
    defense: int = 0


@dataclass(frozen=True, slots=True)
class Ability:
    kind: AbilityKind
    value: int | None = None
    cost: tuple[CostItem, ...] = ()
    rotate: bool = True


@dataclass(frozen=True, slots=True)
class Target:
    """Which units an effect applies to: a side, optionally unit types / subtypes / domain / line / elite."""

    side: Side = Side.OWN
    unit_types: tuple[UnitType, ...] = ()
    subtypes: tuple[UnitSubtype, ...] = ()
    domain: Domain | None = None
    line: int | None = None
    elite: bool | None = None  # False: "cannot be targeted" for elite units (Panic, Capture)


@dataclass(frozen=True, slots=True)
class Effect:
    kind: EffectKind
    target: Target = field(default_factory=Target)
    attack: int = 0
    defense: int = 0
    amount: int | None = None
    action: Action | None = None
    feature: Feature | None = None
    when: When = When.ALWAYS


@dataclass(frozen=True, slots=True)
class Elimination:
    """How an opponent removes a battlefield condition (the symbols at its top left)."""

    deck_cards: int | None = None  # "put a number of cards equal to N from the top of his deck to losses"
    breakthrough_power: int | None = None  # "total attack power parameter of these units"


@dataclass(frozen=True, slots=True)
class CardDef:
    code: str
    title: str
    category: Category
    army: Army | None
    provenance: Mapping[str, Provenance]
    number: str | None = None
    rarity: Rarity | None = None
    cost: tuple[CostItem, ...] = ()
    resource_kind: ResourceKind | None = None
    yields: tuple[CostItem, ...] = ()
    unit_type: UnitType | None = None
    subtype: UnitSubtype | None = None
    line: int | None = None
    attack: int | None = None
    defense: int | None = None
    aa_attack: int | None = None
    bombing_power: int | None = None
    deck_hit: int | None = None
    bonuses: tuple[Bonus, ...] = ()
    features: tuple[Feature, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    attack_cost: tuple[CostItem, ...] = ()
    abilities: tuple[Ability, ...] = ()
    effects: tuple[Effect, ...] = ()
    elimination: Elimination | None = None
    maintenance: tuple[CostItem, ...] = ()
    location: bool = False
    hero_mode: HeroMode | None = None
    rotate_to_play: tuple[Feature, ...] = ()
    text: tuple[str, ...] = ()

    @property
    def is_basic_resource(self) -> bool:
        return self.category == Category.RESOURCE and self.resource_kind == ResourceKind.BASIC

    @property
    def is_hero(self) -> bool:
        return self.category == Category.HERO

    @property
    def max_copies(self) -> int | None:
        """Copies of this title a deck may hold: None (no limit) for basic resources, 1 for heroes, else 4."""
        if self.is_basic_resource:
            return None
        return MAX_HERO_COPIES if self.is_hero else MAX_COPIES_PER_TITLE

    def cost_of(self, resource: Resource) -> int:
        return sum(item.amount for item in self.cost if item.resource == resource)

    @property
    def cost_total(self) -> int:
        return sum(item.amount for item in self.cost)


@dataclass(frozen=True, slots=True)
class StarterDef:
    code: str
    name: str
    army: Army
    entries: Mapping[str, int]
    provenance: Mapping[str, Provenance]


@dataclass(frozen=True, slots=True)
class TheWarCatalog:
    cards: Mapping[str, CardDef]
    starters: Mapping[str, StarterDef]
    # The engine's rules revision a game's frozen snapshot records (games.definitions.the_war.TheWar); None
    # (the fixture files, a new game): the engine's current revision
    # (games.engine.the_war.setup.RULES_REVISION).
    rules_revision: int | None = None

    def by_title(self) -> dict[str, list[CardDef]]:
        out: dict[str, list[CardDef]] = {}
        for card in self.cards.values():
            out.setdefault(card.title, []).append(card)
        return out


# --------------------------------------------------------------------------------------------- loader

CODE_RE = re.compile(r"^tw-[a-z0-9]+(?:-[a-z0-9]+)*$")
CARD_FIELDS = frozenset(CardDef.__slots__) - {"__weakref__"}
CARD_REQUIRED = frozenset({"code", "title", "category", "army", "provenance"})
# The fields a provenance entry may describe (sub-values as "field.part" are allowed, e.g. "cost.fuel").
PROVENANCE_FIELDS = CARD_FIELDS - {"code", "provenance"}
STARTER_PROVENANCE = frozenset({"name", "army", "entries"})


class _Reader:
    """Typed access to one JSON object; every error names where it is."""

    def __init__(self, where: str, data: Any, allowed: frozenset[str] | set[str]) -> None:
        if not isinstance(data, dict):
            raise TheWarDataError(f"{where}: expected an object, got {type(data).__name__}")
        unknown = set(data) - set(allowed)
        if unknown:
            raise TheWarDataError(f"{where}: unknown field(s) {sorted(unknown)}")
        self.where, self.data = where, data

    def err(self, key: str, problem: str) -> TheWarDataError:
        return TheWarDataError(f"{self.where}.{key}: {problem} (got {self.data.get(key)!r})")

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def str_(self, key: str, *, required: bool = False, pattern: re.Pattern[str] | None = None) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.err(key, "is required")
            return None
        if (
            not isinstance(value, str)
            or not value.strip()
            or (pattern is not None and not pattern.match(value))
        ):
            raise self.err(
                key, "must be a non-empty string" + (f" matching {pattern.pattern}" if pattern else "")
            )
        return value

    def int_(self, key: str, *, low: int = 0, high: int = 99) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.err(key, f"must be an integer from {low} to {high}")
        return value

    def bool_(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise self.err(key, "must be true or false")
        return value

    def enum(self, key: str, enum: type[StrEnum], *, required: bool = False) -> Any:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.err(key, "is required")
            return None
        try:
            return enum(value)
        except ValueError:
            raise self.err(key, f"must be one of {[e.value for e in enum]}") from None

    def list_(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.err(key, "must be a list")
        return value

    def enums(self, key: str, enum: type[StrEnum]) -> tuple[Any, ...]:
        out = []
        for i, item in enumerate(self.list_(key)):
            try:
                out.append(enum(item))
            except ValueError:
                raise TheWarDataError(
                    f"{self.where}.{key}[{i}]: {item!r} is not in the rulebook's vocabulary "
                    f"{[e.value for e in enum]}"
                ) from None
        if len(set(out)) != len(out):
            raise self.err(key, "repeats a value")
        return tuple(out)


def _costs(where: str, items: list[Any]) -> tuple[CostItem, ...]:
    out = []
    for i, raw in enumerate(items):
        r = _Reader(f"{where}[{i}]", raw, {"resource", "amount", "resource_cards_only"})
        amount = r.int_("amount", low=1, high=20)
        if amount is None:
            raise r.err("amount", "is required")
        out.append(
            CostItem(r.enum("resource", Resource, required=True), amount, r.bool_("resource_cards_only"))
        )
    if len({c.resource for c in out}) != len(out):
        raise TheWarDataError(f"{where}: a resource is listed twice")
    return tuple(out)


def _target(where: str, raw: Any) -> Target:
    r = _Reader(where, raw, {"side", "unit_types", "subtypes", "domain", "line", "elite"})
    elite = r.data.get("elite")
    if elite is not None and not isinstance(elite, bool):
        raise r.err("elite", "must be true, false or null")
    return Target(
        side=r.enum("side", Side) or Side.OWN,
        unit_types=r.enums("unit_types", UnitType),
        subtypes=r.enums("subtypes", UnitSubtype),
        domain=r.enum("domain", Domain),
        line=r.int_("line", low=1, high=2),
        elite=elite,
    )


def _effect(where: str, raw: Any) -> Effect:
    r = _Reader(where, raw, {"kind", "target", "attack", "defense", "amount", "action", "feature", "when"})
    kind = r.enum("kind", EffectKind, required=True)
    effect = Effect(
        kind=kind,
        target=_target(f"{where}.target", r.data.get("target", {})),
        attack=r.int_("attack", low=-9, high=9) or 0,
        defense=r.int_("defense", low=-9, high=9) or 0,
        amount=r.int_("amount", low=1, high=20),
        action=r.enum("action", Action),
        feature=r.enum("feature", Feature),
        when=r.enum("when", When) or When.ALWAYS,
    )
    needs = {
        EffectKind.MODIFY: effect.attack or effect.defense,
        EffectKind.FORBID: effect.action,
        EffectKind.GRANT_FEATURE: effect.feature,
        EffectKind.DAMAGE: effect.amount,
        EffectKind.DECK_HIT: effect.amount,
    }
    if kind in needs and not needs[kind]:
        raise TheWarDataError(
            f"{where}: a {kind} effect needs its value (attack/defense, action, feature, amount)"
        )
    return effect


def _provenance(where: str, raw: Any, fields: frozenset[str] | None = None) -> dict[str, Provenance]:
    if not isinstance(raw, dict) or not raw:
        raise TheWarDataError(f"{where}: provenance must be a non-empty object")
    out = {}
    for key, entry in raw.items():
        if key.split(".")[0] not in (PROVENANCE_FIELDS if fields is None else fields):
            raise TheWarDataError(f"{where}.{key}: provenance of an unknown field")
        r = _Reader(f"{where}.{key}", entry, {"source", "section", "quote", "note"})
        source = r.enum("source", Source, required=True)
        if source == Source.SEED:
            section = r.str_("section", required=True)
            if section not in SECTIONS:
                raise r.err("section", f"must be a heading of the rulebook {list(SECTIONS)}")
            out[key] = Provenance(source, section=section, quote=r.str_("quote", required=True))
        else:
            out[key] = Provenance(source, note=r.str_("note", required=True))
    return out


def parse_card(raw: Any, where: str = "card") -> CardDef:
    """One card from its JSON object; raises TheWarDataError on any bad or missing value."""
    r = _Reader(where, raw, CARD_FIELDS)
    code = r.str_("code", required=True, pattern=CODE_RE)
    where = r.where = f"{where} {code}"
    missing = CARD_REQUIRED - {k for k in r.data if k == "army" or r.data.get(k) is not None}
    if missing:
        raise TheWarDataError(f"{where}: missing field(s) {sorted(missing)}")
    category = r.enum("category", Category, required=True)
    subtype = r.enum("subtype", UnitSubtype)
    unit_type = r.enum("unit_type", UnitType)
    elimination = None
    if r.has("elimination"):
        e = _Reader(f"{where}.elimination", r.data["elimination"], {"deck_cards", "breakthrough_power"})
        elimination = Elimination(e.int_("deck_cards", low=1), e.int_("breakthrough_power", low=1))
    abilities = []
    for i, a in enumerate(r.list_("abilities")):
        ar = _Reader(f"{where}.abilities[{i}]", a, {"kind", "value", "cost", "rotate"})
        abilities.append(
            Ability(
                kind=ar.enum("kind", AbilityKind, required=True),
                value=ar.int_("value", low=1, high=20),
                cost=_costs(f"{where}.abilities[{i}].cost", ar.list_("cost")),
                rotate=ar.bool_("rotate") if "rotate" in a else True,
            )
        )
    bonuses = []
    for i, b in enumerate(r.list_("bonuses")):
        br = _Reader(f"{where}.bonuses[{i}]", b, {"against", "attack", "defense"})
        against = tuple(br.list_("against"))
        allowed = {t.value for t in UnitType} | {s.value for s in UnitSubtype}
        if not against or any(a not in allowed for a in against):
            raise br.err("against", "must list unit types or subtypes of the rulebook")
        bonuses.append(
            Bonus(against, br.int_("attack", low=-9, high=9) or 0, br.int_("defense", low=-9, high=9) or 0)
        )
    card = CardDef(
        code=code,
        title=r.str_("title", required=True),
        category=category,
        army=r.enum("army", Army),
        provenance=_provenance(f"{where}.provenance", r.data.get("provenance")),
        number=r.str_("number"),
        rarity=r.enum("rarity", Rarity),
        cost=_costs(f"{where}.cost", r.list_("cost")),
        resource_kind=r.enum("resource_kind", ResourceKind),
        yields=_costs(f"{where}.yields", r.list_("yields")),
        unit_type=unit_type,
        subtype=subtype,
        line=r.int_("line", low=1, high=2),
        attack=r.int_("attack", high=20),
        defense=r.int_("defense", high=20),
        aa_attack=r.int_("aa_attack", low=1, high=20),
        bombing_power=r.int_("bombing_power", low=1, high=20),
        deck_hit=r.int_("deck_hit", low=1, high=20),
        bonuses=tuple(bonuses),
        features=r.enums("features", Feature),
        restrictions=r.enums("restrictions", Restriction),
        attack_cost=_costs(f"{where}.attack_cost", r.list_("attack_cost")),
        abilities=tuple(abilities),
        effects=tuple(_effect(f"{where}.effects[{i}]", e) for i, e in enumerate(r.list_("effects"))),
        elimination=elimination,
        maintenance=_costs(f"{where}.maintenance", r.list_("maintenance")),
        location=r.bool_("location"),
        hero_mode=r.enum("hero_mode", HeroMode),
        rotate_to_play=r.enums("rotate_to_play", Feature),
        text=_texts(r),
    )
    _check_consistency(where, card)
    return card


def _texts(r: _Reader) -> tuple[str, ...]:
    lines = r.list_("text")
    if any(not isinstance(line, str) or not line.strip() for line in lines):
        raise r.err("text", "must be a list of non-empty strings")
    return tuple(lines)


def _check_consistency(where: str, c: CardDef) -> None:
    """The category decides which values a card has."""

    def bad(problem: str) -> TheWarDataError:
        return TheWarDataError(f"{where}: {problem}")

    is_unit = c.category == Category.UNIT or (c.category == Category.HERO and c.hero_mode == HeroMode.UNIT)
    unit_values = (c.unit_type, c.subtype, c.line, c.attack, c.defense)
    if is_unit:
        if any(v is None for v in unit_values):
            raise bad("a unit needs unit_type, subtype, line, attack and defense")
        if c.subtype not in SUBTYPES[c.unit_type]:
            raise bad(f"subtype {c.subtype} is not a subtype of {c.unit_type}")
    elif any(v is not None for v in (c.unit_type, c.subtype, c.line, c.aa_attack, c.bombing_power)) or any(
        (c.features, c.restrictions, c.bonuses, c.attack_cost, c.abilities)
    ):
        raise bad(
            f"a {c.category} card has no unit type, subtype, line, AA attack, bombing power, features, "
            "restrictions, bonuses, attack cost or abilities"
        )
    if not is_unit and c.attack is not None:
        raise bad("only units have an attack")
    if c.category == Category.RESOURCE:
        if c.resource_kind is None or not c.yields or c.defense is None:
            raise bad('a resource card needs resource_kind, yields and its "defense" parameter')
        if c.cost:
            raise bad("a resource card is put into play, not paid for: it has no cost")
        if c.resource_kind == ResourceKind.BASIC and (len(c.yields) != 1 or c.yields[0].amount != 1):
            raise bad('a basic resource "yields a single amount of specified resource"')
        if c.resource_kind == ResourceKind.BASIC and c.army is not None:
            raise bad("basic resources belong to no army")
    elif c.resource_kind is not None or c.yields:
        raise bad("only resource cards have resource_kind and yields")
    elif not is_unit and c.defense is not None:
        raise bad("only units and resource cards have a defense")
    elif not c.cost:
        raise bad("every card but a resource has a cost")
    if c.category != Category.BATTLEFIELD_CONDITION and (c.elimination or c.maintenance or c.location):
        raise bad("only battlefield conditions have elimination, maintenance or location")
    if c.location and c.army is not None:
        raise bad('locations "affect both sides": they belong to no army')
    if (c.category == Category.HERO) != (c.hero_mode is not None):
        raise bad("hero_mode is required for heroes and only for them")
    if (
        c.category in (Category.IMPROVEMENT, Category.BATTLEFIELD_CONDITION, Category.SPECIAL)
        and not c.effects
    ):
        raise bad(f"a {c.category} card needs its effects")
    if c.bombing_power is not None and c.unit_type != UnitType.AIR:
        raise bad("bombing power is an aircraft parameter")
    if c.subtype in BOMBERS and c.bombing_power is None:
        raise bad("bombers and ground-attack aircraft have a bombing power")
    if c.subtype in (S.LIGHT_AA, S.HEAVY_AA) and c.aa_attack is None:
        raise bad("AA artillery has an AA attack")
    heads = {key.split(".")[0] for key in c.provenance}
    for name in sorted(PROVENANCE_FIELDS - heads):
        value = getattr(c, name)
        if not (value is None or value == () or value is False):
            raise bad(f"{name} has a value but no provenance (every value is seed or estimated)")
    for key in c.provenance:
        head = key.split(".")[0]
        value = getattr(c, head)
        if (value is None or value == () or value is False) and head not in (
            "army",
            "features",
            "location",
            "line",
        ):
            raise bad(f"provenance for {key}, which has no value")


def parse_starter(raw: Any, cards: Mapping[str, CardDef], where: str = "starter") -> StarterDef:
    r = _Reader(where, raw, {"code", "name", "army", "entries", "provenance"})
    code = r.str_("code", required=True, pattern=CODE_RE)
    entries: dict[str, int] = {}
    for i, entry in enumerate(r.list_("entries")):
        er = _Reader(f"{where} {code}.entries[{i}]", entry, {"card", "count"})
        card = er.str_("card", required=True)
        count = er.int_("count", low=1, high=60)
        if card not in cards:
            raise er.err("card", "is not a card of cards.json")
        if count is None:
            raise er.err("count", "is required")
        if card in entries:
            raise er.err("card", "is listed twice")
        entries[card] = count
    return StarterDef(
        code=code,
        name=r.str_("name", required=True),
        army=r.enum("army", Army, required=True),
        entries=entries,
        provenance=_provenance(f"{where} {code}.provenance", r.data.get("provenance"), STARTER_PROVENANCE),
    )


def parse_catalog(cards_doc: Any, starters_doc: Any, *, rules_revision: int | None = None) -> TheWarCatalog:
    """Both fixture documents, validated; raises TheWarDataError naming the first bad value.
    `rules_revision`: the engine rules revision a game's snapshot records (None: the engine's current)."""
    if rules_revision is not None and (type(rules_revision) is not int or rules_revision < 1):
        raise TheWarDataError(f"rules_revision: expected a positive integer, got {rules_revision!r}")
    for name, doc, key in (("cards.json", cards_doc, "cards"), ("starters.json", starters_doc, "starters")):
        if not isinstance(doc, dict) or doc.get("game") != GAME or not isinstance(doc.get(key), list):
            raise TheWarDataError(f'{name}: expected {{"game": "{GAME}", "{key}": [...]}}')
    cards: dict[str, CardDef] = {}
    titles: dict[str, str] = {}
    for i, raw in enumerate(cards_doc["cards"]):
        card = parse_card(raw, f"cards.json[{i}]")
        if card.code in cards:
            raise TheWarDataError(f"cards.json[{i}]: duplicate code {card.code}")
        if card.title in titles:
            raise TheWarDataError(
                f"cards.json[{i}]: title {card.title!r} is also {titles[card.title]}'s: "
                "two cards are identical if they have the same title"
            )
        cards[card.code] = card
        titles[card.title] = card.code
    starters: dict[str, StarterDef] = {}
    for i, raw in enumerate(starters_doc["starters"]):
        starter = parse_starter(raw, cards, f"starters.json[{i}]")
        if starter.code in starters or starter.code in cards:
            raise TheWarDataError(f"starters.json[{i}]: duplicate code {starter.code}")
        starters[starter.code] = starter
    return TheWarCatalog(cards=cards, starters=starters, rules_revision=rules_revision)


FIXTURE_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "the_war"


def load_catalog(directory: Path | str = FIXTURE_DIR) -> TheWarCatalog:
    """Read and validate `cards.json` and `starters.json` of `directory` (default fixtures/the_war/)."""
    directory = Path(directory)
    docs = []
    for name in ("cards.json", "starters.json"):
        try:
            docs.append(json.loads((directory / name).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as exc:
            raise TheWarDataError(f"{name}: cannot be read as JSON: {exc}") from exc
    return parse_catalog(*docs)
