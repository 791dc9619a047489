"""Issue 42, item 2: behind `make serve`'s nginx, keep-alive clients' requests reach every API worker.

With one shared unix socket, nginx's kept-alive upstream connections often all sat on one gunicorn worker
(8 of 27 bench targets with 4 keep-alive clients ran on one core). Each worker now also listens on its own
socket and nginx balances over them request by request (config/worker_sockets.py). Counted here from the
workers' own metrics files (prometheus_client's multiprocess mode writes one file per worker pid).
Skips when nginx is not installed, except under CI=true.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from prometheus_client.mmap_dict import MmapedDict

from config.front import nginx_binary
from config.worker_sockets import choose_slot
from tests.test_front import IN_CI, ROOT, _free_port, _get

if nginx_binary() is None and not IN_CI:
    pytest.skip("nginx is not installed (apt-get install nginx): make serve's front is not tested",
                allow_module_level=True)

WORKERS = 3
CLIENTS = 4
REQUESTS_EACH = 30


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _api_workers(front_pid: int) -> list[int]:
    for child in _children(front_pid):
        with contextlib.suppress(OSError):
            if b"config.wsgi:application" in Path(f"/proc/{child}/cmdline").read_bytes():
                return _children(child)
    return []


def _requests_per_worker(metrics_dir: Path) -> Counter[int]:
    """Requests each worker timed: its request-duration histogram's buckets (each file stores every
    bucket's own count, not the cumulative one)."""
    counts: Counter[int] = Counter()
    for path in metrics_dir.glob("histogram_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        for key, value, *_rest in MmapedDict.read_all_values_from_file(str(path)):
            _metric, name, labels, _help = json.loads(key)
            if name.endswith("_bucket"):
                counts[pid] += int(value)
    return counts


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """`make serve`'s front with WORKERS API workers, each counting its requests in its own metrics file:
    (port, metrics dir, the workers' pids)."""
    assert nginx_binary() is not None, "CI=true: nginx must be installed (.ci/run installs it)"
    tmp_path = tmp_path_factory.mktemp("front")
    port = _free_port()
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXIES"}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.test", "XDG_RUNTIME_DIR": str(tmp_path),
                "DATABASE_URL": f"sqlite:///{tmp_path}/front.sqlite3", "GUNICORN_THREADS": "4",
                "GUNICORN_GRACEFUL_TIMEOUT": "2", "PROMETHEUS_MULTIPROC_DIR": str(metrics)})
    log = (tmp_path / "front.log").open("w+")
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "config.front", "--port", str(port), "--workers", str(WORKERS),
         "--stream-workers", "1", "--run-dir", str(tmp_path / "run")],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"make serve's front stopped:\n{log.read()[-3000:]}")
            with contextlib.suppress(OSError):
                if _get(port, "/api/", timeout=30)[0] == 200:  # none left behind to count later
                    break
            assert time.monotonic() < deadline, "the front did not start"
            time.sleep(0.2)
        workers = _api_workers(process.pid)
        assert len(workers) == WORKERS, workers
        yield port, metrics, workers
    finally:
        with contextlib.suppress(ProcessLookupError):  # already gone: the error above is the one to see
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(45)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        if process.returncode not in (0, -signal.SIGTERM):
            log.seek(0)
            print(f"the front ended with {process.returncode}:\n{log.read()[-3000:]}")  # shown on a failure
        log.close()
    assert not list((tmp_path / "run").glob("api-*.sock"))  # the front removed the workers' sockets


def _keep_alive_clients(port: int) -> list[http.client.HTTPConnection]:
    return [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(CLIENTS)]


def _ask(client: http.client.HTTPConnection, path: str, method: str = "GET") -> int:
    body = b"{}" if method == "POST" else None
    headers = {"Host": "127.0.0.1", **({"Content-Type": "application/json"} if body else {})}
    client.request(method, path, body=body, headers=headers)
    response = client.getresponse()
    response.read()
    assert response.getheader("Connection", "").lower() != "close"
    return response.status


def test_keep_alive_clients_reach_every_api_worker(front):
    port, metrics, workers = front
    before = _requests_per_worker(metrics)
    clients = _keep_alive_clients(port)
    try:
        sockets = set()
        for _ in range(REQUESTS_EACH):
            for client in clients:
                assert _ask(client, "/api/") == 200
                sockets.add(id(client.sock))
        assert len(sockets) == CLIENTS  # every client kept its one connection
    finally:
        for client in clients:
            client.close()

    counts = _requests_per_worker(metrics) - before
    assert sum(counts.values()) >= CLIENTS * REQUESTS_EACH, counts
    assert set(counts) == set(workers), (counts, workers)
    fair = CLIENTS * REQUESTS_EACH / WORKERS
    assert all(n >= fair / 3 for n in counts.values()), counts


def test_one_games_writes_all_reach_one_worker_and_games_spread(front):
    """Game affinity for writes: every POST to one game, on the API or its play page, from any client,
    reaches the same API worker (the state its last action kept is there: games.fastpath.hot_state);
    different games' POSTs reach different workers."""
    port, metrics, workers = front
    games = [str(uuid.UUID(int=random.Random(n).getrandbits(128), version=4)) for n in range(12)]
    clients = _keep_alive_clients(port)
    worker_of: dict[str, int] = {}
    try:
        for game in games:
            before = _requests_per_worker(metrics)
            paths = [f"/api/games/{game}/actions/", f"/api/games/{game}/join/", f"/api/games/{game}/resign/",
                     f"/play/{game}/act/"]
            for _ in range(3):
                for client, path in zip(clients, paths, strict=True):
                    _ask(client, path, "POST")  # whatever the answer (no such game, no tables here)
            counts = +(_requests_per_worker(metrics) - before)
            assert sum(counts.values()) == 3 * len(paths), counts  # every one reached a worker
            assert len(counts) == 1, (game, counts)  # one worker took all of this game's writes
            worker_of[game] = next(iter(counts))
    finally:
        for client in clients:
            client.close()
    assert set(worker_of.values()) == set(workers), worker_of  # and 12 games reached all 3 workers


def test_one_games_reads_spread_over_the_workers(front):
    """Reads of one game (its view, its page) are balanced request by request: many readers of one game
    (spectators, a shared link) would otherwise all load one worker, one core."""
    port, metrics, workers = front
    game = str(uuid.UUID(int=random.Random(99).getrandbits(128), version=4))
    clients = _keep_alive_clients(port)
    before = _requests_per_worker(metrics)
    try:
        for _ in range(REQUESTS_EACH):
            for client, path in zip(clients, [f"/api/games/{game}/view/", f"/play/{game}/"] * 2, strict=True):
                _ask(client, path)
    finally:
        for client in clients:
            client.close()
    counts = _requests_per_worker(metrics) - before
    assert sum(counts.values()) == CLIENTS * REQUESTS_EACH, counts
    assert set(counts) == set(workers), (counts, workers)
    fair = CLIENTS * REQUESTS_EACH / WORKERS
    assert all(n >= fair / 3 for n in counts.values()), counts


def test_a_new_worker_takes_a_free_slot_else_the_oldest_workers():
    owners: dict[int, int] = {}
    assert choose_slot(2, set(), owners) == 0
    owners[0] = 1
    assert choose_slot(2, {1}, owners) == 1
    owners[1] = 2
    assert choose_slot(2, {2}, owners) == 0  # worker 1 died: its slot
    owners[0] = 3
    assert choose_slot(2, {2, 3}, owners) == 1  # a reload: the oldest worker's slot (2), then 3's
    owners[1] = 4
    assert choose_slot(2, {2, 3, 4}, owners) == 0
