"""Start the real server (gunicorn + uvicorn workers, production settings) on loopback for a benchmark.

Used by http_bench.py, stream_bench.py and load_game.py. The server gets its own PostgreSQL database
(created if missing, migrated, catalog loaded), a throw-away SECRET_KEY, throttles opened wide and a Redis
cache on a redis-server it starts itself (bench_redis.py; BENCH_REDIS_URL names an existing Redis instead,
whose database it empties; without redis-server, a per-process memory cache). It never touches a Redis it
was not given. Only 127.0.0.1 is used.

Another tree (e.g. a checkout of an older commit) can be served with --tree; --legacy serves it the old way
(WSGI, gunicorn's sync workers, base settings with DEBUG off), for before/after tables.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

try:  # run as a script: tests/bench is on sys.path
    from bench_redis import bench_redis
except ModuleNotFoundError:  # imported as tests.bench.live_server (tests/test_request_bodies.py run alone)
    from tests.bench.bench_redis import bench_redis

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bc_bench_http"

# A trivial Django JSON view beside the real URLs: the reference the issue compares endpoints with.
BENCH_URLS = '''
from django.http import JsonResponse
from django.urls import include, path

def trivial(request):
    return JsonResponse({"ok": True})

urlpatterns = [path("bench/trivial/", trivial), path("", include("config.urls"))]
handler400 = "config.exceptions.json_400"
handler404 = "config.exceptions.json_404"
handler500 = "config.exceptions.json_500"
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def add_arguments(parser) -> None:
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tree", default=str(ROOT), help="serve this checkout (default: this one)")
    parser.add_argument("--legacy", action="store_true",
                        help="serve it the pre-issue-10 way: WSGI sync workers, base settings, DEBUG off")
    parser.add_argument("--no-redis", action="store_true", help="a per-process memory cache, no Redis")


class Server(str):
    """The base URL of the running server; `.pid` is gunicorn's master process."""

    pid: int

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        return [int(p) for p in children.read_text().split()] if children.exists() else []


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS (kB) and Threads of a process, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "Threads"):
            values[name] = int(value.split()[0])
    return values


@contextlib.contextmanager
def running_server(args, extra_env: dict[str, str] | None = None) -> Iterator[Server]:
    """Yield the base URL of a freshly started server; stop it (its whole process group) afterwards."""
    tree = Path(args.tree).resolve()
    port = int(os.environ.get("BENCH_PORT") or 0) or free_port()  # BENCH_PORT: a port you were given
    with (
        tempfile.TemporaryDirectory(prefix="bc-bench-") as tmp,
        bench_redis(wanted=not args.no_redis) as redis,
    ):
        Path(tmp, "bench_urls.py").write_text(BENCH_URLS)
        base = "config.settings.base" if args.legacy else "config.settings.production"
        Path(tmp, "bench_settings.py").write_text(
            f"from {base} import *  # noqa\nDEBUG = False\nROOT_URLCONF = 'bench_urls'\n"
            "ALLOWED_HOSTS = ['127.0.0.1']\n"
        )
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([tmp, str(tree)]),
            "DJANGO_SETTINGS_MODULE": "bench_settings",
            "DATABASE_URL": args.database_url,
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DEBUG": "False",
            "SECURE_SSL_REDIRECT": "False",
            "LOG_LEVEL": "WARNING",
            "CACHE_URL": redis or "locmemcache://bench",
            "GAMES_SSE_MAX_STREAMS_PER_USER": "100000",
            **{f"THROTTLE_{s}": "100000000/min" for s in (
                "ANON", "USER", "GAME_CREATE", "GAME_ACTION", "DECK_VALIDATE", "DECK_IMPORT", "REGISTER",
                "TOKEN", "LOGIN")},
            **(extra_env or {}),
        }
        py = sys.executable
        subprocess.run([py, "-m", "config.createdb"], cwd=tree, env=env, check=False)
        for command in (["migrate", "--noinput", "-v", "0"], ["load_catalog"]):
            subprocess.run([py, "manage.py", *command], cwd=tree, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        if redis:  # ours (empty) or the one BENCH_REDIS_URL gave us: start from an empty cache
            flush = "import os, redis; redis.Redis.from_url(os.environ['CACHE_URL']).flushdb()"
            subprocess.run([py, "-c", flush], env=env, check=True)
        if args.legacy:
            cmd = [py, "-m", "gunicorn", "config.wsgi:application", "-k", "sync"]
        else:
            conf = str(ROOT / "config/gunicorn.conf.py")
            cmd = [py, "-m", "gunicorn", "config.asgi:application", "-c", conf]
        cmd += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--log-level", "warning"]
        log = open(Path(tmp, "server.log"), "w+")  # noqa: SIM115
        server = subprocess.Popen(cmd, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                if server.poll() is not None:
                    break
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(url + "/bench/trivial/", timeout=1).read()
                    break
                time.sleep(0.1)
            else:
                raise RuntimeError("the server did not answer")
            if server.poll() is not None:
                log.seek(0)
                raise RuntimeError("the server stopped:\n" + log.read()[-3000:])
            running = Server(url)
            running.pid = server.pid
            running.manage = lambda *command: subprocess.run(  # manage.py against the server's database
                [py, "manage.py", *command], cwd=tree, env=env, check=False, capture_output=True, text=True
            )
            yield running
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, 15)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, 9)
            log.seek(0)
            errors = [line for line in log.read().splitlines() if "Traceback" in line or "ERROR" in line]
            if errors:
                print(f"server log: {len(errors)} error lines, e.g. {errors[:3]}", file=sys.stderr)
            log.close()
