"""Time to build a delayed spectator view and a step of the site's replay page of one long Battlecards game
(issue 34, finding 9), in process, against a throwaway database (SQLite in memory unless DATABASE_URL says
otherwise).

    .venv/bin/python tests/bench/replay_bench.py [--plies 370] [--samples 40] [--seed 7]

Plays one game against the heuristic bot through the services (the human seat played by another heuristic
bot) until it has `--plies` engine actions, then asks the spectator view at `--samples` distinct delays
spread over the game (each a new ?delay=, as a client trying delays would), in a random order; then
resigns and asks as many distinct steps of the replay page. Each row: median and max per request, in
wall-clock and in CPU seconds, first the cold pass (nothing of the game kept yet: the process and shared
caches emptied), then the same delays / steps asked again in another order. A garbage collection runs
before each call, outside the timing (a pass takes about 0.08 s and would otherwise be the max of any
code). Prints one JSON object. Nothing asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")

from bench_db import catalog_test_database  # noqa: E402
from long_games import play_long_game  # noqa: E402


def long_game(*, plies: int, seed: int) -> Any:
    """An active game vs the heuristic bot with at least `plies` engine actions (the next seed when one ends
    first)."""
    from django.contrib.auth import get_user_model

    from games import engine

    user, _ = get_user_model().objects.get_or_create(username="bench")
    game, done = play_long_game(
        user, plies=plies, seed=seed, bot="heuristic", attempts=20,
        me=lambda state, _seed: engine.HeuristicBot(catalog=state.catalog, salt="bench"),
        spectators={"allowed": True}, options={"max_turns": 200},
    )
    return user, game, done


def timed(call: Any, values: list[int]) -> dict[str, float]:
    """Median and max per call, in wall-clock seconds and in this process's CPU seconds (steadier on a shared
    machine; with SQLite in memory the database's work is in this process too)."""
    wall, cpu = [], []
    for value in values:
        gc.collect()  # outside the timing: a collection pass (about 0.08 s) would land on any call
        start, start_cpu = time.perf_counter(), time.process_time()
        call(value)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return {
        "n": len(wall),
        "median_s": round(statistics.median(wall), 4), "max_s": round(max(wall), 4),
        "cpu_median_s": round(statistics.median(cpu), 4), "cpu_max_s": round(max(cpu), 4),
    }


def forget() -> None:
    """Nothing of any game kept: the process caches and the shared cache emptied."""
    from django.core.cache import cache

    from games import spectator_selectors

    cache.clear()
    spectator_selectors._states.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=370)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with catalog_test_database():
        from games import services, spectator_selectors

        user, game, plies = long_game(plies=args.plies, seed=args.seed)
        rng = random.Random(args.seed)
        delays = sorted(rng.sample(range(1, plies), min(args.samples, plies - 1)))
        order = rng.sample(delays, len(delays))
        forget()

        def view(delay: int) -> None:
            spectator_selectors.spectator_view(game_id=game.pk, user=user, delay=delay)

        result: dict[str, Any] = {"plies": plies, "database": os.environ["DATABASE_URL"].split(":")[0]}
        result["spectate_delay_cold"] = timed(view, order)
        result["spectate_delay_again"] = timed(view, rng.sample(delays, len(delays)))

        services.game_resign(game_id=game.pk, user=user)
        forget()

        def step(value: int) -> None:
            spectator_selectors.game_replay_step(game_id=game.pk, user=user, step=value)

        steps = rng.sample(range(0, plies + 1), min(args.samples, plies + 1))
        result["replay_step_cold"] = timed(step, steps)
        result["replay_step_again"] = timed(step, rng.sample(steps, len(steps)))
        print(json.dumps(result))


if __name__ == "__main__":
    main()
