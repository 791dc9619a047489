"""The benchmarks' Redis is one they start themselves, or the one BENCH_REDIS_URL names: never whatever
answers on 127.0.0.1:6379 (whose database 15 live_server.py used to flush)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_redis import OPT_IN, _pings, bench_redis  # noqa: E402

needs_redis_server = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="redis-server not installed"
)


@needs_redis_server
def test_without_an_opt_in_the_bench_starts_and_stops_a_redis_of_its_own(monkeypatch):
    import redis

    monkeypatch.delenv(OPT_IN, raising=False)
    with bench_redis() as url:
        port = int(url.split(":")[2].split("/")[0])
        assert url.startswith("redis://127.0.0.1:") and port != 6379
        client = redis.Redis.from_url(url)
        assert client.dbsize() == 0  # fresh: nobody else's data to flush
        client.set("bench", "mine")
        assert client.get("bench") == b"mine"
        client.close()
    assert not _pings(port)  # stopped afterwards


def test_an_existing_redis_is_used_only_when_named(monkeypatch):
    monkeypatch.setenv(OPT_IN, "redis://127.0.0.1:6399/7")
    with bench_redis() as url:
        assert url == "redis://127.0.0.1:6399/7"
    with bench_redis(wanted=False) as url:
        assert url is None

