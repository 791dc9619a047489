"""Benchmark: full engine games between bots on one core, event logging off.

    .venv/bin/python tests/bench/engine_bench.py [--random-games 400] [--heuristic-games 30]
        [--match-games 200] [--chess-games 40] [--seed 0] [--theater WE] [--team DE,DE:GB,GB] [--json]
        [--profile /tmp/engine.prof]

Prints games/s, actions/s and mean actions per game for random-vs-random and heuristic-vs-heuristic
games (Western Europe starter decks), in wall time and in process CPU time (the fairer figure on a
shared machine), the heuristic bot's win rate against the random bot with both seat orders, and, as a
yardstick measured in the same run, python-chess random playouts (moves/s; the `bench` extra installs
python-chess) with the ratio of time per action (engine random game action / chess random move), and
the inverse as issue 40 states it: Battlecards' random actions/s "x python-chess" moves/s (it wants >= 2.5).
--json prints one JSON object instead (tests/bench/compare_engine.py reads it). --profile writes a
cProfile of the random-vs-random games instead (read it with pstats) and skips the rest.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_theaters import add_team_argument, add_theater_argument, bench_setup, bots_for  # noqa: E402

from games.engine import HeuristicBot, RandomBot, load_catalog_dir, play_game  # noqa: E402

TEAM: str | None = None  # --team: every game is this team game (bench_theaters.bench_setup)


def _per_army(setup, make_bots, i: int) -> dict:
    """make_bots(i) gives the classic seats' bots; a team game gets a fresh one of its side's per army."""
    if not TEAM:
        return make_bots(i)
    return bots_for(setup, lambda side, army: make_bots(i)[side])


def run(catalog, games: int, seed: int, make_bots, theater: str = "WE") -> dict:
    plies = 0
    finished = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        setup = bench_setup(catalog, seed + i, theater, TEAM)
        state = play_game(catalog, setup, _per_army(setup, make_bots, i))
        plies += state.ply
        finished += state.status == "finished"
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "games_s_wall": games / wall, "games_s_cpu": games / cpu,
            "actions_s_cpu": plies / cpu, "actions_per_game": plies / max(games, 1), "finished": finished}


def chess_playouts(games: int, seed: int) -> dict | None:
    """Uniformly random python-chess games from the initial position to the end (moves/s, CPU time)."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    moves = 0
    cpu = time.process_time()
    for _ in range(games):
        board = chess.Board()
        while board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
    cpu = time.process_time() - cpu
    return {"games": games, "games_s_cpu": games / cpu, "moves_s_cpu": moves / cpu,
            "moves_per_game": moves / max(games, 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--random-games", type=int, default=400)
    parser.add_argument("--heuristic-games", type=int, default=30)
    parser.add_argument("--match-games", type=int, default=200)
    parser.add_argument("--chess-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--profile", help="write a cProfile of the random games to this file")
    add_theater_argument(parser)
    add_team_argument(parser)
    args = parser.parse_args()
    global TEAM
    TEAM = args.team
    catalog = load_catalog_dir()
    random_bots = lambda i: {"axis": RandomBot(i), "allies": RandomBot(i + 1)}  # noqa: E731
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("run(catalog, n, seed, bots, theater)", globals(), {
            "run": run, "catalog": catalog, "n": args.random_games, "seed": args.seed, "bots": random_bots,
            "theater": args.theater}, args.profile)
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(15)
        return 0
    out: dict = {
        "theater": args.theater,
        "team": args.team,
        "random": run(catalog, args.random_games, args.seed, random_bots, args.theater),
        "heuristic": run(catalog, args.heuristic_games, args.seed,
                         lambda i: {"axis": HeuristicBot(catalog), "allies": HeuristicBot(catalog)},
                         args.theater),
    }
    wins = draws = 0
    for i in range(args.match_games):
        h = "axis" if i % 2 == 0 else "allies"
        r = "allies" if h == "axis" else "axis"
        setup = bench_setup(catalog, args.seed + 10_000 + i, args.theater, TEAM)
        state = play_game(catalog, setup, _per_army(
            setup, lambda _i, h=h, r=r, i=i: {h: HeuristicBot(catalog), r: RandomBot(i)}, i))
        wins += state.winner == h
        draws += state.winner is None
    out["match"] = {"games": args.match_games, "heuristic_wins": wins, "draws": draws}
    out["chess"] = chess_playouts(args.chess_games, args.seed) if args.chess_games else None
    if out["chess"]:
        # time per engine action / time per chess move (both random playouts, CPU time, same run)
        out["chess"]["us_per_action_ratio"] = out["chess"]["moves_s_cpu"] / out["random"]["actions_s_cpu"]
        # issue 40's yardstick: Battlecards random actions/s over python-chess random moves/s (>= 2.5 wanted)
        out["chess"]["x_python_chess"] = out["random"]["actions_s_cpu"] / out["chess"]["moves_s_cpu"]
    if args.json:
        print(json.dumps(out))
        return 0
    for label, key in (("random vs random", "random"), ("heuristic vs heuristic", "heuristic")):
        r = out[key]
        print(f"{label:<24} {r['games']:5d} games  {r['games_s_wall']:8.1f} games/s wall  "
              f"{r['games_s_cpu']:8.1f} games/s cpu  {r['actions_s_cpu']:9.0f} actions/s cpu  "
              f"{r['actions_per_game']:6.0f} actions/game  finished {r['finished']}/{r['games']}")
    n = args.match_games
    print(f"heuristic vs random: heuristic won {wins}/{n} ({100 * wins / max(n, 1):.1f}%), draws {draws}, "
          "seats alternated")
    c = out["chess"]
    if c:
        print(f"python-chess random playouts {c['games']:3d} games  {c['moves_s_cpu']:9.0f} moves/s cpu  "
              f"{c['moves_per_game']:6.0f} moves/game; an engine action takes "
              f"{c['us_per_action_ratio']:.2f}x the time of a chess move")
        print(f"Battlecards random playout: {out['random']['actions_s_cpu']:.0f} actions/s cpu = "
              f"{c['x_python_chess']:.2f} x python-chess ({c['moves_s_cpu']:.0f} moves/s cpu), same run, one "
              "core (issue 40 wants >= 2.5 x)")
    elif args.chess_games:
        print("python-chess not installed (pip install -e '.[bench]'): no chess yardstick")
    return 0


if __name__ == "__main__":
    sys.exit(main())
