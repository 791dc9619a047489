"""Behind the 1st line: the breakthrough feature, strikes on 2nd-line units, resources and the deck, assault
landings, the defender's rear supports, breakthrough power and the wave's close."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    Category,
    Feature,
    UnitSubtype,
)

from ...core.machine import Decision, emit
from ..setup import (
    DECK,
    OTHER,
)
from ..state import Engagement, PaymentFrame, WarState, WaveFrame
from .air import act_intercept, escorts_of, free_fighters, interceptors
from .attack import landing_pairs, striking_aircraft
from .book import TURN_PHASES, WAVE_STAGES, asked, declared, next_stage
from .cards import R, alive, card, destroy, features, is_air, move_card, rules_revision
from .combat import make_engagement, with_air_combat
from .declarations import act_escort, escort_keys
from .resources import start_payment
from .values import base_values


def w_after_first(st: WarState, fr: WaveFrame) -> None:
    """Breakthrough feature: a blocked unit that destroyed all its blockers goes on with reduced values."""
    for eng in fr.engagements:
        if eng.target is not None or len(eng.attackers) != 1:
            continue
        a = eng.attackers[0]
        if not alive(st, a) or Feature.BREAKTHROUGH not in features(st, a):
            continue
        if any(alive(st, b) for b in eng.defenders):
            continue
        atk = base_values(st, a, "attacking")[0]
        sum_def = sum(eng.values[b][1] for b in eng.defenders)
        sum_atk = sum(eng.values[b][0] for b in eng.defenders)
        if atk > sum_def:
            fr.offered.append(a)
            fr.reduced[a] = [atk - sum_def, eng.values[a][1] - sum_atk]
            if rules_revision(st) >= 2:
                fr.reduced[a].append(sum_atk)  # the blockers' attack: off its damage if it goes on
    fr.engagements = []
    next_stage(fr, WAVE_STAGES)


def w_strike(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(fr.through or fr.offered or striking_aircraft(st, fr.seat)
                          or landing_pairs(st, fr.seat))):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "strike", {"through": fr.through, "breakthrough": fr.offered})


def strike_objects(st: WarState, seat: str) -> list[str]:
    other = OTHER[seat]
    return st.zones[other]["line2"] + st.zones[other]["resources"] + [DECK]


def legal_strike(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = [("breakthrough", seat, u) for u in fr.offered]
    striking = {u for u, _ in fr.strikes}
    objects = strike_objects(st, seat)
    for u in fr.through + [a for a in striking_aircraft(st, seat) if a not in declared(fr)]:
        if u not in striking and u not in {f for f, _ in fr.escorts}:
            keys.extend(("strike", seat, u, o) for o in objects)
    keys += [("land", seat, p, c, o) for p, c in landing_pairs(st, seat) for o in objects]
    keys += escort_keys(st, fr, [u for u, _ in fr.strikes] + [c for _, c, _ in fr.landings])
    return keys + [("done", seat)]


def act_strike(st: WarState, fr: WaveFrame, action: Any) -> None:
    seat = fr.seat
    if action.type == "breakthrough":
        fr.offered.remove(action.unit)
        fr.through.append(action.unit)
        reduced = fr.reduced[action.unit]
        if len(reduced) > 2:  # revision 2: the 1st-line damage is already in the reduced defense
            left = st.damage.pop(action.unit, 0) - reduced[2]
            if left > 0:
                st.damage[action.unit] = left
        emit(st, "broke_through", {"seat": seat, "unit": action.unit, "values": reduced[:2]})
    elif action.type == "escort":
        act_escort(st, fr, action)
    elif action.type == "land":
        fr.landings.append([action.unit, action.carrier, action.target])
        st.rotated.add(action.carrier)
        declare_strike(st, fr, action.unit, action.target)
    elif action.type == "strike":
        c = card(st, action.unit)
        if action.unit not in fr.through and c.attack_cost:
            start_payment(st, seat, "strike", action.unit, c.attack_cost, target=action.target)
        else:
            declare_strike(st, fr, action.unit, action.target)
    else:
        for u in fr.offered:
            fr.reduced.pop(u, None)
        fr.offered = []
        accumulate_power(st, fr)
        objects = [o for o in dict.fromkeys(o for _, o in fr.strikes) if o != DECK]
        fr.passive += [o for o in objects if o in st.rotated and o not in fr.passive]  # rotated before
        st.rotated.update(objects)  # "Attacked units rotate"
        next_stage(fr, WAVE_STAGES)


def declare_strike(st: WarState, fr: WaveFrame, u: str, o: str) -> None:
    fr.strikes.append([u, o])
    st.rotated.add(u)
    fr.acted = True
    emit(st, "strike", {"seat": fr.seat, "unit": u, "target": o})


def paid_strike(st: WarState, fr: PaymentFrame) -> None:
    declare_strike(st, st.frames[-1], fr.card, fr.target or DECK)


def breakthrough_power(st: WarState, fr: WaveFrame, u: str) -> int:
    """Total attack of units that reached the 2nd line: bonuses against unit types do not count."""
    if u in fr.reduced:
        return fr.reduced[u][0]
    return base_values(st, u, "attacking")[0]


def accumulate_power(st: WarState, fr: WaveFrame) -> None:
    ground = [u for u in fr.through if not is_air(card(st, u))]
    if not ground:
        return
    power = sum(breakthrough_power(st, fr, u) for u in ground)
    for b in st.zones[OTHER[fr.seat]]["conditions"]:
        el = card(st, b).elimination
        if el and el.breakthrough_power:
            st.power[b] = st.power.get(b, 0) + power
            emit(st, "breakthrough_power", {"card": b, "power": st.power[b], "needed": el.breakthrough_power})


def rear_support_ok(st: WarState, fr: WaveFrame, s: str, o: str) -> bool:
    """Who may support an object attacked behind the 1st line: 1st-line units moved to the 2nd line
    (objects attacked by ground units); AA units against aircraft ("Only units possessing AA-attack may
    support objects that were attacked only by air units"): light AA units and resources, not against
    strategic bombers; heavy AA the deck, and resources attacked by strategic bombers."""
    c = card(st, s)
    attackers = [u for u, x in fr.strikes if x == o]
    air = [u for u in attackers if is_air(card(st, u))]
    strategic = any(card(st, u).subtype == UnitSubtype.STRATEGIC_BOMBER for u in air)
    if c.aa_attack and c.subtype in (UnitSubtype.LIGHT_AA, UnitSubtype.HEAVY_AA):
        if any(x == o for _, _, x in fr.landings):
            # "An object that was attacked via assault landing may be supported by LAA gun ... as well as
            # by other light AA units placed at the 2nd line"
            return c.subtype == UnitSubtype.LIGHT_AA
        if not air:
            return False
        if c.subtype == UnitSubtype.LIGHT_AA:
            return o != DECK and not strategic
        return o == DECK or (strategic and o != DECK and card(st, o).category == Category.RESOURCE)
    return (len(air) < len(attackers) and (c.line or 1) == 1 and not is_air(c)
            and R.CANNOT_BLOCK not in c.restrictions)


def legal_second_support(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    used = {s for s, _ in fr.supports} | {f for f, _ in fr.intercepts}
    objects = list(dict.fromkeys(o for _, o in fr.strikes))
    keys = [("support", seat, s, o) for s in st.zones[seat]["line2"] if s not in used and s not in st.rotated
            for o in objects if o != s and rear_support_ok(st, fr, s, o)]
    bombers = [u for u, _ in fr.strikes if is_air(card(st, u))] + [c for _, c, _ in fr.landings]
    keys += [("intercept", seat, f, b) for f in free_fighters(st, fr, seat) for b in bombers]
    # "Non-rotated fighters may intercept bombers attacking them" (their being attacked does not count)
    keys += [("intercept", seat, o, b) for b, o in fr.strikes if b in bombers and o != DECK
             and card(st, o).subtype == UnitSubtype.FIGHTER and o not in fr.passive and o not in used
             and ("intercept", seat, o, b) not in keys]
    return keys


def w_second_support(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(fr.strikes and legal_second_support(st, fr))):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(OTHER[fr.seat], "second_line_support", {"strikes": [list(x) for x in fr.strikes]})


def legal_second_support_done(st: WarState, fr: WaveFrame) -> list[tuple]:
    return legal_second_support(st, fr) + [("done", OTHER[fr.seat])]


def act_second_support(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "support":
        fr.supports.append([action.unit, action.target])
        st.rotated.add(action.unit)
        emit(st, "supported", {"seat": action.seat, "unit": action.unit, "target": action.target})
    elif action.type == "intercept":
        act_intercept(st, fr, action)
    else:
        next_stage(fr, WAVE_STAGES)


def w_second_engagements(st: WarState, fr: WaveFrame) -> None:
    engs: list[Engagement] = []
    for o in dict.fromkeys(o for _, o in fr.strikes):
        attackers = [u for u, x in fr.strikes if x == o and alive(st, u)]
        supporters = [s for s, x in fr.supports if x == o and alive(st, s)]
        defenders = ([o] if o != DECK and alive(st, o) else []) + supporters
        if o != DECK and not alive(st, o):
            continue
        for p, c, x in fr.landings:
            if x != o or p not in attackers:
                continue
            icp, esc = interceptors(st, fr, c), escorts_of(st, fr, c)
            if icp and not esc:  # "assault landing becomes cancelled": both to losses
                attackers.remove(p)
                destroy(st, p)
                destroy(st, c)
                continue
            if icp:
                engs.append(make_engagement(st, fr, esc, icp, None))
            aa = [d for d in defenders if card(st, d).aa_attack and not is_air(card(st, d)) and d != o]
            if aa:  # "AA unit destroys troop-carrying aircraft but don't prevent attack of Paratroopers"
                defenders = [d for d in defenders if d not in aa]
                engs.append(make_engagement(st, fr, [c], aa, None))
        attackers, defenders, restricted = with_air_combat(st, fr, attackers, defenders, engs)
        if attackers:
            engs.append(make_engagement(st, fr, attackers, defenders, o, True, restricted))
    fr.engagements = engs
    fr.index = 0
    next_stage(fr, WAVE_STAGES)


def w_close(st: WarState, fr: WaveFrame) -> None:
    """End of the wave: damage cleared; conditions whose breakthrough power was reached go to losses."""
    st.damage = {}
    st.active = []
    for b in list(st.zones[OTHER[fr.seat]]["conditions"]):
        el = card(st, b).elimination
        if el and el.breakthrough_power and st.power.get(b, 0) >= el.breakthrough_power:
            move_card(st, b, "losses")
            st.power.pop(b, None)
            emit(st, "condition_eliminated", {"seat": fr.seat, "card": b, "code": st.codes[b]})
    st.frames.pop()
    emit(st, "wave_ended", {"seat": fr.seat})
    turn = st.frames[-1]
    if not fr.acted:  # R6: an empty wave ends the attack phase
        st.power = {}
        next_stage(turn, TURN_PHASES)
