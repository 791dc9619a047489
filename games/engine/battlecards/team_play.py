"""FAQ Optional Rule 3 (team play): what an army may do with a friendly army at the start of its turn.

* "On any turn, a player may sacrifice his turn to transfer up to 3 deployed forces from his stacks to the
  stacks of another friendly army": turn-start `choose` option "give" (`army`: the friendly army), then one
  to three `deploy` actions (card: one of his deployed cards, from any of his stacks; stack: a stack of the
  card's kind of the friendly army, "ground:1" when that army's stack is divided; never its
  occupied-battlecard stacks), then the turn ends.
* "If you cannot afford to sacrifice a turn, you may at the start of a turn, trade one of the cards in your
  reserve hand with any friendly army. You may not send a reserve card to a friendly army who does not have
  one to send back": turn-start `choose` option "trade" (`army`, and `card`: the reserve card sent; once a
  turn, only with a friendly army whose hand is not empty); that army's seat picks the card it sends back
  (decision `reserve_trade`, it may not refuse); the turn goes on (draw, emergency deploy, kept cards). A turn
  in which a card was traded is not sacrificed: the transfer and the seat trade are no longer offered in it.
* "If two players on the same side agree to do so, they may both sacrifice their next turns to trade seats at
  the table": turn-start `choose` option "seats" (`army`: a friendly army sitting across from another enemy
  army); that army's seat accepts or refuses at once (decision `seat_trade`). Accepted: the proposer's turn
  ends, the partner's next turn is skipped (`turn_sacrificed`), and the two armies swap the enemy armies they
  sit across from (the enemy armies' "across" follow). Refused: the proposer's turn goes on (one proposal a
  turn). The turn order and the army ids do not change.

Card identities stay private to the two armies involved: the public events carry counts and stack refs,
the private ones (one per army involved) the cards.
"""
from __future__ import annotations

from ..core.errors import required
from ..core.machine import RuleBook, emit
from .actions import Action, Choose, Deploy
from .book import RULES
from .common import KChoose, KDeploy, KPass
from .frames import ArmyTransferFrame, ReserveTradeFrame, SeatTradeFrame, TurnFrame
from .state import Decision, GameState
from .zones import deployed_cards, ref_of, stack_at

TRANSFER_MAX = 3  # "up to 3 deployed forces"


def team_turn_options(st: GameState, fr: TurnFrame, seat: str) -> list[tuple]:
    """The OR3 turn-start options of `seat` (none without a friendly army: a classic game)."""
    acts: list[tuple] = []
    mates = st.friends(seat)
    if fr.traded or not mates:
        return acts  # once a turn; a turn in which a card was traded is not sacrificed
    if deployed_cards(st, seat):
        acts.extend(KChoose(seat, "give", army=a) for a in mates)
    hand = st.players[seat]["hand"]
    for a in mates:
        if st.players[a]["hand"]:  # "may not send a reserve card to a friendly army who does not have one"
            acts.extend(KChoose(seat, "trade", army=a, card=c) for c in hand)
    if not fr.proposed:
        mine = st.players[seat]["across"]
        acts.extend(KChoose(seat, "seats", army=a) for a in mates
                    if st.players[a]["across"] != mine and not st.players[a].get("sacrifice"))
    return acts


def act_team_option(st: GameState, fr: TurnFrame, a: Choose) -> None:
    """A turn-start `choose` of team_turn_options (fr: the turn frame)."""
    seat, what, mate = fr.seat, a.option, a.army
    assert mate is not None  # every option of team_turn_options names the friendly army
    if what == "give":
        RULES.move(fr, "end")  # "sacrifice his turn"
        st.frames.append(ArmyTransferFrame(seat, mate))
        emit(st, "turn_sacrificed", {"seat": seat, "reason": "transfer", "to": mate})
    elif what == "trade":
        assert a.card is not None
        fr.traded = True
        st.frames.append(ReserveTradeFrame(seat, mate, a.card))
        emit(st, "reserve_trade_offered", {"seat": seat, "with": mate})
    elif what == "seats":
        fr.proposed = True
        st.frames.append(SeatTradeFrame(seat, mate))
        emit(st, "seat_trade_proposed", {"seat": seat, "with": mate})


# ---- transfer up to 3 deployed forces to a friendly army (the turn is sacrificed) -------------------------
def _transfer_moves(st: GameState, fr: ArmyTransferFrame) -> list[tuple]:
    seat, stacks = fr.seat, st.players[fr.to]["stacks"]
    acts: list[tuple] = []
    for c in deployed_cards(st, seat):
        kind = st.defs[c].kind
        acts.extend(KDeploy(seat, c, f"{kind}:{i}") for i in range(len(stacks[kind])))
    return acts


def step_army_transfer(st: GameState, fr: ArmyTransferFrame) -> Decision | None:
    if fr.moved >= TRANSFER_MAX or not deployed_cards(st, fr.seat):
        st.frames.pop()
        return None
    return Decision(fr.seat, "army_transfer", {"to": fr.to, "moved": fr.moved, "max": TRANSFER_MAX})


