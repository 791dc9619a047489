"""`make serve`'s gunicorn workers: the API's threaded worker (ThreadWorker) and the event streams' uvicorn
worker (Worker).

ThreadWorker is gunicorn's gthread worker whose own answers to requests it cannot parse (414 a request line
too long, 431 headers too large, 400 ...) are in the API's error shape {"status", "code", "detail"} instead
of gunicorn's HTML page. (Behind `make serve`'s nginx most of them are nginx's, in the same shape.)

Worker is uvicorn's, with uvicorn's own proxy-header rewriting turned off: Django alone decides who the
client is (REMOTE_ADDR, or X-Forwarded-For through TRUSTED_PROXIES for the throttles) and whether the
request came over HTTPS (X-Forwarded-Proto, SECURE_PROXY_SSL_HEADER), so one setting governs each, whatever
the server in front. Its access log (GUNICORN_ACCESS_LOG) shows paths without their query strings: a stream
ticket (`?ticket=`) is a credential.
"""

from __future__ import annotations

import json
import logging

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker as GthreadWorker
from uvicorn_worker import UvicornWorker

_CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "request_header_fields_too_large",
    500: "server_error",
    501: "not_implemented",
}


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:  # noqa: ARG001
    """gunicorn's util.write_error in the API's error shape. The message (which may quote the client's
    header) is left out, as the API's answers leave out what they refuse."""
    code = _CODES.get(status_int, "bad_request" if status_int < 500 else "server_error")
    body = json.dumps({"status": status_int, "code": code, "detail": f"{reason}."}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin1") + body)


class ThreadWorker(GthreadWorker):
    def init_process(self) -> None:
        util.write_error = write_json_error  # this worker process's: gunicorn's handle_error calls it
        super().init_process()


class _PathWithoutQuery(logging.Filter):
    """uvicorn's access line is '%s - "%s %s HTTP/%s" %d' (client, method, path?query, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], *args[3:])
        return True


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False, "server_header": False}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        access = logging.getLogger("uvicorn.access")
        if not any(isinstance(f, _PathWithoutQuery) for f in access.filters):
            access.addFilter(_PathWithoutQuery())
