"""How a game ends: total victory, standard victory (half the deck's VPs), or on points when every
battle is decided or at the turn limit."""
from __future__ import annotations

from vocabulary.battlecards import KINDS

from ..core.machine import emit
from .frames import GameFrame
from .setup import SEATS
from .state import OTHER, GameState


def _finish(st: GameState, winner: str | None, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {"kind": kind, "points": {seat: st.vp(seat) for seat in SEATS}, "turns": st.turn}
    if st.setup.options.max_battle_rounds is not None:  # self-play with the round cap: how often it bit
        st.result["round_cap_battles"] = st.round_cap_battles
    st.frames = []
    st.decision = None
    emit(st, "game_over", {"winner": winner, **st.result})


def finish_on_points(st: GameState, kind: str) -> None:
    a, b = st.vp("axis"), st.vp("allies")
    _finish(st, "axis" if a > b else "allies" if b > a else None, kind)


def check_victory(st: GameState, first: str) -> bool:
    if not st.classic:
        return _check_team_victory(st, st.side(first))
    for seat in (first, OTHER[first]):
        enemy_nation = st.players[OTHER[seat]]["nation"]
        for w in st.team(seat)["won"]:
            if st.defs[w].homeland_of == enemy_nation:
                _finish(st, seat, "total")
                return True
    for seat in (first, OTHER[first]):
        if st.vp(seat) >= st.vp_threshold > 0:
            _finish(st, seat, "standard")
            return True
    return False


def _check_team_victory(st: GameState, first: str) -> bool:
    """Team and combined games (estimated, engine README): a side that holds an enemy nation's homeland
    battlecard eliminates that nation (its armies leave the game, their hands and deployed forces removed);
    total victory when every army of the other side is eliminated. Then the standard victory."""
    for side in (first, OTHER[first]):
        for w in st.team(side)["won"]:
            nation = st.defs[w].homeland_of
            if nation is None:
                continue
            for army in st.armies_of(OTHER[side]):
                if st.players[army]["nation"] == nation:
                    _eliminate(st, army)
        if not st.armies_of(OTHER[side]):
            _finish(st, side, "total")
            return True
    for side in (first, OTHER[first]):
        if st.vp(side) >= st.vp_threshold > 0:
            _finish(st, side, "standard")
            return True
    return False


def _eliminate(st: GameState, army: str) -> None:
    p = st.players[army]
    p["out"] = True
    gone = p["hand"] + [c for k in KINDS for s in p["stacks"][k] for c in s]  # KINDS: not the JSON key order
    gone += [c for bc in sorted(p["occupied"]) for c in p["occupied"][bc]]  # sorted: likewise
    p["hand"] = []
    p["stacks"] = {k: [[]] for k in p["stacks"]}
    p["occupied"] = {}
    for c in gone:
        st.pool_of(c)["removed"].append(c)
    game = st.frames[0] if st.frames and isinstance(st.frames[0], GameFrame) else None
    if game is not None and game.next == army:  # its turn was the next one: it passes to the army after
        order = st.armies
        i = order.index(army)
        game.next = next((order[(i + k) % len(order)] for k in range(1, len(order))
                             if not st.players[order[(i + k) % len(order)]]["out"]), army)
    emit(st, "army_eliminated", {"seat": army, "nation": p["nation"], "cards_removed": len(gone)})
