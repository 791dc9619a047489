"""Phase 6, the attack phase's menu: who may attack, target, use an ability, strike from the air or land;
each assault wave is a WaveFrame."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    AbilityKind,
    Category,
    Feature,
    UnitSubtype,
)

from ...core.machine import Decision, emit
from ..setup import (
    OTHER,
)
from ..state import TurnFrame, WarState, WaveFrame
from .book import TURN_PHASES, next_stage
from .cards import R, card, ctrl, features, forbidden, in_lines, is_air, zone_of
from .resources import affordable
from .turn import act_scout, scout_keys


def can_attack(st: WarState, u: str) -> bool:
    """A 1st-line unit, not rotated, able to attack ("2nd line units moved to the 1st ... are unable to
    attack"), its attack cost payable."""
    c = card(st, u)
    return (u not in st.rotated and zone_of(st, u) == "line1" and c.category in (Category.UNIT, Category.HERO)
            and (c.line or 1) == 1
            and R.CANNOT_ATTACK not in c.restrictions and not forbidden(st, u, "attack")
            and not is_air(c) and affordable(st, ctrl(st, u), c.attack_cost))


def can_target(st: WarState, u: str) -> bool:
    c = card(st, u)
    if u in st.rotated or Feature.TARGETED_ATTACK not in features(st, u):
        return False
    if forbidden(st, u, "targeted-attack") or forbidden(st, u, "attack"):
        return False
    z = zone_of(st, u)
    if is_air(c):
        ok = z == "line2" and bool(c.bombing_power)
    else:
        ok = z == "line1" and R.CANNOT_ATTACK not in c.restrictions
    return ok and affordable(st, ctrl(st, u), c.attack_cost)


def ability_keys(st: WarState, seat: str) -> list[tuple]:
    keys: list[tuple] = []
    other = OTHER[seat]
    for u in st.zones[seat]["line2"]:
        if u in st.rotated:
            continue
        for ab in card(st, u).abilities:
            if ab.kind == AbilityKind.DECK_HIT:
                keys.append(("deck_hit", seat, u))
            elif ab.kind == AbilityKind.SALVO and affordable(st, seat, ab.cost):
                keys.extend(("salvo", seat, u, t) for t in st.zones[other]["line1"])
    return keys


def striking_aircraft(st: WarState, seat: str) -> list[str]:
    out = []
    for u in st.zones[seat]["line2"]:
        c = card(st, u)
        if (is_air(c) and c.bombing_power and u not in st.rotated
                and R.FIRST_LINE_TARGETS_ONLY not in c.restrictions and affordable(st, seat, c.attack_cost)):
            out.append(u)
    return out


def landing_pairs(st: WarState, seat: str) -> list[tuple[str, str]]:
    """Paratroopers with their assault landing and a troop-carrying aircraft, both on the 2nd line and
    not rotated (one carrier each)."""
    line2 = [u for u in st.zones[seat]["line2"] if u not in st.rotated]
    paras = [u for u in line2 if any(a.kind == AbilityKind.ASSAULT_LANDING for a in card(st, u).abilities)]
    carriers = [u for u in line2 if card(st, u).subtype == UnitSubtype.TROOP_CARRYING_AIRCRAFT]
    return [(p, c) for p in paras for c in carriers]


def st_attack(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "attack_phase", {})


def legal_attack_phase(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if (any(can_attack(st, u) or can_target(st, u) for u in in_lines(st, seat))
            or ability_keys(st, seat) or striking_aircraft(st, seat) or landing_pairs(st, seat)):
        keys.append(("wave", seat))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_attack_phase(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "wave":
        st.frames.append(WaveFrame(fr.seat))
        emit(st, "wave_started", {"seat": fr.seat})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        st.power = {}
        next_stage(fr, TURN_PHASES)
