"""Where a job's chunks run: on Celery workers when a broker is configured (CELERY_BROKER_URL), else in a
background thread of this process (the embedded default of `make run`), or at once (SIMULATION_RUNNER =
"inline", for tests and scripts; "none" only queues).

Without a broker the web processes play the jobs themselves, so they are bounded: at most
SIMULATION_LOCAL_CONCURRENCY jobs (default 1) run at once over every process and host sharing the database
(slot rows, simulations.services.runner_slot_claim); the others stay queued and start, oldest first, when a
slot frees. A runner thread lowers its own scheduling priority (Linux: the nice value of the thread, not of
the process, SIMULATION_LOCAL_NICE, default 19) so requests come first when the CPU is short. Python threads
still share one interpreter lock, so a running job slows its process's requests somewhat; for real isolation
run Celery workers (`nice celery -A config worker -Q simulations`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection

log = logging.getLogger(__name__)


def mode() -> str:
    chosen = getattr(settings, "SIMULATION_RUNNER", "auto")
    if chosen == "auto":
        return "celery" if settings.CELERY_BROKER_URL else "thread"
    return chosen


def dispatch(*, job_id: Any, chunks: int, indices: list[int] | None = None) -> None:
    """Send a job's chunks to be played (`indices`: only these; a thread runner finds what is left itself)."""
    how = mode()
    if how == "celery":
        from simulations.tasks import simulation_chunk_task

        app = simulation_chunk_task.app
        # One broker connection for every chunk of the job, to the broker the settings name now.
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            for index in range(chunks) if indices is None else indices:
                simulation_chunk_task.apply_async(
                    (str(job_id), index), queue=settings.SIMULATION_QUEUE, connection=conn
                )
    elif how == "inline":
        run_local(job_id=job_id, chunks=chunks)
    elif how == "none":  # queued only (tests, or chunks run by hand with simulation_chunk_run)
        return
    else:
        start_local_runner()


def run_local(*, job_id: Any, chunks: int) -> None:
    """Every chunk in turn, in this process (stops early once the job is cancelled or has failed)."""
    from simulations import services
    from simulations.models import ACTIVE_STATUSES, SimulationJob

    for index in range(chunks):
        try:
            services.simulation_chunk_run(job_id=job_id, index=index)
        except Exception as exc:  # a bug in a game: the job fails with the reason, the server goes on
            log.exception("simulation job %s chunk %s failed", job_id, index)
            services.simulation_fail(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
            return
        if not SimulationJob.objects.filter(pk=job_id, status__in=ACTIVE_STATUSES).exists():
            return


_runners_lock = threading.Lock()
_runners: list[threading.Thread] = []
RUNNER_THREAD_PREFIX = "simulation-runner"
TRANSIENT_RETRIES = 5  # database errors in a row on one job before it fails (as the Celery task retries)


def start_local_runner() -> None:
    """Make sure this process has a runner thread for each slot it could take (at most the cap)."""
    cap = max(1, int(settings.SIMULATION_LOCAL_CONCURRENCY))
    with _runners_lock:
        _runners[:] = [t for t in _runners if t.is_alive()]
        if len(_runners) >= cap:
            return  # they pick the new job up when a slot frees
        thread = threading.Thread(
            target=_runner_loop, daemon=True, name=f"{RUNNER_THREAD_PREFIX}-{len(_runners)}"
        )
        _runners.append(thread)
        thread.start()


def lower_priority() -> bool:
    """Lower the calling thread's CPU priority (Linux: a thread's own nice value). False where unsupported."""
    nice = int(settings.SIMULATION_LOCAL_NICE)
    try:
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
    except (AttributeError, OSError) as exc:  # not Linux, or not allowed
        log.info("simulation runner keeps its priority: %s", exc)
        return False
    return True


def _runner_loop() -> None:
    from simulations import services

    lower_priority()
    holder = f"{socket.gethostname()}:{os.getpid()}:{threading.get_native_id()}"
    retries: dict[Any, int] = {}
    failures = 0
    try:
        while True:
            poll = float(settings.SIMULATION_LOCAL_POLL_SECONDS)
            try:
                state, claimed = services.runner_slot_claim(holder=holder)
                failures = 0
            except Exception:  # a database outage: try again later, less and less often (at most every 60 s)
                failures += 1
                log.exception("simulation runner could not claim a slot (%s time(s) in a row)", failures)
                state, claimed = "wait", None
            if state == "idle":
                return
            if state == "wait":
                connection.close()
                time.sleep(min(60.0, poll * 2 ** min(failures, 10)) if failures else poll)
                continue
            index, job_id = claimed
            try:
                _run_claimed(job_id=job_id, index=index, holder=holder)
            except (OperationalError, InterfaceError) as exc:  # the database, not the game: retry later
                retries[job_id] = retries.get(job_id, 0) + 1
                log.warning("simulation job %s: database error (%s), try %s", job_id, exc, retries[job_id])
                if retries[job_id] >= TRANSIENT_RETRIES:
                    services.simulation_fail(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
                time.sleep(float(settings.SIMULATION_LOCAL_POLL_SECONDS))
            finally:
                services.runner_slot_release(index=index, holder=holder)
    finally:
        connection.close()


def _run_claimed(*, job_id: Any, index: int, holder: str) -> None:
    """Play the job's chunks not recorded yet, renewing the slot's lease after each one."""
    from simulations import services
    from simulations.models import ACTIVE_STATUSES, SimulationChunk, SimulationJob

    job = SimulationJob.objects.filter(pk=job_id).only("chunks_total").first()
    if job is None:
        return
    done = set(SimulationChunk.objects.filter(job_id=job_id).values_list("index", flat=True))
    for chunk in range(job.chunks_total):
        if chunk in done:
            continue
        try:
            services.simulation_chunk_run(job_id=job_id, index=chunk)
        except (OperationalError, InterfaceError):
            raise  # the slot is given back and the job resumed from this chunk (_runner_loop)
        except Exception as exc:  # a bug in a game: the job fails with the reason, the server goes on
            log.exception("simulation job %s chunk %s failed", job_id, chunk)
            services.simulation_fail(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
            return
        if not SimulationJob.objects.filter(pk=job_id, status__in=ACTIVE_STATUSES).exists():
            return
        if not services.runner_slot_renew(index=index, holder=holder):
            log.warning("simulation runner lost slot %s while running job %s", index, job_id)
            return
