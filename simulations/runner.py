"""Where a job's chunks run: on Celery workers when a broker is configured (CELERY_BROKER_URL), else in a
background thread of this process (the embedded default of `make run`), or at once (SIMULATION_RUNNER =
"inline", for tests and scripts; "none" only queues)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)


def mode() -> str:
    chosen = getattr(settings, "SIMULATION_RUNNER", "auto")
    if chosen == "auto":
        return "celery" if settings.CELERY_BROKER_URL else "thread"
    return chosen


def dispatch(*, job_id: Any, chunks: int) -> None:
    how = mode()
    if how == "celery":
        from simulations.tasks import simulation_chunk_task

        app = simulation_chunk_task.app
        # One broker connection for every chunk of the job, to the broker the settings name now.
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            for index in range(chunks):
                simulation_chunk_task.apply_async(
                    (str(job_id), index), queue=settings.SIMULATION_QUEUE, connection=conn
                )
    elif how == "inline":
        run_local(job_id=job_id, chunks=chunks)
    elif how == "none":  # queued only (tests, or chunks run by hand with simulation_chunk_run)
        return
    else:
        threading.Thread(
            target=_run_in_thread,
            kwargs={"job_id": job_id, "chunks": chunks},
            daemon=True,
            name=f"simulation-{job_id}",
        ).start()


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


def _run_in_thread(*, job_id: Any, chunks: int) -> None:
    try:
        run_local(job_id=job_id, chunks=chunks)
    finally:
        connection.close()
