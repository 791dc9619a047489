"""In-process CPU per request of the trivial Django JSON view (live_server.BENCH_URLS) through Django's WSGI
handler with the bench server's production settings: what every request pays for the middleware (issue 42,
item 3). No server, no client, no database (the trivial view touches none; --view deck below).

    .venv/bin/python tests/bench/trivial_cpu.py                   # this tree: CPU time, 5 x 3000 requests
    .venv/bin/python tests/bench/trivial_cpu.py --before 7386b01  # and that commit, alternating
    .venv/bin/python tests/bench/trivial_cpu.py --before 7386b01 --instructions   # valgrind's callgrind
    .venv/bin/python tests/bench/trivial_cpu.py --view deck --before 78c95e9 --instructions

--view deck: POST /api/decks/validate/ of 60 cards instead (issue 42, item 1; the body of http_bench.py's row
"deck validation, 60 cards", anonymous), on a SQLite database migrated and loaded with the catalog first.
--view action: POST /api/games/{id}/actions/ answered by the random bot (issue 42, item 1; as view_cpu.py
--actions: the first legal action of the last answer, WE starters, seed 1942, a finished game replaced by a
new one outside the measured part), on that SQLite database or on --database-url's PostgreSQL (one database
per tree: the URL's name with _0, _1 appended; created and migrated). Its instructions are counted in the
POSTs alone (callgrind's collection toggled around each one), so no run of none is subtracted.

Each measurement runs in a fresh process of its tree (`--tree`, the default this one; --before checks the
commit out into a temporary git worktree, removed afterwards). CPU time: the median over --rounds of
process_time per request, the trees alternating within each round. --instructions: instructions per request
from valgrind --tool=callgrind (repeatable on a loaded machine): a run of --requests requests minus a run
of none, over --requests. Prints the ratio this tree / before.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import BENCH_URLS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def environment(tree: Path, tmp: str) -> dict[str, str]:
    Path(tmp, "bench_urls.py").write_text(BENCH_URLS)
    Path(tmp, "bench_settings.py").write_text(
        "from config.settings.production import *  # noqa\nDEBUG = False\nROOT_URLCONF = 'bench_urls'\n"
        "ALLOWED_HOSTS = ['127.0.0.1']\n"
    )
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tree), tmp]),
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",  # --view deck only
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "False",
        "SECURE_SSL_REDIRECT": "False",
        "LOG_LEVEL": "WARNING",
        "CACHE_URL": "locmemcache://bench",
        "THROTTLE_ANON": "100000000/min", "THROTTLE_DECK_VALIDATE": "100000000/min",
    }


def deck_body(app: Any) -> bytes:
    """The 60-card body of http_bench.py's deck validation row, from the GB starter as the server gives it."""
    from http_bench import deck_of_60

    status, body = call(app, "GET", "/api/starters/gb-we-starter/")
    assert status.startswith("200"), status
    starter = json.loads(body)["entries"]
    entries = [{"card": e["card"], "count": e["count"]} for e in starter if e.get("count")]
    return json.dumps(deck_of_60(entries)).encode()


def call(app: Any, method: str, path: str, body: bytes = b"", **headers: str) -> tuple[str, bytes]:
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9",
        "HTTP_USER_AGENT": "bench", "HTTP_ACCEPT": "application/json",
        "HTTP_X_REQUEST_ID": "4f6c0b2a9d8e4b1c8a7f6e5d4c3b2a19",  # what the front's nginx sends
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
        "wsgi.run_once": False, "wsgi.version": (1, 0),
    }
    if body:
        environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    environ.update(headers)
    status: list[str] = []
    response = app(environ, lambda s, headers, *exc: status.append(s))
    content = b"".join(response)
    response.close()
    return status[0], content


