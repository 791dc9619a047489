"""The event streams' machinery (server-sent events of a game's log): the polling stream (WSGI, the test
client), the pushed stream (ASGI: woken by the game's signal, PostgreSQL NOTIFY, holding no thread while it
waits; the reads of the streams of a game shared), the per-user stream slots and the streaming response.
The APIs (games.apis, games.spectator_apis) check who asks and hand the stream its reader."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections
from django.http import StreamingHttpResponse
from rest_framework.renderers import BaseRenderer
from rest_framework.views import APIView

from config import metrics
from config.errors import DomainError
from config.throttling import astream_slot_release, stream_slot_acquire, stream_slot_release
from games import event_bus, feed_selectors, selectors, spectator_selectors
from games.models import GameStatus

logger = logging.getLogger(__name__)


class EventStreamRenderer(BaseRenderer):
    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        # Only errors reach a renderer (the stream itself is a StreamingHttpResponse).
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()


def _sse(data: Any, *, event: str | None = None, event_id: int | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append(f"data: {json.dumps(data, separators=(',', ':'))}")
    return "\n".join(lines) + "\n\n"


def polling_event_stream(*, game_id: Any, seat: str, since: int, timeout: float) -> Iterator[str]:
    """The polling stream (WSGI: the development server and the test client): holds its thread."""
    poll = float(getattr(settings, "GAMES_SSE_POLL_SECONDS", 0.5))
    deadline = time.monotonic() + timeout
    last = since
    yield "retry: 2000\n\n"
    while True:
        entries, game_status, last_seq = _read(game_id=game_id, seat=seat, since=last)
        for entry in entries:
            last = entry["seq"]
            yield _sse(entry, event_id=entry["seq"])
        if game_status == GameStatus.FINISHED and last >= last_seq:
            yield _sse({"status": game_status, "last_seq": last}, event="end", event_id=last)
            return
        if time.monotonic() >= deadline:
            yield _sse(
                {"status": game_status, "last_seq": last, "reconnect": True}, event="timeout", event_id=last
            )
            return
        yield ": keep-alive\n\n"
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())))


def _read(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str | None, int]:
    """One look at what a stream sends after `since`: the entries, the game's status, the last seq there
    is to send. `seat` names the reader: a seat of the game, spectators at a delay ("spectator:<plies>",
    games.spectator_selectors; `game_id` is the game) or a user's feed ("feed"; `game_id` is the feed's
    key feed:<user id>: no status, the stream ends at its timeout only)."""
    if seat.startswith(spectator_selectors.SPECTATOR_VIEWER):
        delay = int(seat.removeprefix(spectator_selectors.SPECTATOR_VIEWER))
        return spectator_selectors.spectator_read_since(game_id=game_id, delay=delay, since=since)
    if seat == feed_selectors.FEED_VIEWER:
        user_id = str(game_id).rsplit(":", 1)[1]
        entries = feed_selectors.feed_read_since(user_id=user_id, since=since)
        return entries, None, entries[-1]["seq"] if entries else since
    game_status, last_seq = selectors.game_status_now(game_id=game_id)
    return selectors.game_events_since(game_id=game_id, seat=seat, since=since), game_status, last_seq


def _read_since(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str | None, int]:
    """One look (_read) from a worker thread; its database connection goes back at once."""
    try:
        return _read(game_id=game_id, seat=seat, since=since)
    finally:
        close_old_connections()


_reads_in_flight: dict[tuple[str, str, int], asyncio.Future] = {}


def _retrieve_error(done: asyncio.Future) -> None:
    """A failed read whose streams all stopped waiting (their deadline): its error is theirs to log, not
    asyncio's ("exception was never retrieved")."""
    if not done.cancelled():
        done.exception()


async def _shared_read(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str, int]:
    """_read_since in a pooled thread, shared by the streams that ask the same (game, seat, since) at the
    same time: the streams of a game wake together, and one read serves them all."""
    key = (str(game_id), seat, since)
    future = _reads_in_flight.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        future = asyncio.ensure_future(
            sync_to_async(_read_since, thread_sensitive=False)(game_id=game_id, seat=seat, since=since)
        )
        _reads_in_flight[key] = future
        future.add_done_callback(lambda done: _reads_in_flight.pop(key, None) if
                                 _reads_in_flight.get(key) is done else None)
        future.add_done_callback(_retrieve_error)
    entries, game_status, last_seq = await asyncio.shield(future)
    return entries, game_status, last_seq


