"""The search bot's strength (issue 40): one level against another bot, seats alternating, with the
Wilson 95 % interval of the win share and the search bot's time per decision (median, p95; process CPU time).

    python tests/bench/search_strength.py --game battlefront --level search-1 --opponent heuristic --games 40

Draws count half. Seeds are 1000.. (the game's `example(seed)`), salts "s<g>" / "o<g>": a rerun gives the
same games and the same score.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.registry import get  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="battlefront")
    parser.add_argument("--level", default="search-1")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-plies", type=int, default=3000)
    parser.add_argument("--cpu-budget", type=float, default=None,
                        help="start no new game once the process has used this many CPU seconds")
    args = parser.parse_args()
    engine = get(args.game).engine
    score, times, played = 0.0, [], 0
    for g in range(args.games):
        if args.cpu_budget is not None and time.process_time() > args.cpu_budget:
            break
        catalog, setup = engine.example(1000 + g)
        me, them = engine.seats[g % 2], engine.seats[1 - g % 2]
        bots = {me: engine.bot(args.level, catalog=catalog, salt=f"s{g}"),
                them: engine.bot(args.opponent, catalog=catalog, salt=f"o{g}")}
        state = engine.new_game(catalog, setup)
        while state.decision is not None and state.ply < args.max_plies:
            seat = state.decision.seat
            legal = engine.legal_actions(state)
            start = time.process_time()
            action = bots[seat].choose(engine.view(state, seat), legal, seat)
            if seat == me:
                times.append(time.process_time() - start)
            engine.apply(state, action)
        score += 1.0 if state.winner == me else 0.5 if state.winner is None else 0.0
        played += 1
        print(f"game {g}: search seat {me}, winner {state.winner}, {state.ply} plies, "
              f"{time.process_time():.0f} s CPU so far", flush=True)
    times.sort()
    low, high = wilson(score, played)
    print(f"{args.game} {args.level} vs {args.opponent}: {score:g}/{played} = {score / max(played, 1):.0%} "
          f"(Wilson 95% {low:.0%}-{high:.0%}); per decision median {times[len(times) // 2] * 1000:.0f} ms, "
          f"p95 {times[int(len(times) * 0.95)] * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
