"""A real ASGI server on the test database, for what only a server shows: the end of an event stream and a
client going away, the cache backends the README documents, the database pool through an outage.

`asgi_server(cache_url=...)` starts uvicorn (the worker class of `make serve`) in a subprocess with the
production settings (connection pool, LISTEN/NOTIFY bus, DEBUG off) pointed at pytest's test database
(PostgreSQL, or SQLite's test file), so the test writes rows the server reads: use it from
`django_db(transaction=True)` tests. On PostgreSQL its
database connections carry their own `application_name`, which `terminate_backends` and
`refusing_connections` use to break only this server's connections to only the test database (other
databases on the same PostgreSQL, and the test's own connection, are never touched).

Only 127.0.0.1 is used; the port is a free one, or the first free one of TEST_SERVER_PORTS ("8120-8129").
The server's log (warnings and errors) is kept: `server.log()`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = """\
from config.settings.production import *  # noqa: F403
from config.settings.production import CACHES, LOGGING

ALLOWED_HOSTS = ["127.0.0.1"]
CACHES["default"]["KEY_PREFIX"] = {prefix!r}  # a shared cache (Redis) may hold other runs' keys
LOGGING["root"]["level"] = "WARNING"
"""


def _port() -> int:
    wanted = os.environ.get("TEST_SERVER_PORTS", "")
    if wanted:
        low, _, high = wanted.partition("-")
        candidates = range(int(low), int(high or low) + 1)
    else:
        candidates = [0]
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError(f"no free port in TEST_SERVER_PORTS={wanted}")


def _database() -> dict:
    from django.db import connection

    return connection.settings_dict


def database_url_of_tests(*, application_name: str = "") -> str:
    """DATABASE_URL of pytest's test database, for a server or worker started in another process: the
    PostgreSQL database, or the SQLite file (config/settings/test.py keeps SQLite's test database in a file
    for this; never Django's in-memory one, which another process cannot open)."""
    db = _database()
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        assert name != ":memory:" and "mode=memory" not in name, f"an in-memory test database: {name}"
        return f"sqlite:///{name}"
    credentials = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    query = f"?application_name={application_name}" if application_name else ""
    host, port = db["HOST"] or "localhost", db["PORT"] or 5432
    return f"postgres://{credentials}@{host}:{port}/{quote(db['NAME'])}{query}"


def _admin_connection() -> psycopg.Connection:
    """A connection to the server's maintenance database (not the test database)."""
    db = _database()
    return psycopg.connect(
        dbname="postgres", host=db["HOST"] or None, port=db["PORT"] or None, user=db["USER"] or None,
        password=db["PASSWORD"] or None, autocommit=True,
    )


class LiveServer(str):
    """The base URL of the running server."""

    app_name: str
    log_path: Path
    stopped_log: str | None = None  # the whole log, once the server has stopped

    def log(self) -> str:
        if self.stopped_log is not None:
            return self.stopped_log
        return self.log_path.read_text(errors="replace")


@contextlib.contextmanager
def asgi_server(*, cache_url: str, env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    app_name = f"bc-live-{secrets.token_hex(4)}"
    database_url = database_url_of_tests(application_name=app_name)
    port = _port()
    with tempfile.TemporaryDirectory(prefix="bc-live-") as tmp:
        Path(tmp, "live_settings.py").write_text(SETTINGS.format(prefix=app_name))
        server_env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)]),
            "DJANGO_SETTINGS_MODULE": "live_settings",
            "DATABASE_URL": database_url,
            "CACHE_URL": cache_url,
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "False",
            **{f"THROTTLE_{scope}": "100000000/min" for scope in (
                "ANON", "USER", "GAME_CREATE", "GAME_ACTION", "DECK_VALIDATE", "DECK_IMPORT", "REGISTER",
                "TOKEN", "LOGIN")},
            **(env or {}),
        }
        log_path = Path(tmp, "server.log")
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                 "--port", str(port), "--log-level", "warning", "--no-access-log"],
                cwd=ROOT, env=server_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        url = f"http://127.0.0.1:{port}"
        server = None
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError("the server stopped:\n" + log_path.read_text()[-3000:])
                try:
                    urllib.request.urlopen(url + "/api/", timeout=2).read()
                    break
                except urllib.error.HTTPError:
                    break  # it answers
                except OSError:
                    if time.monotonic() > deadline:
                        tail = log_path.read_text()[-3000:]
                        raise RuntimeError("the server did not answer:\n" + tail) from None
                    time.sleep(0.2)
            server = LiveServer(url)
            server.app_name = app_name
            server.log_path = log_path
            yield server
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
            if server is not None:
                server.stopped_log = log_path.read_text(errors="replace")


def terminate_backends(server: LiveServer) -> int:
    """pg_terminate_backend of every connection the server holds to the test database; how many."""
    with _admin_connection() as conn:
        return conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = %s AND application_name = %s",
            [_database()["NAME"], server.app_name],
        ).fetchone()[0]


@contextlib.contextmanager
def refusing_connections(server: LiveServer) -> Iterator[None]:
    """An outage of the test database for the server: its connections are terminated and new ones refused
    (ALLOW_CONNECTIONS false) until the block ends. Connections already open elsewhere (the test's own)
    keep working, so the test can write while the server cannot see it."""
    name = _database()["NAME"]
    with _admin_connection() as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            terminate_backends(server)
            yield
        finally:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
