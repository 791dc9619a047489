"""The Redis of a benchmark: one it starts itself, never whatever answers on 127.0.0.1:6379.

`bench_redis()` yields a redis:// URL and stops what it started:
  * BENCH_REDIS_URL set: that Redis (an explicit opt-in; the benchmark may empty the database it names);
  * else, when `redis-server` is on PATH: a private one on a free loopback port, in a temporary directory,
    without persistence, stopped (and its directory removed) afterwards;
  * else None: the caller does without Redis (a per-process cache) or says it measured nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

OPT_IN = "BENCH_REDIS_URL"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pings(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), 0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def private_redis_server(executable: str = "redis-server") -> Iterator[str]:
    """A redis-server of our own on 127.0.0.1 (free port, temporary directory, no persistence)."""
    binary = shutil.which(executable)
    if binary is None:
        raise FileNotFoundError(f"{executable} is not installed")
    with tempfile.TemporaryDirectory(prefix="bc-bench-redis-") as tmp:
        for _attempt in range(5):  # the free port may be taken between choosing and binding it
            port = _free_port()
            cmd = [
                binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", tmp, "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--logfile", os.path.join(tmp, "redis.log"),
            ]  # fmt: skip
            server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # noqa: S603
            deadline = time.monotonic() + 10
            while server.poll() is None and time.monotonic() < deadline and not _pings(port):
                time.sleep(0.05)
            if server.poll() is None and _pings(port):
                break
            server.kill()
            server.wait(5)
        else:
            raise RuntimeError("could not start a private redis-server")
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)


@contextlib.contextmanager
def bench_redis(*, wanted: bool = True) -> Iterator[str | None]:
    """The URL of the Redis a benchmark may use (and flush), or None (see the module's docstring)."""
    if not wanted:
        yield None
        return
    chosen = os.environ.get(OPT_IN, "").strip()
    if chosen:
        yield chosen
        return
    if shutil.which("redis-server") is None:
        yield None
        return
    with private_redis_server() as url:
        yield url
