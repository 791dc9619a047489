"""Throttles: DRF scoped rates from settings, counted in the shared cache so they hold across workers.

Each scope's rate is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope] (env THROTTLE_<SCOPE>), read when the
throttle runs. An authenticated user is counted by user id, anyone else by client address: REMOTE_ADDR, or
with TRUSTED_PROXIES=N the N-th address from the right of X-Forwarded-For (never a value the client
chose). A throttled request is a 429 in the common error shape with a Retry-After header.

Also here: the log-in forms that are plain Django views (the browsable API's session log-in and the admin's)
are throttled by a middleware, and the open event streams are counted per user.

A cache outage (Redis stopped or unreachable, the database cache's database gone): a rate throttle that
cannot read or write its counter lets the request through (fail-open), logs a warning and counts it in
battlecards_throttle_cache_errors_total{scope}: an outage of the cache is no reason to refuse the players'
actions, and the limits come back with the cache. The open-stream slots are not failed open (a stream that
took no slot could never give it back): their errors reach config.middleware, a 503 `cache_unavailable`.

How a rate is counted (ScopedThrottle): a sliding window estimated from two fixed-window counters. The
rate N/period splits time into windows of one period; each client has one integer counter per window. A
request at fraction f of the current window sees previous * (1 - f) + current requests in the last period,
and passes when one more keeps that within N. So N requests at once pass and the next is refused, a client
that stopped gets its allowance back smoothly over the next period, and crossing a window boundary opens no
burst of 2N (as a plain fixed window would). Each check costs one get_many of two small integers and, when
it passes, one add or incr (on Redis one round trip: config.redis_cache's count_in_window reads the
previous counter and increments the current one in one script, and a refused request gives its increment
back): constant in N (DRF's SimpleRateThrottle kept a list of every timestamp of the
last period, read and pickled whole at every request: issue 42 measured 0.43 ms a request at 15,000 of them).

Atomicity (which cache backend CACHE_URL picks matters):
- The rate counters are taken with cache.add (a new window) or cache.incr, and a request whose increment
  carried the estimate past N gives it back (decr) and is refused. On Redis (INCR, in one Lua call with its
  existence check: config.redis_cache) and the memory cache (its lock) incr is atomic, so clients arriving
  at the same moment are counted exactly. On the database cache incr is a get then a set: requests of one
  client at the same instant can lose increments, so a limit can be overshot by about as many requests as
  that client has in flight at once (never bypassed for a sustained rate).
- The stream slots (below) are exact on every backend: each slot is a key taken with cache.add (atomic on
  Redis, the database cache and the memory cache) and given back with cache.delete. (A counter with
  incr/decr is not: the database cache's incr/decr are a get-then-set, so streams closed at the same
  instant lost their decrements and locked the user out until the counter expired.)
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
from collections.abc import Callable, Iterable

from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from config import metrics
from config.exceptions import error_body

log = logging.getLogger("config.throttling")


class ScopedThrottle(SimpleRateThrottle):
    """A fixed scope (the class attribute), optionally only for some HTTP methods, counted in a sliding
    window of two fixed-window counters (the module's docstring)."""

    scope: str = ""
    methods: Iterable[str] | None = None  # None: every method

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        try:
            return self._allow(request, view)
        except cache_errors() as exc:
            metrics.throttle_cache_error(scope=self.scope)
            log.warning(
                "throttle %s could not reach the cache (%s: %s): request let through",
                self.scope,
                type(exc).__name__,
                exc,
            )
            return True

    def _allow(self, request, view) -> bool:
        self.seen = None
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        current_key, previous_key = f"{key}:{window}", f"{key}:{window - 1}"
        weight = 1 - (now - window * self.duration) / self.duration  # of the previous window still in view
        count_in_window = getattr(self.cache, "count_in_window", None)
        if count_in_window is not None:  # one round trip: count first, give it back below if refused
            previous, counted = count_in_window(previous_key, current_key, 2 * self.duration)
        else:
            counts = self.cache.get_many([previous_key, current_key])
            previous, current = counts.get(previous_key, 0), counts.get(current_key, 0)
            self.seen = (now, window, previous, current)
            if previous * weight + current + 1 > self.num_requests:
                return False
            counted = self._count(current_key, known=current_key in counts)
        self.seen = (now, window, previous, counted - 1)
        if previous * weight + counted > self.num_requests:  # with others of this client counted at once
            self._uncount(current_key)
            return False
        return True

    def _count(self, key: str, *, known: bool) -> int:
        """The window's counter after adding this request (kept two periods: it is the next window's
        previous one)."""
        if not known and self.cache.add(key, 1, 2 * self.duration):
            return 1
        try:
            return self.cache.incr(key)
        except ValueError:  # expired since it was read (or another request's add has not landed): start it
            if self.cache.add(key, 1, 2 * self.duration):
                return 1
            return self.cache.incr(key)

    def _uncount(self, key: str) -> None:
        with contextlib.suppress(ValueError):  # expired meanwhile: nothing to give back
            self.cache.decr(key)

    def wait(self) -> float | None:
        """Seconds until one more request would pass, if this client sends none meanwhile; None when none
        ever would (a rate of 0)."""
        if self.seen is None or self.num_requests < 1:
            return None
        now, window, previous, current = self.seen
        room = self.num_requests - 1  # what the estimate must fall to
        start = window * self.duration
        if current <= room:  # within this window, as the previous one's weight falls
            at = start + self.duration * (1 - (room - current) / previous) if previous else now
        else:  # in the next window, where this one is the previous
            at = start + self.duration * (2 - room / current)
        return max(0.0, at - now)

    def get_cache_key(self, request, view) -> str | None:
        if self.methods is not None and request.method not in self.methods:
            return None
        user = getattr(request, "user", None)
        ident = f"user:{user.pk}" if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def cache_errors() -> tuple[type[BaseException], ...]:
    """What a cache backend raises when its server is unreachable: redis-py's errors (a refused or timed-out
    connection), the database cache's, a socket's."""
    from django.db import DatabaseError
    from redis.exceptions import RedisError

    return (RedisError, DatabaseError, OSError)


def scoped(scope: str, *, methods: Iterable[str] | None = None) -> type[ScopedThrottle]:
    """The throttle class of one scope (for a view's throttle_classes)."""
    return type(
        f"{scope.title().replace('_', '')}Throttle",
        (ScopedThrottle,),
        {"scope": scope, "methods": frozenset(methods) if methods else None},
    )


GameCreateThrottle = scoped("game_create", methods={"POST"})
GameActionThrottle = scoped("game_action", methods={"POST"})
DeckValidateThrottle = scoped("deck_validate")
DeckImportThrottle = scoped("deck_import", methods={"POST"})
RegisterThrottle = scoped("register", methods={"POST"})
TokenThrottle = scoped("token", methods={"POST"})
LoginThrottle = scoped("login", methods={"POST"})
SimulationSubmitThrottle = scoped("simulations", methods={"POST"})  # simulation and balance jobs
DeckPrintThrottle = scoped("deck_print")  # printable PDFs of decks and starters
ReplayThrottle = scoped("replay", methods={"GET"})  # a finished game's replay (API and the site's steps)


class SpectateDelayThrottle(ScopedThrottle):
    """A spectator view asked at a delay of its own (?delay= other than 0): each new delay is an engine
    state no request built yet (games.replay_states). Views without ?delay= are not counted: they follow
    the creator's delay, which each process keeps and moves forward."""

    scope = "spectate_delay"
    methods = frozenset({"GET"})

    def get_cache_key(self, request, view) -> str | None:
        if request.GET.get("delay", "").strip() in ("", "0"):
            return None
        return super().get_cache_key(request, view)


def throttle_wait(request: HttpRequest, throttle: ScopedThrottle) -> float | None:
    """For a site view (not a DRF view): None when `throttle` lets the request through, else the seconds
    to wait (the request is counted when it passes)."""
    if throttle.allow_request(request, None):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def throttled_response(wait: float | None) -> JsonResponse:
    retry_after = max(1, math.ceil(wait or 1))
    response = JsonResponse(
        error_body(
            429,
            "throttled",
            f"Request was throttled. Expected available in {retry_after} seconds.",
            retry_after=retry_after,
        ),
        status=429,
    )
    response["Retry-After"] = str(retry_after)
    return response


class LoginThrottleMiddleware:
    """Throttle POSTs to the forms that are not DRF views: the session log-in of the API, the admin log-in,
    and the site's (web/) log-in, sign-up and live deck check, each under its API counterpart's scope."""

    VIEW_NAMES = frozenset({"rest_framework:login", "admin:login", "web:login"})
    OTHER_VIEWS = {
        "web:signup": "register",
        "web:deck-check": "deck_validate",
        "web:deck-edit": "deck_validate",
    }

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        if request.method != "POST" or match is None:
            return None
        if match.view_name in self.VIEW_NAMES:
            throttle = LoginThrottle()
        elif match.view_name in self.OTHER_VIEWS:
            throttle = scoped(self.OTHER_VIEWS[match.view_name])()
        else:
            return None
        if throttle.allow_request(request, None):
            return None
        return throttled_response(throttle.wait())


# ------------------------------------------------------------------------------------ open streams per user


StreamSlot = tuple[str, str]  # (cache key, the holder's token)


SLOT_FIRST_PROBE = 8  # keys looked at in the first round trip (the default limit); more when all are taken


def _slot_key(user_id: int, index: int) -> str:
    return f"sse_stream_slot:user:{user_id}:{index}"


def stream_slot_acquire(*, user_id: int, limit: int, ttl: int) -> StreamSlot | None:
    """Take one of the user's `limit` open-stream slots; None when all are taken.

    Each slot is a cache key taken with cache.add, which only one caller wins on every backend (Redis:
    SET NX; the database cache: the table's primary key; the memory cache: its lock), and given back with
    cache.delete: no read-modify-write, so streams opened or closed at the same instant are counted
    exactly. A slot expires `ttl` seconds after it was taken, so the slots of a process that died come back
    at the latest when its streams would have timed out.

    The slots are looked at lowest first, in rounds of 8, 16, 32, ... keys (one get_many each), stopping at
    the first round with a free one: opening costs time in the streams the user has open (log2 of them in
    round trips), not in `limit` (issue 42: fetching all `limit` keys took 317 ms at a limit of 100,000).
    """
    token = secrets.token_hex(8)
    start, size = 0, SLOT_FIRST_PROBE
    while start < limit:
        keys = [_slot_key(user_id, i) for i in range(start, min(limit, start + size))]
        taken = cache.get_many(keys)
        for key in keys:
            if key not in taken and cache.add(key, token, ttl):
                return key, token
        start += len(keys)
        size *= 2
    return None


def stream_slot_release(*, slot: StreamSlot) -> None:
    key, token = slot
    if cache.get(key) == token:  # still ours (not expired and taken by another stream since)
        cache.delete(key)


def _release_in_worker_thread(slot: StreamSlot) -> None:
    try:
        stream_slot_release(slot=slot)
    finally:
        close_old_connections()  # dbcache:// used this thread's connection: give it back to the pool now


async def astream_slot_release(*, slot: StreamSlot) -> None:
    """stream_slot_release for async code (the end of an ASGI stream), on every cache backend.

    The database cache (dbcache://) runs SQL, which Django forbids in the event loop
    (SynchronousOnlyOperation), so the release runs in a pooled worker thread, whose database connection goes
    back at once. (The cache's own async API, cache.adelete, would run it in the one shared thread-sensitive
    thread and keep a pooled connection checked out there.)
    """
    await sync_to_async(_release_in_worker_thread, thread_sensitive=False)(slot)
