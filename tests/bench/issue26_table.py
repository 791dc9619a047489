"""Issue 26's before/after table from one run: http_bench.py --issue-26 against the code as it was before
the issue (served the way it was then: uvicorn workers only) and against this tree (`make serve`'s layout),
alternating, on the same machine, and prints each row's share of the trivial view beside its target.

    .venv/bin/python tests/bench/issue26_table.py                       # 2 rounds, 2 workers, 3 s a row
    .venv/bin/python tests/bench/issue26_table.py --rounds 3 --before 696a269
    .venv/bin/python tests/bench/issue26_table.py --rounds 3 --before 7386b01 --layout front --listeners 0
    .venv/bin/python tests/bench/issue26_table.py --rounds 3 --before 78c95e9 --before-layout front \
        --layout front --listeners 0    # both trees behind make serve's nginx

Issue 42 added the rows "deck validation, 60 cards" (share >= 25 %) and "trivial view CPU in process": the
trivial view's CPU per request through Django's WSGI handler (tests/bench/trivial_cpu.py, no server), this
tree over --before, the two alternating in each round (target <= 1.15x); and --layout front (`make serve`:
nginx in front of the API workers). The load average is recorded with each round.

Each round serves the "before" tree (a detached git worktree of --before, removed afterwards) and then this
tree, each on its own PostgreSQL database and its own Redis cache, with the same client (this tree's
http_bench.py). A row's share is taken within its own server run (its req/s over that run's trivial view; the
rows measured one request at a time compare p50s), and the table shows the round with the lower median
share (every round's share is in the JSON). The
listener memory row comes from stream_bench.py (--listeners listeners on this tree; before: the issue's
figure, since the stream layout changed). Results: tests/bench/results/issue26_table.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests/bench"
PY = sys.executable
BEFORE = "696a269"  # main before the first commit of issue 26

ROWS = [  # (label in http_bench, target text, predicate on the share or p99)
    ("trivial view, 4 keep-alive clients", "p99 <= 30 ms", lambda r, s: r["p99_ms"] <= 30),
    ("catalog list of 50, cache hit", "(85 % before)", lambda r, s: True),
    ("catalog list of 50, miss: distinct filters", ">= 25 %", lambda r, s: s >= 25),
    ("catalog list of 50, miss: catalog change", ">= 25 %", lambda r, s: s >= 25),
    ("game view at turn 20", ">= 25 %", lambda r, s: s >= 25),
    ("action POST answered by the bot", ">= 15 %", lambda r, s: s >= 15),
    ("deck validation, 60 cards", ">= 25 %", lambda r, s: s >= 25),
]


def share(results: dict, label: str) -> float:
    row = results[label]
    if row.get("sequential"):
        baseline = results[row.get("baseline", "trivial view, one at a time")]
        return 100 * baseline["p50_ms"] / (row["p50_ms"] or 1)
    return 100 * row["rps"] / (results["trivial view"]["rps"] or 1)


def spread(shares: list[float]) -> str:
    """Every round's share as the range under a row: (lowest-highest %)."""
    return f"({min(shares):.1f}-{max(shares):.1f} %)" if shares else ""


