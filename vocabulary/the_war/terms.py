"""The War's terms: the rulebook's categories, unit types and subtypes, features, effects, deck limits."""


from dataclasses import dataclass
from enum import StrEnum

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
