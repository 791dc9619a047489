"""Sabotage: the victim picks which general/leader is destroyed (G4); OSS saboteurs choose a revealed
enemy unit in phase 0 of the first round (GU4 note)."""
from __future__ import annotations

from ...core.machine import RuleBook, emit
from ..actions import Choose
from ..behaviour import ability
from ..combat.casualties import check_battle_end, destroy_unit
from ..common import KChoose
from ..frames import BattleFrame, SabotageFrame
from ..state import Decision, GameState
from ..zones import deployed_cards


def step_sabotage(st: GameState, fr: SabotageFrame) -> Decision | None:
    seat = fr.seat
    cands = [c for c in deployed_cards(st, seat) if fr.cls in st.defs[c].classes]
    if cands:  # asked even with one candidate, so the question does not tell how many he has
        return Decision(seat, "sabotage_victim", {"class": fr.cls})
    st.frames.pop()
    emit(st, "sabotage_no_target", {"seat": seat, "class": fr.cls})
    return None


def legal_sabotage_victim(st: GameState, fr: SabotageFrame) -> list[tuple]:
    seat = fr.seat
    return [KChoose(seat, c) for c in deployed_cards(st, seat) if fr.cls in st.defs[c].classes]


def act_sabotage_victim(st: GameState, fr: SabotageFrame, a: Choose) -> None:
    st.frames.pop()
    destroy_unit(st, fr.seat, a.option, "sabotage")


def sabotage_targets(st: GameState, fr: BattleFrame, seat: str, unit: str) -> list[str]:
    if unit not in fr.units[seat]:
        return []
    classes = st.abil[unit]["sabotage"].get("target_classes")
    # revealed enemy cards, leaders included (they are in the battle's stacks though they do not fight)
    return [t for t in fr.present[st.foe(seat)] if any(c in classes for c in st.defs[t].classes)]


def legal_sabotage_target(st: GameState, fr: BattleFrame) -> list[tuple]:
    pending = fr.sab_queue[0]
    return [KChoose(pending.seat, t) for t in sabotage_targets(st, fr, pending.seat, pending.unit)]


def act_sabotage_target(st: GameState, fr: BattleFrame, a: Choose) -> None:
    fr.sab_queue.pop(0)
    destroy_unit(st, st.foe(a.seat), a.option, "sabotage")
    check_battle_end(st, fr)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("sabotage", step_sabotage)
    book.decision("sabotage_victim", legal=legal_sabotage_victim, act=act_sabotage_victim)
    book.decision("sabotage_target", legal=legal_sabotage_target, act=act_sabotage_target)


ability("sabotage", sabotage_targets, act_sabotage_target, rulings="GU4 note, G4")
