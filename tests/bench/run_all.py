"""`make bench`: run every benchmark script in tests/bench/ in turn (each prints its own figures).

Benchmarks are scripts, not tests: rerun them to measure; nothing here asserts a time. Last, every engine
against commit f2fae7c side by side (compare_engine.py: random playouts, Tide of Iron's golden matches).
`--theater WE|PAC|EF` (default WE) picks the theater whose starter decks the game benchmarks play;
`--team AXIS:ALLIES` (e.g. DE,DE:GB,GB) makes the engine benchmark play that team game ($BENCH_TEAM).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BASELINE = "f2fae7c"  # compare_engine.py's baseline: the commit before issue 35's registry of games


def main() -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = sys.argv[1:]
    if "--theater" in args:  # every benchmark that plays games reads it (tests/bench/bench_theaters.py)
        i = args.index("--theater")
        if i + 1 >= len(args) or args[i + 1] not in ("WE", "PAC", "EF"):
            print("--theater takes WE, PAC or EF")
            return 2
        env["BENCH_THEATER"] = args[i + 1]
        args = args[:i] + args[i + 2:]
    if "--team" in args:  # tests/bench/bench_theaters.py add_team_argument
        i = args.index("--team")
        if i + 1 >= len(args) or ":" not in args[i + 1]:
            print("--team takes AXIS:ALLIES, e.g. DE,DE:GB,GB")
            return 2
        env["BENCH_TEAM"] = args[i + 1]
        args = args[:i] + args[i + 2:]
    scripts = sorted(p for p in HERE.glob("*_bench.py"))
    if not scripts:
        print("no benchmarks found")
        return 1
    failed = 0
    for script in scripts:
        print(f"=== {script.relative_to(ROOT)} ===", flush=True)
        result = subprocess.run([sys.executable, str(script), *args], cwd=ROOT, env=env, check=False)
        failed += result.returncode != 0
    # every engine against the baseline commit, side by side (needs the commit in this clone's history)
    compare = HERE / "compare_engine.py"
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{BASELINE}^{{commit}}"],
                           capture_output=True, check=False).returncode == 0
    print(f"=== {compare.relative_to(ROOT)} {BASELINE} ===", flush=True)
    if known:
        result = subprocess.run([sys.executable, str(compare), BASELINE], cwd=ROOT, env=env, check=False)
        failed += result.returncode != 0
    else:
        print(f"skipped: commit {BASELINE} is not in this clone's history")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
