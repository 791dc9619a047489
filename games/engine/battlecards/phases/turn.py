"""Game and turn frames: whose turn, the turn-start decision (draw, emergency deploy, Optional Rule 5.4
transfer, or a kept card: effects.turn_start through the behaviour registry)."""
from __future__ import annotations

from ...actions import Action, Choose, Draw, EmergencyDeploy, PlayCard
from ...core.machine import emit
from ...state import OTHER, Decision, GameState
from ..behaviour import TURN_START, window_of, window_options
from ..book import RULES
from ..common import KChoose, KDraw, KEmergencyDeploy
from ..frames import _deploy_frame
from ..optional_rules import _can_transfer
from ..outcome import _finish_on_points
from ..zones import _discard_kept, _flip_conflict
from .conflict import _push_card


def step_game(st: GameState, fr: dict) -> Decision | None:
    held = len(st.team("axis")["won"]) + len(st.team("allies")["won"])
    total = st.n_battlecards
    if st.turn and total and held >= total:
        _finish_on_points(st, "all-battles-decided")
        return None
    if st.turn >= st.setup.options.max_turns:
        _finish_on_points(st, "turn-limit")
        return None
    seat = fr["next"]
    fr["next"] = OTHER[seat] if st.classic else _next_army(st, seat)
    st.turn += 1
    st.active_seat = seat
    st.frames.append({"kind": "turn", "seat": seat, "stage": "start"})
    if st.record_events:
        emit(st, "turn_started", {"turn": st.turn, "seat": seat})
    return None


def _next_army(st: GameState, seat: str) -> str:
    """The army after `seat` in the turn order (setup.army_order), skipping eliminated armies."""
    order = st.armies
    i = order.index(seat)
    for k in range(1, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if not st.players[nxt]["out"]:
            return nxt
    return seat


def step_turn(st: GameState, fr: dict) -> Decision | None:
    if fr["stage"] == "start":
        return Decision(fr["seat"], "turn_start", {"turn": st.turn})
    st.frames.pop()
    return None


def legal_turn_start(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    p = st.players[seat]
    acts: list[tuple] = [KDraw(seat)]
    if p["hand"]:
        acts.append(KEmergencyDeploy(seat))
    if st.setup.options.occupying_force and _can_transfer(st, seat):
        acts.append(KChoose(seat, "transfer"))  # Optional Rule 5.4: between any two stacks
    acts.extend(window_options(st, fr, seat, TURN_START))  # kept cards (effects.turn_start)
    return acts


def act_turn_start(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
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
        window = window_of(st, a.card, TURN_START)
        if window.discard:
            _discard_kept(st, seat, a.card)
        window.resolve(st, fr, a)


RULES.frame("game", step_game)
RULES.frame("turn", step_turn)
RULES.decision("turn_start", legal=legal_turn_start, act=act_turn_start)
