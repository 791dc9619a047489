"""An assault wave, the attacker's declarations: targeted and general attacks, escorts, artillery support,
abilities (salvo, heavy artillery) and special cards."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    AbilityKind,
    UnitSubtype,
)

from ...core.machine import Decision, emit
from ..setup import (
    OTHER,
)
from ..state import PaymentFrame, WarState, WaveFrame
from .air import free_fighters
from .attack import ability_keys, can_attack, can_target
from .book import WAVE_STAGES, asked, declared, next_stage
from .cards import card, forbidden, in_lines, is_air, mill, rules_revision, zone_of
from .resources import start_payment
from .specials import special_keys
from .values import non_combat_damage


def w_targeted(st: WarState, fr: WaveFrame) -> Decision:
    return Decision(fr.seat, "declare_targeted", {"declared": [list(x) for x in fr.targeted]})


def legal_targeted(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys = []
    enemies = st.zones[OTHER[seat]]["line1"]
    for u in in_lines(st, seat):
        if u not in declared(fr) and can_target(st, u):
            c = card(st, u)
            for t in enemies:
                if is_air(c) or not forbidden(st, u, "targeted-attack"):
                    keys.append(("target", seat, u, t))
    keys += escort_keys(st, fr, [u for u, _ in fr.targeted])
    return keys + [("done", seat)]


def escort_keys(st: WarState, fr: WaveFrame, attackers: list[str]) -> list[tuple]:
    """"Fighter escort is announced at the same time as bomber attack"; one escort per fighter."""
    bombers = [u for u in attackers if is_air(card(st, u)) and (
        card(st, u).bombing_power or card(st, u).subtype == UnitSubtype.TROOP_CARRYING_AIRCRAFT)]
    return [("escort", fr.seat, f, b) for f in free_fighters(st, fr, fr.seat) for b in bombers]


def act_escort(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.escorts.append([action.unit, action.bomber])
    st.rotated.add(action.unit)
    emit(st, "escort", {"seat": fr.seat, "unit": action.unit, "bomber": action.bomber})


def act_targeted(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
        return
    if action.type == "escort":
        act_escort(st, fr, action)
        return
    c = card(st, action.unit)
    if c.attack_cost:
        start_payment(st, fr.seat, "target", action.unit, c.attack_cost, target=action.target)
    else:
        declare_target(st, fr, action.unit, action.target)


def declare_target(st: WarState, fr: WaveFrame, u: str, t: str) -> None:
    if t in st.rotated and t not in fr.passive and all(x[1] != t for x in fr.targeted):
        fr.passive.append(t)  # rotated before the targeted attack: deals no damage
    fr.targeted.append([u, t])
    st.rotated.add(u)
    fr.acted = True
    emit(st, "targeted", {"seat": fr.seat, "unit": u, "target": t})


def paid_target(st: WarState, fr: PaymentFrame) -> None:
    wave = st.frames[-1]
    declare_target(st, wave, fr.card, fr.target or "")


def w_general(st: WarState, fr: WaveFrame) -> Decision:
    return Decision(fr.seat, "declare_general", {"declared": list(fr.general)})


def legal_general(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys = [("attack", seat, u) for u in st.zones[seat]["line1"]
            if u not in declared(fr) and can_attack(st, u)]
    return keys + [("done", seat)]


def act_general(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
        return
    c = card(st, action.unit)
    if c.attack_cost:
        start_payment(st, fr.seat, "attack", action.unit, c.attack_cost)
    else:
        declare_general(st, fr, action.unit)


def declare_general(st: WarState, fr: WaveFrame, u: str) -> None:
    fr.general.append(u)
    st.rotated.add(u)
    fr.acted = True
    emit(st, "attacking", {"seat": fr.seat, "unit": u})


def paid_attack(st: WarState, fr: PaymentFrame) -> None:
    declare_general(st, st.frames[-1], fr.card)


def support_fire_keys(st: WarState, fr: WaveFrame, seat: str, units: list[str]) -> list[tuple]:
    keys: list[tuple] = []
    for h in st.zones[seat]["line2"]:
        if h in st.rotated:
            continue
        if any(a.kind == AbilityKind.ARTILLERY_SUPPORT for a in card(st, h).abilities):
            keys.extend(("fire_support", seat, h, u) for u in units if zone_of(st, u) == "line1")
    return keys


def act_fire(st: WarState, fr: WaveFrame, action: Any) -> None:
    st.rotated.add(action.unit)
    fr.fire.append([action.unit, action.to])
    emit(st, "artillery_support", {"seat": action.seat, "unit": action.unit, "to": action.to})


def w_artillery(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(support_fire_keys(st, fr, fr.seat, sorted(declared(fr))))):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "attacker_artillery", {})


def legal_att_artillery(st: WarState, fr: WaveFrame) -> list[tuple]:
    return support_fire_keys(st, fr, fr.seat, [u for u, _ in fr.targeted] + fr.general) + [("done", fr.seat)]


def act_att_artillery(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
    else:
        act_fire(st, fr, action)


def w_abilities(st: WarState, fr: WaveFrame) -> Decision | None:
    """"Attacking player uses special cards and abilities of units". From rules revision 3 the window is
    offered in every wave (asking only when the attacker held a playable special card told the defender
    so)."""
    if not asked(fr, rules_revision(st) >= 3
                 or bool(ability_keys(st, fr.seat) or special_keys(st, fr.seat, "attacking"))):
        next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "attacker_abilities", {})


def legal_abilities(st: WarState, fr: WaveFrame) -> list[tuple]:
    return ability_keys(st, fr.seat) + special_keys(st, fr.seat, "attacking") + [("done", fr.seat)]


def act_abilities(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.acted = fr.acted or action.type != "done"
    if action.type == "done":
        next_stage(fr, WAVE_STAGES)
    elif action.type == "play_special":
        start_payment(st, fr.seat, "special", action.card, card(st, action.card).cost, target=action.target)
    elif action.type == "deck_hit":
        st.rotated.add(action.unit)
        value = card(st, action.unit).deck_hit or next(
            a.value or 0 for a in card(st, action.unit).abilities if a.kind == AbilityKind.DECK_HIT)
        emit(st, "ability", {"seat": fr.seat, "unit": action.unit, "kind": "deck-hit"})
        mill(st, OTHER[fr.seat], value)
    else:
        ab = next(a for a in card(st, action.unit).abilities if a.kind == AbilityKind.SALVO)
        st.rotated.add(action.unit)
        start_payment(st, fr.seat, "salvo", action.unit, ab.cost, target=action.target)


def paid_salvo(st: WarState, fr: PaymentFrame) -> None:
    ab = next(a for a in card(st, fr.card).abilities if a.kind == AbilityKind.SALVO)
    emit(st, "ability", {"seat": fr.seat, "unit": fr.card, "kind": "salvo", "target": fr.target})
    if fr.target and zone_of(st, fr.target) in ("line1", "line2"):
        non_combat_damage(st, fr.target, ab.value or 0)
