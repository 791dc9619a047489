"""WSGI entry point: `make serve`'s request/response API (gunicorn's threaded workers,
config/gunicorn.conf.py).

The event streams are served by the ASGI process beside it (config.asgi), where a waiting stream holds no
thread; the proxy routes them there by path (docs/production.md, "Worker layout"). A stream that reaches a
WSGI worker anyway is still answered, holding one of its threads while it lasts.

Every request body is first bounded by config.request_body.BoundedWsgiBody (413 `request_too_large`).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

django_application = get_wsgi_application()

from config.request_body import BoundedWsgiBody  # noqa: E402  (after django.setup())

application = BoundedWsgiBody(django_application)
