"""Chunks lost on the way to a Celery worker, sent again.

acks_late covers a worker that dies while it plays a chunk: the broker delivers the unacknowledged message
again. It does not cover the moment between the broker handing a message over and the worker recording it as
unacknowledged: kombu's Redis transport pops the message (BRPOP), then writes it to its `unacked` hash, so a
worker killed in between loses it, and its job would stay `running` for ever (seen in the suite: 3 of 4 chunks
recorded, an empty queue, nothing unacknowledged). A job whose progress stalled (no chunk recorded for
`stalled_seconds`) gets every chunk it still lacks sent again; chunks are idempotent (one row per job and
index), so a chunk that was only slow is played twice and counted once. A job is re-sent at most once per
`stalled_seconds` (a cache mark), so a job nobody can play (no worker running) is not sent again at every
sweep. Celery beat runs the sweep (`simulations.redispatch_stalled`, every SIMULATION_STALL_SWEEP_SECONDS);
jobs run without a broker resume through their runner slots' leases instead (services.slots).
"""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.db.models import Max
from django.utils import timezone

from simulations.models import ACTIVE_STATUSES, SimulationChunk, SimulationJob

MARK = "simulations:redispatched:{}"


def simulation_redispatch_stalled(*, stalled_seconds: float) -> dict[str, list[int]]:
    """Send again the missing chunks of every active job with no chunk recorded for `stalled_seconds` (nor
    created or started since); returns {job id: the chunk indices sent}."""
    from simulations import runner

    cutoff = timezone.now() - timedelta(seconds=stalled_seconds)
    jobs = (
        SimulationJob.objects.filter(status__in=ACTIVE_STATUSES, created_at__lt=cutoff)
        .annotate(last_chunk=Max("chunks__created_at"))
        .only("id", "chunks_total", "created_at", "started_at")
    )
    sent: dict[str, list[int]] = {}
    for job in jobs:
        last = max(t for t in (job.last_chunk, job.started_at, job.created_at) if t is not None)
        if last >= cutoff or not cache.add(MARK.format(job.pk), 1, timeout=max(1, int(stalled_seconds))):
            continue
        done = set(SimulationChunk.objects.filter(job_id=job.pk).values_list("index", flat=True))
        missing = [i for i in range(job.chunks_total) if i not in done]
        if missing:
            runner.dispatch(job_id=job.pk, chunks=job.chunks_total, indices=missing)
            sent[str(job.pk)] = missing
    return sent
