"""The analysis of a finished game (issue 41): per ply, the search bot's estimate of each side's chances from
the deciding seat's own knowledge then, and the moves it would have preferred where the played one was clearly
worse. Pure Python over any game that offers a determinizer (core.search.Determinizer); no Django.

How: the game is replayed from its set-up and log; at each ply only the deciding seat's VIEW (what that seat
saw then: never the state) and its legal actions go to the search (SearchBot.evaluate, the search `choose`
runs, seeded from (salt, ply, seat)). So the estimate at a ply depends on nothing the seat could not see: the
same view gives the same estimate, however the hidden cards lie.

A move is flagged when the played action's mean reward is at least FLAG_MARGIN below the mean of the action
the search would have played (its most visited), and the search tried the played action at least
FLAG_MIN_VISITS times (a mean over fewer playouts is noise). An action the search never tried is not judged.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .search import SearchBot

# The budget: iterations (determinized playouts) per ply, at most DEFAULT_ITERATIONS, and fewer when one
# ply would take more than PLY_SECONDS of one core (`budget`: measured on the game's first decision, where
# playouts are longest), so a 300-ply game of any game takes at most about 300 * 0.8 s = 4 minutes.
# Battlefront: about 2.3 ms an iteration, so it gets the 200 (0.45 s a ply, 2.3 minutes for 300 plies;
# tests/bench/analysis_bench.py). Battlecards (150-ply playouts): also the 200, about 3.2 ms an iteration;
# a 300-ply game of two heuristic bots took 194 s of one core (0.65 s a ply mean, p95 0.89 s; 2026-11-29,
# `python tests/bench/analysis_bench.py --game battlecards --games 1 --plies 300`).
# The server's: settings.GAMES_ANALYSIS_ITERATIONS and _PLY_SECONDS.
DEFAULT_ITERATIONS = 200
PLY_SECONDS = 0.8
MIN_ITERATIONS = 16  # never fewer (a slower game's analysis takes longer rather than saying nothing)
PROBE_ITERATIONS = 16
LEVEL = "search-1"  # its playouts' cap (rollout_plies); the iterations are the analysis' own
FLAG_MARGIN = 0.1  # a played move this much (in win probability) below the preferred one is flagged
FLAG_MIN_VISITS = 8  # ... when the search tried it at least this often


@dataclass(frozen=True)
class PlyAnalysis:
    ply: int                     # the position before the (ply + 1)-th action in effect
    seat: str                    # the deciding seat
    wins: dict[str, float]       # each side's estimated win probability, from `seat`'s view
    played: dict[str, Any]       # the action played (its JSON)
    played_value: float | None   # its mean reward for `seat` (None: the search never tried it)
    best: dict[str, Any] | None  # the action the search prefers (its JSON)
    best_value: float | None
    flagged: bool                # played clearly worse than best (FLAG_MARGIN, FLAG_MIN_VISITS)
    choices: int                 # legal actions at this ply

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "seat": self.seat, "wins": self.wins, "played": self.played,
            "played_value": self.played_value, "best": self.best, "best_value": self.best_value,
            "flagged": self.flagged, "choices": self.choices,
        }


def side_of(seat: str, sides: Sequence[str]) -> str:
    """The side a seat plays for: itself, or the side its name extends (an army seat "axis-2" of a team game
    plays for "axis", the platform's naming of armies)."""
    return next((s for s in sides if seat == s or seat.startswith(f"{s}-")), seat)


def analyse_ply(bot: SearchBot, *, view: dict[str, Any], legal: list[Any], seat: str, played: Any,
                seats: Sequence[str], ply: int) -> PlyAnalysis:
    """One ply: the search from `view` (the deciding seat's view) over `legal`, judged against `played`."""
    estimate = bot.evaluate(view, legal, seat)
    value = round(estimate.value, 4)
    side = side_of(seat, seats)
    wins = {side: value}
    if len(seats) == 2 and side in seats:  # two sides: the other's chance is the rest (a draw counts half)
        wins[seats[1] if side == seats[0] else seats[0]] = round(1 - value, 4)
    best = estimate.actions[0] if estimate.actions else None
    mine = next((s for s in estimate.actions if s.action == played), None)
    flagged = (
        best is not None and mine is not None and mine is not best
        and mine.visits >= FLAG_MIN_VISITS and best.value - mine.value >= FLAG_MARGIN
    )
    return PlyAnalysis(
        ply=ply, seat=seat, wins=wins, played=played.to_json(),
        played_value=None if mine is None else round(mine.value, 4),
        best=None if best is None else best.action.to_json(),
        best_value=None if best is None else round(best.value, 4),
        flagged=flagged, choices=len(legal),
    )


def budget(*, engine: Any, determinizer: Any, state: Any, max_iterations: int = DEFAULT_ITERATIONS,
           ply_seconds: float = PLY_SECONDS) -> int:
    """The iterations a ply for this game: max_iterations, or fewer when a ply would take more than
    `ply_seconds` of this thread's CPU, timed by PROBE_ITERATIONS iterations from `state` (the game's
    start, not changed). The analysis then uses this one number for every ply (each ply's estimate stays a
    function of its view and the number alone)."""
    seat = determinizer.to_move(state)
    probe = min(PROBE_ITERATIONS, max_iterations)
    if seat is None or probe <= 0:
        return max(1, max_iterations)
    bot = SearchBot(determinizer, level=LEVEL, salt="budget", iterations=probe)
    view, legal = engine.view(state, seat), engine.legal_actions(state)
    timings = []
    for _ in range(2):  # the faster of two: the first may pay for warming caches up
        started = time.thread_time()
        bot.evaluate(view, legal, seat)
        timings.append(time.thread_time() - started)
    each = max(1e-6, min(timings) / probe)
    return max(min(MIN_ITERATIONS, max_iterations), min(max_iterations, int(ply_seconds / each)))


def analyse_game(
    *,
    engine: Any,
    determinizer: Any,
    state: Any,
    actions: Sequence[Any],
    iterations: int = DEFAULT_ITERATIONS,
    salt: str = "analysis",
    start: int = 0,
    on_ply: Callable[[PlyAnalysis], None] | None = None,
) -> list[PlyAnalysis]:
    """Analyse the plies from `start` of a game: `state` is its state before the first action, `actions`
    the JSON of its actions in effect; `engine` the game's Engine (parse_action, legal_actions, apply, view,
    seats), `determinizer` its Determinizer. The plies before `start` are replayed, not searched (a job
    resumed). `on_ply`, if given, gets each ply's result as it is known (progress)."""
    bot = SearchBot(determinizer, level=LEVEL, salt=salt, iterations=iterations)
    out = []
    for ply, data in enumerate(actions):
        action = engine.parse_action(data)
        if ply >= start:
            seat = determinizer.to_move(state)
            if seat is None:
                break
            legal = engine.legal_actions(state)
            played = next((a for a in legal if a == action), action)
            result = analyse_ply(bot, view=engine.view(state, seat), legal=legal, seat=seat, played=played,
                                 seats=engine.seats, ply=ply)
            out.append(result)
            if on_ply is not None:
                on_ply(result)
        engine.apply(state, action)
    return out
