"""How a game ends: total victory, standard victory (half the deck's VPs), or on points when every
battle is decided or at the turn limit."""
from __future__ import annotations

from ..core.machine import emit
from ..setup import SEATS
from ..state import OTHER, GameState


def _finish(st: GameState, winner: str | None, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {"kind": kind, "points": {seat: st.vp(seat) for seat in SEATS}, "turns": st.turn}
    if st.setup.options.max_battle_rounds is not None:  # self-play with the round cap: how often it bit
        st.result["round_cap_battles"] = st.round_cap_battles
    st.frames = []
    st.decision = None
    if st.record_events:
        emit(st, "game_over", {"winner": winner, **st.result})


def _finish_on_points(st: GameState, kind: str) -> None:
    a, b = st.vp("axis"), st.vp("allies")
    _finish(st, "axis" if a > b else "allies" if b > a else None, kind)


def _check_victory(st: GameState, first: str) -> bool:
    for seat in (first, OTHER[first]):
        enemy_nation = st.players[OTHER[seat]]["nation"]
        for w in st.players[seat]["won"]:
            if st.defs[w].homeland_of == enemy_nation:
                _finish(st, seat, "total")
                return True
    for seat in (first, OTHER[first]):
        if st.vp(seat) >= st.vp_threshold > 0:
            _finish(st, seat, "standard")
            return True
    return False
