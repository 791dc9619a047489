"""Benchmark: full engine games between bots on one core, event logging off.

    .venv/bin/python tests/bench/engine_bench.py [--random-games 400] [--heuristic-games 30] [--seed 0]
        [--profile /tmp/engine.prof]

Prints games/s, actions/s and mean actions per game for random-vs-random and heuristic-vs-heuristic
games (Western Europe starter decks), in wall time and in process CPU time (the fairer figure on a
shared machine), plus the heuristic bot's win rate against the random bot with both seat orders.
--profile writes a cProfile of the random-vs-random games instead (read it with pstats, or use
py-spy for lower overhead) and skips the rest.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import HeuristicBot, RandomBot, load_catalog_dir, play_game  # noqa: E402
from games.engine.setup import starter_setup  # noqa: E402


def run(label: str, catalog, games: int, seed: int, make_bots) -> None:
    plies = 0
    finished = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        state = play_game(catalog, starter_setup(catalog, seed + i), make_bots(i))
        plies += state.ply
        finished += state.status == "finished"
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<24} {games:5d} games  {games / wall:8.1f} games/s wall  {games / cpu:8.1f} games/s cpu  "
          f"{plies / cpu:9.0f} actions/s cpu  {plies / games:6.0f} actions/game  finished {finished}/{games}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--random-games", type=int, default=400)
    parser.add_argument("--heuristic-games", type=int, default=30)
    parser.add_argument("--match-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", help="write a cProfile of the random games to this file")
    args = parser.parse_args()
    catalog = load_catalog_dir()
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("run('random vs random', catalog, n, seed, bots)", globals(), {
            "run": run, "catalog": catalog, "n": args.random_games, "seed": args.seed,
            "bots": lambda i: {"axis": RandomBot(i), "allies": RandomBot(i + 1)}}, args.profile)
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(15)
        return 0
    run("random vs random", catalog, args.random_games, args.seed,
        lambda i: {"axis": RandomBot(i), "allies": RandomBot(i + 1)})
    run("heuristic vs heuristic", catalog, args.heuristic_games, args.seed,
        lambda i: {"axis": HeuristicBot(catalog), "allies": HeuristicBot(catalog)})
    wins = draws = 0
    for i in range(args.match_games):
        h = "axis" if i % 2 == 0 else "allies"
        r = "allies" if h == "axis" else "axis"
        state = play_game(catalog, starter_setup(catalog, args.seed + 10_000 + i),
                          {h: HeuristicBot(catalog), r: RandomBot(i)})
        wins += state.winner == h
        draws += state.winner is None
    n = args.match_games
    print(f"heuristic vs random: heuristic won {wins}/{n} ({100 * wins / max(n, 1):.1f}%), draws {draws}, "
          "seats alternated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
