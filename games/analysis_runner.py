"""Where a game's analysis runs (games.services.analysis): as the simulations run (simulations.runner).

settings.GAMES_ANALYSIS_RUNNER: "auto" (Celery when CELERY_BROKER_URL is set: one message on SIMULATION_QUEUE,
so the simulations' workers run it; else a background thread of this process), "celery", "thread",
"inline" (at once, in the caller: tests and scripts) or "none" (queued only). The thread runner takes at most
GAMES_ANALYSIS_LOCAL_CONCURRENCY analyses at once in a process, at a lowered CPU priority (the simulations'
nice value), so the requests come first.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

_slots_lock = threading.Lock()
_slots: threading.BoundedSemaphore | None = None
RUNNER_THREAD_PREFIX = "analysis-runner"


def mode() -> str:
    chosen = getattr(settings, "GAMES_ANALYSIS_RUNNER", "auto")
    if chosen == "auto":
        return "celery" if settings.CELERY_BROKER_URL else "thread"
    return chosen


def dispatch(*, analysis_id: Any) -> None:
    how = mode()
    if how == "celery":
        from games.tasks import game_analysis_task

        game_analysis_task.apply_async((str(analysis_id),), queue=settings.SIMULATION_QUEUE)
    elif how == "inline":
        run(analysis_id=analysis_id)
    elif how == "thread":
        name = f"{RUNNER_THREAD_PREFIX}-{analysis_id}"
        threading.Thread(target=_thread_main, args=(analysis_id,), daemon=True, name=name).start()
    # "none": queued only (a test runs it with games.services.analysis.game_analysis_run)


def run(*, analysis_id: Any) -> None:
    """Run the analysis here; an error in a game fails it with the reason (the server goes on)."""
    from games.services.analysis import game_analysis_fail, game_analysis_run

    try:
        game_analysis_run(analysis_id=analysis_id)
    except Exception as exc:
        log.exception("analysis %s failed", analysis_id)
        game_analysis_fail(analysis_id=analysis_id, error=f"{type(exc).__name__}: {exc}")


def _thread_main(analysis_id: Any) -> None:
    global _slots
    from simulations.runner import lower_priority

    with _slots_lock:
        if _slots is None:
            _slots = threading.BoundedSemaphore(max(1, int(settings.GAMES_ANALYSIS_LOCAL_CONCURRENCY)))
        slots = _slots
    lower_priority()
    with slots:
        try:
            run(analysis_id=analysis_id)
        finally:
            connection.close()
