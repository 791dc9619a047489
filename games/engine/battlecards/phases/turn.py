"""Game and turn frames: whose turn, the turn-start decision (draw, emergency deploy, Optional Rule 5.4
transfer, a kept card: effects.turn_start through the behaviour registry; in team games the FAQ OR3 options of
team_play) and the termination guard (turn_limit)."""
from __future__ import annotations

from ...actions import Action, Choose, Draw, EmergencyDeploy, PlayCard
from ...core.machine import RuleBook, emit
from ...frames import DeployFrame, GameFrame, TransferFrame, TurnFrame
from ...state import Decision, GameState
from ..behaviour import TURN_START, window_of, window_options
from ..common import KChoose, KDraw, KEmergencyDeploy
from ..optional_rules import _can_transfer
from ..outcome import _finish_on_points
from ..team_play import act_team_option, take_sacrificed_turn, team_turn_options
from ..zones import _discard_kept, _flip_conflict
from .conflict import _push_card


def step_game(st: GameState, fr: GameFrame) -> Decision | None:
    held = len(st.team("axis")["won"]) + len(st.team("allies")["won"])
    total = st.n_battlecards
    if st.turn and total and held >= total:
        _finish_on_points(st, "all-battles-decided")
        return None
    if st.turn >= turn_limit(st):
        _finish_on_points(st, "turn-limit")
        return None
    seat = fr.next  # never an eliminated army (outcome._eliminate passes its next turn on)
    fr.next = _next_army(st, seat)
    st.turn += 1
    st.active_seat = seat
    if st.record_events:
        emit(st, "turn_started", {"turn": st.turn, "seat": seat})
    if take_sacrificed_turn(st, seat):
        return None  # OR3: the partner of an accepted seat trade sacrifices his next turn
    st.frames.append(TurnFrame(seat, "start"))
    return None


def turn_limit(st: GameState) -> int:
    """The termination guard (Options.max_turns counts the turns of the whole table): a classic game ends
    after max_turns turns; a team, uneven or combined game after max_turns per two armies (max_turns *
    armies // 2), so each army gets as many turns as a classic player (README, Termination)."""
    limit = st.setup.options.max_turns
    return limit * len(st.armies) // 2


def _next_army(st: GameState, seat: str) -> str:
    """The army after `seat` in the turn order (setup.army_order), skipping eliminated armies."""
    order = st.armies
    i = order.index(seat)
    nxt = order[(i + 1) % len(order)]
    if not st.players[nxt]["out"]:
        return nxt
    for k in range(2, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if not st.players[nxt]["out"]:
            return nxt
    return seat


def step_turn(st: GameState, fr: TurnFrame) -> Decision | None:
    if fr.stage == "start":
        return Decision(fr.seat, "turn_start", {"turn": st.turn})
    st.frames.pop()
    return None


def legal_turn_start(st: GameState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    p = st.players[seat]
    acts: list[tuple] = [KDraw(seat)]
    if p["hand"]:
        acts.append(KEmergencyDeploy(seat))
    if st.setup.options.occupying_force and _can_transfer(st, seat):
        acts.append(KChoose(seat, "transfer"))  # Optional Rule 5.4: between any two stacks
    acts.extend(window_options(st, fr, seat, TURN_START))  # kept cards (effects.turn_start)
    acts.extend(team_turn_options(st, fr, seat))  # FAQ OR3: transfer, reserve trade, seat trade (team_play)
    return acts


def act_turn_start(st: GameState, fr: TurnFrame, a: Action) -> None:
    seat = fr.seat
    if isinstance(a, Draw):
        fr.stage = "end"
        cid = _flip_conflict(st)
        if cid is None:
            if st.record_events:
                emit(st, "conflict_deck_empty", {})
            return
        _push_card(st, seat, cid)
    elif isinstance(a, Choose) and a.option != "transfer":
        act_team_option(st, fr, a)  # FAQ OR3 (team_play)
    elif isinstance(a, Choose):  # Optional Rule 5.4: transfer up to 3 cards instead of drawing
        fr.stage = "end"
        st.frames.append(TransferFrame(seat))
    elif isinstance(a, EmergencyDeploy):
        fr.stage = "end"
        if st.record_events:
            emit(st, "emergency_deploy", {"seat": seat, "cards": len(st.players[seat]["hand"])})
        st.frames.append(DeployFrame(seat, len(st.players[seat]["hand"]), None, "emergency"))
    elif isinstance(a, PlayCard):
        window = window_of(st, a.card, TURN_START)
        if window.discard:
            _discard_kept(st, seat, a.card)
        window.resolve(st, fr, a)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("game", step_game)
    book.frame("turn", step_turn)
    book.decision("turn_start", legal=legal_turn_start, act=act_turn_start)
