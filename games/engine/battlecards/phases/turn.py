"""battlecards.phases.turn."""
from __future__ import annotations

from ...actions import Action, Choose, Draw, EmergencyDeploy, PlayCard
from ...cards import BattlecardDef
from ...core.machine import emit
from ...state import OTHER, Decision, GameState
from ..book import RULES
from ..common import KChoose, KDraw, KEmergencyDeploy, KPlayCard
from ..optional_rules import _can_transfer
from ..outcome import _finish_on_points
from ..zones import _destroy_industry, _discard_kept, _flip_conflict, _prereqs_met
from .battle import _battle_frame
from .conflict import _push_card
from .deploy import _deploy_frame


def step_game(st: GameState, fr: dict) -> Decision | None:
    players = st.players
    held = len(players["axis"]["won"]) + len(players["allies"]["won"])
    total = st.n_battlecards
    if st.turn and total and held >= total:
        _finish_on_points(st, "all-battles-decided")
        return None
    if st.turn >= st.setup.options.max_turns:
        _finish_on_points(st, "turn-limit")
        return None
    seat = fr["next"]
    fr["next"] = OTHER[seat]
    st.turn += 1
    st.active_seat = seat
    st.frames.append({"kind": "turn", "seat": seat, "stage": "start"})
    if st.record_events:
        emit(st, "turn_started", {"turn": st.turn, "seat": seat})
    return None


def step_turn(st: GameState, fr: dict) -> Decision | None:
    if fr["stage"] == "start":
        return Decision(fr["seat"], "turn_start", {"turn": st.turn})
    st.frames.pop()
    return None


def legal_turn_start(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    enemy = OTHER[seat]
    p = st.players[seat]
    acts: list[tuple] = [KDraw(seat)]
    if p["hand"]:
        acts.append(KEmergencyDeploy(seat))
    if st.setup.options.occupying_force and _can_transfer(st, seat):
        acts.append(KChoose(seat, "transfer"))  # Optional Rule 5.4: between any two stacks
    enemy_ic = bool(st.players[enemy]["industry"])
    for cid in p["kept"]:
        eff = st.defs[cid].effect
        if eff == "counterattack":
            for bc in st.players[enemy]["won"]:
                if _prereqs_met(st, bc):
                    acts.append(KPlayCard(seat, cid, target=bc))
        elif eff in ("pre-emptive-strike", "industrial-complex"):
            acts.append(KPlayCard(seat, cid))
        elif eff == "air-raid":
            acts.append(KPlayCard(seat, cid, option="battle"))
            if enemy_ic:
                acts.append(KPlayCard(seat, cid, option="industry"))
        elif eff == "industrial-strike":
            if enemy_ic:
                acts.append(KPlayCard(seat, cid))
        elif eff == "sabotage":
            acts.append(KPlayCard(seat, cid, option="general"))
            acts.append(KPlayCard(seat, cid, option="leader"))
            if enemy_ic:
                acts.append(KPlayCard(seat, cid, option="industry"))
    return acts


def act_turn_start(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    enemy = OTHER[seat]
    if isinstance(a, Draw):
        fr["stage"] = "end"
        cid = _flip_conflict(st)
        if cid is None:
            if st.record_events:
                emit(st, "conflict_deck_empty", {})
            return
        _push_card(st, seat, cid)
    elif isinstance(a, Choose):  # Optional Rule 5.4: transfer up to 3 cards instead of drawing
        fr["stage"] = "end"
        st.frames.append({"kind": "transfer", "seat": seat, "moved": 0, "src": None, "dst": None})
    elif isinstance(a, EmergencyDeploy):
        fr["stage"] = "end"
        if st.record_events:
            emit(st, "emergency_deploy", {"seat": seat, "cards": len(st.players[seat]["hand"])})
        st.frames.append(_deploy_frame(seat, len(st.players[seat]["hand"]), None, "emergency"))
    elif isinstance(a, PlayCard):
        eff = st.defs[a.card].effect
        if eff != "industrial-complex":
            _discard_kept(st, seat, a.card)
        if eff == "counterattack":
            fr["stage"] = "end"
            st.frames.append({"kind": "battlecard", "seat": seat, "card": a.target, "stage": "emergency",
                              "aggressor": seat, "counter": True, "pre": False})
            if st.record_events:
                emit(st, "counterattack", {"seat": seat, "battlecard": a.target, "code": st.code[a.target]})
        elif eff == "pre-emptive-strike":
            fr["stage"] = "end"
            limit = len(st.conflict_deck) + len(st.conflict_discard) + 1
            for _ in range(limit):
                cid = _flip_conflict(st)
                if cid is None:
                    break
                if isinstance(st.defs[cid], BattlecardDef):
                    if st.record_events:
                        emit(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
                    st.frames.append({"kind": "battlecard", "seat": seat, "card": cid, "stage": "check",
                                      "aggressor": seat, "counter": False, "pre": True})
                    break
                st.conflict_discard.append(cid)
                if st.record_events:
                    emit(st, "conflict_turned", {"card": cid, "code": st.code[cid]})
        elif eff == "air-raid":
            if a.option == "industry":
                _destroy_industry(st, enemy)  # C18: at any time, not in lieu of drawing
            else:
                fr["stage"] = "end"
                st.frames.append(_battle_frame(st, card=None, aggressor=seat, mode="air_raid",
                                               counter=False))
        elif eff == "industrial-complex":
            st.players[seat]["kept"].remove(a.card)
            st.players[seat]["industry"].append(a.card)
            if st.record_events:
                emit(st, "industry_built", {"seat": seat, "card": a.card, "code": st.code[a.card]})
        elif eff == "industrial-strike":
            _destroy_industry(st, enemy)
        elif eff == "sabotage":
            if a.option == "industry":
                _destroy_industry(st, enemy)
            else:
                st.frames.append({"kind": "sabotage", "seat": enemy, "cls": a.option})


RULES.frame("game", step_game)
RULES.frame("turn", step_turn)
RULES.decision("turn_start", legal=legal_turn_start, act=act_turn_start)
