"""Wake a game's event streams when its log grows, across worker processes and hosts.

The log is the source of truth; the bus only wakes streams, which then read the new log rows from their last
seq. A wake-up that is lost (a listener reconnecting, a publish that failed) is repaired by re-reading the
log: after a (re)connection every stream is woken, and an idle stream re-reads at every keep-alive
(GAMES_SSE_KEEPALIVE_SECONDS). Two backends, chosen by EVENT_BUS_URL (settings):

- "" (the default): the database's own. PostgreSQL: each write of a game (services) runs
  `pg_notify(channel, game id)` inside its transaction, so the notification is delivered exactly when, and
  only if, the transaction commits. Each worker process keeps one asyncio psycopg connection that LISTENs.
  SQLite has no NOTIFY: streams poll (GAMES_SSE_POLL_SECONDS).
- "redis://host:port/db": Redis pub/sub. The write registers a PUBLISH to run after its transaction commits
  (`transaction.on_commit`), so a rolled-back action wakes nobody; each worker process keeps one Redis
  connection SUBSCRIBEd to the channel. Commits no longer take PostgreSQL's global notification lock (see
  README "Running in production", "The event bus"). A publish that fails is logged, never fails the action
  (it has committed): the streams read the log at their next keep-alive.

A database or Redis outage: the listener notices its connection is gone and reconnects every
RECONNECT_MAX_SECONDS at most (0.5 s, then doubling up to it), so the streams read what they missed
within seconds of it coming back. A stream never waits for the listener to (re)connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction

logger = logging.getLogger(__name__)

CHANNEL = "battlecards_game_log"
RECONNECT_MAX_SECONDS = 2.0


def _redis_url() -> str:
    url = getattr(settings, "EVENT_BUS_URL", "") or ""
    return url if url.startswith(("redis://", "rediss://", "unix://")) else ""


def _database_vendor() -> str:
    """The default database's vendor, from its settings. Not `connections["default"].vendor`: in a stream's
    async context that builds a DatabaseWrapper for the context, about 3 KB held by each idle stream."""
    engine = connections.settings["default"]["ENGINE"]
    return "postgresql" if "postgresql" in engine else engine.rsplit(".", 1)[-1]


def backend() -> str | None:
    """"redis", "postgresql", or None (no push: streams poll)."""
    if _redis_url():
        return "redis"
    return "postgresql" if _database_vendor() == "postgresql" else None


def announce(*, game_id: Any) -> None:
    """Inside the writing transaction: tell every listener, on commit, that the game's log grew."""
    if _redis_url():
        key = str(game_id)
        transaction.on_commit(lambda: _publish(key))
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(game_id)])


def pg_notify_call(*, game_id: Any) -> tuple[str, list[Any]] | None:
    """The PostgreSQL backend's notification as an SQL expression and its parameters, for a writer that
    folds it into its own statement (games.services.progress) instead of calling announce; None when the
    bus is not PostgreSQL's (the writer calls announce)."""
    if _redis_url() or connection.vendor != "postgresql":
        return None
    return "pg_notify(%s, %s)", [CHANNEL, str(game_id)]


_publishers: dict[str, Any] = {}


def _publish(key: str) -> None:
    """After the commit: one PUBLISH (a failure is logged; streams re-read the log at their keep-alive)."""
    import redis

    url = _redis_url()
    try:
        client = _publishers.get(url)
        if client is None:  # one client (a thread-safe connection pool) per process and URL
            client = _publishers[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        client.publish(CHANNEL, key)
    except redis.RedisError as exc:
        logger.warning("event bus: publishing game %s to Redis failed: %s", key, exc)


def pushes() -> bool:
    """True when a bus pushes notifications (PostgreSQL or Redis); otherwise streams poll."""
    return backend() is not None


def wake(waiter: asyncio.Future[bool], signalled: bool) -> None:
    """Resolve a stream's waiter (unless it is done already: woken otherwise, or cancelled)."""
    if not waiter.done():
        waiter.set_result(signalled)


class Signal:
    """A game's next notification, set once: it resolves (with True) the waiters of the streams waiting on
    it. One future per waiting stream (`add`), not asyncio.Event's coroutine and future per wait."""

    __slots__ = ("__weakref__", "_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[bool]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            wake(waiter, True)

    def add(self, waiter: asyncio.Future[bool]) -> None:
        """Resolve `waiter` at the notification (at once if it came already)."""
        if self._set:
            wake(waiter, True)
        else:
            self._waiters.append(waiter)

    def discard(self, waiter: asyncio.Future[bool]) -> None:
        """Forget `waiter` (its stream stopped waiting: the timer, or the client went away), so that a game's
        signal does not gather one finished future per keep-alive of each of its streams."""
        with contextlib.suppress(ValueError):  # set() took it already
            self._waiters.remove(waiter)


class Listener:
    """One listening connection per process and event loop (LISTEN on PostgreSQL, SUBSCRIBE on Redis);
    `signal(game)` is what a stream waits on."""

    def __init__(self) -> None:
        self._signals: weakref.WeakValueDictionary[str, Signal] = weakref.WeakValueDictionary()
        self._task: asyncio.Task | None = None
        self._ready = asyncio.Event()
        self.notifications = 0
        self.backend = backend()

    def signal(self, game_id: Any) -> Signal:
        """The signal set at the next notification of the game (take it BEFORE reading the log)."""
        key = str(game_id)
        event = self._signals.get(key)
        if event is None:
            event = Signal()
            self._signals[key] = event
        return event

    def _wake(self, key: str) -> None:
        self.notifications += 1
        event = self._signals.pop(key, None)
        if event is not None:
            event.set()

    def _wake_all(self) -> None:
        for key in list(self._signals.keys()):
            event = self._signals.pop(key, None)
            if event is not None:
                event.set()

    @property
    def connected(self) -> bool:
        """True while the listening connection is up (notifications arrive)."""
        return self._ready.is_set()

    def start(self) -> None:
        """Start listening (once). Not awaited: until the connection is up, a stream's signal is set when it
        connects, and the stream reads the log then."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="game-log-listener")

    def _connected(self) -> None:
        self._ready.set()
        self._wake_all()  # whatever was committed while not listening is read now

    async def _run(self) -> None:
        delay = 0.5
        while True:
            try:
                if self.backend == "redis":
                    await self._listen_redis()
                else:
                    await self._listen_postgresql()
                delay = 0.5
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the server went away: streams retry their reads until it is back
                logger.warning("event stream listener: no connection (%s); retrying in %.1f s", exc, delay)
                self._ready.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def _listen_postgresql(self) -> None:
        import psycopg

        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.pop("pool", None)
        async with await psycopg.AsyncConnection.connect(autocommit=True, **params) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._connected()
            async for note in conn.notifies():
                self._wake(note.payload)

    async def _listen_redis(self) -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(_redis_url(), socket_connect_timeout=2, health_check_interval=30)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(CHANNEL)
                self._connected()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        data = message["data"]
                        self._wake(data.decode() if isinstance(data, bytes) else str(data))
                raise ConnectionError("the subscription ended")
        finally:
            await client.aclose()


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = weakref.WeakKeyDictionary()


async def listener() -> Listener:
    """This event loop's listener, started on first use (its connection may still be on its way)."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        found = _listeners[loop] = Listener()
    found.start()
    return found
