"""The event streams' ASGI application (config.asgi routes the stream paths here): Django opens a stream, a
lean loop sends it.

Opening a stream is Django's work, done once, synchronously, in a pooled thread: the request goes through
the project's middleware (host check, request id, CORS, security headers, the error shape) and the URL's
own view, the one WSGI and the development server run too (its `sync_view`,
games.fastpath.stream.async_stream_view):
the same authentication (token, session cookie, stream ticket), checks, selectors and 4xx answers. The
thread's database connection goes back when the opening ends (request_finished), before any waiting.

Sending the stream is this module's: an answer that is not a pushed event stream (an error, a redirect) is
sent as it is; a pushed stream (a response with `detach_events()`, games.fastpath.stream.EventStreamResponse)
is taken out of its response, and request, response and the opening's headers are dropped: while it waits, a
listener holds its event generator (one future, resolved by its game's signal or a timer), its slot, this
coroutine and one pending `receive()` run without a task of its own (_Watch: it notices the client going
away and cancels the stream, so its slot is given back at once), not Django's request, response, two tasks
and context per connection of its ASGIHandler (issue 26: memory per idle listener). A process opens
OPENINGS_AT_ONCE streams at a time, which keeps its heap small when a thousand connect together.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

from django.core import signals
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponseBase
from django.urls import ResolverMatch, set_script_prefix

from config.request_body import Message, Receive, Scope, Send, drain_body

Events = AsyncIterator[str | bytes]
Closer = Callable[[], Awaitable[None]]


class StreamOpening(ASGIHandler):
    """Django's synchronous handler (BaseHandler.get_response and the middleware as WSGI runs them) for
    the ASGI request of a stream; the URL's view is its synchronous one (`sync_view`)."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)  # not ASGIHandler's: that loads the middleware for async use
        self.load_middleware(is_async=False)

    def resolve_request(self, request: Any) -> ResolverMatch:
        match = super().resolve_request(request)
        match.func = getattr(match.func, "sync_view", match.func)
        return match


