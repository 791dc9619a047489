"""ASGI entry point (`make serve`: gunicorn + uvicorn workers).

Django runs each request's synchronous parts (middleware, sync views) in a thread of its own that lives
until the response is sent. For an event stream that would be a thread held for minutes, so stream
requests go to a handler without that per-request thread: its short synchronous parts share one thread,
the stream's checks and reads run in the pooled threads of games.apis.async_stream_view, and while it
waits a stream holds no thread at all.

Every request body is first read by config.request_body.BoundedRequestBody: counted while it arrives (413
`request_too_large` past DATA_UPLOAD_MAX_MEMORY_SIZE, without reading the rest), and a chunked body within
the limit is handed to Django with its Content-Length.
"""

import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

django_application = get_asgi_application()

from django.core.handlers.asgi import ASGIHandler  # noqa: E402  (after django.setup())

from config.request_body import BoundedRequestBody  # noqa: E402
from games import clock_timer  # noqa: E402

# the event streams: a game's for its players and its spectators, a user's feed
STREAM_PATH = re.compile(r"^/api/(games/[^/]+/(events|spectate)/stream|feed/stream)/?$")


# What a request keeps once its response is made: ASGIRequest.close() closes these (response.close()).
KEPT_FOR_CLOSE = frozenset({"_stream", "_files"})


class StreamHandler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)  # no ThreadSensitiveContext: no thread per request

    async def run_get_response(self, request):
        """The response, then the request drops what only the view and the middleware read (its META, user,
        session, message storage, resolver match, parsed query...): Django's handler holds the request
        until a stream ends, minutes later, and a thousand idle streams would hold a thousand of them
        (issue 26: memory per idle listener)."""
        response = await super().run_get_response(request)
        # a new, small attribute dict (deleting keys would leave the grown one allocated)
        request.__dict__ = {n: v for n, v in vars(request).items() if n in KEPT_FOR_CLOSE}
        return response


stream_application = StreamHandler()


async def route(scope, receive, send):
    if scope["type"] == "http" and STREAM_PATH.match(scope.get("path", "")):
        return await stream_application(scope, receive, send)
    if scope["type"] == "lifespan":  # startup: the clock sweep thread (games.clock_timer); no tear-down
        message = await receive()
        while message["type"] != "lifespan.shutdown":
            if message["type"] == "lifespan.startup":
                clock_timer.ensure_started()
            await send({"type": message["type"] + ".complete"})
            message = await receive()
        return await send({"type": "lifespan.shutdown.complete"})
    return await django_application(scope, receive, send)


application = BoundedRequestBody(route)
