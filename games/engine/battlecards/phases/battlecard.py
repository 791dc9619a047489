"""battlecards.phases.battlecard."""
from __future__ import annotations

from ...actions import Action, EmergencyDeploy, Pass
from ...core.machine import emit
from ...state import OTHER, Decision, GameState
from ..book import RULES
from ..common import RESPONSE_EFFECTS, KChoose, KEmergencyDeploy, KPass, KPlayCard
from ..zones import _discard_kept, _flip_conflict, _kept_with, _prereqs_met, _stated_aggressor
from .battle import _battle_frame
from .conflict import _push_card
from .deploy import _deploy_frame


def step_battlecard(st: GameState, fr: dict) -> Decision | None:
    stage = fr["stage"]
    card = fr["card"]
    drawer = fr["seat"]
    if stage == "check":
        if not _prereqs_met(st, card):
            st.conflict_discard.append(card)
            st.frames.pop()
            if st.record_events:
                emit(st, "battle_prerequisites_unmet", {"card": card, "code": st.code[card]})
            return None
        fr["aggressor"] = _stated_aggressor(st, card) or drawer
        fr["stage"] = "pre" if fr["pre"] and fr["aggressor"] != drawer else "aggr"
        return None
    if stage == "pre":  # C6, C16: the pre-emptive player may always decline
        return Decision(drawer, "preemptive_choice", {"battlecard": card, "code": st.code[card]})
    if stage == "aggr":  # R1.1 aggressor's prerogative, before forces are revealed
        return Decision(fr["aggressor"], "fight_or_decline", {"battlecard": card, "code": st.code[card]})
    defender = OTHER[fr["aggressor"]]
    if stage == "respond":
        if st.players[defender]["kept"]:  # any kept card: whether one can respond stays secret
            return Decision(defender, "battlecard_response", {"battlecard": card, "code": st.code[card]})
        fr["stage"] = "emergency"
        return None
    if stage == "emergency":
        d = st.defs[card]
        if (d.emergency_deployment and st.players[defender]["hand"]
                and d.homeland_of in (None, st.players[defender]["nation"])):
            return Decision(defender, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
        fr["stage"] = "battle"
        return None
    st.frames[-1] = _battle_frame(st, card=card, aggressor=fr["aggressor"], mode="battle",
                                  counter=fr["counter"])
    return None


def legal_fight_or_decline(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["aggressor"] if fr["stage"] == "aggr" else fr["seat"]
    return [KChoose(seat, "fight"), KChoose(seat, "decline")]


def act_fight_or_decline(st: GameState, fr: dict, a: Action) -> None:
    if a.option == "decline":
        st.conflict_discard.append(fr["card"])
        st.frames.pop()
        if st.record_events:
            emit(st, "battle_declined", {"seat": a.seat, "card": fr["card"], "code": st.code[fr["card"]]})
    else:
        fr["stage"] = "aggr" if fr["stage"] == "pre" else "respond"


def legal_battlecard_response(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["aggressor"]]
    return [KPass(seat)] + [KPlayCard(seat, c) for c in _kept_with(st, seat, RESPONSE_EFFECTS)]


def act_battlecard_response(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        fr["stage"] = "emergency"
        return
    _discard_kept(st, a.seat, a.card)
    card = fr["card"]
    st.frames.pop()
    if st.defs[a.card].effect == "delay-tactics":
        st.conflict_deck.insert(st.rng.randrange(len(st.conflict_deck) + 1), card)
        if st.record_events:
            emit(st, "delay_tactics", {"seat": a.seat, "card": card, "code": st.code[card]})
        return
    # misinformation: the battlecard is discarded, the next card is drawn; the drawing player stays (C20)
    st.conflict_discard.append(card)
    if st.record_events:
        emit(st, "misinformation", {"seat": a.seat, "card": card, "code": st.code[card]})
    nxt = _flip_conflict(st)
    if nxt is not None:
        _push_card(st, fr["seat"], nxt)


def legal_emergency_deploy(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["aggressor"]]
    return [KEmergencyDeploy(seat), KPass(seat)]


def act_emergency_deploy(st: GameState, fr: dict, a: Action) -> None:
    fr["stage"] = "battle"
    if isinstance(a, EmergencyDeploy):
        hand = st.players[a.seat]["hand"]
        if st.record_events:
            emit(st, "emergency_deploy", {"seat": a.seat, "cards": len(hand)})
        st.frames.append(_deploy_frame(a.seat, len(hand), None, "emergency"))


RULES.frame("battlecard", step_battlecard)
RULES.decision("fight_or_decline", legal=legal_fight_or_decline, act=act_fight_or_decline)
RULES.decision("preemptive_choice", legal=legal_fight_or_decline, act=act_fight_or_decline)
RULES.decision("battlecard_response", legal=legal_battlecard_response, act=act_battlecard_response)
RULES.decision("emergency_deploy", legal=legal_emergency_deploy, act=act_emergency_deploy)
