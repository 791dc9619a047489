"""ASGI entry point (`make serve`'s event-stream process: gunicorn + uvicorn workers).

The event streams (STREAM_PATH) go to config.stream_asgi: Django's middleware and the stream's view open
each one in a pooled thread, then a lean loop sends it; a waiting stream holds no thread, no database
connection and none of Django's per-request objects. Every other URL goes to Django's ASGI handler.

Every other request body is first read by config.request_body.BoundedRequestBody: counted while it arrives
(413 `request_too_large` past DATA_UPLOAD_MAX_MEMORY_SIZE, without reading the rest), and a chunked body
within the limit is handed to Django with its Content-Length (a stream's body is read and dropped within the
same limit: config.request_body.drain_body).
"""

import os
import re

from asgiref.sync import markcoroutinefunction
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

django_application = get_asgi_application()

from config.request_body import BoundedRequestBody  # noqa: E402
from config.stream_asgi import stream_application  # noqa: E402
from games import clock_timer  # noqa: E402

# the event streams: a game's for its players and its spectators, a user's feed
STREAM_PATH = re.compile(r"^/api/(games/[^/]+/(events|spectate)/stream|feed/stream)/?$")


async def route(scope, receive, send):
    if scope["type"] == "lifespan":  # startup: the clock sweep thread (games.clock_timer); no tear-down
        message = await receive()
        while message["type"] != "lifespan.shutdown":
            if message["type"] == "lifespan.startup":
                clock_timer.ensure_started()
            await send({"type": message["type"] + ".complete"})
            message = await receive()
        return await send({"type": "lifespan.shutdown.complete"})
    return await django_application(scope, receive, send)


bounded = BoundedRequestBody(route)


@markcoroutinefunction  # an ASGI 3 application for uvicorn and asgiref: it returns the coroutine to await
def application(scope, receive, send):
    """Routes by path, without a coroutine of its own (a frame less held by each waiting stream)."""
    if scope["type"] == "http" and STREAM_PATH.match(scope.get("path", "")):
        return stream_application(scope, receive, send)
    return bounded(scope, receive, send)
