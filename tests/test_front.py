"""`make serve`'s front (config/front.py): nginx buffers every request before an app worker sees it.

Issue 34: against gunicorn's threaded workers alone, 6 slow connections made 3 of 4 probes time out and 8 made
every request, /health/live included, wait 30 s. Here 100 slow clients hold partial headers and partial
bodies while /health/live and the API answer within 1 s. Also: nginx's own errors in the API's error shape,
and the access log without query strings. Skips when nginx is not installed (`apt-get install nginx`),
except under CI=true, where .ci/run installs it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.front import nginx_binary, render

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")

if nginx_binary() is None and not IN_CI:
    pytest.skip("nginx is not installed (apt-get install nginx): make serve's front is not tested",
                allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str, timeout: float = 5.0, headers: dict | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def front(tmp_path_factory) -> Iterator[tuple[int, Path]]:
    """`python -m config.front` (what `make serve` runs) on a free port: nginx, one threaded API worker of
    4 threads, one stream worker. Yields (port, run dir)."""
    assert nginx_binary() is not None, "CI=true: nginx must be installed (.ci/run installs it)"
    tmp = tmp_path_factory.mktemp("front")
    port = int(os.environ.get("BATTLECARDS_TEST_PORT") or 0) or _free_port()
    run_dir = tmp / "run"
    env = {k: v for k, v in os.environ.items() if k not in ("PROMETHEUS_MULTIPROC_DIR", "TRUSTED_PROXIES")}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings.test", "XDG_RUNTIME_DIR": str(tmp),
                "DATABASE_URL": f"sqlite:///{tmp}/front.sqlite3", "GUNICORN_THREADS": "4",
                "FRONT_ACCESS_LOG": "1", "GUNICORN_GRACEFUL_TIMEOUT": "2"})
    log = (tmp / "front.log").open("w+")
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "config.front", "--port", str(port), "--workers", "1", "--stream-workers", "1",
         "--run-dir", str(run_dir)],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"make serve's front stopped:\n{log.read()[-3000:]}")
            with contextlib.suppress(OSError):
                if _get(port, "/health/live", timeout=2)[0] == 200:
                    break
            assert time.monotonic() < deadline, "the front did not start"
            time.sleep(0.2)
        yield port, run_dir, log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(45)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        log.close()


def _slow_clients(port: int, count: int) -> list[socket.socket]:
    """`count` connections that each stop in the middle of their request: half in the headers, half in a
    body announced as 100 KB."""
    held = []
    for n in range(count):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        if n % 2:
            conn.sendall(b"GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaa")
        else:
            conn.sendall(b"POST /api/decks/validate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"entries\": [")
        held.append(conn)
    return held


def test_a_hundred_slow_clients_do_not_keep_a_probe_waiting(front):
    port, _run_dir, _log = front
    held = _slow_clients(port, 100)
    try:
        time.sleep(0.5)  # every slow request is under way
        for _ in range(3):
            for path in ("/health/live", "/api/"):
                started = time.monotonic()
                status, _headers, _body = _get(port, path, timeout=5)
                elapsed = time.monotonic() - started
                assert status == 200 and elapsed < 1.0, (path, status, elapsed)
            for conn in held[:5]:  # the slow clients trickle on
                conn.sendall(b"a")
            time.sleep(0.3)
    finally:
        for conn in held:
            conn.close()


def test_the_fronts_own_errors_are_in_the_api_error_shape(front):
    port, _run_dir, _log = front
    checks = [
        (_get(port, "/api/" + "a" * 9000), 414, "uri_too_long"),
        (_get(port, "/api/", headers={"X-Big": "a" * 9000}), 431, "request_header_fields_too_large"),
        (_get(port, "/metrics", headers={"X-Real-IP": "203.0.113.7"}), 403, "forbidden"),  # the app's
    ]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/decks/validate/", body=b"[" * 300_000,
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    checks.append(((response.status, dict(response.getheaders()), response.read()), 413, "request_too_large"))
    conn.close()
    for (status, headers, body), expected, code in checks:
        assert status == expected, (expected, status, body[:200])
        assert headers["Content-Type"].startswith("application/json"), headers
        parsed = json.loads(body)
        assert parsed["status"] == expected and parsed["code"] == code and parsed["detail"]


def test_the_front_logs_paths_without_their_query_strings(front):
    port, _run_dir, log = front
    assert _get(port, "/health/live?ticket=s3cr3t-ticket-value")[0] == 200
    deadline = time.monotonic() + 5  # the access log is written after the answer: wait for its line
    while True:
        log.seek(0)
        text = log.read()
        if "GET /health/live HTTP/1.1" in text or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert "GET /health/live HTTP/1.1" in text
    assert "s3cr3t-ticket-value" not in text


def test_the_configuration_buffers_requests_and_bounds_slow_clients(tmp_path):
    """What make serve's nginx must keep (a human editing config/front.py sees why)."""
    conf = render(host="127.0.0.1", port=8000, run_dir=tmp_path, max_body=262144)
    for line in ("proxy_request_buffering on;", "client_header_timeout 10s;", "client_body_timeout 10s;",
                 "send_timeout 30s;", "client_max_body_size 262144;", "listen 127.0.0.1:8000 default_server;",
                 f"server unix:{tmp_path}/api-0.sock", f"server unix:{tmp_path}/streams.sock",
                 "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"):
        assert line in conf, line
    assert "$request_uri" not in conf and "$args" not in conf and "$http_referer" not in conf
