"""Prometheus metrics (prometheus_client), served at /metrics by config.health.OpsMiddleware.

Under `make serve` gunicorn runs several worker processes: config/gunicorn.conf.py points
PROMETHEUS_MULTIPROC_DIR at a fresh directory before the workers start, each worker writes its samples there
and a scrape adds them up (prometheus_client's multiprocess mode; a dead worker's files are marked by the
`child_exit` hook). Without it (runserver, tests) the samples live in this process.

Metrics:
- battlecards_http_request_duration_seconds{method, route, status}: latency per endpoint (the URL pattern,
  not the path, so ids do not multiply the series);
- battlecards_game_actions_applied_total{game_type}: players' actions applied (counted when they commit);
- battlecards_event_streams_open: event streams open now (over every worker);
- battlecards_throttle_cache_errors_total{scope}: requests a throttle let through because the cache was
  unreachable (config.throttling: throttles fail open);
- battlecards_simulation_chunks_queued: chunks of queued or running simulation jobs not yet recorded, read
  from the database at each scrape (the same whether Celery or the web workers play them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

REQUEST_SECONDS = Histogram(
    "battlecards_http_request_duration_seconds",
    "Time to answer a request (to its first byte for a stream), per URL pattern.",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
ACTIONS_APPLIED = Counter(
    "battlecards_game_actions_applied", "Players' game actions applied and committed.", ["game_type"]
)
THROTTLE_CACHE_ERRORS = Counter(
    "battlecards_throttle_cache_errors",
    "Requests a throttle let through because it could not reach the cache (an outage).",
    ["scope"],
)
STREAMS_OPEN = Gauge(
    "battlecards_event_streams_open", "Event streams open now.", multiprocess_mode="livesum"
)


def multiprocess() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def action_applied(*, game_type: str) -> None:
    """Count one applied action once its transaction commits (a rolled-back action is not counted)."""
    from django.db import transaction

    transaction.on_commit(lambda: ACTIONS_APPLIED.labels(game_type=game_type).inc())


def throttle_cache_error(*, scope: str) -> None:
    THROTTLE_CACHE_ERRORS.labels(scope=scope).inc()


def stream_opened() -> None:
    STREAMS_OPEN.inc()


def stream_closed() -> None:
    STREAMS_OPEN.dec()


class SimulationQueueCollector:
    """Queued simulation chunks, counted in the database when scraped."""

    @staticmethod
    def _family() -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "battlecards_simulation_chunks_queued",
            "Chunks of queued or running simulation jobs not recorded yet.",
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield self._family()  # registering it runs no query

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from django.db.models import Count, F, Sum

        from simulations.models import ACTIVE_STATUSES, SimulationJob

        family = self._family()
        try:
            left = (
                SimulationJob.objects.filter(status__in=ACTIVE_STATUSES)
                .annotate(done=Count("chunks"))
                .annotate(left=F("chunks_total") - F("done"))
                .aggregate(n=Sum("left"))["n"]
            )
        except Exception:  # noqa: BLE001 - a scrape during a database outage still answers the other metrics
            return
        family.add_metric([], float(left or 0))
        yield family


_QUEUE = SimulationQueueCollector()
REGISTRY.register(_QUEUE)  # the single-process registry; multiprocess scrapes add it themselves


def render() -> tuple[bytes, str]:
    """The exposition text of every metric (over every worker in multiprocess mode)."""
    if not multiprocess():
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    registry.register(_QUEUE)
    return generate_latest(registry), CONTENT_TYPE_LATEST


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "<unmatched>"
    route = match.route or match.view_name or ""
    return "/" + route.replace("^", "").replace("$", "")  # the router's regular expressions: ^nations/$


class RequestMetricsMiddleware:
    """Times every request (sync or async view) and records it under its URL pattern."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        from asgiref.sync import iscoroutinefunction, markcoroutinefunction

        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        response = self.get_response(request)
        self._observe(request, response, started)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = await self.get_response(request)
        self._observe(request, response, started)
        return response

    @staticmethod
    def _observe(request: HttpRequest, response: HttpResponse, started: float) -> None:
        elapsed = time.perf_counter() - started
        match = getattr(request, "resolver_match", None)
        pattern = None if match is None else (match.route, match.view_name)
        key = (request.method, pattern, response.status_code)
        series = _SERIES.get(key)
        if series is None:  # labels() takes a lock and builds its key from strings: once per series
            series = REQUEST_SECONDS.labels(
                method=request.method if request.method in _METHODS else "other",
                route=_route(request),
                status=str(response.status_code),
            )
            if len(_SERIES) < _MAX_SERIES:
                _SERIES[key] = series
        series.observe(elapsed)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# this process's histogram children by (method, URL pattern, status): a dictionary look-up per request
# instead of labels() (issue 42: the metrics were the second cost of every request's middleware)
_SERIES: dict[tuple[Any, ...], Any] = {}
_MAX_SERIES = 10_000  # other methods than _METHODS are keys of their own: bounded
