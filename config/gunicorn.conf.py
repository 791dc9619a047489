"""gunicorn settings of `make serve` (command-line flags override them; env GUNICORN_* too)."""

import os
import re
import shutil
import tempfile
from pathlib import Path

# Two servers (docs/production.md, "Worker layout"): the request/response API on config.wsgi with these
# threaded workers, one per core; the event streams on config.asgi with `-k config.gunicorn_worker.Worker`
# (uvicorn: a waiting stream holds no thread) and STREAM_WORKERS workers, given on its command line.
worker_class = "config.gunicorn_worker.ThreadWorker"  # gthread, its own errors in the API's error shape
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
# Two threads a worker (issue 42): a thread waiting on PostgreSQL or Redis leaves the worker's core to the
# other, and no more. With four, the threads of a busy worker contend for its GIL at every wait of an
# action POST on PostgreSQL or Redis: on 2 cores the POST cost the machine about 10 % more CPU (API workers
# 3.2-3.5 ms against 2.8-3.0, PostgreSQL 0.85-0.9 against 0.75, tests/bench/cpu_split.py); one thread left a
# core idle during those waits. A deployment whose requests mostly wait (slow statements, a remote
# database) may want more: GUNICORN_THREADS.
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
bind = os.environ.get("BIND", "127.0.0.1:8000")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))  # 0: workers are never recycled
max_requests_jitter = 100
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # "-" logs every request to stdout
# the path without its query string (a stream ticket is a query parameter) and no Referer
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'
errorlog = "-"

# Metrics over every worker (config/metrics.py): prometheus_client's multiprocess mode. Each server gets a
# fresh directory of its own (or PROMETHEUS_MULTIPROC_DIR, emptied here), set before the workers start.
_own_metrics_dir = None
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    for _stale in Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).glob("*.db"):
        _stale.unlink()
else:
    _own_metrics_dir = tempfile.mkdtemp(prefix="battlecards-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _own_metrics_dir


def on_exit(server):  # noqa: ARG001
    if _own_metrics_dir:
        shutil.rmtree(_own_metrics_dir, ignore_errors=True)


def child_exit(server, worker):  # noqa: ARG001 - gunicorn's hook signature
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


# gunicorn's control socket (`gunicornc`) defaults to one path per user ($XDG_RUNTIME_DIR or ~/.gunicorn/
# gunicorn.ctl): a second server on the host would take it over. Unless --control-socket or
# GUNICORN_CONTROL_SOCKET names one, each server gets its own, named after its first bind address:
# e.g. ~/.gunicorn/battlecards-127.0.0.1-8000.ctl (GUNICORN_CONTROL_SOCKET=off disables it).
_control = os.environ.get("GUNICORN_CONTROL_SOCKET", "").strip()
if _control.lower() in ("off", "none", "false", "0"):
    control_socket_disable = True
elif _control:
    control_socket = _control


def control_socket_for(bind_address: str, default: str) -> str:
    name = re.sub(r"[^A-Za-z0-9.]+", "-", bind_address).strip("-")
    return str(Path(default).with_name(f"battlecards-{name}.ctl"))


def on_starting(server):
    from gunicorn.config import ControlSocket

    if server.cfg.control_socket == ControlSocket.default and server.cfg.bind:
        server.cfg.set("control_socket", control_socket_for(server.cfg.bind[0], ControlSocket.default))


def post_worker_init(worker):  # noqa: ARG001 - gunicorn's hook signature
    """The worker has loaded the app: move what exists now (Django, the apps, models and URLconf, the
    libraries) out of the garbage collector's sight. It lives as long as the worker, and every full
    collection walked it again: about 0.1 s of CPU each, a few times a minute under load (issue 26). Only
    the cyclic collector skips them; reference counting frees what dies as before."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports the URLconf now (else at the first request)
    gc.collect()
    gc.freeze()


# WORKER_SOCKETS (set by config.front for the API server): each worker also listens on its own unix socket,
# which nginx balances over (config/worker_sockets.py: keep-alive connections no longer pile onto one worker).
def pre_fork(server, worker):
    from config import worker_sockets

    worker_sockets.pre_fork(server, worker)


def post_fork(server, worker):
    from config import worker_sockets

    worker_sockets.post_fork(server, worker)
