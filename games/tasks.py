"""Celery tasks of the games app: the clock sweep, run by Celery beat every GAMES_CLOCK_SWEEP_SECONDS
(settings CELERY_BEAT_SCHEDULE, queue GAMES_CLOCK_QUEUE) when a broker is configured."""

from __future__ import annotations

from celery import shared_task

from games.services import games_clocks_expire_due


@shared_task(name="games.expire_clocks", ignore_result=True)
def expire_clocks_task() -> int:
    """End on time every game whose running clock has run out (games.services.timeouts)."""
    return games_clocks_expire_due()


@shared_task(name="games.analyse_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def game_analysis_task(analysis_id: str) -> None:
    """Run one finished game's analysis (games.services.analysis; the runner fails it on an error)."""
    from games.analysis_runner import run

    run(analysis_id=analysis_id)
