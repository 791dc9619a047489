"""Request bodies on the real servers of `make serve`: the API's (gunicorn's threaded workers,
config.wsgi) and the event streams' (gunicorn + uvicorn workers, config.asgi); each test runs on both.

A body is counted while it is read: past DATA_UPLOAD_MAX_MEMORY_SIZE the answer is 413 `request_too_large`
at once, before the client has sent it all (a chunked body of any size used to be read, and spooled to disk,
to the end); a small chunked body is read like any other (it used to be taken as empty).

The server runs on 127.0.0.1, on the port in BATTLECARDS_TEST_PORT or a free one, against the test database.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from tests.live_asgi import database_url_of_tests

ROOT = Path(__file__).resolve().parents[1]
VALIDATE = "/api/decks/validate/"
TOKEN = "/api/auth/token/"  # reads the body, needs no catalog: unknown credentials are a 400
LEGAL_GB = {"gb-infantry": 20, "gb-spitfire": 18, "gb-montgomery": 1, "gb-churchill-leader": 1}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVERS = {
    "wsgi": ["config.wsgi:application"],
    "asgi": ["config.asgi:application", "-k", "config.gunicorn_worker.Worker"],
}


@pytest.fixture(scope="module", params=sorted(SERVERS))
def live(request, django_db_setup) -> Iterator[tuple[str, int]]:
    """gunicorn with the project's configuration (one worker) on the test database."""
    port = int(os.environ.get("BATTLECARDS_TEST_PORT") or free_port())
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url_of_tests(),
    }
    command = [
        sys.executable, "-m", "gunicorn", *SERVERS[request.param], "-c", "config/gunicorn.conf.py",
        "--bind", f"127.0.0.1:{port}", "--workers", "1", "--log-level", "warning",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(300):
            assert process.poll() is None, process.stderr.read().decode()[-3000:]
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        os.killpg(process.pid, 15)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()


@pytest.fixture
def server(live, catalog_rows) -> tuple[str, int]:
    """The live server, with the catalog committed where it reads (catalog_rows in a transactional test)."""
    return live


def _post_chunked(address: tuple[str, int], chunks: list[bytes], path: str = TOKEN) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(*address, timeout=30)
    conn.request(
        "POST", path, body=iter(chunks), headers={"Content-Type": "application/json"}, encode_chunked=True
    )
    response = conn.getresponse()
    result = response.status, json.loads(response.read())
    conn.close()
    return result


@pytest.mark.django_db(transaction=True)
def test_a_small_chunked_json_body_is_read(server):
    body = json.dumps({"nation": "GB", "entries": LEGAL_GB}).encode()
    status, answer = _post_chunked(server, [body[:10], body[10:25], body[25:]], VALIDATE)
    assert status == 200, answer
    assert answer["is_valid"] is True and answer["totals"]["cards"] == 40


def test_a_chunked_body_at_the_limit_is_read_and_one_byte_more_is_a_413(live):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"username": "nobody", "password": "wrong"}).encode()
    padded = body + b" " * (limit - len(body))  # JSON allows trailing white space
    chunks = [padded[i : i + 10_000] for i in range(0, limit, 10_000)]
    status, answer = _post_chunked(live, chunks)
    assert (status, answer["code"]) == (400, "invalid_credentials")  # read whole: both fields were seen
    status, answer = _post_chunked(live, [*chunks, b" "])
    assert (status, answer) == (
        413,
        {"status": 413, "code": "request_too_large", "detail": "The request body is too large."},
    )


def _read_response(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    data = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_a_50_mb_chunked_body_is_refused_before_it_is_all_sent(live):
    total = 50 * 1024 * 1024
    piece = b" " * 65536
    frame = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sock = socket.create_connection(live, 10)
    sock.sendall(
        b"POST " + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    sent, answer = 0, b""
    deadline = time.monotonic() + 60
    while sent < total and time.monotonic() < deadline:
        readable, writable, _ = select.select([sock], [sock], [], 5)
        if readable:  # the server answered (or closed) before the body ended
            break
        if writable:
            try:
                sock.sendall(frame)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(piece)
    answer = _read_response(sock)
    sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    assert json.loads(body)["code"] == "request_too_large"
    # the answer came after the limit (256 KB), long before the end: what was sent beyond the limit is
    # what the sockets' buffers held, not 50 MB read and spooled by the server
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < sent < total / 5, sent


def test_a_declared_length_over_the_limit_is_refused_without_reading_the_body(live):
    sock = socket.create_connection(live, 10)
    sock.sendall(
        b"POST " + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n{" % (200 * 1024 * 1024)
    )
    head, _, body = _read_response(sock).partition(b"\r\n\r\n")
    sock.close()
    assert head.startswith(b"HTTP/1.1 413") and json.loads(body)["code"] == "request_too_large"
