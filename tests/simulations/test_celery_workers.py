"""Jobs on real Celery workers with a Redis broker: end to end through the API, any number of workers,
and a worker killed mid-job loses nothing (acks_late: its chunk is delivered again and counted once; a
message it had taken but not yet recorded as unacked is sent again by the sweep for stalled jobs).

Needs Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379/15) and PostgreSQL (the worker processes
share the test database); skipped only when one of them does not answer. CI (.ci/run) starts both.
Each worker is a subprocess with a short timeout, always killed at the end. Each test keeps its own broker
bookkeeping of unacknowledged messages (CELERY_UNACKED_KEY_PREFIX), and a stuck job's failure shows the
queue, that bookkeeping and the tail of every worker's log.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from simulations.models import JobStatus, SimulationChunk, SimulationJob
from tests.live_asgi import database_url_of_tests
from tests.simulations.conftest import sim_body

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
JOB_TIMEOUT = 600  # seconds: a generous cap (a slow machine once took >120 s); green runs return at once


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:
        return False


# Skipped cleanly on a machine without Redis; never in CI, which must run them (.ci/run starts Redis).
# Under pytest-xdist these tests run one after the other on one worker (`--dist loadgroup`): their Celery
# workers share the broker's Redis database, whose unacked-message bookkeeping is global to it.
pytestmark = [
    pytest.mark.xdist_group("celery-broker"),
    pytest.mark.skipif(
        not os.environ.get("CI") and not _redis_answers(), reason=f"no Redis answers at {REDIS_URL}"
    ),
]


@pytest.fixture
def broker(settings, transactional_db, catalog_rows, tmp_path_factory) -> dict[str, Any]:
    """This test's queue on the Redis broker; the API process sends chunks there."""
    queue = f"test-simulations-{uuid.uuid4().hex[:10]}"
    settings.CELERY_BROKER_URL = REDIS_URL
    settings.SIMULATION_RUNNER = "celery"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_CHUNK_GAMES = 5
    database_url = database_url_of_tests()
    workers: list[subprocess.Popen] = []
    logs = tmp_path_factory.mktemp("celery-logs")
    info = {"queue": queue, "database_url": database_url, "workers": workers, "logs": logs}
    yield info
    for proc in workers:
        _kill(proc)
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    client.delete(
        queue,
        f"_kombu.binding.{queue}",
        f"_kombu.binding_permanent.{queue}",
        *(f"unacked-{queue}{suffix}" for suffix in ("", "_index", "_mutex")),
    )


def _start_worker(broker: dict[str, Any], name: str, concurrency: int = 1) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": broker["database_url"],
        "CELERY_BROKER_URL": REDIS_URL,
        "SIMULATION_QUEUE": broker["queue"],
        "CELERY_VISIBILITY_TIMEOUT": "4",  # a dead worker's chunk is delivered again after 4 s
        "CELERY_RESTORE_INTERVAL": "1",
        # this test's own bookkeeping of unacknowledged messages (no other run's restores or locks),
        # and a restore lock that a killed worker cannot hold for long
        "CELERY_UNACKED_KEY_PREFIX": f"unacked-{broker['queue']}",
        "CELERY_UNACKED_MUTEX_EXPIRE": "5",
        "PYTHONPATH": str(ROOT),
    }
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-Q",
        broker["queue"],
        "-c",
        str(concurrency),
        "-P",
        "prefork",
        "-n",
        f"{name}-{broker['queue']}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "info",
    ]
    log = open(broker["logs"] / f"{name}.log", "wb")  # noqa: SIM115 (the worker writes it; closed by the OS)
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        start_new_session=True,  # noqa: S603
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    broker["workers"].append(proc)
    return proc


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the worker and its pool processes
    proc.wait(timeout=10)


def _wait(
    job_id: str, predicate, broker: dict[str, Any], timeout: float = JOB_TIMEOUT, stall: float | None = None
) -> SimulationJob:
    """Poll the job until `predicate` holds; with `stall`, sweep for stalled jobs every second meanwhile (as
    Celery beat's `simulations.redispatch_stalled` does in production, there every few minutes)."""
    from simulations.services import simulation_redispatch_stalled

    deadline = time.monotonic() + timeout
    swept = time.monotonic()
    while time.monotonic() < deadline:
        job = SimulationJob.objects.get(pk=job_id)
        if predicate(job):
            return job
        if stall is not None and time.monotonic() - swept >= 1:
            simulation_redispatch_stalled(stalled_seconds=stall)
            swept = time.monotonic()
        time.sleep(0.05)
    raise AssertionError(
        f"job {job_id} did not get there in {timeout}s: {job.status} {job.games_done}\n{_diagnosis(broker)}"
    )


