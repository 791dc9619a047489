"""The analysis of a finished game (issue 41): the time per ply at a budget, on one core (process CPU time),
and what a 300-ply game would take.

    python tests/bench/analysis_bench.py --game battlefront --games 3   # the default budget
    python tests/bench/analysis_bench.py --game battlecards --plies 300  # 194 s of one core (2026-11-29)

Each game is played by two heuristic bots from the game's `example(seed)` (seeds 1000..), then analysed
ply by ply (games.engine.core.analysis.analyse_game, the server's code path without the database). The
budget (core.analysis.budget: at most --iterations, fewer when a ply would take more than --ply-seconds of one
core) must keep a 300-ply game within 5 minutes of one core: settings.GAMES_ANALYSIS_ITERATIONS, _PLY_SECONDS.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.core.analysis import DEFAULT_ITERATIONS, PLY_SECONDS, analyse_game, budget  # noqa: E402
from games.engine.registry import get  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="battlefront")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--ply-seconds", type=float, default=PLY_SECONDS)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--plies", type=int, default=0, help="at most this many plies a game (0: all)")
    args = parser.parse_args()
    engine = get(args.game).engine
    per_ply: list[float] = []
    flagged = plies = 0
    budgets: list[int] = []
    for g in range(args.games):
        catalog, setup = engine.example(1000 + g)
        determinizer = engine.determinizer(catalog)
        if determinizer is None:
            raise SystemExit(f"{args.game} offers no determinizer: nothing to analyse with")
        state = engine.new_game(catalog, setup)
        bots = {s: engine.bot("heuristic", catalog=catalog, salt=f"b{g}{s}") for s in engine.seats}
        actions = []
        while state.decision is not None and len(actions) < 2000:
            seat = state.decision.seat
            action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state), seat)
            actions.append(action.to_json())
            engine.apply(state, action)
        if args.plies:
            actions = actions[: args.plies]
        last = [time.process_time()]

        def tick(result, last=last) -> None:
            now = time.process_time()
            per_ply.append(now - last[0])
            last[0] = now

        iterations = budget(engine=engine, determinizer=determinizer, state=engine.new_game(catalog, setup),
                            max_iterations=args.iterations, ply_seconds=args.ply_seconds)
        budgets.append(iterations)
        last[0] = time.process_time()
        results = analyse_game(engine=engine, determinizer=determinizer, actions=actions,
                               state=engine.new_game(catalog, setup), iterations=iterations, on_ply=tick)
        plies += len(results)
        flagged += sum(r.flagged for r in results)
    ms = sorted(1000 * t for t in per_ply)
    mean = statistics.fmean(ms)
    print(f"{args.game}: at most {args.iterations} iterations and {args.ply_seconds} s a ply: the budget "
          f"gave {budgets}; {plies} plies over {args.games} games, {flagged} flagged")
    median, p95 = ms[len(ms) // 2], ms[int(0.95 * (len(ms) - 1))]
    print(f"CPU per ply: mean {mean:.0f} ms, median {median:.0f} ms, p95 {p95:.0f} ms")
    print(f"a 300-ply game: {300 * mean / 1000:.0f} s of one core (the budget: 300 s)")


if __name__ == "__main__":
    main()
