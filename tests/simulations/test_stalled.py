"""A Celery job whose progress stalled gets the chunks it lacks sent again (simulations/services/stalled.py):
a message can be lost between the broker and a worker killed before it recorded the message as unacked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from simulations import runner, services
from simulations.models import JobStatus, SimulationChunk, SimulationJob


@pytest.fixture
def sent(monkeypatch, settings) -> list[tuple[str, list[int] | None]]:
    """What the sweep sends, instead of a broker."""
    settings.SIMULATION_RUNNER = "none"
    calls: list[tuple[str, list[int] | None]] = []
    monkeypatch.setattr(
        runner, "dispatch", lambda *, job_id, chunks, indices=None: calls.append((str(job_id), indices))
    )
    return calls


def _job(*, chunks_done: list[int], minutes_ago: float) -> SimulationJob:
    job = services.simulation_create(
        user=None,
        deck_a={"starter": "gb-we-starter"},
        deck_b={"starter": "de-we-starter"},
        bots=("random", "random"),
        games=8,
        seed=5,
        chunk_games=2,
    )
    for index in chunks_done:
        services.simulation_chunk_run(job_id=job.pk, index=index)
    then = timezone.now() - timedelta(minutes=minutes_ago)
    SimulationJob.objects.filter(pk=job.pk).update(created_at=then, started_at=then)
    SimulationChunk.objects.filter(job_id=job.pk).update(created_at=then)
    return SimulationJob.objects.get(pk=job.pk)


@pytest.mark.django_db
def test_a_stalled_job_gets_only_its_missing_chunks_again_once_per_stall(catalog_rows, sent):
    job = _job(chunks_done=[0, 2], minutes_ago=10)
    assert job.chunks_total == 4 and job.status == JobStatus.RUNNING
    assert services.simulation_redispatch_stalled(stalled_seconds=300) == {str(job.pk): [1, 3]}
    assert sent == [(str(job.pk), [1, 3])]
    # the next sweep within the stall does not send them a second time...
    assert services.simulation_redispatch_stalled(stalled_seconds=300) == {}
    # ... a later one does, if still nothing came (the mark lasts one stall)
    cache.clear()
    assert services.simulation_redispatch_stalled(stalled_seconds=300) == {str(job.pk): [1, 3]}


@pytest.mark.django_db
def test_a_job_that_moves_or_ended_is_left_alone(catalog_rows, sent):
    moving = _job(chunks_done=[0], minutes_ago=10)
    SimulationChunk.objects.filter(job_id=moving.pk).update(created_at=timezone.now())  # a chunk just now
    queued = _job(chunks_done=[], minutes_ago=1)  # created a minute ago: not yet stalled at 5 minutes
    done = _job(chunks_done=[0, 1, 2, 3], minutes_ago=10)
    assert done.status == JobStatus.DONE and queued.status == JobStatus.QUEUED
    assert services.simulation_redispatch_stalled(stalled_seconds=300) == {}
    assert sent == []
    # a job never started (its every message lost) is sent whole once it stalled
    assert services.simulation_redispatch_stalled(stalled_seconds=30) == {str(queued.pk): [0, 1, 2, 3]}