def serve(requests: int, warm: int, view: str) -> float:
    """In the measured process: `requests` requests of the view through WSGIHandler; CPU seconds each."""
    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from django.core.handlers.wsgi import WSGIHandler

    app = WSGIHandler()
    if view == "action":
        return serve_actions(app, requests, warm)
    method, path, body = ("POST", "/api/decks/validate/", deck_body(app)) if view == "deck" else (
        "GET", "/bench/trivial/", b"")

    def once() -> None:
        status, _ = call(app, method, path, body)
        assert status.startswith("200"), status

    for _ in range(warm):
        once()
    started = time.process_time()
    for _ in range(requests):
        once()
    return (time.process_time() - started) / max(1, requests)


def callgrind_toggle(tmp: str) -> Any:
    """A function toggling callgrind's collection (CALLGRIND_TOGGLE_COLLECT; nothing outside valgrind), from a
    helper compiled into `tmp`; None when there is no compiler or no valgrind header."""
    import ctypes

    source, library = Path(tmp, "toggle.c"), Path(tmp, "toggle.so")
    source.write_text("#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n")
    built = subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(library), str(source)],
                           capture_output=True, check=False)
    return ctypes.CDLL(str(library)).toggle if built.returncode == 0 else None


def serve_actions(app: Any, requests: int, warm: int) -> float:
    """`requests` action POSTs answered by the random bot, each the first legal action of the last answer;
    CPU seconds each. Under valgrind (--collect-atstart=no) only the POSTs are counted."""
    import itertools
    import secrets
    from types import SimpleNamespace
    from unittest import mock

    # Every new game's secret salt from a counter: the same deals and bot choices, so the same POSTs, in
    # every run and tree (a game's deal mixes its seed with its salt, the bot's choices hash it).
    salts = itertools.count()
    counted = SimpleNamespace(
        randbits=secrets.randbits, token_hex=lambda nbytes: f"{next(salts):0{2 * nbytes}x}")
    from games.services import seeds

    if hasattr(seeds, "new_salt"):  # the salt's one place since ee1afd3; in create.py's secrets before
        with mock.patch("games.services.seeds.new_salt", lambda: counted.token_hex(16)):
            return _serve_actions(app, requests, warm)
    with mock.patch("games.services.create.secrets", counted):
        return _serve_actions(app, requests, warm)


def _serve_actions(app: Any, requests: int, warm: int) -> float:
    from bench_theaters import bench_starters

    toggle = callgrind_toggle(os.environ["BENCH_TMP"])
    password = "Bench-Password-1942"
    user = json.dumps({"username": f"cpu{time.time_ns() % 10**12}", "password": password}).encode()
    status, out = call(app, "POST", "/api/auth/register/", user)
    assert status.startswith("201"), out
    auth = {"HTTP_AUTHORIZATION": f"Token {json.loads(out)['token']}"}
    allies, axis = bench_starters()
    game = json.dumps({"my_deck": {"starter": allies}, "opponent_deck": {"starter": axis},
                       "opponent": {"kind": "bot", "bot": "random"}, "seed": 1942}).encode()

    def new_game() -> Any:
        gid = json.loads(call(app, "POST", "/api/games/", game, **auth)[1])["id"]
        return json.loads(call(app, "GET", f"/api/games/{gid}/view/", **auth)[1])

    view, spent, done = new_game(), 0.0, 0
    while done < warm + requests:
        if view["status"] != "active" or not view["your_turn"]:
            view = new_game()
            continue
        action = view["view"]["decision"]["legal_actions"][0]
        body = json.dumps({"version": view["version"], "action": action})
        measured = done >= warm and toggle is not None
        if measured:
            toggle()
        started = time.process_time()
        status, out = call(app, "POST", f"/api/games/{view['game']}/actions/", body.encode(), **auth)
        if done >= warm:
            spent += time.process_time() - started
        if measured:
            toggle()
        assert status.startswith("200"), out
        view = json.loads(out)["state"]
        done += 1
    return spent / max(1, requests)


