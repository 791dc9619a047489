"""Battlecards' card terms: kinds, sides, unit classes, max copies per card, the ability and conflict-effect
vocabularies, and the one error a malformed catalog raises. Pure Python (no Django, no app imports)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
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


def freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value
