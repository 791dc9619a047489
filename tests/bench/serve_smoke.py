"""Issue 21's reproductions against a running server (`make serve`, PostgreSQL, any documented cache backend):
health, 12 event streams one after the other (the slot cap is 8: each must be given back), a small
chunked body (read), a 200 MB chunked body (413 early), an unknown query parameter (same answer, cached).

    SECRET_KEY=... ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=false CACHE_URL=dbcache://django_cache \
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/battlecards make serve PORT=8191 &
    .venv/bin/python tests/bench/serve_smoke.py --port 8191

Prints one line per check and exits 1 if any answer is not the expected one. Loopback only; bounded in count.
"""

from __future__ import annotations

import argparse
import http.client
import json
import secrets
import socket
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1", "localhost", "::1"])
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    host, port = args.host, args.port
    failures = 0

    def request(method, path, body=None, token=None, headers=None):
        conn = http.client.HTTPConnection(host, port, timeout=60)
        h = {"Content-Type": "application/json", **(headers or {})}
        if token:
            h["Authorization"] = f"Token {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, data

    def check(name, ok, shown):
        nonlocal failures
        failures += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}: {shown}")

    status, body = request("GET", "/health/ready")
    check("readiness", status == 200, body.decode()[:120])
    user = f"smoke-{secrets.token_hex(4)}"
    request("POST", "/api/auth/register/", {"username": user, "password": "s3cret-pass-smoke"})
    status, body = request("POST", "/api/auth/token/", {"username": user, "password": "s3cret-pass-smoke"})
    if status != 200:
        check("token (registration may be throttled: THROTTLE_REGISTER)", False, status)
        return 1
    token = json.loads(body)["token"]
    game = {
        "my_deck": {"starter": "gb-we-starter"},
        "opponent_deck": {"starter": "de-we-starter"},
        "opponent": {"kind": "bot", "bot": "heuristic"},
    }
    status, body = request("POST", "/api/games/", game, token)
    game_id = json.loads(body)["id"]

    answers = []
    for _ in range(12):
        started = time.monotonic()
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request(
            "GET",
            f"/api/games/{game_id}/events/stream/?since=100000&timeout=1",
            headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
        )
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        ended = "event: timeout" in text or "event: end" in text
        answers.append((response.status, ended, round(time.monotonic() - started, 1)))
    check("12 streams in a row (cap 8)", all(s == 200 and e for s, e, _ in answers), answers)

    def chunked(chunks):
        sock = socket.create_connection((host, port))
        sock.sendall(
            f"POST /api/decks/ HTTP/1.1\r\nHost: {host}\r\nAuthorization: Token {token}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        )
        sent = 0
        try:
            for chunk in chunks:
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and closed: what the 413 should do
        sock.settimeout(10)
        data = b""
        try:
            while b"\r\n" not in data:
                part = sock.recv(65536)
                if not part:
                    break
                data += part
        except OSError:
            pass
        sock.close()
        return sent, data.split(b"\r\n")[0].decode(errors="replace")

    sent, line = chunked([json.dumps({"name": "smoke", "nation": "GB", "entries": []}).encode()])
    check("small chunked body", " 201 " in line, line)
    sent, line = chunked(b"x" * 1048576 for _ in range(200))
    check("200 MB chunked body", " 413 " in line and sent < 200 * 1048576, f"{line} after {sent} bytes sent")

    status_a, body_a = request("GET", "/api/arsenal-cards/?nation=GB")
    started = time.monotonic()
    status_b, body_b = request("GET", f"/api/arsenal-cards/?nation=GB&x{secrets.token_hex(3)}=1")
    took = time.monotonic() - started
    shown = f"{status_b} in {took * 1000:.1f} ms"
    check("unknown query parameter", status_b == 200 and body_a == body_b, shown)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
