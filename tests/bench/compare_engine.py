"""Engine benchmark of this checkout against a baseline commit, side by side in one run.

    .venv/bin/python tests/bench/compare_engine.py BASELINE_REV [--rounds 3] [bench args...]

Checks BASELINE_REV out into a temporary git worktree, then runs tests/bench/engine_bench.py --json of
the baseline and of this checkout alternately, `--rounds` times each (the machine is shared: the best
of the rounds is the fairer figure), and prints a before/after table with the ratios. Not run by
`make bench` (it is not a *_bench.py script).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path("tests/bench/engine_bench.py")


def bench(checkout: Path, extra: list[str]) -> dict:
    out = subprocess.run([sys.executable, str(checkout / BENCH), "--json", *extra], cwd=checkout,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("--rounds", type=int, default=3)
    args, extra = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
                       check=True, capture_output=True)
        if not (base / BENCH).exists() or "--json" not in (base / BENCH).read_text():
            (base / BENCH).write_text((ROOT / BENCH).read_text())  # an older bench script: use this one
        try:
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                runs["before"].append(bench(base, extra))
                runs["after"].append(bench(ROOT, extra))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    rows = [("random games/s (cpu)", "random", "games_s_cpu"),
            ("random actions/s (cpu)", "random", "actions_s_cpu"),
            ("heuristic games/s (cpu)", "heuristic", "games_s_cpu"),
            ("heuristic actions/s (cpu)", "heuristic", "actions_s_cpu")]
    print(f"| figure (best of {args.rounds}) | before ({args.baseline}) | after | after/before |")
    print("|---|---:|---:|---:|")
    for label, part, key in rows:
        b = max(r[part][key] for r in runs["before"])
        a = max(r[part][key] for r in runs["after"])
        print(f"| {label} | {b:,.1f} | {a:,.1f} | {a / b:.3f} |")
    chess = [r["chess"] for r in runs["after"] if r.get("chess")]
    if chess:
        moves = max(c["moves_s_cpu"] for c in chess)
        best_random = max(r["random"]["actions_s_cpu"] for r in runs["after"])
        best_before = max(r["random"]["actions_s_cpu"] for r in runs["before"])
        print(f"| python-chess random playout moves/s (cpu) | | {moves:,.0f} | |")
        print(f"| time per engine action / per chess move | {moves / best_before:.2f} | "
              f"{moves / best_random:.2f} | |")
    print("raw:", json.dumps(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
