"""An assault wave, the defender's declarations: blocks, supports (R19: targets supporting targets), his
special cards and artillery support; the attacker's interceptions."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    UnitSubtype,
    UnitType,
)

from ...core.machine import Decision, emit
from ..setup import (
    OTHER,
)
from ..state import WarState, WaveFrame
from .air import act_intercept, free_fighters
from .book import WAVE_STAGES, asked, declared, next_stage
from .cards import R, card, forbidden, in_lines, is_air, rules_revision, zone_of
from .declarations import act_fire, support_fire_keys
from .resources import start_payment
from .specials import special_keys


def can_block(st: WarState, b: str, attacker: str) -> bool:
    cb, ca = card(st, b), card(st, attacker)
    if b in st.rotated or R.CANNOT_BLOCK in cb.restrictions or forbidden(st, b, "block"):
        return False
    if is_air(ca):
        return False  # air attackers: only fighters intercept (not modelled, R13)
    if is_air(cb):
        # ground-attack aircraft "are capable to block attacking ground units"
        return cb.subtype == UnitSubtype.GROUND_ATTACK_AIRCRAFT and zone_of(st, b) == "line2"
    if zone_of(st, b) != "line1":
        return False
    heavy = ca.subtype == UnitSubtype.HEAVY_TANK or R.CANNOT_BE_BLOCKED_BY_INFANTRY in ca.restrictions
    infantry = cb.unit_type == UnitType.INFANTRY or R.CANNOT_BLOCK_HEAVY_TANKS in cb.restrictions
    return not (heavy and infantry)


def w_block(st: WarState, fr: WaveFrame) -> Decision | None:
    if not declared(fr) or not fr.blocks and not fr.supports and len(legal_block(st, fr)) == 1:
        # nothing the defender could declare: no question
        end_blocks(st, fr)
        return None
    return Decision(OTHER[fr.seat], "block", {"attackers": fr.general,
                                              "targeted": [list(x) for x in fr.targeted]})


def support_ok(st: WarState, b: str, attackers: list[str], targeted: bool = False) -> bool:
    """May unit `b` support a 1st-line unit under targeted attack by `attackers`? Supporters are units
    "which are not rotated or also subjected to targeted attack" (`targeted`: b is, R19)."""
    cb = card(st, b)
    if b in st.rotated and not targeted or R.CANNOT_BLOCK in cb.restrictions:
        return False
    air = [a for a in attackers if is_air(card(st, a))]
    if is_air(cb):  # ground-attack aircraft support units "that were attacked by ground"
        return cb.subtype == UnitSubtype.GROUND_ATTACK_AIRCRAFT and not air
    if len(air) == len(attackers) and not cb.aa_attack:
        return False  # "Only units possessing AA-attack may support objects that were attacked only by air"
    if zone_of(st, b) == "line2":  # "AA units at the 2nd line may support units positioned at both lines"
        return bool(cb.aa_attack and air and cb.subtype == UnitSubtype.LIGHT_AA)
    return zone_of(st, b) == "line1"


def legal_block(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    used = ({b for b, _ in fr.blocks} | {s for s, _ in fr.supports} | {t for _, t in fr.targeted}
            | {f for f, _ in fr.intercepts})
    keys: list[tuple] = []
    targets = list(dict.fromkeys(t for _, t in fr.targeted))
    for b in in_lines(st, seat):
        if b in used:
            continue
        for a in fr.general:
            if can_block(st, b, a):
                keys.append(("block", seat, b, a))
        for t in targets:
            if support_ok(st, b, [u for u, x in fr.targeted if x == t]):
                keys.append(("support", seat, b, t))
    # R19: a unit under targeted attack may support another attacked unit (rotated or not); both then
    # fight jointly in one engagement
    groups = {t: i for i, g in enumerate(targeted_groups(fr)) for t in g}
    supporting = {s for s, _ in fr.supports}
    for b in targets:
        if b in supporting:
            continue
        for t in targets:
            if groups[t] != groups[b] and support_ok(st, b, [u for u, x in fr.targeted if x == t], True):
                keys.append(("support", seat, b, t))
    fighters = [f for f in free_fighters(st, fr, seat) if f not in used]
    blocking_aircraft = [b for b, _ in fr.blocks if is_air(card(st, b))]
    keys += [("support", seat, f, g) for f in fighters for g in blocking_aircraft]
    attacking_aircraft = [u for u, _ in fr.targeted if is_air(card(st, u))]
    keys += [("intercept", seat, f, b) for f in fighters for b in attacking_aircraft]
    return keys + [("done", seat)]


def targeted_groups(fr: WaveFrame) -> list[list[str]]:
    """The wave's targets in first declaration order, those joined by supports among them in one group:
    "Units ... are considered as fighting jointly if ... one of them were engaged using targeted attack
    and the others support it" (R19)."""
    targets = list(dict.fromkeys(t for _, t in fr.targeted))
    group = {t: i for i, t in enumerate(targets)}
    for s, t in fr.supports:
        if s in group and t in group and group[s] != group[t]:
            lo, hi = sorted((group[s], group[t]))
            group = {k: lo if v == hi else v for k, v in group.items()}
    out: dict[int, list[str]] = {}
    for t in targets:
        out.setdefault(group[t], []).append(t)
    return list(out.values())


