"""Game and turn frames: whose turn, the turn-start decision (draw, emergency deploy, Optional Rule 5.4
transfer, a kept card: effects.turn_start through the behaviour registry; in team games the FAQ OR3 options of
team_play) and the termination guard (turn_limit)."""
from __future__ import annotations

from ...core.machine import RuleBook, Stage, emit
from ..actions import Action, Choose, Draw, EmergencyDeploy, PlayCard
from ..behaviour import TURN_START, window_of, window_options
from ..book import RULES
from ..common import KChoose, KDraw, KEmergencyDeploy
from ..frames import DeployFrame, GameFrame, TransferFrame, TurnFrame
from ..optional_rules import can_transfer
from ..outcome import finish_on_points
from ..state import Decision, GameState
from ..team_play import act_team_option, take_sacrificed_turn, team_turn_options
from ..zones import discard_kept, flip_conflict
from .conflict import push_card


def step_game(st: GameState, fr: GameFrame) -> Decision | None:
    held = len(st.team("axis")["won"]) + len(st.team("allies")["won"])
    total = st.n_battlecards
    if st.turn and total and held >= total:
        finish_on_points(st, "all-battles-decided")
        return None
    if st.turn >= turn_limit(st):
        finish_on_points(st, "turn-limit")
        return None
    seat = fr.next  # never an eliminated army (outcome._eliminate passes its next turn on)
    fr.next = st.next_army(seat)
    st.turn += 1
    st.active_seat = seat
    if st.record_events:  # hot in self-play (events off): skip building the payload
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


def _stage_start(st: GameState, fr: TurnFrame) -> Decision | None:
    return Decision(fr.seat, "turn_start", {"turn": st.turn})


def _stage_end(st: GameState, fr: TurnFrame) -> Decision | None:
    st.frames.pop()
    return None


# The turn's flow (only RULES.move changes the stage): the turn-start decision, then the end of the turn. A
# draw, an emergency deployment, a transfer (OR5.4, OR3) and a kept card that replaces the draw (effects.
# turn_start) or an accepted seat trade (team_play) move it to "end" and push their own frame above it; the
# other kept cards and a reserve trade or a refused seat trade leave it at "start" (the turn goes on).
TURN_STAGES = {
    "start": Stage(_stage_start, then=("end",)),
    "end": Stage(_stage_end),
}


def legal_turn_start(st: GameState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    p = st.players[seat]
    acts: list[tuple] = [KDraw(seat)]
    if p["hand"]:
        acts.append(KEmergencyDeploy(seat))
    if st.setup.options.occupying_force and can_transfer(st, seat):
        acts.append(KChoose(seat, "transfer"))  # Optional Rule 5.4: between any two stacks
    acts.extend(window_options(st, fr, seat, TURN_START))  # kept cards (effects.turn_start)
    acts.extend(team_turn_options(st, fr, seat))  # FAQ OR3: transfer, reserve trade, seat trade (team_play)
    return acts


def act_turn_start(st: GameState, fr: TurnFrame, a: Action) -> None:
    seat = fr.seat
    if isinstance(a, Draw):
        RULES.move(fr, "end")
        cid = flip_conflict(st)
        if cid is None:
            emit(st, "conflict_deck_empty", {})
            return
        push_card(st, seat, cid)
    elif isinstance(a, Choose) and a.option != "transfer":
        act_team_option(st, fr, a)  # FAQ OR3 (team_play)
    elif isinstance(a, Choose):  # Optional Rule 5.4: transfer up to 3 cards instead of drawing
        RULES.move(fr, "end")
        st.frames.append(TransferFrame(seat))
    elif isinstance(a, EmergencyDeploy):
        RULES.move(fr, "end")
        emit(st, "emergency_deploy", {"seat": seat, "cards": len(st.players[seat]["hand"])})
        st.frames.append(DeployFrame(seat, len(st.players[seat]["hand"]), None, "emergency"))
    elif isinstance(a, PlayCard):
        window = window_of(st, a.card, TURN_START)
        if window.discard:
            discard_kept(st, seat, a.card)
        window.resolve(st, fr, a)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("game", step_game)
    book.frame("turn", stages=TURN_STAGES)
    book.decision("turn_start", legal=legal_turn_start, act=act_turn_start)
