"""Request bodies under ASGI (`make serve`): counted while they are read, refused early past the limit.

Django's ASGIHandler reads a whole body (spooled to disk past FILE_UPLOAD_MAX_MEMORY_SIZE) before any view
or limit sees it, and a body sent with `Transfer-Encoding: chunked` has no Content-Length, so Django then
reads it as empty. BoundedRequestBody wraps the Django application:

  * a body declared (Content-Length) or found (counted while reading) larger than
    DATA_UPLOAD_MAX_MEMORY_SIZE is answered at once with 413 `request_too_large` in the API's error shape,
    with `Connection: close`: the rest of the body is never read;
  * a body within the limit is buffered (in memory, at most the limit) and handed to Django in one piece;
    a chunked one gets the Content-Length of what was read, so Django reads it like any other body.

DATA_UPLOAD_MAX_MEMORY_SIZE = None turns the limit off (every body is then buffered whole: don't). The proxy
in front should cap bodies too (README, "Running in production").
"""

from __future__ import annotations

import io
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

from config.exceptions import error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

TOO_LARGE = json.dumps(error_body(413, "request_too_large", "The request body is too large.")).encode()


def _declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed length before the application runs
    return None


async def _refuse(send: Send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(TOO_LARGE)).encode()),
                (b"connection", b"close"),  # the server stops reading the rest of the body
            ],
        }
    )
    await send({"type": "http.response.body", "body": TOO_LARGE, "more_body": False})


class BoundedRequestBody:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = list(scope.get("headers", []))
        declared = _declared_length(headers)
        body = await _read_within_limit(declared, receive, send, keep=True)
        if body is None:
            return None  # refused (413), or the client left before its body ended: nobody to answer
        if declared is None and body:  # chunked: Django reads CONTENT_LENGTH bytes, so say how many
            framing = (b"content-length", b"transfer-encoding")
            headers = [(n, v) for n, v in headers if n.lower() not in framing]
            headers.append((b"content-length", str(len(body)).encode()))
            scope = {**scope, "headers": headers}
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # e.g. http.disconnect, which Django listens for

        return await self.app(scope, replay, send)


class BoundedWsgiBody:
    """The same bound for the WSGI application (`make serve`'s threaded API workers): a declared length past
    DATA_UPLOAD_MAX_MEMORY_SIZE is answered 413 before any byte of the body is read; a chunked body
    (gunicorn decodes the chunks; Django reads CONTENT_LENGTH bytes) is read up to the limit, refused past
    it, else handed to Django with its length."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = environ.get("CONTENT_LENGTH") or ""
        if limit is not None and declared.isdigit() and int(declared) > limit:
            return self._refuse(start_response)
        if not declared and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            stream = environ["wsgi.input"]
            chunks: list[bytes] = []
            size = 0
            while chunk := stream.read(65536):
                size += len(chunk)
                if limit is not None and size > limit:
                    return self._refuse(start_response)
                chunks.append(chunk)
            body = b"".join(chunks)
            environ = {**environ, "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(start_response: Callable[..., Any]) -> list[bytes]:
        start_response("413 Request Entity Too Large", [
            ("Content-Type", "application/json"), ("Content-Length", str(len(TOO_LARGE))),
        ])
        return [TOO_LARGE]


async def _read_within_limit(
    declared: int | None, receive: Receive, send: Send, *, keep: bool
) -> bytes | None:
    """The request's body (b"" unless `keep`), counted while it arrives: None when the request is over, i.e.
    answered 413 `request_too_large` (a declared length past DATA_UPLOAD_MAX_MEMORY_SIZE, before any byte is
    read, or the bytes read past it, without reading the rest), or the client left before its body ended."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and declared is not None and declared > limit:
        await _refuse(send)
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            await _refuse(send)
            return None
        if chunk and keep:
            chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def drain_body(scope: Scope, receive: Receive, send: Send) -> bool:
    """Read and drop the body of a request whose view reads none (an event stream's GET), within the same
    limit: False when the request is over (answered 413, or the client left before its body ended)."""
    declared = _declared_length(list(scope.get("headers", [])))
    return await _read_within_limit(declared, receive, send, keep=False) is not None
