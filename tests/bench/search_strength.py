"""The search bot's strength (issue 40): one level against another bot, seats alternating, with the
Wilson 95 % interval of the win share and the search bot's time per decision (median, p95; process CPU time
of the decisions it searched, i.e. with more than one legal action).

    python tests/bench/search_strength.py --game battlefront --level search-1 --opponent heuristic --games 40
    python tests/bench/search_strength.py --game the-war --level search-2 --games 200 --workers 2 \
        --json out.json
    python tests/bench/search_strength.py --game battlecards --level search-1 --rollout-plies 50 --games 20
    python tests/bench/search_strength.py --game battlefront --seconds 1 --games 40 --workers 2   # 1 s level

--iterations and --rollout-plies override the level's playouts per decision and the game's playout cap (its
determinizer's `rollout_plies`) for the search bot only, to choose a budget before naming it; --seconds gives
it a time budget instead (process CPU time a decision, core.search.SearchBot.seconds; its choices then depend
on the machine, so no named level is one).

Game g is seed 1000+g (the game's `example(seed)`), the search bot sits in seat g % 2, salts "s<g>" /
"o<g>": a rerun gives the same games and the same score whatever --workers (games are dealt to worker
processes; each game is played whole in one). Draws (and games stopped by --max-plies) count half.
--json rewrites its file after every game (the figures so far, every game, every searched decision's
time), so a run stopped early keeps them; runs of --first ranges add up to one run of their union.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.registry import get  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share `wins / n` (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def play_one(game: str, level: str, opponent: str, g: int, max_plies: int,
             iterations: int | None, rollout_plies: int | None = None, seconds: float | None = None) -> dict:
    """Game g: the search level against the opponent; the result and the search seat's decision times."""
    engine = get(game).engine
    catalog, setup = engine.example(1000 + g)
    me, them = engine.seats[g % 2], engine.seats[1 - g % 2]
    bot = engine.bot(level, catalog=catalog, salt=f"s{g}")
    if iterations is not None:
        bot.iterations = iterations
    if seconds is not None:  # a time budget: the search stops once it spent `seconds` of CPU on a decision
        bot.seconds = seconds
        bot.iterations = iterations if iterations is not None else 1_000_000
    if rollout_plies is not None:  # the playout cap of this bot's determinizer (its game's rollout_plies)
        bot.game.rollout_plies = rollout_plies
    bots = {me: bot, them: engine.bot(opponent, catalog=catalog, salt=f"o{g}")}
    state = engine.new_game(catalog, setup)
    times: list[float] = []
    start_game = time.process_time()
    while state.decision is not None and state.ply < max_plies:
        seat = state.decision.seat
        legal = engine.legal_actions(state)
        start = time.process_time()
        action = bots[seat].choose(engine.view(state, seat), legal, seat)
        if seat == me and len(legal) > 1:
            times.append(time.process_time() - start)
        engine.apply(state, action)
    score = 1.0 if state.winner == me else 0.5 if state.winner is None else 0.0
    return {"game": g, "seat": me, "winner": state.winner, "score": score, "plies": state.ply,
            "cpu": time.process_time() - start_game, "times": times}


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="battlefront")
    parser.add_argument("--level", default="search-1")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first game's number (seed 1000+first)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="playouts per decision instead of the level's (to calibrate a level)")
    parser.add_argument("--rollout-plies", type=int, default=None,
                        help="the search bot's playout cap instead of its game's (to calibrate)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="a time budget: CPU seconds a decision (the '1 s' level), playouts unbounded")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games (at most 2 here)")
    parser.add_argument("--max-plies", type=int, default=3000)
    parser.add_argument("--json", default=None, help="also write the figures and every game to this file")
    args = parser.parse_args()
    numbers = range(args.first, args.first + args.games)
    wall = time.perf_counter()
    results: list[dict] = []
    jobs = [(args.game, args.level, args.opponent, g, args.max_plies, args.iterations,
             args.rollout_plies, args.seconds) for g in numbers]
    if args.workers > 1:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for r in pool.map(play_one, *zip(*jobs, strict=True)):
                record(args, results, r, wall)
    else:
        for job in jobs:
            record(args, results, play_one(*job), wall)
    summary = summarize(args, results, wall)
    budget = (f"{args.level}" + (f" at {args.iterations} playouts" if args.iterations is not None else "")
              + (f", playouts of {args.rollout_plies} plies" if args.rollout_plies is not None else "")
              + (f", {args.seconds:g} s a decision" if args.seconds is not None else ""))
    low, high = summary["wilson95"]
    print(f"{args.game} {budget} vs {args.opponent}: {summary['score']:g}/{summary['games']} = "
          f"{summary['share']:.1%} (Wilson 95% {low:.1%}-{high:.1%}); per searched decision median "
          f"{summary['median_ms']:.0f} ms, p95 {summary['p95_ms']:.0f} ms CPU ({summary['decisions']} "
          f"decisions); {summary['wall_s']:.0f} s wall, {summary['cpu_s']:.0f} s CPU in games, "
          f"{args.workers} worker(s)")


def record(args: argparse.Namespace, results: list[dict], r: dict, wall: float) -> None:
    """One game done: print it, and rewrite the --json file with every game so far (a run stopped early
    keeps its figures)."""
    results.append(r)
    print(f"game {r['game']}: search seat {r['seat']}, winner {r['winner']}, {r['plies']} plies, "
          f"{r['cpu']:.1f} s CPU", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({**summarize(args, results, wall), "results": [
            {k: v for k, v in g.items() if k != "times"} for g in results],
            "times_ms": [round(t * 1000, 2) for g in results for t in g["times"]]}))


def summarize(args: argparse.Namespace, results: list[dict], wall: float) -> dict:
    score = sum(r["score"] for r in results)
    played = len(results)
    times = sorted(t for r in results for t in r["times"])
    low, high = wilson(score, played)
    return {
        "game": args.game, "level": args.level, "iterations": args.iterations, "opponent": args.opponent,
        "rollout_plies": args.rollout_plies, "seconds": args.seconds,
        "first": args.first, "games": played, "score": score, "share": score / max(played, 1),
        "wilson95": [low, high], "decisions": len(times), "median_ms": percentile(times, 0.5) * 1000,
        "p95_ms": percentile(times, 0.95) * 1000, "wall_s": time.perf_counter() - wall,
        "cpu_s": sum(r["cpu"] for r in results), "workers": args.workers,
    }


if __name__ == "__main__":
    main()
