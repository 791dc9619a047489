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

from vocabulary.the_war.cards import (
    Ability,
    Bonus,
    CardDef,
    CostItem,
    Effect,
    Elimination,
    Provenance,
    StarterDef,
    Target,
    TheWarCatalog,
    TheWarDataError,
)
from vocabulary.the_war.loader import (
    CARD_FIELDS,
    CARD_REQUIRED,
    CODE_RE,
    FIXTURE_DIR,
    PROVENANCE_FIELDS,
    STARTER_PROVENANCE,
    load_catalog,
    parse_card,
    parse_catalog,
    parse_starter,
)
from vocabulary.the_war.terms import (
    BOMBERS,
    COST_ORDER,
    DECK_SIZE,
    FIELD_ARTILLERY,
    GAME,
    MAX_COPIES_PER_TITLE,
    MAX_HERO_COPIES,
    RESOURCE_SYMBOLS,
    RULEBOOK,
    SECTIONS,
    SUBTYPE_RULES,
    SUBTYPES,
    TANKS,
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
    SubtypeRules,
    UnitSubtype,
    UnitType,
    When,
    unit_type_of,
)

__all__ = [
    "Ability",
    "AbilityKind",
    "Action",
    "Army",
    "BOMBERS",
    "Bonus",
    "CARD_FIELDS",
    "CARD_REQUIRED",
    "CODE_RE",
    "COST_ORDER",
    "CardDef",
    "Category",
    "CostItem",
    "DECK_SIZE",
    "Domain",
    "Effect",
    "EffectKind",
    "Elimination",
    "FIELD_ARTILLERY",
    "FIXTURE_DIR",
    "Feature",
    "GAME",
    "HeroMode",
    "MAX_COPIES_PER_TITLE",
    "MAX_HERO_COPIES",
    "PROVENANCE_FIELDS",
    "Provenance",
    "RESOURCE_SYMBOLS",
    "RULEBOOK",
    "Rarity",
    "Resource",
    "ResourceKind",
    "Restriction",
    "SECTIONS",
    "STARTER_PROVENANCE",
    "SUBTYPES",
    "SUBTYPE_RULES",
    "Side",
    "Source",
    "StarterDef",
    "SubtypeRules",
    "TANKS",
    "Target",
    "TheWarCatalog",
    "TheWarDataError",
    "UnitSubtype",
    "UnitType",
    "When",
    "load_catalog",
    "parse_card",
    "parse_catalog",
    "parse_starter",
    "unit_type_of",
]
