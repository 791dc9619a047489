"""Keep the API's one error shape at the edges DRF does not see.

For paths under /api/:
  * a path or query string with a NUL byte is a 400 (PostgreSQL cannot even compare such text);
  * more than DATA_UPLOAD_MAX_NUMBER_FIELDS query parameters is a 400 `too_many_fields`, and a query value
    longer than MAX_QUERY_VALUE_LENGTH a 400 `query_value_too_long` (bounded the same on every database);
  * an unreadable request (Django's SuspiciousOperation, e.g. too many form fields) is a 400, not a 500;
  * a URL that only lacks its trailing slash answers 308 to the slashed URL (308 keeps the method and
    body, unlike APPEND_SLASH's 301, which loses a POST body or raises under DEBUG);
  * any other non-JSON error response (Django's HTML 404 and the DEBUG pages) becomes
    {"status", "code", "detail"}; an unhandled exception becomes a JSON 500 without a debug page;
  * the database connection pool exhausted is a 503 `server_busy`; a lost or refused database connection
    (an outage) a 503 `database_unavailable`; a statement cancelled by the database's statement_timeout a
    503 `database_timeout`; an unreachable Redis cache (an outage: what needs it to be right, e.g. a
    stream's slot) a 503 `cache_unavailable` (the throttles let requests through instead:
    config.throttling); all with Retry-After.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from typing import Any

import corsheaders.middleware
from corsheaders.conf import conf as cors_conf
from corsheaders.signals import check_request_enabled
from django.conf import settings
from django.core.exceptions import DisallowedHost, MiddlewareNotUsed, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.http.request import split_domain_port
from django.urls import Resolver404, resolve

from config.exceptions import error_body, suspicious_body

logger = logging.getLogger("config.api")

API_PREFIX = "/api/"
_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_too_large",
    500: "server_error",
}
_DETAILS = {
    400: "Bad request.",
    401: "Authentication credentials were not provided.",
    403: "You may not do this.",
    404: "Not found.",
    405: "Method not allowed.",
    413: "The request body is too large.",
    500: "Internal server error.",
}


class HttpResponsePermanentRedirectKeepMethod(HttpResponsePermanentRedirect):
    status_code = 308


def _json_error(status: int, code: str | None = None, detail: str | None = None, **extra) -> JsonResponse:
    return JsonResponse(
        error_body(
            status, code or _CODES.get(status, "error"), detail or _DETAILS.get(status, "Error."), **extra
        ),
        status=status,
    )


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query:
            return _json_error(400, "invalid_characters", "The URL contains a NUL character.")
        refused = self._refuse_query(request)
        if refused is not None:
            return refused
        if not request.path.endswith("/") and self._resolves(request.path_info + "/"):
            target = request.path + "/" + (f"?{query}" if query else "")
            return HttpResponsePermanentRedirectKeepMethod(target)
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and not hasattr(response, "data")  # DRF already rendered its error body (JSON or browsable)
            and not response.get("Content-Type", "").startswith(("application/json", "text/event-stream"))
        ):
            return _json_error(response.status_code)
        return response

    @staticmethod
    def _refuse_query(request: HttpRequest) -> HttpResponse | None:
        try:
            params = request.GET
        except SuspiciousOperation as exc:
            body = suspicious_body(exc)
            return JsonResponse(body, status=body["status"])
        limit = int(getattr(settings, "MAX_QUERY_VALUE_LENGTH", 1000))
        for name, values in params.lists():
            if len(name) > limit or any(len(v) > limit for v in values):
                return _json_error(
                    400,
                    "query_value_too_long",
                    f"Query parameter {name[:40]!r} is longer than {limit} characters.",
                    parameter=name[:40],
                )
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX):
            return None
        if isinstance(exception, SuspiciousOperation):
            body = suspicious_body(exception)
            return JsonResponse(body, status=body["status"])
        if _pool_exhausted(exception):  # every pooled connection stayed busy for DB_POOL_TIMEOUT
            logger.warning("Database pool exhausted on %s %s", request.method, request.path)
            response = _json_error(503, "server_busy", "The server is busy; retry shortly.", retry_after=5)
            response["Retry-After"] = "5"
            return response
        if _statement_timed_out(exception):  # the database cancelled it after its statement_timeout
            logger.warning("Database statement timeout on %s %s", request.method, request.path)
            return _unavailable("database_timeout", "The database took too long to answer; retry shortly.")
        if isinstance(exception, OperationalError | InterfaceError):  # connection lost or refused: an outage
            logger.warning("Database unavailable on %s %s: %s", request.method, request.path, exception)
            response = _json_error(
                503, "database_unavailable", "The database is unavailable; retry shortly.", retry_after=5
            )
            response["Retry-After"] = "5"
            return response
        if _cache_unreachable(exception):
            logger.warning("Cache unavailable on %s %s: %s", request.method, request.path, exception)
            return _unavailable("cache_unavailable", "The cache is unavailable; retry shortly.")
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return _json_error(500)

    @staticmethod
    def _resolves(path: str) -> bool:
        try:
            resolve(path)
        except Resolver404:
            return False
        return True


def _unavailable(code: str, detail: str) -> JsonResponse:
    response = _json_error(503, code, detail, retry_after=5)
    response["Retry-After"] = "5"
    return response


def _statement_timed_out(exception: BaseException) -> bool:
    """True when PostgreSQL cancelled the statement (statement_timeout; SQLSTATE 57014)."""
    cause = exception.__cause__
    return isinstance(exception, OperationalError) and getattr(cause, "sqlstate", None) == "57014"


def _cache_unreachable(exception: BaseException) -> bool:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(exception, RedisConnectionError | RedisTimeoutError)


def _pool_exhausted(exception: BaseException) -> bool:
    """True when the error comes from the database connection pool timing out (an overload, not a bug)."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover - psycopg_pool is a dependency
        return False
    seen: BaseException | None = exception
    while seen is not None:
        if isinstance(seen, PoolTimeout):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class DisallowedHostHintMiddleware:
    """Under DEBUG, a request for a host not in ALLOWED_HOSTS (e.g. `make run HOST=0.0.0.0` reached from
    another machine) is a 400 `disallowed_host` in the one error shape that names the host and the
    ALLOWED_HOSTS variable to set. Without DEBUG it is left to Django (a plain 400 that names nothing), and
    the middleware is left out of the chain (MiddlewareNotUsed: not a layer every request passes)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.DEBUG:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            try:
                request.get_host()
            except DisallowedHost:
                host = request._get_raw_host()[:200]
                domain = split_domain_port(host)[0] or host
                allowed = ",".join(settings.ALLOWED_HOSTS)
                return _json_error(
                    400,
                    "disallowed_host",
                    f"The host {host!r} is not in ALLOWED_HOSTS ({allowed}). Add it to the ALLOWED_HOSTS "
                    f"environment variable (comma separated), e.g. ALLOWED_HOSTS={allowed},{domain} "
                    "make run HOST=0.0.0.0 (this hint is shown under DEBUG only).",
                    host=host,
                    setting="ALLOWED_HOSTS",
                )
        return self.get_response(request)


@functools.lru_cache(maxsize=8)
def _compiled(pattern: str | re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(pattern)


class CorsMiddleware(corsheaders.middleware.CorsMiddleware):
    """django-cors-headers' middleware (CORS of /api/: CORS_URLS_REGEX), passing a request outside those
    paths straight on: no preflight check, no response headers, its pattern compiled once (issue 42: it
    ran its whole path for every request, /health/live and the site's pages included). The rest, /api/
    included, is the library's."""

    def is_enabled(self, request: HttpRequest) -> bool:
        matched = _compiled(cors_conf.CORS_URLS_REGEX).match(request.path_info)
        return matched is not None or self.check_signal(request)

    def check_signal(self, request: HttpRequest) -> bool:
        if not check_request_enabled.has_listeners():
            return False
        return super().check_signal(request)

    def __call__(self, request: HttpRequest) -> Any:
        if not self.async_mode and not self.is_enabled(request):
            request._cors_enabled = False  # type: ignore[attr-defined]  # as the library marks it
            return self.get_response(request)
        return super().__call__(request)
