"""Balance of the starter matchups: heuristic bot v heuristic bot, seats alternated.

    .venv/bin/python tests/bench/balance.py [--theater WE|PAC|EF|all] [--games 1000] [--seed 0] [--workers 2]
        [--team DE,DE:GB,GB ...] [--json]

For each theater, its two starter decks (WE: GB v DE, PAC: US v JP, EF: RU v DE East Front) play `--games`
games with the theater's starter conflict deck. Two HeuristicBots with different salts ("a", "b") swap
sides every game (game i: bot "a" plays the axis when i is even, the allies when i is odd), so neither
bot's tie-breaking favours a side; the sides themselves are fixed by the nations (the rules: "Starting
with the German player", the Axis draws first). Game i's seed is seed + i. Prints, per side, the wins and
the win rate with its 95% Wilson interval (draws and unfinished games count as not won), how the games
ended and the mean number of turns. The issue's target: each side wins 45-55% of at least 1,000 games.
Nothing is written anywhere; no database is used.

--team AXIS:ALLIES (repeatable) measures team, uneven and combined-set games instead (FAQ Optional Rules 3
and 4, COMBINING SETS): comma-separated nation or starter codes per side, e.g. DE,DE:GB,GB (2v2),
DE:GB,GB (1v2), DE,JP:GB,US,RU (combined); every army of a side gets bot "a" or "b" as above.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import HeuristicBot, load_catalog_dir, play_game  # noqa: E402
from games.engine.battlecards.setup import starter_setup, team_setup, theater_starters  # noqa: E402

THEATERS = ("WE", "PAC", "EF")
_catalog = None


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _team(spec: str) -> tuple[list[str], list[str]]:
    axis, _, allies = spec.partition(":")
    return [a for a in axis.split(",") if a], [a for a in allies.split(",") if a]


def play_one(task: tuple[str, int, int]) -> tuple[str | None, str | None, int]:
    global _catalog
    if _catalog is None:
        _catalog = load_catalog_dir()
    theater, seed, i = task
    first, second = ("a", "b") if i % 2 == 0 else ("b", "a")
    if ":" in theater:  # a team game (--team)
        axis, allies = _team(theater)
        setup = team_setup(_catalog, seed + i, axis=axis, allies=allies)
        bots = {a: HeuristicBot(_catalog, salt=(first if a.startswith("axis") else second) + a)
                for a in setup.armies}
    else:
        setup = starter_setup(_catalog, seed + i, theater=theater)
        bots = {"axis": HeuristicBot(_catalog, salt=first), "allies": HeuristicBot(_catalog, salt=second)}
    state = play_game(_catalog, setup, bots)
    kind = (state.result or {}).get("kind") if state.status == "finished" else "unfinished"
    return state.winner, kind, state.turn


def run(theater: str, games: int, seed: int, workers: int) -> dict:
    catalog = load_catalog_dir()
    if ":" in theater:
        armies = dict(zip(("axis", "allies"), _team(theater), strict=True))
        starters = {side: "+".join(armies[side]) for side in armies}
        nations = {side: ",".join(armies[side]) for side in armies}
    else:
        starters = theater_starters(catalog, theater)
        nations = {side: catalog.sets[code].nation for side, code in starters.items()}
    tasks = [(theater, seed, i) for i in range(games)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(play_one, tasks, chunksize=max(1, games // (workers * 8)))
    else:
        results = [play_one(t) for t in tasks]
    wins = Counter(w for w, _, _ in results)
    kinds = Counter(k for _, k, _ in results)
    seconds = round(time.perf_counter() - started, 1)
    out = {"theater": theater, "games": games, "seed": seed, "seconds": seconds,
           "sides": {}, "draws_or_unfinished": games - wins["axis"] - wins["allies"],
           "endings": dict(sorted(kinds.items(), key=lambda kv: str(kv[0]))),
           "mean_turns": round(sum(t for _, _, t in results) / max(games, 1), 1)}
    for side in ("allies", "axis"):
        low, high = wilson(wins[side], games)
        out["sides"][side] = {"starter": starters[side], "nation": nations[side], "wins": wins[side],
                              "rate": wins[side] / games, "ci95": [low, high]}
    out["balanced"] = all(0.45 <= s["rate"] <= 0.55 for s in out["sides"].values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--theater", default="all", choices=(*THEATERS, "all"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--team", action="append", default=[], metavar="AXIS:ALLIES",
                        help="a team game instead, e.g. DE,DE:GB,GB (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    theaters = tuple(args.team) or (THEATERS if args.theater == "all" else (args.theater,))
    reports = [run(t, args.games, args.seed, args.workers) for t in theaters]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    print(f"heuristic v heuristic, seats alternated, seeds {args.seed}..{args.seed + args.games - 1}")
    print("| theater | side | starter | wins | win rate | 95% Wilson interval | endings | mean turns |")
    print("|---|---|---|---|---|---|---|---|")
    for r in reports:
        for side, s in r["sides"].items():
            low, high = s["ci95"]
            endings = ", ".join(f"{k} {v}" for k, v in r["endings"].items())
            print(f"| {r['theater']} | {side} ({s['nation']}) | {s['starter']} | {s['wins']}/{r['games']} | "
                  f"{s['rate'] * 100:.1f}% | {low * 100:.1f}-{high * 100:.1f}% | {endings} | "
                  f"{r['mean_turns']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
