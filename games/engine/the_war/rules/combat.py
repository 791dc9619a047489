"""Combat engagements: who fights whom (R8), air combat, AA announcements, damage distributed point by point,
destruction."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    Category,
)

from ...core.machine import Decision, emit
from ..setup import (
    DECK,
    OTHER,
)
from ..state import Engagement, Pool, WarState, WaveFrame
from .air import escorts_of, interceptors
from .blocks import targeted_groups
from .book import WAVE_STAGES, next_stage
from .cards import alive, card, ctrl, destroy, is_air, mill, rules_revision
from .values import fight_values, points, rotated_aircraft


def ground_units(st: WarState, units: list[str]) -> list[str]:
    return [u for u in units if not is_air(card(st, u)) and card(st, u).category != Category.RESOURCE]


def air_units(st: WarState, units: list[str]) -> list[str]:
    return [u for u in units if is_air(card(st, u))]


def is_object(st: WarState, o: str | None) -> bool:
    return o is not None and (o == DECK or card(st, o).category == Category.RESOURCE)


def make_engagement(st: WarState, fr: WaveFrame, attackers: list[str], defenders: list[str],
                    target: str | None, second_line: bool = False,
                    restricted: dict[str, list[str]] | None = None) -> Engagement:
    """Fix every unit's values and the damage pools: each side's ground points go on enemy ground units,
    its air points (AA-attack, fighters) on enemy aircraft; a resource or the deck takes all the
    attackers' points; an interceptor facing escorts fights only them; bombers bomb an airfield."""
    restricted = restricted or {}
    eng = Engagement(list(attackers), list(defenders), target, second_line, restricted=dict(restricted))
    obj = second_line and is_object(st, target)
    airfield = second_line and target is not None and not obj and is_air(card(st, target))
    sums = {"attacker": [0, 0], "defender": [0, 0]}
    extra: list[Pool] = []
    for side, own, enemies, role in (("attacker", attackers, defenders, "attacking"),
                                     ("defender", defenders, attackers, "blocking")):
        for u in own:
            c = card(st, u)
            if c.category == Category.RESOURCE:
                eng.values[u] = [0, c.defense or 0]
                continue
            v = fight_values(st, fr, u, role, enemies, second_line)
            if airfield and u == target and not rotated_aircraft(st, fr, u):
                v = [v[0], 0]  # "Parameters of an airfield (attack/defense) are 0/0."
            eng.values[u] = v
            g, a = points(st, u, v[0], enemies, fr.aa_modes.get(u))
            if airfield and side == "attacker" and is_air(c) and c.bombing_power and u not in restricted:
                extra.append(Pool(side, c.bombing_power, [target or ""]))
            elif u in restricted:
                extra.append(Pool(side, g + a, list(restricted[u])))
            else:
                sums[side][0] += g
                sums[side][1] += a
    if obj:
        pools = [Pool("attacker", sums["attacker"][0] + sums["attacker"][1], [target or DECK])]
    else:
        pools = [Pool("attacker", sums["attacker"][0], ground_units(st, defenders)),
                 Pool("attacker", sums["attacker"][1], air_units(st, defenders))]
    pools += [p for p in extra if p.side == "attacker"]
    pools += [Pool("defender", sums["defender"][0], ground_units(st, attackers)),
              Pool("defender", sums["defender"][1], air_units(st, attackers))]
    pools += [p for p in extra if p.side == "defender"]
    eng.pools = [p for p in pools if p.points > 0]
    return eng


