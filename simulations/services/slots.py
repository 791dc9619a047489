"""The runner slots of jobs run without a broker (simulations.runner): claimed, renewed, released."""


import os
import socket
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from simulations.models import (
    ACTIVE_STATUSES,
    SimulationJob,
    SimulationRunnerSlot,
)

# ------------------------------------------------------------------------- runs without a broker


def _lease() -> timedelta:
    return timedelta(seconds=settings.SIMULATION_LOCAL_LEASE_SECONDS)


@transaction.atomic
def runner_slot_claim(*, holder: str) -> tuple[str, Any]:
    """Take a free slot of the SIMULATION_LOCAL_CONCURRENCY and the oldest active job nobody runs.

    ("run", (slot index, job id)); ("wait", None) when jobs wait but every slot is held; ("idle", None)
    when no job waits. The slots are rows (locked, SKIP LOCKED), so the cap holds over every process and
    host sharing the database; a slot whose lease ran out (its process died) is free, and its job too."""
    cap = max(1, int(settings.SIMULATION_LOCAL_CONCURRENCY))
    now = timezone.now()
    SimulationRunnerSlot.objects.bulk_create(
        [SimulationRunnerSlot(index=i) for i in range(cap)], ignore_conflicts=True
    )
    _free_slots_of_dead_processes(now=now)
    held = SimulationRunnerSlot.objects.filter(lease_until__gt=now, job__isnull=False).values("job_id")
    job = (
        SimulationJob.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(status__in=ACTIVE_STATUSES)
        .exclude(pk__in=held)
        .order_by("created_at", "pk")
        .only("pk")
        .first()
    )
    if job is None:
        return "idle", None
    slot = (
        SimulationRunnerSlot.objects.select_for_update(skip_locked=True)
        .filter(index__lt=cap)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now))
        .order_by("index")
        .first()
    )
    if slot is None:
        return "wait", None
    slot.job_id, slot.holder, slot.lease_until = job.pk, holder, now + _lease()
    slot.save(update_fields=["job", "holder", "lease_until"])
    return "run", (slot.index, job.pk)


def _free_slots_of_dead_processes(*, now: Any) -> None:
    """A slot held by a process of this host that is gone (a restart) is free at once, not after its lease."""
    host = socket.gethostname()
    for slot in SimulationRunnerSlot.objects.filter(lease_until__gt=now, holder__startswith=f"{host}:"):
        pid = slot.holder.split(":")[1]
        if pid.isdigit() and not _process_alive(int(pid)):
            SimulationRunnerSlot.objects.filter(index=slot.index, holder=slot.holder).update(lease_until=now)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def runner_slot_renew(*, index: int, holder: str) -> bool:
    """Extend the lease of a slot still held by `holder` (False: it was lost, stop running its job)."""
    return bool(
        SimulationRunnerSlot.objects.filter(index=index, holder=holder).update(
            lease_until=timezone.now() + _lease()
        )
    )


def runner_slot_release(*, index: int, holder: str) -> None:
    SimulationRunnerSlot.objects.filter(index=index, holder=holder).update(
        job=None, holder="", lease_until=None
    )
