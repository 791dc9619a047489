"""Where the clock sweep (games.services.games_clocks_expire_due) runs, so that a game whose clock ran out
ends within seconds with nobody calling the API. GAMES_CLOCK_RUNNER:

- "celery" (what "auto" means when CELERY_BROKER_URL is set): Celery beat sends the task games.expire_clocks
  every GAMES_CLOCK_SWEEP_SECONDS to the GAMES_CLOCK_QUEUE queue (`celery -A config beat` plus a worker
  consuming that queue: `celery -A config worker -Q clocks`, or `-Q simulations,clocks`);
- "thread" (what "auto" means without a broker): a daemon thread of each server process sweeps every
  GAMES_CLOCK_SWEEP_SECONDS; it starts with the process (ASGI lifespan startup) or with its first games
  request (any server);
- "command": nothing in the server; run `python manage.py expire_clocks --loop` beside it (or from cron
  without --loop).

Several sweepers at once are harmless: each game is ended under its row lock after checking its deadline
again (games.services.timeouts.game_clock_expire).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from games.services import games_clocks_expire_due

log = logging.getLogger(__name__)

THREAD_NAME = "games-clock-sweep"
_lock = threading.Lock()
_started_in: int | None = None  # the pid whose thread runs (a forked child starts its own)
_running: tuple[threading.Thread, threading.Event] | None = None


def mode() -> str:
    chosen = getattr(settings, "GAMES_CLOCK_RUNNER", "auto")
    if chosen == "auto":
        return "celery" if settings.CELERY_BROKER_URL else "thread"
    return chosen


def sweep_once(*, close_connection: bool = False) -> int:
    """One sweep. Errors are logged, never raised; with close_connection (a sweeper that lives on), a
    broken or aged database connection is dropped after it, and the next sweep opens a new one."""
    try:
        return games_clocks_expire_due()
    except Exception:  # a database outage: the next sweep tries again
        log.exception("clock sweep failed")
        return 0
    finally:
        if close_connection:
            close_old_connections()


def run_loop(
    *, stop: threading.Event, interval: float | None = None, loops: int = 0, close_connection: bool = True
) -> int:
    """Sweep every `interval` seconds (default GAMES_CLOCK_SWEEP_SECONDS) until `stop` is set (or `loops`
    sweeps were made, when > 0). Returns how many games ended."""
    ended = made = 0
    while not stop.is_set():
        ended += sweep_once(close_connection=close_connection)
        made += 1
        if loops and made >= loops:
            break
        stop.wait(interval if interval is not None else float(settings.GAMES_CLOCK_SWEEP_SECONDS))
    return ended


def ensure_started(**_: Any) -> bool:
    """Start this process's sweep thread when the runner is "thread" (once per process). True if it runs."""
    global _started_in, _running
    if mode() != "thread":
        return False
    with _lock:
        if _started_in == os.getpid():
            return True
        stop = threading.Event()
        thread = threading.Thread(target=run_loop, kwargs={"stop": stop}, daemon=True, name=THREAD_NAME)
        thread.start()
        _started_in, _running = os.getpid(), (thread, stop)
    return True


def stop(timeout: float = 10.0) -> None:
    """Stop this process's sweep thread (tests; a server's daemon thread ends with its process)."""
    global _started_in, _running
    with _lock:
        running, _running, _started_in = _running, None, None
    if running is not None:
        thread, event = running
        event.set()
        thread.join(timeout)
