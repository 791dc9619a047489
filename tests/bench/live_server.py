"""Start the real servers of `make serve` (production settings) on loopback for a benchmark.

The layout is `make serve UNBUFFERED=1`'s (--layout split, the default): the request/response API on
gunicorn's threaded WSGI workers (config.wsgi, `--workers`), the event streams on one uvicorn ASGI worker
(config.asgi) on the next port; `Server.stream_url` is where the streams are asked for. --layout front is
`make serve`'s: the same two servers behind its nginx (config/front.py), everything on one port.
--layout asgi serves everything from uvicorn workers, as `make serve` did before issue 26 (for
before/after tables).

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
    parser.add_argument("--layout", choices=("split", "asgi", "front"), default="split",
                        help="split: WSGI API workers + an ASGI stream process (make serve UNBUFFERED=1); "
                        "front: the same behind make serve's nginx (config/front.py); asgi: uvicorn only")


class Server(str):
    """The base URL of the running server; `.pid` is gunicorn's master process; `.stream_url` and
    `.stream_pid` the event streams' server (the same one under --layout asgi)."""

    pid: int
    stream_url: str
    stream_pid: int

    def worker_pids(self, pid: int | None = None) -> list[int]:
        pid = pid or self.pid
        children = Path(f"/proc/{pid}/task/{pid}/children")
        return [int(p) for p in children.read_text().split()] if children.exists() else []

    def stream_worker_pids(self) -> list[int]:
        return self.worker_pids(self.stream_pid)


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS (kB) and Threads of a process, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "Threads"):
            values[name] = int(value.split()[0])
    return values


def proc_cpu(stat_text: str) -> tuple[str, int]:
    """(command name, user + system CPU time in clock ticks) from a /proc/<pid>/stat text (proc(5): the name
    is in parentheses and may hold spaces; utime and stime are fields 14 and 15)."""
    fields = stat_text[stat_text.rindex(")") + 2:].split()  # fields 3, 4, ...
    return stat_text[stat_text.index("(") + 1:stat_text.rindex(")")], int(fields[11]) + int(fields[12])


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
            # a bench's streams are one user's: room for a thousand (stream_bench.py sets its own cap)
            "GAMES_SSE_MAX_STREAMS_PER_USER": "2000",
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
        conf = str(tree / "config/gunicorn.conf.py")
        uvicorn = ["config.asgi:application", "-c", conf, "-k", "config.gunicorn_worker.Worker"]
        common = ["--log-level", "warning"]
        if args.legacy:
            api = ["config.wsgi:application", "-k", "sync"]
        elif args.layout == "split":
            api = ["config.wsgi:application", "-c", conf, "-k", "gthread"]
        else:
            api = uvicorn
        workers = ["--workers", str(args.workers)]
        commands = [[py, "-m", "gunicorn", *api, "--bind", f"127.0.0.1:{port}", *workers, *common]]
        stream_port = port
        if args.layout == "front":  # make serve: nginx on the port, both servers behind it
            commands = [[py, "-m", "config.front", "--port", str(port), *workers, "--stream-workers", "1",
                         "--run-dir", str(Path(tmp, "run"))]]
        elif args.layout == "split" and not args.legacy:
            stream_port = int(os.environ.get("BENCH_STREAM_PORT") or 0) or (
                port + 1 if os.environ.get("BENCH_PORT") else free_port())
            commands.append([py, "-m", "gunicorn", *uvicorn, "--bind", f"127.0.0.1:{stream_port}",
                             "--workers", "1", *common])
        log = open(Path(tmp, "server.log"), "w+")  # noqa: SIM115
        servers = [subprocess.Popen(cmd, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True) for cmd in commands]
        server = servers[0]
        url = f"http://127.0.0.1:{port}"
        try:
            for address in {url, f"http://127.0.0.1:{stream_port}"}:
                for _ in range(1200):  # two minutes at most (a loaded machine, tracemalloc)
                    if any(s.poll() is not None for s in servers):
                        break
                    with contextlib.suppress(OSError):
                        urllib.request.urlopen(address + "/bench/trivial/", timeout=1).read()
                        break
                    time.sleep(0.1)
                else:
                    raise RuntimeError("the server did not answer")
            if any(s.poll() is not None for s in servers):
                log.seek(0)
                raise RuntimeError("the server stopped:\n" + log.read()[-3000:])
            running = Server(url)
            running.pid = server.pid
            running.stream_url = f"http://127.0.0.1:{stream_port}"
            running.stream_pid = servers[-1].pid
            running.manage = lambda *command: subprocess.run(  # manage.py against the server's database
                [py, "manage.py", *command], cwd=tree, env=env, check=False, capture_output=True, text=True
            )
            yield running
        finally:
            for each in servers:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(each.pid, 15)
            for each in servers:
                try:
                    each.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(each.pid, 9)
            log.seek(0)
            errors = [line for line in log.read().splitlines() if "Traceback" in line or "ERROR" in line]
            if errors:
                print(f"server log: {len(errors)} error lines, e.g. {errors[:3]}", file=sys.stderr)
            log.close()