def with_air_combat(st: WarState, fr: WaveFrame, attackers: list[str], defenders: list[str],
                    engs: list[Engagement]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Attacking bombers, their escorts and the fighters intercepting them: an intercepted bomber without
    escort fights the interceptors alone (its attack on the object is cancelled); with escort, the
    interceptors must fight the escorts and the bomber goes on."""
    restricted: dict[str, list[str]] = {}
    for b in list(attackers):
        if not is_air(card(st, b)):
            continue
        esc = escorts_of(st, fr, b)
        attackers += [e for e in esc if e not in attackers]
        icp = interceptors(st, fr, b)
        if not icp:
            continue
        if esc:
            defenders += [i for i in icp if i not in defenders]
            for i in icp:
                restricted[i] = esc
        else:
            attackers.remove(b)
            engs.append(make_engagement(st, fr, [b], icp, None))
    return attackers, defenders, restricted


def w_engagements(st: WarState, fr: WaveFrame) -> None:
    """"Jointly fighting units and combat engagements are determined" (R8: in declaration order)."""
    engs: list[Engagement] = []
    for group in targeted_groups(fr):  # a target supporting another target fights jointly with it (R19)
        attackers = [u for u, x in fr.targeted if x in group and alive(st, u)]
        supporters = [s for s, y in fr.supports if y in group and s not in group]
        defenders = [x for x in group + supporters if alive(st, x)]
        attackers, defenders, forced = with_air_combat(st, fr, attackers, defenders, engs)
        if attackers and defenders:
            engs.append(make_engagement(st, fr, attackers, defenders, group[0], restricted=forced))
    for a in fr.general:
        if not alive(st, a):
            continue
        blocked = any(x == a for _, x in fr.blocks)
        fighting: list[str] = []
        extra: list[str] = []
        restricted: dict[str, list[str]] = {}
        for b in [b for b, x in fr.blocks if x == a and alive(st, b)]:
            icp = interceptors(st, fr, b)
            if not icp:
                fighting.append(b)
                continue
            sup = [s for s, x in fr.supports if x == b and alive(st, s)]
            if sup:  # the interceptor "must fight supporting fighter"; the aircraft still blocks
                fighting += [b] + sup
                extra += icp
                for i in icp:
                    restricted[i] = sup
            else:  # "The blocking aircraft is now unable to use its bombing power": air combat only
                engs.append(make_engagement(st, fr, icp, [b], None))
        if fighting:
            engs.append(make_engagement(st, fr, [a] + extra, fighting, None, restricted=restricted))
        elif not blocked:
            fr.through.append(a)  # unblocked: it reaches the 2nd line
    fr.engagements = engs
    fr.index = 0
    next_stage(fr, WAVE_STAGES)


def aa_choices(st: WarState, fr: WaveFrame) -> tuple[str, int] | None:
    """The next unit that must announce whether its AA-attack fights aircraft or its attack ground units
    (Example 3: "attacking player must announce whether his AA-gun fights an aircraft or a tank"). From rules
    revision 3 every unit with AA-attack facing aircraft announces it: "owner of this unit may use its AA
    attack voluntarily to shoot down enemy aircraft" (mode `none`: it does not, R10)."""
    voluntary = rules_revision(st) >= 3
    for i, eng in enumerate(fr.engagements):
        for side, enemies in ((eng.attackers, eng.defenders), (eng.defenders, eng.attackers)):
            kinds = {is_air(card(st, e)) for e in enemies}
            if kinds != {True, False} and not (voluntary and True in kinds):
                continue
            for u in side:
                c = card(st, u)
                if c.aa_attack and not is_air(c) and u not in fr.aa_modes:
                    return u, i
    return None


def w_aa(st: WarState, fr: WaveFrame) -> Decision | None:
    nxt = aa_choices(st, fr)
    if nxt is None:
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(ctrl(st, nxt[0]), "aa_mode", {"unit": nxt[0], "engagement": nxt[1]})


def legal_aa(st: WarState, fr: WaveFrame) -> list[tuple]:
    u, i = aa_choices(st, fr)  # type: ignore[misc]
    eng = fr.engagements[i]
    enemies = eng.defenders if u in eng.attackers else eng.attackers
    other = "ground" if any(not is_air(card(st, e)) for e in enemies) else "none"
    return [("aa_mode", ctrl(st, u), u, "air"), ("aa_mode", ctrl(st, u), u, other)]


def act_aa(st: WarState, fr: WaveFrame, action: Any) -> None:
    _, i = aa_choices(st, fr)  # type: ignore[misc]
    fr.aa_modes[action.unit] = action.mode
    eng = fr.engagements[i]
    fr.engagements[i] = make_engagement(st, fr, eng.attackers, eng.defenders, eng.target, eng.second_line,
                                        eng.restricted)
    emit(st, "aa_mode", {"seat": action.seat, "unit": action.unit, "mode": action.mode})


def hit_targets(st: WarState, eng: Engagement) -> tuple[int, list[str]]:
    """The pool to distribute now and where its points may go; (-1, []) when nothing is left."""
    for i, pool in enumerate(eng.pools):
        if pool.points <= 0:
            continue
        targets = [t for t in pool.targets if t == DECK or alive(st, t)]
        if not targets:
            pool.points = 0
            continue
        return i, targets
    return -1, []


def step_resolve(st: WarState, fr: WaveFrame) -> Decision | None:
    while fr.index < len(fr.engagements):
        eng = fr.engagements[fr.index]
        i, targets = hit_targets(st, eng)
        if i < 0:
            fr.index += 1
            continue
        pool = eng.pools[i]
        if len(targets) == 1:
            put_damage(st, eng, targets[0], pool.points)
            pool.points = 0
            continue
        seat = fr.seat if pool.side == "attacker" else OTHER[fr.seat]
        return Decision(seat, "damage", {"points": pool.points, "engagement": fr.index,
                                         "attackers": eng.attackers, "defenders": eng.defenders})
    close_engagements(st, fr)
    next_stage(fr, WAVE_STAGES)
    return None


def put_damage(st: WarState, eng: Engagement, target: str, n: int) -> None:
    if target == DECK:
        st.damage[DECK] = st.damage.get(DECK, 0) + n
    else:
        st.damage[target] = st.damage.get(target, 0) + n
    emit(st, "damage", {"target": target, "amount": n})


def legal_damage(st: WarState, fr: WaveFrame) -> list[tuple]:
    eng = fr.engagements[fr.index]
    i, targets = hit_targets(st, eng)
    seat = fr.seat if eng.pools[i].side == "attacker" else OTHER[fr.seat]
    return [("hit", seat, t) for t in targets]


def act_damage(st: WarState, fr: WaveFrame, action: Any) -> None:
    eng = fr.engagements[fr.index]
    i, _ = hit_targets(st, eng)
    put_damage(st, eng, action.target, 1)
    eng.pools[i].points -= 1


def close_engagements(st: WarState, fr: WaveFrame) -> None:
    """"All units that received an amount of damage equal or greater then their defense are put into
    losses"; a zero-defense unit fighting alone is destroyed, supported it needs one point (R9)."""
    dead: list[str] = []
    milled: dict[str, int] = {}
    for eng in fr.engagements:
        for side in (eng.attackers, eng.defenders):
            for u in side:
                if u == DECK:
                    continue
                df = eng.values.get(u, [0, 0])[1]
                dmg = st.damage.get(u, 0)
                if df > 0 and dmg >= df or df <= 0 and (len(side) == 1 or dmg >= 1):
                    dead.append(u)
        if eng.target == DECK:
            milled[OTHER[fr.seat]] = milled.get(OTHER[fr.seat], 0) + st.damage.pop(DECK, 0)
    for u in dict.fromkeys(dead):
        destroy(st, u)
    for seat, n in milled.items():
        mill(st, seat, n)
