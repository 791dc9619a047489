"""Operators' endpoints: liveness, readiness and metrics, answered before any other middleware.

- GET /health/live   200 {"status": "ok"}: the process answers (it touches nothing else).
- GET /health/ready  200 when every check passes, else 503 in the one error shape (code `not_ready`) with
  each check's outcome: `database` (a real query), `cache` (a set/get/delete round trip) and, when
  CELERY_BROKER_URL is set, `broker` (a connection to it). Each check has HEALTH_CHECK_TIMEOUT seconds.
- GET /metrics       Prometheus text (config.metrics). With METRICS_TOKEN set it needs
  `Authorization: Bearer <token>`. Production requires the token (METRICS_LOOPBACK_WITHOUT_TOKEN is off:
  a same-host proxy that sends no forwarding header looks exactly like a loopback client, so no header
  test can tell them apart); elsewhere (`make run`, tests), without a token, only a loopback client that
  came through no proxy (none of X-Forwarded-For, X-Real-IP, Forwarded, X-Forwarded-Host, Via) gets it.
  Either way the reverse proxy should not route /metrics from outside.

They sit in front of the host check (ALLOWED_HOSTS) and of the HTTPS redirect, so a load balancer probing
an app server by its IP address over plain HTTP gets the real answer, not a 400 or a 301. Readiness names
which check failed, never the error text (it may hold host names); the server log has the details.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_guid import get_guid, set_guid

from config import metrics
from config.exceptions import error_body

log = logging.getLogger("config.health")

LIVE_PATH = "/health/live"
READY_PATH = "/health/ready"
METRICS_PATH = "/metrics"
_LOOPBACK = frozenset({"127.0.0.1", "::1"})


def _check_database() -> None:
    from django.db import connections

    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                raise RuntimeError("SELECT 1 did not answer 1")
    finally:
        connection.close()  # this thread's connection (returned to the pool, if any)


def _check_cache() -> None:
    from django.core.cache import cache

    key, value = f"health:{secrets.token_hex(8)}", secrets.token_hex(8)
    cache.set(key, value, timeout=30)
    try:
        if cache.get(key) != value:
            raise RuntimeError("the cache did not give back what was stored")
    finally:
        cache.delete(key)


def _check_broker() -> None:
    from kombu import Connection

    timeout = float(settings.HEALTH_CHECK_TIMEOUT)
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=timeout) as connection:
        connection.ensure_connection(max_retries=1, timeout=timeout)


def checks() -> dict[str, Callable[[], None]]:
    found = {"database": _check_database, "cache": _check_cache}
    if getattr(settings, "CELERY_BROKER_URL", ""):
        found["broker"] = _check_broker
    return found


def _with_request_id(target: Callable[[], None]) -> Callable[[], None]:
    """`target` for a new thread, logging under the request's id. Only the id is carried over: a copy of
    the whole context would hand the thread the request's database connection (Django keeps connections
    in context-local storage), which the database check must not share, let alone close."""
    request_id = get_guid()

    def run() -> None:
        if request_id:
            set_guid(request_id)
        target()

    return run


def _attempt(name: str, check: Callable[[], None], outcome: dict[str, Any]) -> None:
    started = time.perf_counter()
    try:
        check()
        outcome["ok"] = True
    except Exception as exc:  # noqa: BLE001 - any failure makes the server not ready
        outcome.update(ok=False, error=type(exc).__name__)
        log.warning("readiness check %s failed: %s: %s", name, type(exc).__name__, exc)
    outcome["seconds"] = round(time.perf_counter() - started, 3)


def readiness() -> tuple[bool, dict[str, dict[str, Any]]]:
    """Every check at once, each in a thread of its own: the answer comes within HEALTH_CHECK_TIMEOUT
    however many checks hang (a hung check's thread is left to finish on its own)."""
    timeout = float(settings.HEALTH_CHECK_TIMEOUT)
    deadline = time.monotonic() + timeout
    runs: dict[str, tuple[threading.Thread, dict[str, Any]]] = {}
    for name, check in checks().items():
        outcome: dict[str, Any] = {}
        thread = threading.Thread(
            target=_with_request_id(lambda n=name, c=check, o=outcome: _attempt(n, c, o)),
            daemon=True,
            name=f"ready-{name}",
        )
        thread.start()
        runs[name] = (thread, outcome)
    results: dict[str, dict[str, Any]] = {}
    for name, (thread, outcome) in runs.items():
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            log.warning("readiness check %s timed out after %.1f s", name, timeout)
            results[name] = {"ok": False, "error": "timeout", "seconds": timeout}
        else:
            results[name] = outcome
    return all(r["ok"] for r in results.values()), results


def _ready_response() -> JsonResponse:
    ok, results = readiness()
    if ok:
        return JsonResponse({"status": "ok", "checks": results})
    failed = [name for name, r in results.items() if not r["ok"]]
    return JsonResponse(
        error_body(
            503, "not_ready", f"Not ready: {', '.join(failed)} check failed.", failed=failed, checks=results
        ),
        status=503,
        headers={"Retry-After": "5"},
    )


# Headers a proxy may add to say whom it forwards for: any of them means the request came through a proxy.
_PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED", "HTTP_X_FORWARDED_HOST",
                  "HTTP_VIA")


def _metrics_allowed(request: HttpRequest) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    if token:
        given = request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    if not getattr(settings, "METRICS_LOOPBACK_WITHOUT_TOKEN", True):  # production: the token is required
        return False
    return request.META.get("REMOTE_ADDR") in _LOOPBACK and not any(h in request.META for h in _PROXY_HEADERS)


def _metrics_response(request: HttpRequest) -> HttpResponse:
    if not _metrics_allowed(request):
        detail = "Metrics are served to the monitoring system only."
        if not getattr(settings, "METRICS_TOKEN", "") and not getattr(
            settings, "METRICS_LOOPBACK_WITHOUT_TOKEN", True
        ):
            detail += " Set METRICS_TOKEN and scrape with Authorization: Bearer <token>."
        return JsonResponse(error_body(403, "forbidden", detail), status=403)
    body, content_type = metrics.render()
    return HttpResponse(body, content_type=content_type)


def ops_response(request: HttpRequest) -> HttpResponse | None:
    """The answer to an operators' endpoint, or None for any other request."""
    path = request.path_info.rstrip("/")
    if path not in (LIVE_PATH, READY_PATH, METRICS_PATH):
        return None
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse(error_body(405, "method_not_allowed", "Use GET."), status=405)
        response["Allow"] = "GET, HEAD"
        return response
    if path == LIVE_PATH:
        response: HttpResponse = JsonResponse({"status": "ok"})
    elif path == READY_PATH:
        response = _ready_response()
    else:
        response = _metrics_response(request)
    response["Cache-Control"] = "no-store"
    return response


class OpsMiddleware:
    """First in MIDDLEWARE (after the request id): answers the operators' endpoints, passes on the rest."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = ops_response(request)
        return response if response is not None else self.get_response(request)
