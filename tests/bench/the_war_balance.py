"""Balance of The War's starters: Red Army v Wehrmacht, the heuristic bot on both sides, decks swapped
between seats.

    .venv/bin/python tests/bench/the_war_balance.py [--games 2000] [--seed 0] [--workers 2] [--json]

Game i is dealt from seed `seed + i` (the engine's seeded RNG shuffles and picks the first player); the Red
Army starter sits at p1 in even games and at p2 in odd ones, so each seat plays each deck equally often. Both
seats are HeuristicBots (deterministic; salts "p1"/"p2"). Games use the engine's current rules revision and
the catalog in fixtures/the_war (`load_catalog()`). Prints the Red Army's wins and win rate with its 95 %
Wilson interval (issue 36's target: point estimate 47-53 %, interval inside 45-55 %, at least 2,000 games),
the same by the Red Army's seat, the first player's rate and the mean turns. Unfinished games count as not
won. `--workers` (at most 2 on the shared box) splits the games over processes. Nothing is written.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import the_war as tw  # noqa: E402
from vocabulary.the_war import load_catalog  # noqa: E402

RED, WEHRMACHT = "tw-starter-red-army", "tw-starter-wehrmacht"
_catalog = None


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def play_one(task: tuple[int, int]) -> tuple[str, str | None, str, int]:
    """(the Red Army's seat, the winner's seat, the first seat, turns) of game i."""
    global _catalog
    if _catalog is None:
        _catalog = load_catalog()
    seed, i = task
    red = tw.SEATS[i % 2]
    first, second = (RED, WEHRMACHT) if red == "p1" else (WEHRMACHT, RED)
    setup = tw.starter_setup(_catalog, seed + i, first=first, second=second)
    bots = {s: tw.HeuristicBot(_catalog, salt=s) for s in tw.SEATS}
    st = tw.play_game(_catalog, setup, bots)
    return red, st.winner if st.status == "finished" else None, st.first_seat, st.turn


def run(games: int, seed: int, workers: int) -> dict:
    tasks = [(seed, i) for i in range(games)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(min(workers, 2)) as pool:
            results = pool.map(play_one, tasks, chunksize=max(1, games // (workers * 8)))
    else:
        results = [play_one(t) for t in tasks]
    seconds = time.perf_counter() - started

    def share(rows: list) -> dict:
        won = sum(1 for red, winner, _, _ in rows if winner == red)
        low, high = wilson(won, len(rows))
        return {"games": len(rows), "red_wins": won, "rate": won / max(len(rows), 1), "ci95": [low, high]}

    red = share(results)
    first = sum(1 for _, winner, f, _ in results if winner == f)
    return {
        "games": games, "seed": seed, "seconds": round(seconds, 1),
        "red_army": red,
        "red_army_by_seat": {s: share([r for r in results if r[0] == s]) for s in tw.SEATS},
        "first_player_rate": first / max(games, 1),
        "unfinished": sum(1 for r in results if r[1] is None),
        "mean_turns": round(sum(r[3] for r in results) / max(games, 1), 1),
        "target_met": 0.47 <= red["rate"] <= 0.53 and red["ci95"][0] >= 0.45 and red["ci95"][1] <= 0.55,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    r = run(args.games, args.seed, args.workers)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    red = r["red_army"]
    print(f"The War starters, heuristic v heuristic, decks swapped between seats, seeds {args.seed}.."
          f"{args.seed + args.games - 1} ({r['seconds']} s)")
    print(f"Red Army wins {red['red_wins']}/{red['games']} = {red['rate'] * 100:.2f} % "
          f"(95 % Wilson {red['ci95'][0] * 100:.1f}-{red['ci95'][1] * 100:.1f} %); "
          f"target met: {r['target_met']}")
    for s, x in r["red_army_by_seat"].items():
        print(f"  Red Army at {s}: {x['red_wins']}/{x['games']} = {x['rate'] * 100:.1f} % "
              f"({x['ci95'][0] * 100:.1f}-{x['ci95'][1] * 100:.1f} %)")
    print(f"first player wins {r['first_player_rate'] * 100:.1f} %; unfinished {r['unfinished']}; "
          f"mean turns {r['mean_turns']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
