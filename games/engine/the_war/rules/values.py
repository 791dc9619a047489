"""Fighting values: modifiers, bonuses against a type, artillery support, rotated targets, airfields; the
points a unit deals; damage outside combat."""
from __future__ import annotations

from vocabulary.the_war import (
    AbilityKind,
    EffectKind,
)

from ...core.machine import emit
from ..state import WarState, WaveFrame
from .cards import card, destroy, is_air, matches, owner, rules_revision


def modifiers(st: WarState, cid: str, role: str, air_fight: bool) -> tuple[int, int]:
    """Attack/defense changes from improvements and battlefield conditions. Against enemy aircraft only
    those whose text names aircraft count ("Special cards, battlefield conditions, improvement cards and
    unit features don't affect combat parameters in combat engagement involving enemy aerial units")."""
    da = dd = 0
    sources = [imp for imp, unit in st.attached.items() if unit == cid]
    sources += st.zones["p1"]["conditions"] + st.zones["p2"]["conditions"] + st.active
    for src in sources:
        for e in card(st, src).effects:
            if e.kind != EffectKind.MODIFY or (e.when != "always" and e.when != role):
                continue
            if air_fight and e.target.domain != "air":
                continue
            if matches(st, cid, e.target, owner(src)):
                da += e.attack
                dd += e.defense
    return da, dd


def bonus_applies(st: WarState, against: tuple[str, ...], enemies: list[str]) -> bool:
    """"A unit having bonus in combat against certain unit type ... uses it only when all enemy units it
    fights in current combat engagement belong to this type (or one of types, if many)." """
    if not enemies:
        return False
    for e in enemies:
        c = card(st, e)
        if c.unit_type not in against and c.subtype not in against:
            return False
    return True


def base_values(st: WarState, cid: str, role: str = "always") -> tuple[int, int]:
    """Attack/defense with improvements and conditions, no bonus against a type (non-combat damage,
    breakthrough power)."""
    c = card(st, cid)
    da, dd = modifiers(st, cid, role, False)
    return max(0, (c.attack or 0) + da), (c.defense or 0) + dd


def fight_values(st: WarState, wave: WaveFrame | None, cid: str, role: str, enemies: list[str],
                 second_line: bool = False) -> list[int]:
    """[attack, defense] of a unit in one engagement (role attacking | blocking)."""
    c = card(st, cid)
    air_fight = any(is_air(card(st, e)) for e in enemies)
    if wave is not None and cid in wave.reduced:
        atk, df = wave.reduced[cid][:2]
    else:
        atk, df = c.attack or 0, c.defense or 0
        da, dd = modifiers(st, cid, role, air_fight)
        atk += da
        df += dd
        for b in c.bonuses:
            if bonus_applies(st, b.against, enemies):
                atk += b.attack
                df += b.defense
    if wave is not None:
        for h, u in wave.fire:
            if u == cid:
                atk += next(a.value or 0 for a in card(st, h).abilities
                            if a.kind == AbilityKind.ARTILLERY_SUPPORT)
        if cid in wave.passive:
            atk = 0  # "their attack power is considered to be zero and cannot be increased by any means"
    if (role == "blocking" and is_air(c) and second_line and enemies and not air_fight
            and not rotated_aircraft(st, wave, cid)):
        # "Parameters of an airfield (attack/defense) are 0/0. They are used against ground units
        # attacking it": the attacked aircraft's airfield only, never an aircraft striking behind the line
        atk, df = 0, 0
    return [max(0, atk), df]


def rotated_aircraft(st: WarState, wave: WaveFrame | None, cid: str) -> bool:
    """An aircraft attacked on its airfield that was rotated before the attack (rules revision 3): the
    airfield's 0/0 "are used against ground units attacking it if attacked air unit isn't rotated", so it
    fights as any rotated unit attacked: its own defense, no attack ("Rotated units retain their defense
    parameter ... their attack power is considered to be zero")."""
    return wave is not None and cid in wave.passive and rules_revision(st) >= 3


def points(st: WarState, cid: str, atk: int, enemies: list[str], mode: str | None = None) -> tuple[int, int]:
    """(ground points, air points) one unit deals in an engagement: one attack value only ("it may use
    only one of them"); a unit with AA-attack against aircraft and ground units uses the announced `mode`."""
    c = card(st, cid)
    enemy_air = any(is_air(card(st, e)) for e in enemies)
    enemy_ground = any(not is_air(card(st, e)) for e in enemies) or not enemies
    if is_air(c):
        if c.bombing_power and enemy_ground:
            return c.bombing_power, 0
        return 0, (atk if enemy_air else 0)
    if c.aa_attack and enemy_air and (mode == "air" or mode is None):
        return 0, c.aa_attack
    return (atk if enemy_ground else 0), 0


def non_combat_damage(st: WarState, cid: str, amount: int) -> None:
    """Damage from special cards and abilities: accumulates this wave; destroyed at its defense."""
    st.damage[cid] = st.damage.get(cid, 0) + amount
    emit(st, "damaged", {"card": cid, "amount": amount})
    if st.damage[cid] >= max(1, base_values(st, cid)[1]):
        destroy(st, cid)
