"""Benchmark: The War self-play on one core (engine games, event logging off).

    .venv/bin/python tests/bench/the_war_bench.py [--games 1000] [--speed-games 300] [--seed 0] [--json]

Prints
  * random-vs-random games per second per core (process CPU time) and actions per game;
  * the heuristic bot's and the random bot's win rates over --games seeded heuristic-v-random games (the
    heuristic bot seated p1 in even games, p2 in odd ones; starters Red Army (p1) v Wehrmacht (p2)), each with
    its 95 % Wilson interval (the issue asks the heuristic >= 80 %);
  * the first player's win rate over the random games, with its 95 % Wilson interval.
Nothing is asserted: rerun to measure (`make bench` runs it with the other benchmarks).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import the_war as tw  # noqa: E402
from vocabulary.the_war import load_catalog  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def run(catalog, games: int, seed: int, make_bots) -> dict:
    plies = turns = 0
    results = []
    cpu = time.process_time()
    for i in range(games):
        st = tw.play_game(catalog, tw.starter_setup(catalog, seed + i), make_bots(i))
        results.append((st.winner, st.first_seat, st.status))
        plies += st.ply
        turns += st.turn
    cpu = time.process_time() - cpu
    return {"games": games, "games_s_cpu": games / cpu, "actions_s_cpu": plies / cpu,
            "actions_per_game": plies / max(games, 1), "turns_per_game": turns / max(games, 1),
            "finished": sum(1 for r in results if r[2] == "finished"), "results": results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="heuristic v random games")
    parser.add_argument("--speed-games", type=int, default=300, help="random v random games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args, _ = parser.parse_known_args()
    catalog = load_catalog()

    rnd = run(catalog, args.speed_games, args.seed, lambda i: {"p1": tw.RandomBot(f"a{i}"),
                                                              "p2": tw.RandomBot(f"b{i}")})

    def match_bots(i):
        h = tw.SEATS[i % 2]
        return {h: tw.HeuristicBot(salt=f"h{i}"), tw.OTHER[h]: tw.RandomBot(f"r{i}")}

    match = run(catalog, args.games, args.seed, match_bots)
    h_wins = sum(1 for i, (w, _f, _s) in enumerate(match["results"]) if w == tw.SEATS[i % 2])
    r_wins = sum(1 for i, (w, _f, _s) in enumerate(match["results"]) if w == tw.SEATS[1 - i % 2])
    first = sum(1 for w, f, _s in rnd["results"] if w == f)
    out = {
        "random_v_random": {k: v for k, v in rnd.items() if k != "results"},
        "heuristic_v_random": {"games": args.games, "heuristic_wins": h_wins, "random_wins": r_wins,
                               "heuristic_win_rate": h_wins / max(args.games, 1),
                               "heuristic_wilson95": list(wilson(h_wins, args.games)),
                               "random_win_rate": r_wins / max(args.games, 1),
                               "random_wilson95": list(wilson(r_wins, args.games)),
                               "games_s_cpu": match["games_s_cpu"]},
        "first_player_random": {"wins": first, "rate": first / max(args.speed_games, 1),
                                "wilson95": list(wilson(first, args.speed_games))},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    r, m, f = out["random_v_random"], out["heuristic_v_random"], out["first_player_random"]
    print(f"The War random v random: {r['games']} games, {r['games_s_cpu']:.1f} games/s per core (CPU), "
          f"{r['actions_s_cpu']:.0f} actions/s, {r['actions_per_game']:.0f} actions and "
          f"{r['turns_per_game']:.1f} turns per game")
    print(f"The War heuristic v random: heuristic {m['heuristic_wins']}/{m['games']} = "
          f"{m['heuristic_win_rate']:.1%} (95% Wilson {m['heuristic_wilson95'][0]:.1%}-"
          f"{m['heuristic_wilson95'][1]:.1%}); random {m['random_win_rate']:.1%} (95% Wilson "
          f"{m['random_wilson95'][0]:.1%}-{m['random_wilson95'][1]:.1%}); seats alternated")
    print(f"The War first player (random v random): {f['rate']:.1%} (95% Wilson {f['wilson95'][0]:.1%}-"
          f"{f['wilson95'][1]:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
