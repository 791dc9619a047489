"""Celery tasks: one chunk of a simulation job per message.

acks_late + reject_on_worker_lost: a message is acknowledged only once its chunk is recorded, so a worker
that dies mid-chunk leaves it to be delivered again (to another worker); the chunk's row is unique per
(job, index), so it is counted once whoever finishes it.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from simulations import services


@shared_task(
    name="simulations.run_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def simulation_chunk_task(job_id: str, index: int) -> Any:
    try:
        return services.simulation_chunk_run(job_id=job_id, index=index)
    except (OperationalError, InterfaceError):
        raise
    except Exception as exc:
        services.simulation_fail(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
        return False


@shared_task(name="simulations.redispatch_stalled", ignore_result=True)
def simulation_redispatch_stalled_task() -> dict[str, list[int]]:
    """Celery beat's sweep: chunks lost on the way to a worker sent again (services.stalled)."""
    from django.conf import settings

    return services.simulation_redispatch_stalled(stalled_seconds=settings.SIMULATION_STALL_SECONDS)
