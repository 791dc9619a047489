"""gunicorn settings of `make serve` (command-line flags override them; env GUNICORN_* too)."""

import os

worker_class = "config.gunicorn_worker.Worker"  # uvicorn (ASGI): event streams hold no thread
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
bind = os.environ.get("BIND", "127.0.0.1:8000")
# An ASGI worker answers the arbiter's heartbeat from its event loop; long event streams do not block it.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))  # 0: workers are never recycled
max_requests_jitter = 100
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # "-" logs every request to stdout
errorlog = "-"
