"""Jobs without a broker (the web processes play them): at most SIMULATION_LOCAL_CONCURRENCY at once over
every process sharing the database, the others queued until a slot frees, in threads of low priority."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from simulations import runner, services
from simulations.models import JobStatus, SimulationJob, SimulationRunnerSlot
from tests.games.conftest import carol  # noqa: F401
from tests.simulations.conftest import sim_body


def _wait_for_runners(deadline: float) -> None:
    for thread in threading.enumerate():
        if thread.name.startswith(runner.RUNNER_THREAD_PREFIX):
            thread.join(max(0.0, deadline - time.monotonic()))
            assert not thread.is_alive(), "a runner thread did not stop once every job was done"


def test_without_a_broker_three_users_jobs_run_one_at_a_time_oldest_first(
    transactional_db, catalog_rows, settings, api, alice, bob, carol  # noqa: F811
):
    settings.SIMULATION_RUNNER = "auto"
    settings.CELERY_BROKER_URL = ""
    settings.SIMULATION_LOCAL_CONCURRENCY = 1
    settings.SIMULATION_LOCAL_POLL_SECONDS = 0.1
    settings.SIMULATION_CHUNK_GAMES = 2
    # another server process holds the one slot while the three users submit
    assert services.runner_slot_claim(holder="elsewhere:1:1")[0] == "idle"  # no job yet: the slot rows exist
    SimulationRunnerSlot.objects.filter(index=0).update(
        holder="elsewhere:1:1", lease_until=timezone.now() + timedelta(hours=1)
    )
    body = sim_body(games=12, bots={"a": "heuristic", "b": "heuristic"})
    ids = []
    for user in (alice, bob, carol):
        response = api(user).post("/api/simulations/", body, format="json")
        assert response.status_code == 202, response.json()
        ids.append(response.json()["id"])
    time.sleep(0.5)  # the runner thread started by the submissions has looked for a slot a few times
    statuses = SimulationJob.objects.filter(pk__in=ids).values_list("status", flat=True)
    assert set(statuses) == {JobStatus.QUEUED}  # nobody runs them meanwhile

    services.runner_slot_release(index=0, holder="elsewhere:1:1")  # the slot frees: they run, one by one
    _wait_for_runners(time.monotonic() + 180)
    jobs = sorted(SimulationJob.objects.filter(pk__in=ids), key=lambda j: j.started_at or timezone.now())
    assert [j.status for j in jobs] == [JobStatus.DONE] * 3, [(j.status, j.error) for j in jobs]
    # one after the other, in the order they were submitted: each starts once the one before has finished
    assert [str(j.pk) for j in jobs] == ids
    for before, after in zip(jobs, jobs[1:], strict=False):
        assert after.started_at >= before.finished_at, (before.finished_at, after.started_at)
    assert not SimulationRunnerSlot.objects.filter(job__isnull=False).exists()  # the slot was given back


def _queued_job(user):
    return services.simulation_create(
        user=user,
        deck_a={"starter": "gb-we-starter"},
        deck_b={"starter": "de-we-starter"},
        bots=("random", "random"),
        games=4,
        seed=1,
        chunk_games=2,
    )


def test_the_cap_holds_over_processes_and_a_dead_runners_job_is_taken_over(
    catalog_rows, settings, alice, bob
):
    """Runners of different processes (holders) share the slot rows: the cap is global."""
    settings.SIMULATION_RUNNER = "none"  # queued only: the test claims slots as runners would
    settings.SIMULATION_LOCAL_CONCURRENCY = 1
    first, second = _queued_job(alice), _queued_job(bob)
    assert services.runner_slot_claim(holder="host-a:1:1") == ("run", (0, first.pk))
    assert services.runner_slot_claim(holder="host-b:2:2") == ("wait", None)  # the one slot is held

    settings.SIMULATION_LOCAL_CONCURRENCY = 2  # a second slot: the next job, not the one held
    assert services.runner_slot_claim(holder="host-b:2:2") == ("run", (1, second.pk))
    assert services.runner_slot_claim(holder="host-c:3:3") == ("idle", None)  # every job has a runner

    # host-a died: its lease runs out, and another runner resumes its job
    SimulationRunnerSlot.objects.filter(index=0).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert services.runner_slot_renew(index=1, holder="host-b:2:2") is True
    assert services.runner_slot_claim(holder="host-c:3:3") == ("run", (0, first.pk))
    assert services.runner_slot_renew(index=0, holder="host-a:1:1") is False  # it lost the slot
    services.runner_slot_release(index=0, holder="host-c:3:3")
    services.runner_slot_release(index=1, holder="host-b:2:2")
    assert services.runner_slot_claim(holder="host-d:4:4")[0] == "run"


def test_a_slot_held_by_a_process_of_this_host_that_is_gone_is_free_at_once(catalog_rows, settings, alice):
    """A restart on the same host does not leave the queue waiting for the lease to run out."""
    settings.SIMULATION_RUNNER = "none"
    settings.SIMULATION_LOCAL_CONCURRENCY = 1
    job = _queued_job(alice)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])  # noqa: S603
    gone.wait()
    host = socket.gethostname()
    assert services.runner_slot_claim(holder=f"{host}:{gone.pid}:1") == ("run", (0, job.pk))
    assert services.runner_slot_claim(holder=f"{host}:{os.getpid()}:2") == ("run", (0, job.pk))
    assert services.runner_slot_claim(holder=f"{host}:{os.getpid()}:3") == ("idle", None)  # a live holder


def test_a_runner_thread_lowers_its_own_priority_only(settings):
    if not hasattr(os, "setpriority"):
        pytest.skip("no setpriority on this platform")
    settings.SIMULATION_LOCAL_NICE = 19
    seen = {}

    def body() -> None:
        seen["lowered"] = runner.lower_priority()
        seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=body)
    thread.start()
    thread.join(10)
    assert seen == {"lowered": True, "nice": 19}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before  # the web thread keeps it
