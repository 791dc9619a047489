"""Kept cards played at the start of every battle round, aggressor first, before phase 0: Mine Fields
(first round only, C13), Lack of Valor (C14), Military Intelligence / Stolen Plans (S6, S7), Chemical
Warfare (C11). Each is discarded after use (C14)."""
from __future__ import annotations

from ...core.machine import RuleBook, emit
from ..actions import Pass, PlayCard
from ..behaviour import BATTLE_WINDOW, Window, card_effect, window_of, window_options
from ..combat.casualties import check_battle_end, destroy_unit, withdraw_unit
from ..common import KPass, KPlayCard
from ..frames import BattleFrame
from ..state import GameState
from ..zones import discard_kept


def _window_seat(fr: BattleFrame) -> str:
    return (fr.aggressor, fr.defender)[fr.side]


def legal_battle_window(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat = _window_seat(fr)
    return [KPass(seat)] + window_options(st, fr, seat, BATTLE_WINDOW)


def act_battle_window(st: GameState, fr: BattleFrame, a: Pass | PlayCard) -> None:
    if isinstance(a, Pass):
        fr.side += 1
        return
    discard_kept(st, a.seat, a.card)  # C14: discarded after use
    window_of(st, a.card, BATTLE_WINDOW).resolve(st, fr, a)
    check_battle_end(st, fr)


# ---- Mine Fields (C13): the player chooses an enemy ground unit (never a leader), first round only ---------
def _mine_fields_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    if fr.round != 1:
        return []
    return [KPlayCard(seat, cid, target=t) for t in fr.units[st.foe(seat)] if st.defs[t].kind == "ground"]


def _mine_fields(st: GameState, fr: BattleFrame, a: PlayCard) -> None:
    assert a.target is not None  # the enemy unit (_mine_fields_options)
    destroy_unit(st, st.foe(a.seat), a.target, "mine-fields")


# ---- Lack of Valor (C14): one enemy unit must withdraw -----------------------------------------------------
def _lack_of_valor_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid, target=t) for t in fr.units[st.foe(seat)]]


def _lack_of_valor(st: GameState, fr: BattleFrame, a: PlayCard) -> None:
    assert a.target is not None  # the enemy unit (_lack_of_valor_options)
    withdraw_unit(st, fr, st.foe(a.seat), a.target, "lack-of-valor")


# ---- Military Intelligence / Stolen Plans: the rest of the battle, and the enemy hand (kept cards) shown ---
def _intelligence_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    return [] if fr.intel_played[seat] else [KPlayCard(seat, cid)]


def _intelligence(st: GameState, fr: BattleFrame, a: PlayCard) -> None:
    seat = a.seat
    enemy = st.foe(seat)
    fr.intel[seat] = True
    fr.intel_played[seat] = True
    emit(st, "intelligence", {"enemy_hand": [st.code[c] for c in st.players[enemy]["hand"]]}, seat)
    if st.defs[a.card].effect == "stolen-plans":
        emit(st, "intelligence", {"enemy_kept": [st.code[c] for c in st.team(enemy)["kept"]]}, seat)


# ---- Chemical Warfare (C11): attacks every enemy ground unit in phase 0 of every round (phases.battle) -----
def _chemical_warfare_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    if fr.chem[seat] or not any(st.defs[t].kind == "ground" for t in fr.units[st.foe(seat)]):
        return []
    return [KPlayCard(seat, cid)]


def _chemical_warfare(st: GameState, fr: BattleFrame, a: PlayCard) -> None:
    fr.chem[a.seat] = st.defs[a.card].param("attack", 13)


card_effect("mine-fields", kept=True, rulings="C13",
            battle_window=Window(_mine_fields_options, _mine_fields))
card_effect("lack-of-valor", kept=True, rulings="C14",
            battle_window=Window(_lack_of_valor_options, _lack_of_valor))
card_effect("military-intelligence", kept=True, rulings="S6, S7, C8",
            battle_window=Window(_intelligence_options, _intelligence))
card_effect("stolen-plans", kept=True, rulings="S6, S7, C8",
            battle_window=Window(_intelligence_options, _intelligence))
card_effect("chemical-warfare", kept=True, rulings="C11",
            battle_window=Window(_chemical_warfare_options, _chemical_warfare))


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.decision("battle_window", legal=legal_battle_window, act=act_battle_window)