def act_block(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "intercept":
        fr.intercepts.append([action.unit, action.aircraft])
        emit(st, "intercepted", {"seat": action.seat, "unit": action.unit, "aircraft": action.aircraft})
    elif action.type == "block":
        fr.blocks.append([action.unit, action.attacker])
        emit(st, "blocked", {"seat": action.seat, "unit": action.unit, "attacker": action.attacker})
    elif action.type == "support":
        fr.supports.append([action.unit, action.target])
        emit(st, "supported", {"seat": action.seat, "unit": action.unit, "target": action.target})
    else:
        end_blocks(st, fr)


def end_blocks(st: WarState, fr: WaveFrame) -> None:
    """"When all blocking and supporting units are declared they rotate" (the targets too)."""
    for b, _ in fr.blocks:
        st.rotated.add(b)
    for s, _ in fr.supports:
        st.rotated.add(s)
    for f, _ in fr.intercepts:
        st.rotated.add(f)
    for _, t in fr.targeted:
        st.rotated.add(t)
    next_stage(fr, WAVE_STAGES)


def w_def_specials(st: WarState, fr: WaveFrame) -> Decision | None:
    """"Defending player plays special cards" (after his blocks and supports; again behind the 1st line).
    From rules revision 3 the window is offered whatever the defender's hand holds (a public fact decides):
    asking only when he holds a playable special card told the attacker so."""
    playable = rules_revision(st) >= 3 or bool(special_keys(st, OTHER[fr.seat], "blocking"))
    if not asked(fr, bool(fr.engagements or declared(fr) or fr.strikes) and playable):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(OTHER[fr.seat], "defender_specials", {})


def legal_def_specials(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    return special_keys(st, seat, "blocking") + [("done", seat)]


def act_def_specials(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
    else:
        start_payment(st, action.seat, "special", action.card, card(st, action.card).cost,
                      target=action.target)


def w_def_artillery(st: WarState, fr: WaveFrame) -> Decision | None:
    seat = OTHER[fr.seat]
    units = [b for b, _ in fr.blocks] + [s for s, _ in fr.supports] + [t for _, t in fr.targeted]
    if not asked(fr, bool(support_fire_keys(st, fr, seat, units))):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(seat, "defender_artillery", {})


def legal_def_artillery(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    units = list(dict.fromkeys([b for b, _ in fr.blocks] + [s for s, _ in fr.supports]
                               + [t for _, t in fr.targeted]))
    return support_fire_keys(st, fr, seat, units) + [("done", seat)]


def act_def_artillery(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
    else:
        act_fire(st, fr, action)


def w_interception(st: WarState, fr: WaveFrame) -> Decision | None:
    """"Interception of attacking or blocking GA aircraft is declared after declaring all blocking and
    supporting units in current assault wave": the attacker's fighters against blocking aircraft."""
    if not asked(fr, len(legal_interception(st, fr)) > 1):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "interception", {})


def legal_interception(st: WarState, fr: WaveFrame) -> list[tuple]:
    blocking_aircraft = [b for b, _ in fr.blocks if is_air(card(st, b))]
    keys = [("intercept", fr.seat, f, b) for f in free_fighters(st, fr, fr.seat) for b in blocking_aircraft]
    return keys + [("done", fr.seat)]


def act_interception(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
    else:
        act_intercept(st, fr, action)