def trivial_cpu_ratio(before_tree: Path, args) -> dict:
    """One round of trivial_cpu.py: this tree's and before's CPU per trivial request, alternating."""
    out = Path(tempfile.mkdtemp(prefix="bc-trivial-")) / "trivial.json"
    command = [PY, str(BENCH / "trivial_cpu.py"), "--before", args.before, "--before-tree", str(before_tree),
               "--rounds", "1", "--requests", str(args.trivial_requests), "--output", str(out)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    medians = json.loads(out.read_text())["medians"]
    after = medians["this tree"]
    before = next(v for k, v in medians.items() if k != "this tree")
    return {"before_us": round(before, 1), "after_us": round(after, 1), "ratio": round(after / before, 3)}


def bench(tree: Path, layout: str, database: str, args, out: Path) -> dict:
    command = [PY, str(BENCH / "http_bench.py"), "--issue-26", "--tree", str(tree), "--layout", layout,
               "--workers", str(args.workers), "--seconds", str(args.seconds),
               "--database-url", database, "--output", str(out)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())["results"]


def listener_kb(args) -> float | None:
    if not args.listeners:
        return None
    out = Path(tempfile.mkdtemp(prefix="bc-stream-")) / "stream.json"
    games = max(1, args.listeners // 10)
    command = [PY, str(BENCH / "stream_bench.py"), "--games", str(games), "--listeners-per-game", "10",
               "--output", str(out), "--database-url", args.database_base + "_stream"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    report = json.loads(out.read_text())
    return report["memory_per_listener_kb"]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=BEFORE, help="the commit served as 'before'")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--listeners", type=int, default=1000, help="0: skip the listener memory row")
    parser.add_argument("--layout", choices=("split", "front"), default="split",
                        help="this tree's layout: split (make serve UNBUFFERED=1) or front (make serve)")
    parser.add_argument("--before-layout", choices=("asgi", "split", "front"), default="asgi",
                        help="how --before is served (asgi: uvicorn workers, make serve before issue 26; "
                             "front: make serve since issue 34, for a --before of this layout)")
    parser.add_argument("--trivial-requests", type=int, default=3000,
                        help="requests per tree and round of the in-process trivial view (0: skip that row)")
    parser.add_argument("--database-base", default="postgres://postgres@127.0.0.1:5432/bc_bench_i26")
    parser.add_argument("--output", default=str(BENCH / "results/issue26_table.json"))
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bc-i26-"))
    before_tree = tmp / "before"
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "-q", "--detach", str(before_tree), args.before], check=True)
    # The before tree's database is its commit's own: one migrated by a newer tree (another --before, or a run
    # stopped half-way) answers an older server with errors (a 500 at the bench's setup).
    commit = subprocess.run(["git", "-C", str(before_tree), "rev-parse", "--short=10", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    before_database = f"{args.database_base}_before_{commit}"
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    cpu: list[dict] = []
    loads: list[list[float]] = []
    try:
        for n in range(args.rounds):
            loads.append([round(x, 2) for x in os.getloadavg()])
            print(f"round {n + 1}/{args.rounds}: before ({args.before}), load average {loads[-1]}",
                  file=sys.stderr, flush=True)
            runs["before"].append(bench(before_tree, args.before_layout, before_database, args,
                                        tmp / f"before{n}.json"))
            print(f"round {n + 1}/{args.rounds}: after (this tree)", file=sys.stderr, flush=True)
            runs["after"].append(bench(ROOT, args.layout, args.database_base + "_after", args,
                                       tmp / f"after{n}.json"))
            if args.trivial_requests:
                cpu.append(trivial_cpu_ratio(before_tree, args))
                print(f"  trivial view CPU in process: {cpu[-1]}", file=sys.stderr, flush=True)
    finally:
        subprocess.run([*git, "remove", "--force", str(before_tree)], check=False)
    listener = listener_kb(args)

    table = []
    print(f"\n{'row':44} {'before':>24} {'after':>24}  {'target':<13} met")
    print(f"{'':44} {'share  req/s   p99 ms':>24} {'share  req/s   p99 ms':>24}")
    for label, target, ok in ROWS:
        cells = {}
        for side in ("before", "after"):
            shares = [share(r, label) for r in runs[side]]
            order = sorted(range(len(shares)), key=lambda i: shares[i])
            middle = order[(len(order) - 1) // 2]  # the lower median: an even count never picks the best
            row = runs[side][middle][label]
            cells[side] = {"share": round(shares[middle], 1), "rps": row["rps"], "p50_ms": row["p50_ms"],
                           "p99_ms": row["p99_ms"], "shares": [round(s, 1) for s in shares]}
        met = ok(cells["after"], cells["after"]["share"])
        table.append({"row": label, "target": target, "met": met, **cells})
        b, a = cells["before"], cells["after"]
        print(f"{label:44} {b['share']:>5.0f}% {b['rps']:>7} {b['p99_ms']:>8}   "
              f"{a['share']:>5.0f}% {a['rps']:>7} {a['p99_ms']:>8}  {target:<13} {'yes' if met else 'NO'}")
        print(f"{'':44} {spread(b['shares']):>24} {spread(a['shares']):>24}")
    if cpu:
        ratios = sorted(c["ratio"] for c in cpu)
        ratio = statistics.median(ratios)
        met = ratio <= 1.15
        table.append({"row": "trivial view CPU in process (after / before)", "target": "<= 1.15x", "met": met,
                      "ratio": ratio, "ratios": ratios, "rounds": cpu})
        print(f"{'trivial view CPU in process (after/before)':44} {'':>24} {ratio:>23.2f}x  {'<= 1.15x':<13} "
              f"{'yes' if met else 'NO'}  (rounds {', '.join(f'{r:.2f}' for r in ratios)})")
    if listener is not None:
        met = listener <= 15
        table.append({"row": "memory per idle event-stream listener", "target": "<= 15 KB", "met": met,
                      "before": {"kb": "31-34 (issue)"}, "after": {"kb": listener}})
        print(f"{'memory per idle event-stream listener':44} {'31-34 KB (issue)':>24} {listener:>21.1f} KB"
              f"  {'<= 15 KB':<13} {'yes' if met else 'NO'}")
    print(f"load average (1, 5, 15 min) at each round's start: {loads}")
    print("share: req/s over the trivial view's in the same server run; rows measured one request at a time"
          " (catalog change): the trivial view's p50 measured the same way (alone, after the same manage.py"
          " run and pause) over the row's p50.\nEach row: the round with the"
          " lower median share (the median of an odd count), under it every round's range (all in the JSON).")
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps({"before": args.before, "rounds": args.rounds,
                                             "layout": args.layout, "before_layout": args.before_layout,
                                             "load_average": loads,
                                             "workers": args.workers, "seconds": args.seconds,
                                             "table": table, "runs": runs}, indent=2) + "\n")
    return 0 if all(row["met"] for row in table) else 1


if __name__ == "__main__":
    sys.exit(main())
