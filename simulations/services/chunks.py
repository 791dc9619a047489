"""A simulation job's chunks run and its result written; a job failed.

Chunks are idempotent: a chunk's outcomes are written once per (job, chunk index) under the job's row
lock, and games_done grows only when that row is new, so a chunk played twice is counted once. The last
chunk written adds up every chunk (in index order: the result does not depend on which worker played what,
nor in which order) and finishes the job.
"""


import hashlib
import json
import os
import socket
import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import NotFound
from games.game_types import get_game_type
from games.simulation import play_games, tally, wilson_interval
from simulations.models import (
    ACTIVE_STATUSES,
    JobKind,
    JobStatus,
    SimulationChunk,
    SimulationJob,
)


def _worker_name() -> str:

    return f"{socket.gethostname()}:{os.getpid()}"


def simulation_chunk_run(*, job_id: Any, index: int) -> bool:
    """Play chunk `index` of a job and record it once. False when there was nothing to do (the job is
    finished or cancelled, or the chunk is already recorded). Safe to call any number of times."""
    job = SimulationJob.objects.filter(pk=job_id).first()
    if job is None or job.status not in ACTIVE_STATUSES:
        return False
    if not 0 <= index < job.chunks_total:
        raise NotFound(f"Job {job_id} has no chunk {index}.", code="chunk_not_found")
    if SimulationChunk.objects.filter(job_id=job.pk, index=index).exists():
        return False
    if job.status == JobStatus.QUEUED:
        SimulationJob.objects.filter(pk=job.pk, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started_at=timezone.now()
        )
    spec = job.spec
    kind = get_game_type(spec.get("game_type"))
    catalog = kind.catalog_from_snapshot(spec["catalog"], spec["catalog_hash"])
    variant, start, end = job.chunk_bounds(index)
    setup = kind.setup_from_json(spec["variants"][variant]["setup"])
    started = time.perf_counter()
    outcomes = play_games(
        catalog=catalog,
        setup=setup,
        bots=spec["bots"],
        base_seed=job.seed,
        indices=range(start, end),
        max_plies=spec["max_plies"],
        game_type=kind.name,
    )
    seconds = time.perf_counter() - started
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().defer("spec", "result").get(pk=job.pk)
        if job.status not in ACTIVE_STATUSES:
            return False
        _chunk, created = SimulationChunk.objects.get_or_create(
            job=job,
            index=index,
            defaults={"outcomes": outcomes, "worker": _worker_name(), "seconds": seconds},
        )
        if not created:
            return False
        job.games_done += len(outcomes)
        fields = ["games_done"]
        if SimulationChunk.objects.filter(job=job).count() == job.chunks_total:
            job.finished_at = timezone.now()
            job.result = _job_result(job)
            job.status = JobStatus.DONE
            fields += ["finished_at", "result", "status"]
        job.save(update_fields=fields)
    return True


def simulation_fail(*, job_id: Any, error: str) -> None:
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in ACTIVE_STATUSES:
            return
        job.status = JobStatus.FAILED
        job.error = error[:2000]
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "error", "finished_at"])


# ------------------------------------------------------------------------------------------- results


def _report(job: SimulationJob, variant: int, outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    data = tally(
        outcomes, workers=1, seconds=0.0, bots=job.spec["bots"], game_type=job.spec.get("game_type")
    ).to_dict()
    for key in ("workers", "seconds", "games_per_second"):
        data.pop(key)
    data["end_reasons"] = data.pop("result_kinds")
    data["outcomes_digest"] = hashlib.sha256(
        json.dumps(outcomes, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    return data


def _job_result(job: SimulationJob) -> dict[str, Any]:
    """Every chunk added up in index order: the same whatever played them, and in whatever order."""
    by_variant: dict[int, list[dict[str, Any]]] = {}
    workers = set()
    for chunk in job.chunks.order_by("index").only("index", "outcomes", "worker"):
        variant, _start, _end = job.chunk_bounds(chunk.index)
        by_variant.setdefault(variant, []).extend(chunk.outcomes)
        workers.add(chunk.worker)
    seconds = (job.finished_at - (job.started_at or job.created_at)).total_seconds()
    timing = {
        "seconds": round(seconds, 3),
        "games_per_second": round(job.games_total / seconds, 2) if seconds > 0 else None,
        "worker_processes": len(workers),
    }
    variants = job.spec["variants"]
    reports = [_report(job, v, by_variant.get(v, [])) for v in range(len(variants))]
    if job.kind == JobKind.SIMULATION:
        return {**reports[0], "timing": timing}
    side = job.request["deck"]["side"]
    ranked = []
    for variant, report in zip(variants, reports, strict=True):
        wins = report["seats"][side]["wins"]
        ranked.append(
            {
                "label": variant["label"],
                "current": variant["current"],
                **variant["proposal"],
                "win_rate": report["seats"][side]["rate"],
                "ci95": report["seats"][side]["ci95"],
                "distance_from_even": round(abs(wins / job.games - 0.5), 4) if job.games else None,
                "report": report,
            }
        )
    current = next((r for r in ranked if r["current"]), None)
    if current is not None:
        low, high = wilson_interval(current["report"]["seats"][side]["wins"], job.games)
        current["lopsided"] = not (low <= 0.5 <= high)
    ranked.sort(key=lambda r: (r["distance_from_even"], r["changes"], r["label"]))
    return {
        "side": side,
        "current": current,
        "proposals": [r for r in ranked if not r["current"]],
        "ranking": [r["label"] for r in ranked],
        "timing": timing,
    }
