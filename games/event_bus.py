"""Wake a game's event streams when its log grows, across worker processes and hosts.

PostgreSQL: each write of a game (services) runs `pg_notify(channel, game id)` inside its transaction, so
the notification is delivered exactly when, and only if, the transaction commits. Each worker process keeps
one asyncio psycopg connection that LISTENs on the channel and wakes the streams of that game, which then
read the new log rows. After a (re)connection of the listener every stream is woken, so nothing committed
while it was away is missed (a stream always reads from its last seq). SQLite has no NOTIFY: streams poll.

A database outage: the listener notices its connection is gone and reconnects every
RECONNECT_MAX_SECONDS at most (0.5 s, then doubling up to it), so the streams read what they missed
within seconds of the database coming back. A stream never waits for the listener to (re)connect.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from django.db import connection, connections

logger = logging.getLogger(__name__)

CHANNEL = "battlecards_game_log"
RECONNECT_MAX_SECONDS = 2.0


def announce(*, game_id: Any) -> None:
    """Inside the writing transaction: tell every listener, on commit, that the game's log grew."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(game_id)])


def pushes() -> bool:
    """True when the database pushes notifications (PostgreSQL); otherwise streams poll."""
    return connections["default"].vendor == "postgresql"


class Listener:
    """One LISTEN connection per process and event loop; `signal(game)` is the event a stream waits on."""

    def __init__(self) -> None:
        self._signals: weakref.WeakValueDictionary[str, asyncio.Event] = weakref.WeakValueDictionary()
        self._task: asyncio.Task | None = None
        self._ready = asyncio.Event()
        self.notifications = 0

    def signal(self, game_id: Any) -> asyncio.Event:
        """The event set at the next notification of the game (take it BEFORE reading the log)."""
        key = str(game_id)
        event = self._signals.get(key)
        if event is None:
            event = asyncio.Event()
            self._signals[key] = event
        return event

    def _wake(self, key: str) -> None:
        event = self._signals.pop(key, None)
        if event is not None:
            event.set()

    def _wake_all(self) -> None:
        for key in list(self._signals.keys()):
            self._wake(key)

    @property
    def connected(self) -> bool:
        """True while the LISTEN connection is up (notifications arrive)."""
        return self._ready.is_set()

    def start(self) -> None:
        """Start listening (once). Not awaited: until the connection is up, a stream's signal is set when it
        connects, and the stream reads the log then."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="game-log-listener")

    async def _run(self) -> None:
        import psycopg

        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.pop("pool", None)
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(autocommit=True, **params) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    self._wake_all()  # whatever was committed while not listening is read now
                    delay = 0.5
                    async for note in conn.notifies():
                        self.notifications += 1
                        self._wake(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: streams retry their reads until it is back
                logger.warning("event stream listener: no connection (%s); retrying in %.1f s", exc, delay)
                self._ready.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = weakref.WeakKeyDictionary()


async def listener() -> Listener:
    """This event loop's listener, started on first use (its connection may still be on its way)."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        found = _listeners[loop] = Listener()
    found.start()
    return found
