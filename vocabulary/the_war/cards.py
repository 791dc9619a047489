"""The War's card data: a card's definition and its parts, a starter, the catalog."""


from collections.abc import Mapping
from dataclasses import dataclass, field

from vocabulary.the_war.terms import (
    MAX_COPIES_PER_TITLE,
    MAX_HERO_COPIES,
    AbilityKind,
    Action,
    Army,
    Category,
    Domain,
    EffectKind,
    Feature,
    HeroMode,
    Rarity,
    Resource,
    ResourceKind,
    Restriction,
    Side,
    Source,
    UnitSubtype,
    UnitType,
    When,
)

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
