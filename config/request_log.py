"""The request id in every log line.

django-guid's middleware (first in MIDDLEWARE) takes the proxy's X-Request-ID (a UUID, e.g. nginx's
$request_id) or makes one, keeps it in a context variable for the request's code (sync or async) and returns
it in the X-Request-ID response header. This filter puts it on every log record as `request_id` ("-" outside
a request: start-up, background threads), and LOGGING's formatter prints it.
"""

from __future__ import annotations

import logging

from django_guid.log_filters import CorrelationId

LOG_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"


class RequestIdFilter(CorrelationId):
    def __init__(self) -> None:
        super().__init__(correlation_id_field="request_id")

    def filter(self, record: logging.LogRecord) -> bool:
        super().filter(record)
        if not record.request_id:
            record.request_id = "-"
        return True

