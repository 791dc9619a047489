"""Reads of simulation jobs. A user reaches only his own jobs (anyone else's is a 404)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet

from config.errors import NotFound
from simulations.models import SimulationJob

# The columns a job's JSON needs (spec, the workers' input, is large and never shown).
PUBLIC_FIELDS = (
    "id",
    "owner_id",
    "kind",
    "status",
    "games",
    "seed",
    "chunk_games",
    "chunks_total",
    "games_total",
    "games_done",
    "request",
    "result",
    "error",
    "created_at",
    "started_at",
    "finished_at",
)


def simulation_list(*, user: Any) -> QuerySet[SimulationJob]:
    return SimulationJob.objects.filter(owner=user).only(*PUBLIC_FIELDS).order_by("-created_at")


def simulation_get(*, job_id: Any, user: Any) -> SimulationJob:
    try:
        pk = uuid.UUID(str(job_id))
    except ValueError:
        raise NotFound("No such simulation job.", code="simulation_not_found") from None
    job = SimulationJob.objects.filter(pk=pk, owner=user).only(*PUBLIC_FIELDS).first() if user else None
    if job is None:
        raise NotFound("No such simulation job.", code="simulation_not_found")
    return job


def simulation_payload(job: SimulationJob) -> dict[str, Any]:
    """A job as the API shows it: status, progress and, once done, the result."""
    return {
        "id": str(job.id),
        "kind": job.kind,
        "status": job.status,
        "games": job.games,
        "seed": job.seed,
        "progress": {
            "games_done": job.games_done,
            "games_total": job.games_total,
            "fraction": round(job.games_done / job.games_total, 4) if job.games_total else 1.0,
            "chunks_total": job.chunks_total,
        },
        "request": job.request,
        "result": job.result,
        "error": job.error or None,
        "created_at": job.created_at.isoformat() if job.created_at else None,
        "started_at": job.started_at.isoformat() if job.started_at else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
    }
