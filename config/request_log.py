"""The request id in every log line.

RequestIdMiddleware (first in MIDDLEWARE) takes the proxy's X-Request-ID when it is a UUID (e.g. nginx's
$request_id, 32 hex digits) or makes one (uuid4, hex), keeps it in django-guid's context variable for the
request's code (sync or async: `django_guid.get_guid()`) and returns it in the X-Request-ID response header.
This filter puts it on every log record as `request_id` ("-" outside a request: start-up, background
threads), and LOGGING's formatter prints it.

It does what django-guid's own middleware did with this project's settings (DJANGO_GUID: the header
X-Request-ID, validated, not exposed, no ignored URLs, no integrations) at a fifth of its CPU: that one
read the header through `request.headers` (a dict of every header built per request), the full path for
its ignore list and a uuid.UUID for every valid id; it was the largest part of what every request paid for
the middleware (issue 42).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django_guid.context import guid
from django_guid.log_filters import CorrelationId

LOG_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"
HEADER = "X-Request-ID"
META_KEY = "HTTP_X_REQUEST_ID"

logger = logging.getLogger("django_guid")  # its warnings about a refused id keep their logger
_PLAIN_UUID = re.compile(
    r"[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


def _is_uuid(value: str) -> bool:
    """What django-guid accepts (uuid.UUID parses it), the common spellings without building one."""
    if _PLAIN_UUID.fullmatch(value):
        return True
    try:
        uuid.UUID(value, version=4)
    except ValueError:
        return False
    return True


def request_id(given: str | None) -> str:
    """The client's (proxy's) id when it is a UUID, else a new one."""
    if not given:
        return uuid.uuid4().hex
    if _is_uuid(given):
        return given
    made = uuid.uuid4().hex
    if all(letter.isalnum() or letter == "-" for letter in given):
        logger.warning("%s is not a valid GUID. New GUID is %s", given, made)
    else:
        logger.warning("Non-alnum %s provided. New GUID is %s", HEADER, made)
    return made


class RequestIdMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        value = request.correlation_id = request_id(request.META.get(META_KEY))  # type: ignore[attr-defined]
        guid.set(value)
        response = self.get_response(request)
        response[HEADER] = value
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        value = request.correlation_id = request_id(request.META.get(META_KEY))  # type: ignore[attr-defined]
        guid.set(value)
        response = await self.get_response(request)
        response[HEADER] = value
        return response


class RequestIdFilter(CorrelationId):
    def __init__(self) -> None:
        super().__init__(correlation_id_field="request_id")

    def filter(self, record: logging.LogRecord) -> bool:
        super().filter(record)
        if not getattr(record, "request_id", None):
            record.request_id = "-"
        return True
