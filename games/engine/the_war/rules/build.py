"""Phase 4, build: maintenance, units (reserve, mobility, lend-lease), improvements, battlefield conditions,
special cards."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    CardDef,
    Category,
    EffectKind,
    Feature,
    HeroMode,
    UnitType,
)

from ...core.machine import Decision, emit
from ...core.order import put_by_id
from ..state import PaymentFrame, TurnFrame, WarState
from .book import TURN_PHASES, next_stage
from .cards import card, hero_blocked, matches, move_card, owner
from .resources import affordable, start_payment
from .specials import special_effects, special_targets
from .turn import act_scout, scout_keys


def st_build(st: WarState, fr: TurnFrame) -> Decision:
    for bfc in st.zones[fr.seat]["conditions"]:
        if card(st, bfc).maintenance and bfc not in fr.maintenance_done:
            return Decision(fr.seat, "maintenance", {"card": bfc, "code": st.codes[bfc]})
    return Decision(fr.seat, "build", {})


def legal_maintenance(st: WarState, fr: TurnFrame) -> list[tuple]:
    bfc = next(b for b in st.zones[fr.seat]["conditions"]
               if card(st, b).maintenance and b not in fr.maintenance_done)
    keys = [("maintain", fr.seat, bfc)] if affordable(st, fr.seat, card(st, bfc).maintenance) else []
    return keys + [("abandon", fr.seat, bfc)]


def act_maintenance(st: WarState, fr: TurnFrame, action: Any) -> None:
    fr.maintenance_done.append(action.card)
    if action.type == "abandon":
        move_card(st, action.card, "losses")
        emit(st, "condition_lost", {"seat": fr.seat, "card": action.card, "code": st.codes[action.card]})
    else:
        start_payment(st, fr.seat, "maintain", action.card, card(st, action.card).maintenance)


def lend_lease_ok(st: WarState, seat: str, c: CardDef) -> bool:
    if Feature.LEND_LEASE not in c.features:
        return True
    return any(e.kind == EffectKind.ENABLE_LEND_LEASE for r in st.zones[seat]["resources"]
               for e in card(st, r).effects)


def improvement_targets(st: WarState, seat: str, imp_card: CardDef) -> list[str]:
    effects = [e for e in imp_card.effects if e.kind in (EffectKind.MODIFY, EffectKind.GRANT_FEATURE)]
    out = []
    for u in st.zones[seat]["line1"] + st.zones[seat]["line2"] + st.zones[seat]["reserve"]:
        if effects and all(matches(st, u, e.target, seat) or e.target.line is not None for e in effects):
            out.append(u)
    return out


def legal_build(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    seen: set[str] = set()
    location_in_play = False
    for hand_card in st.zones[seat]["hand"]:
        code = st.codes[hand_card]
        if code in seen:
            continue
        seen.add(code)
        c = card(st, hand_card)
        if c.category == Category.RESOURCE or c.location:
            continue
        if c.is_hero and hero_blocked(st, seat, c):
            continue
        if not affordable(st, seat, c.cost):
            continue
        if c.category == Category.UNIT or c.hero_mode == HeroMode.UNIT:
            if lend_lease_ok(st, seat, c):
                keys.append(("build", seat, hand_card, None))
        elif c.category == Category.BATTLEFIELD_CONDITION:
            keys.append(("build", seat, hand_card, None))
        elif c.category == Category.IMPROVEMENT or c.hero_mode == HeroMode.IMPROVEMENT:
            for u in improvement_targets(st, seat, c):
                keys.append(("improve", seat, hand_card, u))
        elif c.category == Category.SPECIAL or c.hero_mode == HeroMode.SPECIAL:
            for t in special_targets(st, seat, c) or ():
                keys.append(("build", seat, hand_card, t))
    del location_in_play
    for imp, unit in st.attached.items():
        if owner(imp) == seat and imp not in fr.moved_improvements:
            for u in improvement_targets(st, seat, card(st, imp)):
                if u != unit:
                    keys.append(("move_improvement", seat, imp, u))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_build(st: WarState, fr: TurnFrame, action: Any) -> None:
    seat = fr.seat
    t = action.type
    if t == "done":
        next_stage(fr, TURN_PHASES)
    elif t == "scout":
        act_scout(st, action)
    elif t == "move_improvement":
        fr.moved_improvements.append(action.card)
        st.attached[action.card] = action.unit
        emit(st, "improvement_moved", {"seat": seat, "card": action.card, "unit": action.unit})
    elif t == "improve":
        start_payment(st, seat, "improve", action.card, card(st, action.card).cost, unit=action.unit)
    else:
        c = card(st, action.card)
        start_payment(st, seat, "build", action.card, c.cost, target=action.target)


def paid_build(st: WarState, fr: PaymentFrame) -> None:
    seat, cid = fr.seat, fr.card
    c = card(st, cid)
    code = st.codes[cid]
    if c.category == Category.SPECIAL or c.hero_mode == HeroMode.SPECIAL:
        special_effects(st, seat, cid, fr.target)
        return
    if c.is_hero:
        st.heroes_played[seat].append(c.title)
    if c.category == Category.UNIT or c.hero_mode == HeroMode.UNIT:
        mobile = Feature.MOBILITY in c.features or (
            st.mobile_turn[seat] == st.turn and c.unit_type == UnitType.ARMORED)
        zone = ("line1" if (c.line or 1) == 1 else "line2") if mobile else "reserve"
        move_card(st, cid, zone)
        st.built_turn[cid] = st.turn
        emit(st, "built", {"seat": seat, "card": cid, "code": code, "zone": zone})
    elif c.category == Category.BATTLEFIELD_CONDITION:
        move_card(st, cid, "conditions")
        emit(st, "condition_played", {"seat": seat, "card": cid, "code": code})


def paid_improve(st: WarState, fr: PaymentFrame) -> None:
    c = card(st, fr.card)
    if c.is_hero:
        st.heroes_played[fr.seat].append(c.title)
    st.zones[fr.seat]["hand"].remove(fr.card)  # an improvement lies beneath its unit, in no zone list
    put_by_id(st.attached, fr.card, fr.unit or "")  # id order (WarState.attached)
    emit(st, "improved", {"seat": fr.seat, "card": fr.card, "code": st.codes[fr.card], "unit": fr.unit})


def paid_maintain(st: WarState, fr: PaymentFrame) -> None:
    emit(st, "maintained", {"seat": fr.seat, "card": fr.card})
