"""A battlecard comes up: prerequisites (CA3), the pre-emptive player's choice (C6, C16), fight or decline
(R1.1), the defender's Delay Tactics / Misinformation (C20), emergency deployment."""
from __future__ import annotations

from ...core.errors import required
from ...core.machine import RuleBook, Stage, emit
from ..actions import Choose, EmergencyDeploy, Pass, PlayCard
from ..battle_frames import join_armies, new_battle
from ..behaviour import RESPONSE, Window, card_effect, window_of, window_options
from ..book import RULES
from ..common import KChoose, KEmergencyDeploy, KPass, KPlayCard
from ..frames import BATTLE, BattlecardFrame, DeployFrame
from ..state import OTHER, Decision, GameState
from ..zones import discard_kept, flip_conflict, prereqs_met, stated_aggressor
from .conflict import push_card


def _stage_check(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """CA3: unmet prerequisites discard the battlecard; else the aggressor army is known."""
    card = fr.card
    if not prereqs_met(st, card):
        st.conflict_discard.append(card)
        st.frames.pop()
        emit(st, "battle_prerequisites_unmet", {"card": card, "code": st.code[card]})
        return None
    fr.aggressor = _aggressor_army(st, stated_aggressor(st, card), fr.seat)
    RULES.move(fr, "pre" if fr.pre and fr.aggressor != fr.seat else "aggr")
    return None


def _stage_pre(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """C6, C16: the pre-emptive player may always decline."""
    return Decision(fr.seat, "preemptive_choice", {"battlecard": fr.card, "code": st.code[fr.card]})


def _stage_aggr(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """R1.1 aggressor's prerogative, before forces are revealed."""
    return Decision(fr.aggressor, "fight_or_decline", {"battlecard": fr.card, "code": st.code[fr.card]})


def _enemy_army_decision(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """Team games: the aggressor chooses the enemy army first, when he has a choice (FAQ OR3/OR4)."""
    if not st.classic and fr.defender is None:
        choices = _enemy_choices(st, fr)
        if len(choices) > 1:
            prompt = {"battlecard": fr.card, "code": st.code[fr.card], "armies": choices}
            return Decision(fr.aggressor, "choose_enemy_army", prompt)
        _set_defender(st, fr, choices[0])
    return None


def _stage_respond(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """C20: the defender may answer with a kept card (Delay Tactics, Misinformation)."""
    d = _enemy_army_decision(st, fr)
    if d is not None:
        return d
    defender = _defender(fr)
    if st.team(defender)["kept"]:  # any kept card: whether one can respond stays secret
        return Decision(defender, "battlecard_response", {"battlecard": fr.card, "code": st.code[fr.card]})
    RULES.move(fr, "emergency")
    return None


def _stage_emergency(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """Emergency deployment when the defender's homeland is invaded (each invaded army in a team game)."""
    d = _enemy_army_decision(st, fr)
    if d is not None:
        return d
    card = fr.card
    defender = _defender(fr)
    bc = st.defs[card]
    if fr.all_armies:
        army = _emergency_army(st, fr, defender)
        if army is not None:
            fr.emergency_asking = army
            return Decision(army, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
        RULES.move(fr, "battle")
        return None
    if (bc.emergency_deployment and st.players[defender]["hand"]
            and bc.homeland_of in (None, st.players[defender]["nation"])):
        return Decision(defender, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
    RULES.move(fr, "battle")
    return None


def _stage_battle(st: GameState, fr: BattlecardFrame) -> Decision | None:
    """The battlecard frame becomes the battle frame (phases.battle's stage table)."""
    d = _enemy_army_decision(st, fr)
    if d is not None:
        return d
    battle = st.frames[-1] = new_battle(st, card=fr.card, aggressor=fr.aggressor, mode=BATTLE,
                                        counter=fr.counter, defender=fr.defender)
    if fr.all_armies:
        join_armies(st, battle)
    return None


# The battlecard's flow, top to bottom (only RULES.move changes the stage): a drawn battlecard starts at
# "check", a Counterattack's at "emergency" (effects.turn_start). A decline (fight_or_decline), unmet
# prerequisites or a Delay Tactics / Misinformation response ends the frame; "battle" replaces it with the
# battle frame.
BATTLECARD_STAGES = {
    "check": Stage(_stage_check, then=("pre", "aggr")),
    "pre": Stage(_stage_pre, then=("aggr",)),  # the pre-emptive player's choice, then the aggressor's
    "aggr": Stage(_stage_aggr, then=("respond",)),
    "respond": Stage(_stage_respond, then=("emergency",)),
    "emergency": Stage(_stage_emergency, then=("battle",)),
    "battle": Stage(_stage_battle),
}


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
        emit(st, "battle_declined", {"seat": a.seat, "card": fr.card, "code": st.code[fr.card]})
    else:
        RULES.move(fr, "aggr" if fr.stage == "pre" else "respond")


def legal_battlecard_response(st: GameState, fr: BattlecardFrame) -> list[tuple]:
    seat = _defender(fr)
    return [KPass(seat)] + window_options(st, fr, seat, RESPONSE)


def act_battlecard_response(st: GameState, fr: BattlecardFrame, a: Pass | PlayCard) -> None:
    if isinstance(a, Pass):
        RULES.move(fr, "emergency")
        return
    discard_kept(st, a.seat, a.card)
    st.frames.pop()
    window_of(st, a.card, RESPONSE).resolve(st, fr, a)


def _respond_options(st: GameState, fr: BattlecardFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid)]


def _delay_tactics(st: GameState, fr: BattlecardFrame, a: PlayCard) -> None:
    """The battlecard goes back at a random place in the conflict deck; the turn ends."""
    card = fr.card
    st.conflict_deck.insert(st.rng.randrange(len(st.conflict_deck) + 1), card)
    emit(st, "delay_tactics", {"seat": a.seat, "card": card, "code": st.code[card]})


def _misinformation(st: GameState, fr: BattlecardFrame, a: PlayCard) -> None:
    """The battlecard is discarded and the next card is drawn; the drawing player stays (C20)."""
    card = fr.card
    st.conflict_discard.append(card)
    emit(st, "misinformation", {"seat": a.seat, "card": card, "code": st.code[card]})
    nxt = flip_conflict(st)
    if nxt is not None:
        push_card(st, fr.seat, nxt)


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
        # the next army of the side is asked (_stage_emergency)
        required(fr.emergency_asked, "armies asked to deploy").append(a.seat)
    else:
        RULES.move(fr, "battle")
    if isinstance(a, EmergencyDeploy):
        hand = st.players[a.seat]["hand"]
        emit(st, "emergency_deploy", {"seat": a.seat, "cards": len(hand)})
        st.frames.append(DeployFrame(a.seat, len(hand), None, "emergency"))


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("battlecard", stages=BATTLECARD_STAGES)
    book.decision("fight_or_decline", legal=legal_fight_or_decline, act=act_fight_or_decline)
    book.decision("preemptive_choice", legal=legal_fight_or_decline, act=act_fight_or_decline)
    book.decision("battlecard_response", legal=legal_battlecard_response, act=act_battlecard_response)
    book.decision("emergency_deploy", legal=legal_emergency_deploy, act=act_emergency_deploy)
    book.decision("choose_enemy_army", legal=legal_choose_enemy_army, act=act_choose_enemy_army)
