"""In-process CPU per request of GET /api/games/{id}/view/ (a seat's view of a game at turn 20) beside the
trivial Django JSON view of http_bench.py, both through Django's WSGI handler with the production settings the
bench server runs (live_server.py), and the SQL statements per request. No server and no client: unlike
throughput on a shared machine, CPU time per request is steady enough to compare two commits.

    .venv/bin/python tests/bench/view_cpu.py --database-url postgres://postgres@127.0.0.1:5432/hb_view
    (options: --requests 2000 --turn 20 --profile 40: cProfile of the game view, top 40 by cumulative CPU;
    --actions 500: also action POSTs answered by the bot, as http_bench.py --issue-26 sends them;
    --profile-actions 40: cProfile of those POSTs instead of the game view's)

Rows: the trivial view; the game view as served while its row does not change (the state and the encoded
view kept by games.fastpath.hot_state); the game view of a row this process has not seen yet (after every
action: the state column read and decoded, the view built and encoded), measured with the process memory
emptied before each request; with --actions, POST /api/games/{id}/actions/ against the random bot (the first
legal action each time, the next from the POST's own answer, a finished game replaced by a new one outside the
timed part), with the CPU time every local PostgreSQL process spent around each POST (read from /proc: the
database's side of it, which the worker's own CPU time leaves out). The database is created if missing,
migrated and loaded with the catalog.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_theaters import bench_starters  # noqa: E402
from live_server import BENCH_URLS, ROOT, proc_cpu  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bc_bench_view_cpu"


def prepare(tmp: str, database_url: str) -> None:
    """The bench server's settings (production, DEBUG off, throttles open) and a ready database."""
    Path(tmp, "bench_urls.py").write_text(BENCH_URLS)
    Path(tmp, "bench_settings.py").write_text(
        "from config.settings.production import *  # noqa\nDEBUG = False\nROOT_URLCONF = 'bench_urls'\n"
        "ALLOWED_HOSTS = ['127.0.0.1']\n"
    )
    os.environ.update({
        "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "False",
        "SECURE_SSL_REDIRECT": "False",
        "LOG_LEVEL": "WARNING",
        "CACHE_URL": "locmemcache://bench",
        **{f"THROTTLE_{s}": "100000000/min" for s in (
            "ANON", "USER", "GAME_CREATE", "GAME_ACTION", "DECK_VALIDATE", "DECK_IMPORT", "REGISTER", "TOKEN",
            "LOGIN")},
    })
    py = sys.executable
    subprocess.run([py, "-m", "config.createdb"], cwd=ROOT, check=False)
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalog"]):
        subprocess.run([py, "manage.py", *command], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    sys.path[:0] = [tmp, str(ROOT)]
    os.chdir(ROOT)  # some imports put the working directory first on sys.path: it must be this tree


class Wsgi:
    """Requests straight into Django's WSGIHandler (what gunicorn's workers call)."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.app = WSGIHandler()

    def __call__(self, method: str, path: str, body: Any = None, token: str | None = None,
                 ) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data), "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
            "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
            "wsgi.run_once": False, "wsgi.version": (1, 0),
        }
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Token {token}"
        status: list[str] = []
        response = self.app(environ, lambda s, headers, *exc: status.append(s))
        content = b"".join(response)
        response.close()
        return int(status[0].split()[0]), content


def game_at_turn(call: Wsgi, turn: int) -> tuple[str, str]:
    """A user's token and a game against the random bot played (first legal action) to the engine's `turn`."""
    user = f"cpu{time.time_ns() % 10**12}"
    status, out = call("POST", "/api/auth/register/", {"username": user, "password": "Bench-Password-1942"})
    assert status == 201, out
    token = json.loads(out)["token"]
    allies, axis = bench_starters()
    body = {"my_deck": {"starter": allies}, "opponent_deck": {"starter": axis},
            "opponent": {"kind": "bot", "bot": "random"}, "seed": 1942}
    while True:
        gid = json.loads(call("POST", "/api/games/", body, token)[1])["id"]
        view = json.loads(call("GET", f"/api/games/{gid}/view/", token=token)[1])
        while view["status"] == "active" and view["view"].get("turn", 0) < turn:
            action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
            status, out = call("POST", f"/api/games/{gid}/actions/", action, token)
            assert status == 200, out
            view = json.loads(out)["state"]
        if view["status"] == "active":
            return token, gid


def measure(call: Wsgi, path: str, token: str | None, requests: int, before: Any = None) -> dict[str, float]:
    from django.db import connection

    statements = 0

    def count(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    for _ in range(min(50, requests)):
        call("GET", path, token=token)
    spent = 0.0
    with connection.execute_wrapper(count):
        for _ in range(requests):
            if before is not None:
                before()
            started = time.process_time()
            status, _ = call("GET", path, token=token)
            spent += time.process_time() - started
            assert status == 200
    return {"cpu_us": round(1e6 * spent / requests), "sql": statements / requests}


class PostgresCpu:
    """The CPU time (user + system) of the processes of this machine named postgres, from /proc: the
    database's side of a request when the server is local (its backends, WAL writer, autovacuum...). The
    process list is read again every `rescan` calls (reading every /proc entry per request would cost the
    measuring process more than the request); None where there is no /proc or no such process."""

    def __init__(self, rescan: int = 50) -> None:
        self.rescan, self.calls, self.stats = rescan, 0, []
        self.tick = os.sysconf("SC_CLK_TCK")

    def _scan(self) -> None:
        self.stats = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue  # gone meanwhile
            if proc_cpu(text)[0].startswith("postgres"):
                self.stats.append(stat)

    def seconds(self) -> float | None:
        if self.calls % self.rescan == 0:
            self._scan()
        self.calls += 1
        total = 0
        for stat in self.stats:
            try:
                total += proc_cpu(stat.read_text())[1]
            except OSError:
                continue  # a process that ended meanwhile: its time is lost to the figure
        return total / self.tick if self.stats else None


def measure_actions(call: Wsgi, token: str, requests: int, profile: Any = None) -> dict[str, float]:
    """CPU and SQL statements per action POST answered by the bot (what http_bench.py --issue-26 times):
    each client POSTs the first legal action of the view the last POST answered; a finished game (or one
    waiting on the bot) is replaced by a new one, untimed."""
    from django.db import connection

    allies, axis = bench_starters()
    body = {"my_deck": {"starter": allies}, "opponent_deck": {"starter": axis},
            "opponent": {"kind": "bot", "bot": "random"}, "seed": 1942}

    def new_game() -> Any:
        gid = json.loads(call("POST", "/api/games/", body, token)[1])["id"]
        return json.loads(call("GET", f"/api/games/{gid}/view/", token=token)[1])

    statements = 0

    def count(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    view = new_game()
    spent, done, warm, each = 0.0, 0, min(50, requests), []
    database_spent, postgres = 0.0, PostgresCpu()
    while done < requests + warm:
        if view["status"] != "active" or not view["your_turn"]:
            view = new_game()
            continue
        action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        path = f"/api/games/{view['game']}/actions/"
        timed = done >= warm
        with connection.execute_wrapper(count) if timed else contextlib.nullcontext():
            if timed and profile is not None:
                profile.enable()
            database_before = postgres.seconds() if timed else None
            started = time.process_time()
            status, out = call("POST", path, action, token)
            if timed:
                each.append(time.process_time() - started)
                spent += each[-1]
                database_after = postgres.seconds()
                if database_before is not None and database_after is not None:
                    database_spent += database_after - database_before
            if timed and profile is not None:
                profile.disable()
        assert status == 200, out
        view = json.loads(out)["state"]
        done += 1
    each.sort()
    return {"cpu_us": round(1e6 * spent / requests), "sql": statements / requests,
            "median_us": round(1e6 * each[len(each) // 2]),
            "postgres_cpu_us": round(1e6 * database_spent / requests)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--turn", type=int, default=20)
    parser.add_argument("--profile", type=int, default=0, metavar="TOP")
    parser.add_argument("--actions", type=int, default=0, metavar="N")
    parser.add_argument("--profile-actions", type=int, default=0, metavar="TOP")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bc-view-cpu-") as tmp:
        prepare(tmp, args.database_url)
        import warnings

        warnings.filterwarnings("ignore", message="No directory at")  # no collected static files here
        import django

        django.setup()
        from games.fastpath import hot_state

        call = Wsgi()
        token, gid = game_at_turn(call, args.turn)
        path = f"/api/games/{gid}/view/"
        size = len(call("GET", path, token=token)[1])
        rows = {
            "trivial view": measure(call, "/bench/trivial/", None, args.requests),
            f"game view, turn {args.turn} ({size / 1000:.1f} KB)": measure(call, path, token, args.requests),
            "game view of a row not seen yet": measure(
                call, path, token, max(1, args.requests // 10), before=hot_state.clear),
        }
        profile_actions = cProfile.Profile(time.process_time) if args.profile_actions else None
        if args.actions:
            rows["action POST answered by the bot"] = measure_actions(
                call, token, args.actions, profile_actions)
        for label, row in rows.items():
            median = f"  (median {row['median_us']} us)" if "median_us" in row else ""
            if row.get("postgres_cpu_us"):
                median += f"; PostgreSQL {row['postgres_cpu_us']} us CPU/request"
            print(f"{label:40} {row['cpu_us']:>7} us CPU/request  {row['sql']:.1f} SQL statements/request"
                  + median)
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.enable()
            for _ in range(args.requests):
                call("GET", path, token=token)
            profile.disable()
            order = os.environ.get("BENCH_SORT", "cumulative")
            pstats.Stats(profile).sort_stats(order).print_stats(args.profile)
        if profile_actions is not None:
            if os.environ.get("BENCH_PROFILE_OUT"):  # for pstats afterwards (callers, callees)
                profile_actions.dump_stats(os.environ["BENCH_PROFILE_OUT"])
            order = os.environ.get("BENCH_SORT", "cumulative")
            pstats.Stats(profile_actions).sort_stats(order).print_stats(args.profile_actions)


if __name__ == "__main__":
    main()
