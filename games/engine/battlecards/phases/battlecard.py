"""A battlecard comes up: prerequisites (CA3), the pre-emptive player's choice (C6, C16), fight or decline
(R1.1), the defender's Delay Tactics / Misinformation (C20), emergency deployment."""
from __future__ import annotations

from ...actions import Choose, EmergencyDeploy, Pass, PlayCard
from ...core.machine import RuleBook, emit
from ...frames import BATTLE, BattlecardFrame, DeployFrame
from ...state import OTHER, Decision, GameState
from ..behaviour import RESPONSE, Window, card_effect, window_of, window_options
from ..common import KChoose, KEmergencyDeploy, KPass, KPlayCard
from ..frames import join_armies, new_battle
from ..zones import _discard_kept, _flip_conflict, _prereqs_met, _stated_aggressor
from .conflict import _push_card


def step_battlecard(st: GameState, fr: BattlecardFrame) -> Decision | None:
    stage = fr.stage
    card = fr.card
    drawer = fr.seat
    if stage == "check":
        if not _prereqs_met(st, card):
            st.conflict_discard.append(card)
            st.frames.pop()
            if st.record_events:
                emit(st, "battle_prerequisites_unmet", {"card": card, "code": st.code[card]})
            return None
        fr.aggressor = _aggressor_army(st, _stated_aggressor(st, card), drawer)
        fr.stage = "pre" if fr.pre and fr.aggressor != drawer else "aggr"
        return None
    if stage == "pre":  # C6, C16: the pre-emptive player may always decline
        return Decision(drawer, "preemptive_choice", {"battlecard": card, "code": st.code[card]})
    if stage == "aggr":  # R1.1 aggressor's prerogative, before forces are revealed
        return Decision(fr.aggressor, "fight_or_decline", {"battlecard": card, "code": st.code[card]})
    if not st.classic and fr.defender is None:
        choices = _enemy_choices(st, fr)
        if len(choices) > 1:
            return Decision(fr.aggressor, "choose_enemy_army", {"battlecard": card, "code": st.code[card],
                                                                   "armies": choices})
        _set_defender(st, fr, choices[0])
    defender = _defender(fr)
    if stage == "respond":
        if st.team(defender)["kept"]:  # any kept card: whether one can respond stays secret
            return Decision(defender, "battlecard_response", {"battlecard": card, "code": st.code[card]})
        fr.stage = "emergency"
        return None
    if stage == "emergency":
        d = st.defs[card]
        if fr.all_armies:
            army = _emergency_army(st, fr, defender)
            if army is not None:
                fr.emergency_asking = army
                return Decision(army, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
            fr.stage = "battle"
            return None
        if (d.emergency_deployment and st.players[defender]["hand"]
                and d.homeland_of in (None, st.players[defender]["nation"])):
            return Decision(defender, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
        fr.stage = "battle"
        return None
    battle = st.frames[-1] = new_battle(st, card=card, aggressor=fr.aggressor, mode=BATTLE,
                                        counter=fr.counter, defender=fr.defender)
    if fr.all_armies:
        join_armies(st, battle)
    return None


def _defender(fr: BattlecardFrame) -> str:
    return fr.defender or OTHER[fr.aggressor]


def _aggressor_army(st: GameState, stated: str | None, drawer: str) -> str:
    """The army that attacks: the drawer when his side is the stated aggressor (or the card says "drawing
    player"), else the enemy army sitting across from him (OR3: "Battles drawn by any player are fought
    between his forces and the forces directly across from him"; classic: the other seat; team and combined
    games estimated, engine README)."""
    if stated is None or st.side(drawer) == stated:
        return drawer
    across = st.players[drawer]["across"]
    if not st.players[across]["out"]:
        return across
    alive = st.armies_of(stated)
    return alive[0] if alive else across


def _enemy_choices(st: GameState, fr: BattlecardFrame) -> list[str]:
    """FAQ OR3/OR4: "the aggressor stated on the Battlecard selects which enemy army he would like to fight
    against", except the homeland battles, where "all armies on both sides may participate" (then the
    defending army is one of the invaded nation's; every army's forces join, phases.battle)."""
    agg = fr.aggressor
    enemy_side = OTHER[st.side(agg)]
    alive = st.armies_of(enemy_side) or [st.foe(agg)]
    card = fr.card
    holders = [a for a in alive if card in st.players[a]["occupied"]]
    if holders:  # Optional Rule 5.3: a counterattack on an occupied battlecard fights the army under it
        return holders
    if st.defs[card].homeland_of is not None:
        fr.all_armies = True
        own = [a for a in alive if st.players[a]["nation"] == st.defs[card].homeland_of]
        across = st.players[agg]["across"]
        return [(own or ([across] if across in alive else alive))[0]]
    return alive


def _set_defender(st: GameState, fr: BattlecardFrame, army: str) -> None:
    fr.defender = army
    if st.record_events:
        emit(st, "enemy_army_chosen", {"aggressor": fr.aggressor, "defender": army, "card": fr.card})


def legal_choose_enemy_army(st: GameState, fr: BattlecardFrame) -> list[tuple]:
    return [KChoose(fr.aggressor, a) for a in _enemy_choices(st, fr)]


def act_choose_enemy_army(st: GameState, fr: BattlecardFrame, a: Choose) -> None:
    _set_defender(st, fr, a.option)


def legal_fight_or_decline(st: GameState, fr: BattlecardFrame) -> list[tuple]:
    seat = fr.aggressor if fr.stage == "aggr" else fr.seat
    return [KChoose(seat, "fight"), KChoose(seat, "decline")]


def act_fight_or_decline(st: GameState, fr: BattlecardFrame, a: Choose) -> None:
    if a.option == "decline":
        st.conflict_discard.append(fr.card)
        st.frames.pop()
        if st.record_events:
            emit(st, "battle_declined", {"seat": a.seat, "card": fr.card, "code": st.code[fr.card]})
    else:
        fr.stage = "aggr" if fr.stage == "pre" else "respond"


def legal_battlecard_response(st: GameState, fr: BattlecardFrame) -> list[tuple]:
    seat = _defender(fr)
    return [KPass(seat)] + window_options(st, fr, seat, RESPONSE)


def act_battlecard_response(st: GameState, fr: BattlecardFrame, a: Pass | PlayCard) -> None:
    if isinstance(a, Pass):
        fr.stage = "emergency"
        return
    _discard_kept(st, a.seat, a.card)
    st.frames.pop()
    window_of(st, a.card, RESPONSE).resolve(st, fr, a)


def _respond_options(st: GameState, fr: BattlecardFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid)]


def _delay_tactics(st: GameState, fr: BattlecardFrame, a: PlayCard) -> None:
    """The battlecard goes back at a random place in the conflict deck; the turn ends."""
    card = fr.card
    st.conflict_deck.insert(st.rng.randrange(len(st.conflict_deck) + 1), card)
    if st.record_events:
        emit(st, "delay_tactics", {"seat": a.seat, "card": card, "code": st.code[card]})


def _misinformation(st: GameState, fr: BattlecardFrame, a: PlayCard) -> None:
    """The battlecard is discarded and the next card is drawn; the drawing player stays (C20)."""
    card = fr.card
    st.conflict_discard.append(card)
    if st.record_events:
        emit(st, "misinformation", {"seat": a.seat, "card": card, "code": st.code[card]})
    nxt = _flip_conflict(st)
    if nxt is not None:
        _push_card(st, fr.seat, nxt)


card_effect("delay-tactics", kept=True, rulings="play windows",
            response=Window(_respond_options, _delay_tactics))
card_effect("misinformation", kept=True, rulings="C20", response=Window(_respond_options, _misinformation))


def _emergency_army(st: GameState, fr: BattlecardFrame, defender: str) -> str | None:
    """A team game's homeland battle (estimated, engine README): "emergency deploy your reserve hand ...
    when your homeland is invaded" (rules, EMERGENCY DEPLOYMENT): every alive army of the defending side
    whose nation's homeland it is decides for its own hand, the defending army first, then in turn order.
    The next one to ask, or None."""
    d = st.defs[fr.card]
    if not d.emergency_deployment:
        return None
    if fr.emergency_asked is None:
        fr.emergency_asked = []
    asked = fr.emergency_asked
    for army in (defender, *st.armies_of(st.side(defender))):
        p = st.players[army]
        if (army not in asked and not p["out"] and p["hand"]
                and d.homeland_of in (None, p["nation"])):
            return army
    return None


def legal_emergency_deploy(st: GameState, fr: BattlecardFrame) -> list[tuple]:
    seat = fr.emergency_asking if fr.all_armies else _defender(fr)
    return [KEmergencyDeploy(seat), KPass(seat)]


def act_emergency_deploy(st: GameState, fr: BattlecardFrame, a: EmergencyDeploy | Pass) -> None:
    if fr.all_armies:
        fr.emergency_asked.append(a.seat)  # the next army of the side is asked (step_battlecard)
    else:
        fr.stage = "battle"
    if isinstance(a, EmergencyDeploy):
        hand = st.players[a.seat]["hand"]
        if st.record_events:
            emit(st, "emergency_deploy", {"seat": a.seat, "cards": len(hand)})
        st.frames.append(DeployFrame(a.seat, len(hand), None, "emergency"))


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("battlecard", step_battlecard)
    book.decision("fight_or_decline", legal=legal_fight_or_decline, act=act_fight_or_decline)
    book.decision("preemptive_choice", legal=legal_fight_or_decline, act=act_fight_or_decline)
    book.decision("battlecard_response", legal=legal_battlecard_response, act=act_battlecard_response)
    book.decision("emergency_deploy", legal=legal_emergency_deploy, act=act_emergency_deploy)
    book.decision("choose_enemy_army", legal=legal_choose_enemy_army, act=act_choose_enemy_army)
