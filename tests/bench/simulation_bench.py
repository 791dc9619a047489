"""Simulation jobs benchmark: one job on 1 and on 2 Celery worker processes, the queue against the local
pool on the same job, and the latency from submit to first progress.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench .venv/bin/python tests/bench/simulation_bench.py
    (options: --games 200 --chunk 10 --repeat 2 --seed 1 --bots heuristic; `make bench`: the defaults)

Needs PostgreSQL (the workers share a throw-away test database, test_<name>) and a Redis broker: a
redis-server it starts itself on a free loopback port (bench_redis.py), or the one BENCH_REDIS_URL names (an
explicit opt-in); without either it says so and exits 0 having measured nothing.
The same job (British starter against German starter, heuristic bots) is played:
  1. by `manage.py simulate`'s local pool (games.simulation.simulate, multiprocessing) on N processes, and
  2. as a simulation job through the Redis broker on one worker with N processes (submit -> done, wall
     clock; the worker is started and warmed up by a one-game job before timing), for N = 1, then 2;
     the two are interleaved --repeat times and the best of each is kept;
  3. submit -> job running (an idle worker took the first chunk; median of 5 one-game jobs) and, for the
     timed job, submit -> first chunk recorded.
Results are printed and written to tests/bench/results/simulation_bench.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_redis import bench_redis  # noqa: E402
from bench_theaters import STARTERS, add_theater_argument  # noqa: E402

# the starters played (allies, axis): --theater (main() sets them before any game or fork)
ALLIES_STARTER, AXIS_STARTER = STARTERS["WE"]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bc_bench")
REDIS_URL = ""  # the broker: set by main() from bench_redis()


def _start_worker(queue: str, database_url: str, concurrency: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": REDIS_URL,
        "SIMULATION_QUEUE": queue,
        "PYTHONPATH": str(ROOT),
    }
    cmd = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", str(concurrency),
        "-P", "prefork", "-n", f"bench-{queue}@%h", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "-l", "warning",
    ]  # fmt: skip
    return subprocess.Popen(  # noqa: S603
        cmd, cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def _submit(games: int, seed: int, bots: str, chunk: int) -> Any:
    from simulations.services import simulation_create

    return simulation_create(
        user=None,
        deck_a={"starter": ALLIES_STARTER},
        deck_b={"starter": AXIS_STARTER},
        bots=(bots, bots),
        games=games,
        seed=seed,
        chunk_games=chunk,
    )


def _run_job(games: int, seed: int, bots: str, chunk: int, timeout: float = 900) -> dict[str, Any]:
    from simulations.models import JobStatus, SimulationJob

    started = time.perf_counter()
    job = _submit(games, seed, bots, chunk)
    running_at = first_at = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = SimulationJob.objects.only("status", "games_done").get(pk=job.pk)
        now = time.perf_counter()
        if running_at is None and job.status != JobStatus.QUEUED:
            running_at = now
        if first_at is None and job.games_done > 0:
            first_at = now
        if job.status in (JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED):
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - started
    job = SimulationJob.objects.get(pk=job.pk)
    assert job.status == JobStatus.DONE, (job.status, job.error)
    return {
        "seconds": round(seconds, 2),
        "games_per_second": round(games / seconds, 2),
        "submit_to_running_ms": round(((running_at or started) - started) * 1000, 1),
        "submit_to_first_progress_ms": round(((first_at or started) - started) * 1000, 1),
        "outcomes_digest": job.result["outcomes_digest"],
        "worker_processes": job.result["timing"]["worker_processes"],
    }


def _local_pool(games: int, seed: int, bots: str, workers: int) -> dict[str, Any]:
    from cards.battlecards.snapshot import snapshot_dicts
    from cards.selectors import catalog_definitions
    from games import engine
    from games.decks_glue import resolve_deck, validate_pairing
    from games.simulation import simulate

    catalog = catalog_definitions()
    deck_a = resolve_deck(user=None, ref={"starter": ALLIES_STARTER}, catalog=catalog)
    deck_b = resolve_deck(user=None, ref={"starter": AXIS_STARTER}, catalog=catalog)
    _, conflict = validate_pairing(catalog=catalog, first=deck_a, second=deck_b, conflict=None)
    setup = engine.GameSetup(
        seed=0,
        decks={deck_a.side: deck_a.codes, deck_b.side: deck_b.codes},
        nations={deck_a.side: deck_a.nation, deck_b.side: deck_b.nation},
        conflict_deck=conflict,
    )
    dicts = snapshot_dicts(catalog, set(deck_a.codes) | set(deck_b.codes) | set(conflict))
    report = simulate(
        catalog_dicts=dicts,
        setup=setup,
        bots={"allies": bots, "axis": bots},
        games=games,
        seed=seed,
        workers=workers,
    )
    return {"seconds": round(report.seconds, 2), "games_per_second": round(report.games_per_second, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="heuristic", choices=["heuristic", "random"])
    add_theater_argument(parser)
    args, _unknown = parser.parse_known_args()
    global ALLIES_STARTER, AXIS_STARTER
    ALLIES_STARTER, AXIS_STARTER = STARTERS[args.theater]
    global REDIS_URL
    with bench_redis() as url:
        if url is None:
            print("simulation bench: no redis-server installed and no BENCH_REDIS_URL; nothing measured")
            return 0
        REDIS_URL = url
        return _measure(args)


def _measure(args: argparse.Namespace) -> int:

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from tests.bench.game_bench import parallel_control

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    results: dict[str, Any] = {"games": args.games, "chunk_games": args.chunk, "bots": args.bots}
    try:
        call_command("load_catalog", stdout=io.StringIO())
        db = connection.settings_dict
        host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        database_url = f"postgres://{db['USER'] or 'postgres'}@{host}/{db['NAME']}"
        settings.CELERY_BROKER_URL = REDIS_URL
        settings.SIMULATION_RUNNER = "celery"
        settings.SIMULATION_MAX_GAMES_PER_JOB = 10**6
        print(f"database: {connection.vendor} ({db['NAME']}); broker {REDIS_URL}; cores: {os.cpu_count()}")
        for workers in (1, 2):
            queue = f"bench-{uuid.uuid4().hex[:8]}"
            settings.SIMULATION_QUEUE = queue
            proc = _start_worker(queue, database_url, workers)
            try:
                _run_job(1, 0, args.bots, 1)  # warm-up: the worker is up and has loaded Django
                latencies = [_run_job(1, n, args.bots, 1)["submit_to_running_ms"] for n in range(5)]
                local_runs, queue_runs = [], []
                for _ in range(args.repeat):  # interleaved, so a change in the machine's load hits both
                    local_runs.append(_local_pool(args.games, args.seed, args.bots, workers))
                    queue_runs.append(_run_job(args.games, args.seed, args.bots, args.chunk))
            finally:
                _stop(proc)
            results[f"local_pool_{workers}"] = min(local_runs, key=lambda r: r["seconds"])
            results[f"queue_{workers}"] = min(queue_runs, key=lambda r: r["seconds"])
            results[f"queue_{workers}"]["idle_submit_to_running_ms_median"] = sorted(latencies)[2]
            best = f"best of {args.repeat}"
            print(f"local pool, {workers} process(es), {best}: {results[f'local_pool_{workers}']}")
            print(f"queue, {workers} worker process(es), {best}: {results[f'queue_{workers}']}")
        q1, q2 = results["queue_1"], results["queue_2"]
        assert q1["outcomes_digest"] == q2["outcomes_digest"], "1 and 2 workers must play the same games"
        results["queue_speedup_2_vs_1"] = round(q2["games_per_second"] / q1["games_per_second"], 2)
        results["queue_overhead_vs_local_pool"] = {
            str(n): round(results[f"queue_{n}"]["seconds"] / results[f"local_pool_{n}"]["seconds"] - 1, 3)
            for n in (1, 2)
        }
        results["cpu_control_speedup"] = parallel_control(2)
        print(
            f"queue speed-up, 2 vs 1 worker processes: {results['queue_speedup_2_vs_1']}x "
            f"(a pure CPU loop gets {results['cpu_control_speedup']}x now; "
            f"load average {os.getloadavg()[0]:.1f})"
        )
        print(f"queue overhead against the local pool (same job): {results['queue_overhead_vs_local_pool']}")
        print(
            f"submit -> running (idle worker, median of 5): {q1['idle_submit_to_running_ms_median']} ms; "
            f"submit -> first chunk recorded: {q1['submit_to_first_progress_ms']} ms "
            f"({args.chunk} games a chunk)"
        )
    finally:
        connection.close()
        teardown_databases(old, verbosity=0)
    out = ROOT / "tests" / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "simulation_bench.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
