"""One unix socket per API worker, so the front's nginx balances requests over every worker (issue 42).

With one shared socket, the kernel hands each new connection to whichever gunicorn worker accepts first, and
nginx keeps its upstream connections alive: a few keep-alive connections often all sat on one worker, and the
whole server ran on one core (8 targets of 27 with 4 keep-alive clients). gunicorn's `reuse_port` does not
help here: SO_REUSEPORT spreads TCP connections by a hash (4 connections all land on one of 2 workers one
time in 8) and does nothing for unix sockets.

So `python -m config.front` starts the API's gunicorn with WORKER_SOCKETS=<run dir>/api-{slot}.sock: each
worker also listens on its own socket, api-0.sock ... api-<workers-1>.sock, and nginx's upstream names them
all (round robin per request, whichever connection carries it). A worker that replaces a dead or recycled
one (max_requests, HUP) takes its slot, binding the path anew; while no worker listens on a slot, nginx's
connection is refused and it passes the request to the next slot (nothing was sent yet). The shared socket
stays (every worker still accepts on it) for anything that talks to the API server directly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ENV = "WORKER_SOCKETS"

_owners: dict[int, int] = {}  # in the arbiter: slot -> age of the worker that holds it


def pattern() -> str | None:
    value = os.environ.get(ENV, "").strip()
    return value or None


def paths(template: str, workers: int) -> list[Path]:
    return [Path(template.format(slot=slot)) for slot in range(workers)]


def choose_slot(slots: int, live_ages: set[int], owners: dict[int, int]) -> int:
    """A free slot (its holder is gone), else the slot of the oldest live worker (a reload: the new worker
    takes over the path before the old one is stopped)."""
    for slot in range(slots):
        if owners.get(slot) not in live_ages:
            return slot
    return min(range(slots), key=lambda slot: owners[slot])


def pre_fork(server: Any, worker: Any) -> None:
    """In the arbiter, before the fork: the slot the new worker will serve."""
    if pattern() is None:
        return
    live = {w.age for w in server.WORKERS.values()}
    slot = choose_slot(max(1, server.cfg.workers), live, _owners)
    _owners[slot] = worker.age
    worker.battlecards_slot = slot


def post_fork(server: Any, worker: Any) -> None:
    """In the new worker, before it loads the app: listen on its slot's socket too."""
    template = pattern()
    slot = getattr(worker, "battlecards_slot", None)
    if template is None or slot is None:
        return
    from gunicorn.sock import UnixSocket

    own = UnixSocket(template.format(slot=slot), server.cfg, server.log)  # replaces a stale socket file
    worker.sockets = [*worker.sockets, own]
    server.log.info("Worker %s listens on unix:%s too (slot %s)", os.getpid(), own.cfg_addr, slot)


def remove(template: str, workers: int) -> None:
    for path in paths(template, workers):
        path.unlink(missing_ok=True)