def run_tree(tree: Path, requests: int, warm: int, valgrind: bool = False, view: str = "trivial",
             database_url: str | None = None) -> float:
    """CPU seconds per request (or, under valgrind, the run's total instructions)."""
    with tempfile.TemporaryDirectory(prefix="bc-trivial-") as tmp:
        env = environment(tree, tmp)
        env["BENCH_TMP"] = tmp
        if database_url and view == "action":
            env["DATABASE_URL"] = database_url
            subprocess.run([sys.executable, "-m", "config.createdb"], cwd=tree, env=env, check=False,
                           capture_output=True)
        if view in ("deck", "action"):  # the catalog in the tree's own schema
            for command in (["migrate", "--noinput", "-v", "0"], ["load_catalog"]):
                subprocess.run([sys.executable, "manage.py", *command], cwd=tree, env=env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(requests),
                   "--warm", str(warm), "--view", view]
        if valgrind:
            out = Path(tmp, "callgrind.out")
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                       *(["--collect-atstart=no"] if view == "action" else []), *command]
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        if valgrind:
            found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
            assert found, "no callgrind summary"
            return float(found.group(1))
        return float(done.stdout.strip().splitlines()[-1])


def database(url: str | None, index: int) -> str | None:
    """The database of the `index`-th tree: `url` with _<index> appended to its name (trees' schemas may
    differ)."""
    return None if url is None else f"{url.rstrip('/')}_{index}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", default=str(ROOT))
    parser.add_argument("--before", default=None, help="a commit to compare with (checked out in a worktree)")
    parser.add_argument("--before-tree", default=None, help="or a checkout of it already made")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--warm", type=int, default=200)
    parser.add_argument("--instructions", action="store_true",
                        help="valgrind's callgrind instead of CPU time")
    parser.add_argument("--view", choices=("trivial", "deck", "action"), default="trivial",
                        help="deck: POST /api/decks/validate/ of 60 cards; action: an action POST")
    parser.add_argument("--database-url", default=None, help="--view action: PostgreSQL instead of SQLite")
    parser.add_argument("--output", default=None, help="write the figures as JSON here")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        print(serve(args.serve, args.warm, args.view))
        return 0

    trees = {"this tree": Path(args.tree).resolve()}
    worktree = None
    if args.before_tree:
        trees = {f"before ({args.before or Path(args.before_tree).name})": Path(args.before_tree).resolve(),
                 **trees}
    elif args.before:
        worktree = Path(tempfile.mkdtemp(prefix="bc-trivial-before-")) / "tree"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(worktree), args.before], check=True)
        trees = {f"before ({args.before})": worktree, **trees}
    results: dict[str, list[float]] = {name: [] for name in trees}
    try:
        if args.instructions:
            requests = min(args.requests, 1000)
            for i, (name, tree) in enumerate(trees.items()):
                url = database(args.database_url, i)
                base = 0.0 if args.view == "action" else run_tree(
                    tree, 0, args.warm, valgrind=True, view=args.view)
                total = run_tree(tree, requests, args.warm, valgrind=True, view=args.view, database_url=url)
                results[name].append((total - base) / requests)
        else:
            for _ in range(args.rounds):
                for i, (name, tree) in enumerate(trees.items()):
                    results[name].append(run_tree(
                        tree, args.requests, args.warm, view=args.view,
                        database_url=database(args.database_url, i)) * 1e6)
    finally:
        if worktree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                           check=False)
    unit = "instructions/request" if args.instructions else "us CPU/request"
    medians = {name: statistics.median(values) for name, values in results.items()}
    for name, values in results.items():
        shown = ", ".join(f"{v:,.0f}" if args.instructions else f"{v:.1f}" for v in values)
        print(f"{name:28} median {medians[name]:>12,.1f} {unit}  ({shown})")
    if len(medians) == 2:
        before, after = medians.values()
        print(f"this tree / before: {after / before:.2f}x  (load average {os.getloadavg()[0]:.1f})")
    if args.output:
        Path(args.output).write_text(json.dumps({"unit": unit, "runs": results, "medians": medians,
                                                 "loadavg": os.getloadavg()}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
