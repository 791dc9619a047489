"""One strength-table row (engine READMEs) from search_strength.py --json files of one level and opponent
(runs of --first ranges add up; a game in two files counts once):

    python tests/bench/search_table.py tests/bench/results/battlecards_search-1_heuristic_*.json
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_strength import percentile, wilson  # noqa: E402


def main() -> None:
    games: dict[int, dict] = {}
    times: list[float] = []
    labels = set()
    for name in sys.argv[1:]:
        data = json.loads(Path(name).read_text())
        labels.add((data["game"], data["level"], data["iterations"], data["opponent"],
                    data.get("rollout_plies"), data.get("seconds")))
        fresh = [r for r in data["results"] if r["game"] not in games]
        games.update({r["game"]: r for r in fresh})
        if len(fresh) == len(data["results"]):
            times += data["times_ms"]
    if len(labels) != 1:
        raise SystemExit(f"files of different runs: {sorted(labels, key=str)}")
    (game, level, iterations, opponent, rollout, seconds), = labels
    n = len(games)
    score = sum(r["score"] for r in games.values())
    low, high = wilson(score, n)
    cpu = sorted(r["cpu"] for r in games.values())
    times.sort()
    numbers = sorted(games)
    median, p95 = percentile(times, 0.5), percentile(times, 0.95)
    budget = (f"{level}" + (f" at {iterations}" if iterations and not seconds else "")
              + (f", playouts of {rollout} plies" if rollout else "")
              + (f", {seconds:g} s a decision" if seconds else ""))
    print(f"| {budget} | {opponent} | {n} | {score:g}/{n} = "
          f"{score / n:.1%} | {low:.1%}-{high:.1%} | {median:.0f} / {p95:.0f} ms "
          f"({len(times)} decisions) | {statistics.median(cpu):.1f} / {statistics.mean(cpu):.1f} s "
          f"(max {cpu[-1]:.0f} s) | games {numbers[0]}-{numbers[-1]} ({game}) |")


if __name__ == "__main__":
    main()
