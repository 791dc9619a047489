"""Writes of simulation jobs, one module per job: jobs (create a simulation or a balance proposal, cancel),
chunks (run one chunk, idempotently, and write the result once the last is in; fail a job), slots (the
runner slots of jobs run without a broker), stalled (chunks lost on the way to a Celery worker, sent
again). Callers import the service names from here."""

from simulations.services.chunks import simulation_chunk_run, simulation_fail
from simulations.services.jobs import (
    SEED_BITS,
    QuotaExceeded,
    balance_create,
    simulation_cancel,
    simulation_create,
)
from simulations.services.slots import runner_slot_claim, runner_slot_release, runner_slot_renew
from simulations.services.stalled import simulation_redispatch_stalled

__all__ = [
    "SEED_BITS",
    "QuotaExceeded",
    "balance_create",
    "runner_slot_claim",
    "runner_slot_release",
    "runner_slot_renew",
    "simulation_cancel",
    "simulation_chunk_run",
    "simulation_create",
    "simulation_fail",
    "simulation_redispatch_stalled",
]