def legal_army_transfer(st: GameState, fr: ArmyTransferFrame) -> list[tuple]:
    moves = _transfer_moves(st, fr)
    return ([KPass(fr.seat)] + moves) if fr.moved else moves  # "up to 3": at least one


def act_army_transfer(st: GameState, fr: ArmyTransferFrame, a: Action) -> None:
    if not isinstance(a, Deploy):
        st.frames.pop()
        return
    seat, mate = fr.seat, fr.to
    src = required(ref_of(st, seat, a.card), "stack transferred from")
    stack_at(st, seat, src).remove(a.card)
    stack_at(st, mate, a.stack).append(a.card)
    fr.moved += 1
    data = {"seat": seat, "to": mate, "from": src, "stack": a.stack}
    emit(st, "forces_transferred", data)
    for army in (seat, mate):
        emit(st, "forces_transferred_card", {**data, "card": a.card, "code": st.code[a.card]}, army)


# ---- trade one reserve card with a friendly army (the turn goes on) ---------------------------------------
def step_reserve_trade(st: GameState, fr: ReserveTradeFrame) -> Decision | None:
    card = fr.card
    return Decision(fr.mate, "reserve_trade",
                    {"from": fr.seat, "card": {"id": card, "code": st.code[card]}})


def legal_reserve_trade(st: GameState, fr: ReserveTradeFrame) -> list[tuple]:
    mate = fr.mate
    return [KChoose(mate, c) for c in st.players[mate]["hand"]]


def act_reserve_trade(st: GameState, fr: ReserveTradeFrame, a: Action) -> None:
    assert isinstance(a, Choose)
    seat, mate, sent, back = fr.seat, fr.mate, fr.card, a.option
    mine, theirs = st.players[seat]["hand"], st.players[mate]["hand"]
    mine[mine.index(sent)] = back
    theirs[theirs.index(back)] = sent
    st.frames.pop()
    emit(st, "reserve_traded", {"seat": seat, "with": mate})
    data = {"seat": seat, "with": mate, "sent": {"id": sent, "code": st.code[sent]},
            "received": {"id": back, "code": st.code[back]}}
    for army in (seat, mate):
        emit(st, "reserve_traded_cards", data, army)


# ---- trade seats (both sacrifice their next turns) ---------------------------------------------------------
def step_seat_trade(st: GameState, fr: SeatTradeFrame) -> Decision | None:
    return Decision(fr.mate, "seat_trade", {"from": fr.seat,
                                               "across": {a: st.players[a]["across"] for a in (fr.seat,
                                                                                               fr.mate)}})


def legal_seat_trade(st: GameState, fr: SeatTradeFrame) -> list[tuple]:
    return [KChoose(fr.mate, "accept"), KChoose(fr.mate, "refuse")]


def act_seat_trade(st: GameState, fr: SeatTradeFrame, a: Action) -> None:
    assert isinstance(a, Choose)
    seat, mate = fr.seat, fr.mate
    st.frames.pop()
    if a.option != "accept":
        emit(st, "seat_trade_refused", {"seat": seat, "with": mate})
        return
    swap_seats(st, seat, mate)
    turn = st.frames[-1]
    assert isinstance(turn, TurnFrame)
    RULES.move(turn, "end")  # the proposer's turn is sacrificed now, the partner's next one
    st.players[mate]["sacrifice"] = True
    emit(st, "turn_sacrificed", {"seat": seat, "reason": "seat_trade", "with": mate})


def swap_seats(st: GameState, a: str, b: str) -> None:
    """Armies a and b (one side) trade seats: each now sits across from the other's enemy army, and the
    enemy armies that sat across from one of them sit across from the other."""
    pa, pb = st.players[a], st.players[b]
    for army in st.armies:
        if st.side(army) != st.side(a):
            p = st.players[army]
            if p["across"] == a:
                p["across"] = b
            elif p["across"] == b:
                p["across"] = a
    pa["across"], pb["across"] = pb["across"], pa["across"]
    emit(st, "seats_traded", {"armies": [a, b], "across": {a: pa["across"], b: pb["across"]}})


def take_sacrificed_turn(st: GameState, seat: str) -> bool:
    """At the start of `seat`'s turn: True (and the turn is over) when it was sacrificed to a seat trade."""
    p = st.players[seat]
    if "sacrifice" not in p or not p.pop("sacrifice"):
        return False
    emit(st, "turn_sacrificed", {"seat": seat, "reason": "seat_trade"})
    return True


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("army_transfer", step_army_transfer)
    book.decision("army_transfer", legal=legal_army_transfer, act=act_army_transfer)
    book.frame("reserve_trade", step_reserve_trade)
    book.decision("reserve_trade", legal=legal_reserve_trade, act=act_reserve_trade)
    book.frame("seat_trade", step_seat_trade)
    book.decision("seat_trade", legal=legal_seat_trade, act=act_seat_trade)