def _diagnosis(broker: dict[str, Any]) -> str:
    """What a stuck job's broker and workers show: the queue, the unacknowledged messages, each log's tail."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    prefix = f"unacked-{broker['queue']}"
    lines = [
        f"queue length {client.llen(broker['queue'])}; unacked {client.hlen(prefix)}; "
        f"unacked index {client.zrange(prefix + '_index', 0, -1, withscores=True)}; "
        f"restore lock held {bool(client.exists(prefix + '_mutex'))}; now {time.time():.0f}"
    ]
    for log in sorted(Path(broker["logs"]).glob("*.log")):
        tail = log.read_text(errors="replace").splitlines()[-40:]
        lines += [f"--- {log.name}", *tail]
    return "\n".join(lines)


def _inline_result(alice, body: dict[str, Any], settings) -> dict[str, Any]:
    """The same job played in this process, chunk by chunk: the reference result."""
    from simulations.runner import run_local
    from simulations.services import simulation_create

    settings.SIMULATION_RUNNER = "none"
    job = simulation_create(
        user=None,
        deck_a=body["deck_a"],
        deck_b=body["deck_b"],
        bots=(body["bots"]["a"], body["bots"]["b"]),
        games=body["games"],
        seed=body["seed"],
        chunk_games=settings.SIMULATION_CHUNK_GAMES,
    )
    run_local(job_id=job.pk, chunks=job.chunks_total)
    job.refresh_from_db()
    settings.SIMULATION_RUNNER = "celery"
    return {k: v for k, v in job.result.items() if k != "timing"}


def test_a_job_runs_end_to_end_on_two_workers_and_matches_the_local_result(broker, api, alice, settings):
    _start_worker(broker, "a")
    _start_worker(broker, "b")
    body = sim_body(games=20, seed=77)
    response = api(alice).post("/api/simulations/", body, format="json")
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    _wait(job_id, lambda j: j.status == JobStatus.DONE, broker)
    done = api(alice).get(f"/api/simulations/{job_id}/").json()
    assert done["progress"]["games_done"] == 20
    assert SimulationChunk.objects.filter(job_id=job_id).count() == 4
    result = {k: v for k, v in done["result"].items() if k != "timing"}
    assert result == _inline_result(alice, body, settings)


def test_a_balance_request_runs_end_to_end_on_a_worker(broker, api, alice, catalog):
    from decks.services import deck_create
    from tests.simulations.test_balance import EXPENSIVE, _gb_plus

    deck = deck_create(owner=alice, name="heavy", nation="GB", entries=_gb_plus(catalog, EXPENSIVE))
    _start_worker(broker, "a")
    response = api(alice).post(
        f"/api/decks/{deck.pk}/balance/",
        {
            "opponent": {"starter": "de-we-starter"},
            "games": 5,
            "seed": 1,
            "proposals": 2,
            "bots": {"a": "random", "b": "random"},
        },
        format="json",
    )
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    _wait(job_id, lambda j: j.status == JobStatus.DONE, broker)
    result = api(alice).get(f"/api/simulations/{job_id}/").json()["result"]
    assert len(result["proposals"]) == 2 and result["ranking"]


def test_a_worker_killed_mid_job_loses_nothing_and_the_result_is_identical(broker, api, alice, settings):
    settings.SIMULATION_CHUNK_GAMES = 8
    body = sim_body(games=32, seed=123, bots={"a": "heuristic", "b": "heuristic"})
    first = _start_worker(broker, "doomed")
    response = api(alice).post("/api/simulations/", body, format="json")
    job_id = response.json()["id"]
    # one chunk recorded, the next one being played: kill the whole worker (no warm shutdown, no ack)
    job = _wait(job_id, lambda j: j.games_done >= 8, broker)
    assert job.games_done < 32, "the job finished before the worker could be killed"
    _kill(first)
    at_kill = SimulationJob.objects.get(pk=job_id).games_done
    assert at_kill < 32
    _start_worker(broker, "rescuer")
    # A chunk the killed worker was playing is delivered again (acks_late, visibility timeout 4 s); one it
    # had just taken from the queue but not yet recorded as unacked is lost by the broker, and the sweep for
    # stalled jobs sends it again (seen: 3 of 4 chunks recorded, an empty queue, nothing unacked).
    job = _wait(job_id, lambda j: j.status == JobStatus.DONE, broker, stall=8)
    assert job.games_done == 32
    chunks = SimulationChunk.objects.filter(job_id=job_id)
    assert chunks.count() == 4 and sorted(chunks.values_list("index", flat=True)) == [0, 1, 2, 3]
    assert len({c.worker for c in chunks}) == 2  # some chunks by the killed worker, the rest by the rescuer
    result = {k: v for k, v in job.result.items() if k != "timing"}
    assert result == _inline_result(alice, body, settings)
