"""Kept cards played at the start of a turn, before drawing (see the README's play windows): Counterattack,
Pre-emptive Strike and an Air Raid battle replace the draw; Industrial Complex, Industrial Strike, Sabotage
and an Air Raid on an Industrial Complex do not (C18). The plays that destroy an Industrial Complex are open
"at any time" (C18): also in every battle-round window (effects.battle_window), whoever's turn it is."""
from __future__ import annotations

from vocabulary.battlecards import BattlecardDef

from ...core.machine import emit
from ..actions import PlayCard
from ..battle_frames import new_battle
from ..behaviour import TURN_START, Window, card_effect
from ..book import RULES
from ..common import KPlayCard
from ..frames import AIR_RAID, BattlecardFrame, Frame, SabotageFrame, TurnFrame
from ..state import GameState
from ..zones import destroy_industry, flip_conflict, prereqs_met


def _enemy_ic(st: GameState, seat: str) -> bool:
    return bool(st.players[st.foe(seat)]["industry"])


# ---- Counterattack (CA1-CA3) ---------------------------------------------------------------------------
def _counterattack_options(st: GameState, fr: TurnFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid, target=bc) for bc in st.team(st.foe(seat))["won"] if prereqs_met(st, bc)]


def _counterattack(st: GameState, fr: TurnFrame, a: PlayCard) -> None:
    assert a.target is not None  # the battlecard (_counterattack_options)
    RULES.move(fr, "end")
    st.frames.append(BattlecardFrame(a.seat, a.target, "emergency", a.seat, counter=True))
    emit(st, "counterattack", {"seat": a.seat, "battlecard": a.target, "code": st.code[a.target]})


# ---- Pre-emptive Strike (C6, C16) --------------------------------------------------------------------------
def _plain_options(st: GameState, fr: TurnFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid)]


def _preemptive_strike(st: GameState, fr: TurnFrame, a: PlayCard) -> None:
    """Turn conflict cards over (discarding non-battlecards unresolved) until a battlecard."""
    RULES.move(fr, "end")
    limit = len(st.conflict_deck) + len(st.conflict_discard) + 1
    for _ in range(limit):
        cid = flip_conflict(st)
        if cid is None:
            break
        if isinstance(st.defs[cid], BattlecardDef):
            emit(st, "conflict_drawn", {"seat": a.seat, "card": cid, "code": st.code[cid]})
            st.frames.append(BattlecardFrame(a.seat, cid, "check", a.seat, pre=True))
            break
        st.conflict_discard.append(cid)
        emit(st, "conflict_turned", {"card": cid, "code": st.code[cid]})


# ---- Air Raid (C15, C18) -----------------------------------------------------------------------------------
def _air_raid_options(st: GameState, fr: TurnFrame, seat: str, cid: str) -> list[tuple]:
    acts = [KPlayCard(seat, cid, option="battle")]
    if _enemy_ic(st, seat):
        acts.append(KPlayCard(seat, cid, option="industry"))
    return acts


def _air_raid(st: GameState, fr: Frame, a: PlayCard) -> None:
    if a.option == "industry":
        destroy_industry(st, st.foe(a.seat))  # C18: at any time, not in lieu of drawing
        return
    assert isinstance(fr, TurnFrame)  # the battle option is a turn-start play
    RULES.move(fr, "end")  # a one-round air battle (C15)
    st.frames.append(new_battle(st, card=None, aggressor=a.seat, mode=AIR_RAID, counter=False))


# ---- Industrial Complex / Industrial Strike (C18) ----------------------------------------------------------
def _industrial_complex(st: GameState, fr: Frame, a: PlayCard) -> None:
    """Put into play face up: build-ups draw and deploy `extra` more (zones.industry_extra)."""
    st.team(a.seat)["kept"].remove(a.card)
    st.players[a.seat]["industry"].append(a.card)
    emit(st, "industry_built", {"seat": a.seat, "card": a.card, "code": st.code[a.card]})


def _industrial_strike_options(st: GameState, fr: TurnFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid)] if _enemy_ic(st, seat) else []


def _industrial_strike(st: GameState, fr: Frame, a: PlayCard) -> None:
    destroy_industry(st, st.foe(a.seat))


# ---- Sabotage (G4): names "general" or "leader" unseen; the victim picks (effects.sabotage) ----------------
def _sabotage_options(st: GameState, fr: TurnFrame, seat: str, cid: str) -> list[tuple]:
    acts = [KPlayCard(seat, cid, option="general"), KPlayCard(seat, cid, option="leader")]
    if _enemy_ic(st, seat):
        acts.append(KPlayCard(seat, cid, option="industry"))
    return acts


def _sabotage(st: GameState, fr: Frame, a: PlayCard) -> None:
    enemy = st.foe(a.seat)
    if a.option == "industry":
        destroy_industry(st, enemy)
    else:
        assert a.option is not None  # the class of unit (the sabotage options)
        st.frames.append(SabotageFrame(enemy, a.option))


# ---- C18 "at any time": the industry plays in a battle-round window (any battle, either seat's turn) -------
def _industry_only_options(st: GameState, fr: Frame, seat: str, cid: str) -> list[tuple]:
    """Only the plays that destroy the enemy Industrial Complex (a Sabotage on a general or leader, or an Air
    Raid battle, keep their turn-start window)."""
    if not _enemy_ic(st, seat):
        return []
    if st.defs[cid].effect == "industrial-strike":
        return [KPlayCard(seat, cid)]
    return [KPlayCard(seat, cid, option="industry")]


card_effect("counterattack", kept=True, rulings="CA1-CA3",
            turn_start=Window(_counterattack_options, _counterattack))
card_effect("pre-emptive-strike", kept=True, rulings="C6, C16",
            turn_start=Window(_plain_options, _preemptive_strike))
card_effect("air-raid", kept=True, rulings="C15, C18", turn_start=Window(_air_raid_options, _air_raid),
            battle_window=Window(_industry_only_options, _air_raid))
card_effect("industrial-complex", kept=True, rulings="C18",
            turn_start=Window(_plain_options, _industrial_complex, discard=False))
card_effect("industrial-strike", kept=True, rulings="C18",
            turn_start=Window(_industrial_strike_options, _industrial_strike),
            battle_window=Window(_industry_only_options, _industrial_strike))
card_effect("sabotage", kept=True, rulings="G4, C18", turn_start=Window(_sabotage_options, _sabotage),
            battle_window=Window(_industry_only_options, _sabotage))

__all__ = ["TURN_START"]
