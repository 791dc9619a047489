"""Simulation jobs: bot-versus-bot batches run in chunks by any number of workers.

A job plays `games` games for each of its variants (one variant for a plain simulation; the current deck
and each proposed swap for a balance request). Chunk c of a job covers games [start, end) of one variant;
its outcomes are stored once per (job, chunk index), so a chunk played twice (a worker died before it
acknowledged the message, or two workers raced) is counted once.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class JobKind(models.TextChoices):
    SIMULATION = "simulation", "simulation"
    BALANCE = "balance", "balance"


class JobStatus(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    DONE = "done", "done"
    CANCELLED = "cancelled", "cancelled"
    FAILED = "failed", "failed"


ACTIVE_STATUSES = (JobStatus.QUEUED, JobStatus.RUNNING)


class SimulationJob(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="simulation_jobs",
        help_text="Who asked for it (empty for jobs submitted from the command line).",
    )
    kind = models.CharField(max_length=16, choices=JobKind.choices, default=JobKind.SIMULATION)
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.QUEUED)
    games = models.PositiveIntegerField(help_text="Games per variant.")
    seed = models.BigIntegerField(help_text="Game i of every variant is played with game_seed(seed, i).")
    chunk_games = models.PositiveIntegerField(help_text="Games per chunk.")
    chunks_total = models.PositiveIntegerField()
    games_total = models.PositiveIntegerField(help_text="Games over every variant.")
    games_done = models.PositiveIntegerField(default=0)
    request = models.JSONField(default=dict, help_text="What was asked (deck sources, bots, options).")
    spec = models.JSONField(help_text="What the workers play: catalog snapshot, bots, variants' set-ups.")
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="simjob_owner_created")]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status}, {self.games_done}/{self.games_total})"

    @property
    def chunks_per_variant(self) -> int:
        return -(-self.games // self.chunk_games)

    def chunk_bounds(self, index: int) -> tuple[int, int, int]:
        """(variant, first game, end game) of chunk `index`."""
        variant, part = divmod(index, self.chunks_per_variant)
        start = part * self.chunk_games
        return variant, start, min(self.games, start + self.chunk_games)


class SimulationChunk(models.Model):
    job = models.ForeignKey(SimulationJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    outcomes = models.JSONField(help_text="One plain outcome per game, in game order.")
    worker = models.CharField(max_length=200, blank=True, default="")
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="simchunk_once_per_job")]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.job_id}"


class SimulationRunnerSlot(models.Model):
    """One of the SIMULATION_LOCAL_CONCURRENCY slots of jobs run without a broker (simulations.runner).

    A web process runs a job only while it holds a slot: the slot names the job, who runs it and a lease
    that each played chunk renews. A slot whose lease ran out (its process died) is free again, and so is
    its job, which the next runner resumes from its first unrecorded chunk."""

    index = models.PositiveIntegerField(primary_key=True)
    job = models.ForeignKey(
        SimulationJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="runner_slots"
    )
    holder = models.CharField(max_length=200, blank=True, default="", help_text="host:pid:thread")
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]

    def __str__(self) -> str:
        return f"slot {self.index} ({self.job_id or 'free'})"