STREAM_READ_RETRY_SECONDS = 1.0  # a read of the log failed (the database is away): try again this soon
STREAM_LAST_READ_SECONDS = 1.0  # a read may end this long after the stream's deadline, never later
SLOT_RELEASE_WAIT_SECONDS = 2.0  # the end of a stream waits this long at most for its slot to be given back


async def _read_before(*, deadline: float, game_id: Any, seat: str, since: int) -> tuple | None:
    """The log after `since` (see _shared_read), or None when the database did not answer in time: in an
    outage a read waits for a pooled connection, and a stream must still end at its deadline."""
    budget = max(deadline - asyncio.get_running_loop().time(), STREAM_LAST_READ_SECONDS)
    try:
        return await asyncio.wait_for(_shared_read(game_id=game_id, seat=seat, since=since), budget)
    except TimeoutError:
        return None
    except DatabaseError as exc:
        logger.warning("event stream of game %s: reading the log failed, retrying: %s", game_id, exc)
        return None


async def pushed_event_stream(
    *, game_id: Any, seat: str, since: int, timeout: float, slot: StreamSlot
) -> AsyncIterator[str]:
    """The ASGI stream: waits on the game's signal (PostgreSQL NOTIFY) or polls (SQLite), holding no
    thread while it waits; reads the new log rows in a pooled worker thread.

    A database outage: a failed read is retried every STREAM_READ_RETRY_SECONDS and at once when the
    listener reconnects (which wakes every stream: the notifications sent while it was away are lost, so
    each stream reads the log from its last seq again); the stream still ends at its deadline. Its slot is
    given back before the last event (`end`, `timeout`) is sent, and when the client goes away."""
    try:
        bus = await event_bus.listener() if event_bus.pushes() else None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        poll = float(getattr(settings, "GAMES_SSE_POLL_SECONDS", 0.5))
        keepalive = float(settings.GAMES_SSE_KEEPALIVE_SECONDS)
        last = since
        game_status = None  # as last read (stays null in a `timeout` event if the database never answered)
        yield "retry: 2000\n\n"
        while True:
            signal = bus.signal(game_id) if bus is not None else None  # before reading: no wake-up is lost
            read = await _read_before(deadline=deadline, game_id=game_id, seat=seat, since=last)
            if read is not None:
                entries, game_status, last_seq = read
                for entry in entries:
                    last = entry["seq"]
                    yield _sse(entry, event_id=entry["seq"])
                if game_status == GameStatus.FINISHED and last >= last_seq:
                    await slot.arelease()
                    yield _sse({"status": game_status, "last_seq": last}, event="end", event_id=last)
                    return
            remaining = deadline - loop.time()
            if remaining <= 0:
                await slot.arelease()
                yield _sse(
                    {"status": game_status, "last_seq": last, "reconnect": True}, event="timeout",
                    event_id=last,
                )
                return
            if read is None:
                wait = min(STREAM_READ_RETRY_SECONDS, remaining)
            elif signal is None:
                await asyncio.sleep(min(poll, remaining))
                yield ": keep-alive\n\n"
                continue
            else:
                wait = min(keepalive, remaining)
            read = entries = entry = None  # an idle stream holds no log rows while it waits
            # one future, resolved by the signal (True) or the timer (False): no task, coroutine or
            # asyncio.timeout of its own for each waiting stream (issue 26)
            waiter = loop.create_future()
            timer = loop.call_later(wait, event_bus.wake, waiter, False)
            if signal is not None:
                signal.add(waiter)
            try:
                signalled = await waiter
            finally:
                timer.cancel()
                if signal is not None:
                    signal.discard(waiter)
            waiter = timer = None
            if not signalled:
                yield ": keep-alive\n\n"
    finally:  # also when the client went away (the task is cancelled) or the server shuts down
        await slot.arelease()


class TooManyStreams(DomainError):
    status = 429
    code = "too_many_streams"


