"""Every engine of this checkout against a baseline commit, side by side in one run (issue 35).

    .venv/bin/python tests/bench/compare_engine.py [BASELINE_REV] [--rounds 3] [--games GAME=N ...]
        [--only battlecards,battlefront,the-war,tide-of-iron] [--heuristic] [--json]

BASELINE_REV (default f2fae7c, the commit before issue 35's registry) is checked out into a temporary git
worktree; tests/bench/engine_playout.py of THIS checkout (its small adapters read both layouts) then runs
in a fresh process for the baseline and for this checkout alternately (the baseline first in odd rounds,
this checkout first in even ones), `--rounds` times each per game, and the best of the rounds of each side
is compared (the machine is shared: the best round is the fairer figure, and only ratios measured side by
side in one run count):

* Battlecards, Battlefront, The War: random playouts (play_game, RandomBot on both seats, events off),
  actions/s and games/s in process CPU time, the same seeds on both sides; with --heuristic the heuristic
  bot on both seats too (a tenth of the games).
* Tide of Iron (a referee, no bots): the checkout's golden matches, played by their script and replayed
  from their logs through `apply`: CPU seconds (lower is better) and replay actions/s. Each side plays its
  own golden matches (its own rules revision), so their lengths may differ: compare actions/s.

`make bench` runs it after the *_bench.py scripts (tests/bench/run_all.py), with the defaults.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYOUT = ROOT / "tests" / "bench" / "engine_playout.py"
BASELINE = "f2fae7c"
GAMES = {"battlecards": 200, "battlefront": 1000, "the-war": 60, "tide-of-iron": 0}


def measure(checkout: Path, game: str, games: int, heuristic: bool) -> dict:
    cmd = [sys.executable, str(PLAYOUT), game, "--root", str(checkout), "--games", str(games)]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([*cmd, *(["--heuristic"] if heuristic else [])], cwd=checkout, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{game} in {checkout} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# (label, path into a measurement, higher is better)
ROWS = {
    "battlecards": [("random actions/s (cpu)", ("random", "actions_s_cpu"), True),
                    ("random games/s (cpu)", ("random", "games_s_cpu"), True)],
    "tide-of-iron": [("golden matches: replay actions/s (cpu)", ("golden", "replay_actions_s_cpu"), True),
                     ("golden matches: replay cpu s", ("golden", "replay_cpu_s"), False),
                     ("golden matches: play cpu s (script + views + apply)", ("golden", "play_cpu_s"), False),
                     ("golden matches: plies", ("golden", "plies"), True)],
}
ROWS["battlefront"] = ROWS["the-war"] = ROWS["battlecards"]
HEURISTIC_ROWS = [("heuristic actions/s (cpu)", ("heuristic", "actions_s_cpu"), True)]


def fmt(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3f}"


def best(runs: list[dict], path: tuple[str, str], higher: bool) -> float:
    values = [r[path[0]][path[1]] for r in runs]
    return max(values) if higher else min(values)


def table(baseline: str, rounds: int, results: dict[str, dict[str, list[dict]]], heuristic: bool) -> str:
    lines = [f"| game | figure (best of {rounds}) | {baseline} | this checkout | this / {baseline} |",
             "|---|---|---:|---:|---:|"]
    for game, runs in results.items():
        rows = ROWS[game] + (HEURISTIC_ROWS if heuristic and game != "tide-of-iron" else [])
        for label, path, higher in rows:
            b, a = best(runs["before"], path, higher), best(runs["after"], path, higher)
            ratio = a / b if higher else b / a  # > 1: this checkout is faster
            lines.append(f"| {game} | {label} | {fmt(b)} | {fmt(a)} | "
                         f"{ratio:.3f}{'' if higher else ' (speed)'} |")
        per_game = [r["random"]["actions_per_game"] for r in runs["after"] if "random" in r]
        if per_game:
            before = runs["before"][0]["random"]["actions_per_game"]
            lines.append(f"| {game} | actions per random game | {before:,.1f} | {per_game[0]:,.1f} | |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", nargs="?", default=BASELINE)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--games", action="append", default=[], metavar="GAME=N",
                        help=f"random games per round (defaults {GAMES})")
    parser.add_argument("--heuristic", action="store_true", help="heuristic playouts too")
    parser.add_argument("--json", action="store_true", help="print the raw measurements as JSON too")
    args, _unknown = parser.parse_known_args()  # make bench passes the benches' own options: ignored
    counts = dict(GAMES)
    for item in args.games:
        game, _, n = item.partition("=")
        counts[game] = int(n)
    only = [g for g in args.only.split(",") if g]
    if unknown := set(only) - set(GAMES):
        raise SystemExit(f"unknown games {sorted(unknown)}; known: {sorted(GAMES)}")
    results: dict[str, dict[str, list[dict]]] = {g: {"before": [], "after": []} for g in only}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
                       check=True, capture_output=True)
        try:
            for r in range(args.rounds):
                for game in only:
                    sides = [("before", base), ("after", ROOT)]
                    for side, checkout in sides if r % 2 == 0 else sides[::-1]:
                        results[game][side].append(measure(checkout, game, counts[game], args.heuristic))
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print(table(args.baseline, args.rounds, results, args.heuristic))
    if args.json:
        print("raw:", json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
