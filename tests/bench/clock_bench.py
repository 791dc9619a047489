"""Clock benchmark: what the clocks cost (games.clocks, games.services.timeouts).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench .venv/bin/python tests/bench/clock_bench.py
    (options: --games 2000 --actions 200)

It creates a throw-away test database (test_<name>), loads the catalog, then measures:
  1. an idle sweep (no clock ran out) over --games active clocked games: median / p90 in ms;
  2. the read-path check (game_clock_settle) of a game whose clock has not run out: median in ms;
  3. ending games on time: ms per game, a sweep over --games / 2 games whose clock ran out;
  4. action submit latency through the service with and without a realtime clock (median, ms).
Results are printed and written to tests/bench/results/clock_bench.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bc_bench")


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))] * 1000, 3),
    }


def _submit_latency(*, users: tuple[Any, Any], actions: int, time_control: dict[str, Any] | None) -> float:
    import random

    from games import engine, services
    from games.models import Game
    from games.selectors import game_state

    alice, bob = users
    rng = random.Random(1)
    samples: list[float] = []
    while len(samples) < actions:
        game = services.game_create(
            user=alice,
            my_deck={"starter": "gb-we-starter"},
            opponent_deck={"starter": "de-we-starter"},
            opponent={"kind": "human"},
            seed=len(samples) + 1,
            time_control=time_control,
        )
        services.game_join(game_id=game.pk, user=bob)
        by_seat = {"allies": alice, "axis": bob}
        while len(samples) < actions:
            row = Game.objects.get(pk=game.pk)
            if row.status != "active":
                break
            state = game_state(game=row)
            action = rng.choice(engine.legal_actions(state)).to_json()
            started = time.perf_counter()
            services.game_action_submit(
                game_id=row.pk, user=by_seat[row.current_seat], version=row.version, action=action
            )
            samples.append(time.perf_counter() - started)
    return round(statistics.median(samples) * 1000, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=200)
    args = parser.parse_args()

    from bench_db import catalog_test_database

    with catalog_test_database():
        from django.contrib.auth import get_user_model

        from games import clocks, services
        from games.models import Game, GameStatus

        users = tuple(get_user_model().objects.create_user(name, password="x") for name in ("alice", "bob"))
        realtime = {"kind": "realtime", "minutes": 180, "increment_seconds": 2}
        results: dict[str, Any] = {"games": args.games}
        results["submit_median_ms_without_clock"] = _submit_latency(
            users=users, actions=args.actions, time_control=None
        )
        results["submit_median_ms_with_clock"] = _submit_latency(
            users=users, actions=args.actions, time_control=realtime
        )

        template = Game.objects.filter(status=GameStatus.ACTIVE, clock_deadline__isnull=False).first()
        now = clocks.now()
        copies = []
        for i in range(args.games):
            template.id = uuid.uuid4()
            deadline = now + timedelta(minutes=10 + i) if i % 2 else now + timedelta(minutes=1)
            started = deadline - timedelta(minutes=180)
            side = template.clock["running"]
            template.clock = {**template.clock, "started_at": started.isoformat()}
            template.clock["remaining"] = {**template.clock["remaining"], side: 180 * 60_000}
            template.clock_deadline = deadline
            fields = Game._meta.concrete_fields
            copies.append(Game(**{f.attname: getattr(template, f.attname) for f in fields}))
        Game.objects.bulk_create(copies, batch_size=500)
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game")  # as autovacuum would: the planner knows the rows
        due_query = Game.objects.filter(clock_deadline__lte=now).order_by("clock_deadline").values("pk")[:500]
        results["idle_sweep_plan"] = due_query.explain().splitlines()[0:3]

        idle = []
        for _ in range(50):
            started = time.perf_counter()
            assert services.games_clocks_expire_due(at=now) == 0
            idle.append(time.perf_counter() - started)
        results["idle_sweep"] = _ms(idle)
        settle = []
        for game in copies[1:101:2]:
            started = time.perf_counter()
            services.game_clock_settle(game_id=game.pk)
            settle.append(time.perf_counter() - started)
        results["read_path_check"] = _ms(settle)
        due = args.games // 2
        started = time.perf_counter()
        ended = services.games_clocks_expire_due(at=now + timedelta(minutes=2), limit=args.games)
        elapsed = time.perf_counter() - started
        assert ended == due, (ended, due)
        results["expire_ms_per_game"] = round(elapsed * 1000 / due, 3)
        results["expired_games"] = ended

    print(json.dumps(results, indent=2))
    out = ROOT / "tests" / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "clock_bench.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