class StreamSlot:
    """One of the user's open-stream slots (GAMES_SSE_MAX_STREAMS_PER_USER), given back once: `release`
    from synchronous code (WSGI, a response's close), `arelease` from the event loop (an ASGI stream)."""

    __slots__ = ("held", "slot", "user_id")  # one per open stream (issue 26: memory per idle listener)

    def __init__(self, *, user_id: int, timeout: float) -> None:
        limit = settings.GAMES_SSE_MAX_STREAMS_PER_USER
        slot = stream_slot_acquire(user_id=user_id, limit=limit, ttl=int(timeout) + 60)
        if slot is None:
            raise TooManyStreams(
                f"You have {limit} event streams open already; close one first.", retry_after=5
            )
        self.user_id = user_id
        self.slot = slot
        self.held = True
        metrics.stream_opened()

    def release(self) -> None:
        if self.held:
            self.held = False
            metrics.stream_closed()
            stream_slot_release(slot=self.slot)

    async def arelease(self) -> None:
        """Give the slot back from async code, waiting SLOT_RELEASE_WAIT_SECONDS at most (a database cache
        in an outage): the release goes on in its thread, and a slot never given back expires after its
        `ttl` (the stream's timeout + 60 s)."""
        if not self.held:
            return
        self.held = False
        metrics.stream_closed()
        task = asyncio.ensure_future(astream_slot_release(slot=self.slot))
        task.add_done_callback(_log_failed_release)
        done, _ = await asyncio.wait({task}, timeout=SLOT_RELEASE_WAIT_SECONDS)  # never raises its error
        if not done:
            logger.warning("event stream slot of user %s: release still pending", self.user_id)


def _log_failed_release(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("event stream slot: release failed: %s", task.exception())


class EventStreamResponse(StreamingHttpResponse):
    """text/event-stream that gives its slot back when the server closes it (ended or client gone)."""

    def __init__(self, content: Any, *, slot: StreamSlot) -> None:
        super().__init__(content, content_type="text/event-stream")
        self.events = content if self.is_async else None  # the pushed stream (an async generator)
        self.slot: StreamSlot | None = slot
        self["Cache-Control"] = "no-cache"
        self["X-Accel-Buffering"] = "no"

    def detach_events(self) -> tuple[AsyncIterator[str], Callable[[], Awaitable[None]]] | None:
        """For the streams' ASGI application (config.stream_asgi), which sends a pushed stream itself: its
        events and what to await once they end or the client left (its slot given back), taken out of the
        response, whose close() then leaves the slot held. None for a polling stream."""
        if self.events is None or self.slot is None:
            return None
        events, slot = self.events, self.slot
        self.events = self.slot = None
        return events, slot.arelease

    def close(self) -> None:
        if self.slot is not None:
            self.slot.release()
        super().close()



def async_stream_view(view_class: type[APIView]) -> Any:
    """The URL's view of an event stream API: under Django's ASGI handler its checks run in a pooled thread
    and the stream itself is async (the OpenAPI schema documents `view_class`). `make serve`'s stream
    process runs `sync_view` itself instead (config.stream_asgi): the same view, without Django's
    per-connection handler while the stream waits."""
    drf_view = view_class.as_view()

    def in_worker_thread(request: Any, **kwargs: Any) -> Any:
        try:
            return drf_view(request, **kwargs)
        finally:
            close_old_connections()

    async def stream(request: Any, **kwargs: Any) -> Any:
        kwargs = {name: str(value) for name, value in kwargs.items()}
        if not isinstance(request, ASGIRequest):
            return await sync_to_async(drf_view)(request, **kwargs)
        opening = asyncio.ensure_future(
            sync_to_async(in_worker_thread, thread_sensitive=False)(request, **kwargs)
        )
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:  # the client went away while the checks ran: Django will never send
            # (nor close) the response they make, so close it here once they are done: its slot is given back
            with contextlib.suppress(Exception):
                response = await opening
                await sync_to_async(response.close, thread_sensitive=False)()
            raise

    stream.sync_view = drf_view  # config.stream_asgi runs it in a pooled thread, then sends the stream itself
    stream.cls = view_class  # the OpenAPI schema documents the DRF view
    stream.initkwargs = {}
    stream.csrf_exempt = True
    return stream