class Opened:
    """What the opening gives the event loop: the response's status and headers, then either its body or
    a pushed stream's events and what ends them (its slot given back)."""

    __slots__ = ("body", "close", "events", "headers", "status")

    def __init__(self, response: HttpResponseBase) -> None:
        self.status = response.status_code
        self.headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
        self.headers += [
            (b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
            for cookie in response.cookies.values()
        ]
        detach = getattr(response, "detach_events", None)
        pushed = detach() if detach is not None else None
        self.events: Events | None = None
        self.close: Closer | None = None
        self.body = b""
        if pushed is not None:
            self.events, self.close = pushed
        elif response.streaming:  # none on the stream paths; bounded if any ever is
            self.body = b"".join(response) if not response.is_async else b""  # type: ignore[arg-type]
        else:
            self.body = response.content  # type: ignore[attr-defined]


_opening: StreamOpening | None = None

# Streams opened at once by a process (the others wait their turn on the event loop, holding nothing but
# their scope). Each opening makes many short-lived objects (a request, its middleware's, the queries');
# made by many openings at once, they interleave with the few that live as long as the stream, and the
# heap stays that large after they are freed: 1,000 streams opening together held 12 KB each, one or two
# at a time 7 KB (in-process measure, no server). Two: one thread computes while the other waits for the
# database.
OPENINGS_AT_ONCE = 2
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _openings(loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(OPENINGS_AT_ONCE)
    return gate


def _open(scope: Scope) -> Opened:
    """In a pooled thread: Django's answer to the request, then the request is finished (request_finished:
    the thread's database connection goes back)."""
    global _opening
    if _opening is None:
        _opening = StreamOpening()
    set_script_prefix(get_script_prefix(scope))
    signals.request_started.send(sender=StreamOpening, scope=scope)
    request, response = _opening.create_request(scope, io.BytesIO())
    if request is not None:
        response = _opening.get_response(request)
    response._handler_class = StreamOpening
    try:
        return Opened(response)
    finally:
        response.close()


ARRIVED = "battlecards.arrived"  # the scope's key: time.monotonic() when the stream's request arrived


def time_left(request: Any, timeout: float) -> float:
    """A stream's `timeout` less the time its request already waited (for its turn to open, for a database
    connection during an outage, for slow queries), so a stream ends `timeout` seconds after its request
    arrived, not after it opened (issue 34: a stream opened during an outage ran 34.4 s for a timeout of
    20 s). Requests not served by stream_application keep their whole timeout."""
    scope = getattr(request, "scope", None)  # an ASGIRequest's (DRF's Request hands it on)
    arrived = scope.get(ARRIVED) if isinstance(scope, dict) else None
    if arrived is None:
        return timeout
    return max(0.0, timeout - (time.monotonic() - arrived))


async def stream_application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":
        raise ValueError(f"the event streams are HTTP only, not {scope['type']}")
    scope[ARRIVED] = time.monotonic()
    if not await drain_body(scope, receive, send):
        return
    # a pooled thread in a copy of this context, dropped afterwards: asgiref's sync_to_async would copy
    # what the opening set (the request id, URL prefix, DB and locale locals...) back into the stream's
    # context, about 6 KB held by each idle stream
    opened = await _opened(scope)
    start = {"type": "http.response.start", "status": opened.status, "headers": opened.headers}
    events, close = opened.events, opened.close
    if events is None or close is None:
        await send(start)
        await send({"type": "http.response.body", "body": opened.body})
        return
    del opened  # and its headers: only `start` holds them, until they are sent
    task = asyncio.current_task()
    assert task is not None
    # the next message is http.disconnect (the client went away): it cancels the stream where it waits,
    # whose finally gives the slot back
    watch = _Watch(task, receive)
    try:
        await send(start)
        del start
        async for part in events:
            await send({"type": "http.response.body", "body": _bytes(part), "more_body": True})
        watch.task = None
        await send({"type": "http.response.body"})
    except asyncio.CancelledError:
        if not watch.gone:
            raise  # the server is shutting down
        task.uncancel()  # the client went away: nobody left to answer
    finally:
        watch.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await _aclose(events)
        await close()


async def _opened(scope: Scope) -> Opened:
    """The stream opened in a pooled thread (OPENINGS_AT_ONCE at a time); its future, which holds the
    Opened as its result, is dropped with this frame."""
    loop = asyncio.get_running_loop()
    async with _openings(loop):
        opening = loop.run_in_executor(None, contextvars.copy_context().run, _open, scope)
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:  # the server shuts down: nobody will send the stream being opened
            opening.add_done_callback(_abandon)
            raise


def _abandon(opening: asyncio.Future[Opened]) -> None:
    """An opening whose stream will never be sent: its slot is given back (not left to expire)."""
    if opening.cancelled() or opening.exception() is not None:
        return
    opened = opening.result()
    if opened.events is not None:
        asyncio.ensure_future(_aclose(opened.events))
    if opened.close is not None:
        asyncio.ensure_future(opened.close())


def _bytes(part: str | bytes) -> bytes:
    return part.encode() if isinstance(part, str) else part


class _Watch:
    """A stream's pending receive(), without a task of its own (issue 26: memory per idle listener): the
    coroutine is run up to the future it waits on, and that future's completion (the client's next message)
    cancels the stream while it is being sent. The coroutine is never resumed (as a cancelled task's is
    not), and is closed once the stream ends. A receive() that waits on something else than a future runs
    in a task, as before."""

    __slots__ = ("gone", "receiving", "task")

    def __init__(self, task: asyncio.Task[Any], receive: Receive) -> None:
        self.task: asyncio.Task[Any] | None = task
        self.gone = False
        receiving = receive()
        self.receiving: Coroutine[Any, Any, Message] | asyncio.Future[Message] | None = None
        if asyncio.iscoroutine(receiving):
            try:
                waiting = receiving.send(None)
            except Exception:  # a message at once (StopIteration), or receive() failed: the client is gone
                self(None)
                return
            if getattr(waiting, "_asyncio_future_blocking", None):  # as a task does with an awaited future
                waiting._asyncio_future_blocking = False
                waiting.add_done_callback(self)
                self.receiving = receiving
                return
        # any other awaitable, or the rest of the coroutine after a bare `yield` (a task resumes it so)
        self.receiving = asyncio.ensure_future(receiving)
        self.receiving.add_done_callback(self)

    def __call__(self, _: Any) -> None:
        self.gone = True
        if self.task is not None:
            self.task.cancel()

    def stop(self) -> None:
        self.task = None
        if isinstance(self.receiving, asyncio.Future):
            self.receiving.cancel()
        elif self.receiving is not None:
            self.receiving.close()


async def _aclose(events: Events) -> None:
    aclose = getattr(events, "aclose", None)
    if aclose is not None:
        await aclose()
