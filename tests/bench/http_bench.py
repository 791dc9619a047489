"""HTTP benchmark: starts the real server (`make serve`'s gunicorn + uvicorn workers, production settings,
PostgreSQL) on loopback and measures, in one run, a trivial Django JSON view and each catalog, deck and
game endpoint: requests per second, p50 and p99 latency at a fixed client concurrency.

    .venv/bin/python tests/bench/http_bench.py                      # this tree, 1 worker
    .venv/bin/python tests/bench/http_bench.py --workers 2 --seconds 5 --concurrency 16
    # before/after: serve an older checkout the way it ran before (WSGI sync workers, base settings):
    git worktree add /tmp/before <commit>
    .venv/bin/python tests/bench/http_bench.py --tree /tmp/before --legacy

Each endpoint gets a short warm-up, then `--seconds` of closed-loop load from `--concurrency` clients (one
aiohttp session, keep-alive). "share" is the endpoint's req/s as a share of the trivial view's. The goal of
issue 10: catalog list page and card detail >= 50%, deck validation and game view >= 25%. The client runs
on the same machine, so absolute figures depend on the load of the machine: compare shares within a run.
Results are printed and written to tests/bench/results/http_bench.json.

The rows of issue 26 ("the paths the response cache does not cover") come first, each beside its target:
the trivial view at 4 keep-alive clients (p99), the catalog list of 50 as a cache hit and as a miss forced by
distinct valid filters (every request a query string never seen before) and by a catalog change (a new
version token: `catalog_cache_clear` through manage.py, a pause, then one request, each sample alone; its
share is taken against the trivial view measured after the same manage.py run and pause), the game view
at turn 20 (its size in KB), and action POSTs answered by the bot from `--concurrency` clients, each on its
own game. Nothing is pre-warmed for the misses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import aiohttp  # noqa: E402
from bench_theaters import bench_starters  # noqa: E402
from live_server import ROOT, add_arguments, running_server  # noqa: E402

PASSWORD = "Bench-Password-1942"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


async def setup_data(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    """A user with a token, a saved deck and a game against a bot (through the API, like any client)."""
    user = f"bench{int(time.time() * 1000) % 10**9}"
    async with session.post(f"{url}/api/auth/register/", json={"username": user, "password": PASSWORD}) as r:
        assert r.status == 201, await r.text()
        token = (await r.json())["token"]
    headers = {"Authorization": f"Token {token}"}
    async with session.get(f"{url}/api/starters/gb-we-starter/", headers=headers) as r:
        starter = await r.json()
    entries = [{"card": e["card"], "count": e["count"]} for e in starter["entries"] if e.get("count")]
    deck_body = {"name": "bench", "nation": "GB", "entries": entries}
    async with session.post(f"{url}/api/decks/", json=deck_body, headers=headers) as r:
        assert r.status == 201, await r.text()
        deck_id = (await r.json())["id"]
    game_body = {
        "my_deck": {"starter": bench_starters()[0]},
        "opponent_deck": {"starter": bench_starters()[1]},
        "opponent": {"kind": "bot", "bot": "random"},
        "seed": 1942,
    }
    async with session.post(f"{url}/api/games/", json=game_body, headers=headers) as r:
        assert r.status == 201, await r.text()
        game_id = (await r.json())["id"]
    return {"headers": headers, "deck_id": deck_id, "game_id": game_id, "entries": entries,
            "game_body": game_body}


def endpoints(data: dict[str, Any]) -> list[tuple[str, str, str, Any, bool]]:
    """(label, method, path, json body, authenticated)."""
    gid, did = data["game_id"], data["deck_id"]
    validate = {"nation": "GB", "entries": data["entries"]}
    return [
        ("trivial view", "GET", "/bench/trivial/", None, False),
        ("nations list", "GET", "/api/nations/", None, False),
        ("sets list", "GET", "/api/sets/", None, False),
        ("set detail", "GET", "/api/sets/gb-we-starter/", None, False),
        ("arsenal list page (50)", "GET", "/api/arsenal-cards/?page_size=50", None, False),
        ("arsenal list filtered", "GET", "/api/arsenal-cards/?nation=GB&kind=ground", None, False),
        ("card detail", "GET", "/api/arsenal-cards/gb-montgomery/", None, False),
        ("conflict cards list", "GET", "/api/conflict-cards/", None, False),
        ("battlecards list", "GET", "/api/battlecards/", None, False),
        ("deck validation (POST /decks/validate/)", "POST", "/api/decks/validate/", validate, True),
        ("saved deck validation", "GET", f"/api/decks/{did}/validation/", None, True),
        ("deck detail", "GET", f"/api/decks/{did}/", None, True),
        ("game view", "GET", f"/api/games/{gid}/view/", None, True),
        ("game detail", "GET", f"/api/games/{gid}/", None, True),
        ("game events (JSON)", "GET", f"/api/games/{gid}/events/?since=0", None, True),
    ]


_distinct = iter(range(1, 10**12))


async def load(session, url, method, path, body, headers, seconds, concurrency) -> dict[str, Any]:
    """Closed-loop load; `path` is a string, or a callable giving each request its own path."""
    samples: list[float] = []
    statuses: dict[int, int] = {}
    stop_at = 0.0

    async def client(record: bool) -> None:
        while time.perf_counter() < stop_at:
            start = time.perf_counter()
            target = path() if callable(path) else path
            async with session.request(method, url + target, json=body, headers=headers) as r:
                await r.read()
                statuses[r.status] = statuses.get(r.status, 0) + 1
            if record:
                samples.append(time.perf_counter() - start)

    stop_at = time.perf_counter() + min(0.5, seconds / 4)  # warm-up
    await asyncio.gather(*(client(False) for _ in range(concurrency)))
    statuses.clear()
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(*(client(True) for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    ms = [s * 1000 for s in samples]
    return {
        "requests": len(samples),
        "rps": round(len(samples) / elapsed, 1),
        "p50_ms": round(percentile(ms, 0.5), 2),
        "p99_ms": round(percentile(ms, 0.99), 2),
        "statuses": statuses,
    }


def catalog_miss_path() -> str:
    """A valid filter never asked before (points_min=-N: every card), so the response cache misses."""
    return f"/api/arsenal-cards/?page_size=50&points_min=-{next(_distinct)}"


async def game_at_turn(session, url, data, turn: int) -> tuple[str, int]:
    """A new game against the bot played (first legal action each time) until the engine's turn `turn`;
    returns its id and the size of its seat view in bytes."""
    headers = data["headers"]
    while True:
        async with session.post(f"{url}/api/games/", json=data["game_body"], headers=headers) as r:
            gid = (await r.json())["id"]
        async with session.get(f"{url}/api/games/{gid}/view/", headers=headers) as r:
            view = await r.json()
        while view["status"] == "active" and view["view"].get("turn", 0) < turn:
            action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
            async with session.post(f"{url}/api/games/{gid}/actions/", json=action, headers=headers) as r:
                assert r.status == 200, await r.text()
                view = (await r.json())["state"]
        if view["status"] == "active":
            async with session.get(f"{url}/api/games/{gid}/view/", headers=headers) as r:
                return gid, len(await r.read())


async def concurrent_actions(session, url, data, seconds: float, concurrency: int) -> dict[str, Any]:
    """`concurrency` clients, each on its own game against the bot, each POSTing its first legal action as
    soon as the last one is answered (a finished game is replaced, not timed)."""
    headers = data["headers"]
    samples: list[float] = []
    statuses: dict[int, int] = {}

    async def new_game() -> dict[str, Any]:
        async with session.post(f"{url}/api/games/", json=data["game_body"], headers=headers) as r:
            gid = (await r.json())["id"]
        async with session.get(f"{url}/api/games/{gid}/view/", headers=headers) as r:
            return await r.json()

    async def client(stop_at: float, record: bool, view: dict[str, Any]) -> None:
        while time.perf_counter() < stop_at:
            if view["status"] != "active" or not view["your_turn"]:
                view = await new_game()
                continue
            action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
            start = time.perf_counter()
            async with session.post(f"{url}/api/games/{view['game']}/actions/", json=action,
                                    headers=headers) as r:
                body = await r.json()
                statuses[r.status] = statuses.get(r.status, 0) + 1
            if record:
                samples.append(time.perf_counter() - start)
            view = body["state"] if r.status == 200 else await new_game()

    # each client's first game is made before the window (on a loaded machine, 16 games made at once took
    # the whole window: no action was timed at all)
    views = await asyncio.gather(*(new_game() for _ in range(concurrency)))
    await asyncio.gather(*(client(time.perf_counter() + 0.5, False, view) for view in views))
    views = await asyncio.gather(*(new_game() for _ in range(concurrency)))
    statuses.clear()
    started = time.perf_counter()
    await asyncio.gather(*(client(started + seconds, True, view) for view in views))
    elapsed = time.perf_counter() - started
    ms = [x * 1000 for x in samples]
    return {"requests": len(samples), "rps": round(len(samples) / elapsed, 1),
            "p50_ms": round(percentile(ms, 0.5), 2), "p99_ms": round(percentile(ms, 0.99), 2),
            "statuses": statuses}


async def sequential(session, url, path: str, n: int) -> dict[str, Any]:
    """n requests one at a time (the baseline of the rows measured one request at a time)."""
    samples: list[float] = []
    statuses: dict[int, int] = {}
    for _ in range(n):
        start = time.perf_counter()
        async with session.get(url + path) as r:
            await r.read()
            statuses[r.status] = statuses.get(r.status, 0) + 1
        samples.append(time.perf_counter() - start)
    ms = [x * 1000 for x in samples]
    return {"requests": n, "rps": round(n / (sum(samples) or 1), 1), "p50_ms": round(percentile(ms, 0.5), 2),
            "p99_ms": round(percentile(ms, 0.99), 2), "statuses": statuses, "sequential": True}


CATALOG_CHANGE = "from cards.services import catalog_cache_clear; catalog_cache_clear()"
NO_CHANGE = "pass"  # the same manage.py process, changing nothing: the baseline's pause is the same
PAUSED_BASELINE = "trivial view, one at a time after the same pause"


async def paused_requests(session, url, server, path: str, command: str, n: int) -> dict[str, Any]:
    """n times: run `command` in `manage.py shell` (a catalog change: a new version token, what load_catalog
    or an admin edit does), wait until every worker sees it (CATALOG_TOKEN_SECONDS), then time one request
    of `path` alone. After such a pause any request runs colder (idle connections, caches) than back to back,
    so a row measured this way is compared with the trivial view measured the same way (`baseline`)."""
    samples: list[float] = []
    statuses: dict[int, int] = {}
    for _ in range(n):
        server.manage("shell", "-c", command)
        await asyncio.sleep(1.2)
        start = time.perf_counter()
        async with session.get(f"{url}{path}") as r:
            await r.read()
            statuses[r.status] = statuses.get(r.status, 0) + 1
        samples.append(time.perf_counter() - start)
    ms = [x * 1000 for x in samples]
    return {"requests": n, "rps": round(n / (sum(samples) or 1), 1), "p50_ms": round(percentile(ms, 0.5), 2),
            "p99_ms": round(percentile(ms, 0.99), 2), "statuses": statuses, "sequential": True,
            "baseline": PAUSED_BASELINE}


async def action_latency(session, url, data, n: int) -> dict[str, Any]:
    """POST /actions/ one at a time (each needs the current version): latency of a real move (bot answers)."""
    headers = data["headers"]
    samples: list[float] = []
    gid = data["game_id"]
    while len(samples) < n:
        async with session.get(f"{url}/api/games/{gid}/view/", headers=headers) as r:
            view = await r.json()
        if view["status"] != "active" or not view["your_turn"]:
            async with session.post(f"{url}/api/games/", json=data["game_body"], headers=headers) as r:
                gid = (await r.json())["id"]
            continue
        action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        start = time.perf_counter()
        async with session.post(f"{url}/api/games/{gid}/actions/", json=action, headers=headers) as r:
            await r.read()
            assert r.status == 200, await r.text()
        samples.append(time.perf_counter() - start)
    ms = [s * 1000 for s in samples]
    return {"requests": n, "rps": round(n / (sum(samples) or 1), 1), "p50_ms": round(percentile(ms, 0.5), 2),
            "p99_ms": round(percentile(ms, 0.99), 2), "statuses": {200: n}, "sequential": True}


ISSUE_26_TARGETS = {
    "trivial view, 4 keep-alive clients": "p99 <= 30 ms",
    "catalog list of 50, cache hit": "(85 % before)",
    "catalog list of 50, miss: distinct filters": ">= 25 %",
    "catalog list of 50, miss: catalog change": ">= 25 %",
    "game view at turn 20": ">= 25 %",
    "action POST answered by the bot": ">= 15 %",
    "deck validation, 60 cards": ">= 25 %",
}


def deck_of_60(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The body of POST /api/decks/validate/ with 60 cards (issue 42's row): the GB starter's 47 cards, then
    one more copy of each entry in turn up to 60 (it may break a per-card maximum: validating it is the same
    work, and the answer lists the errors)."""
    counted = [dict(e) for e in entries]
    n = 0
    while sum(e["count"] for e in counted) < 60:
        counted[n % len(counted)]["count"] += 1
        n += 1
    return {"nation": "GB", "entries": counted}


async def issue_26_rows(session, url, server, data, args) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    rows["trivial view, 4 keep-alive clients"] = await load(
        session, url, "GET", "/bench/trivial/", None, {}, args.seconds, 4)
    rows["catalog list of 50, cache hit"] = await load(
        session, url, "GET", "/api/arsenal-cards/?page_size=50", None, {}, args.seconds, args.concurrency)
    rows["catalog list of 50, miss: distinct filters"] = await load(
        session, url, "GET", catalog_miss_path, None, {}, args.seconds, args.concurrency)
    rows[PAUSED_BASELINE] = await paused_requests(
        session, url, server, "/bench/trivial/", NO_CHANGE, args.catalog_changes)
    rows[PAUSED_BASELINE].pop("baseline")
    rows["catalog list of 50, miss: catalog change"] = await paused_requests(
        session, url, server, "/api/arsenal-cards/?page_size=50", CATALOG_CHANGE, args.catalog_changes)
    gid, size = await game_at_turn(session, url, data, 20)
    rows["game view at turn 20"] = await load(
        session, url, "GET", f"/api/games/{gid}/view/", None, data["headers"], args.seconds, args.concurrency)
    rows["game view at turn 20"]["bytes"] = size
    rows["action POST answered by the bot"] = await concurrent_actions(
        session, url, data, args.seconds, args.concurrency)
    rows["deck validation, 60 cards"] = await load(
        session, url, "POST", "/api/decks/validate/", deck_of_60(data["entries"]), data["headers"],
        args.seconds, args.concurrency)
    for label, row in rows.items():
        print(f"  {label:42} {row['rps']:>8} req/s", file=sys.stderr, flush=True)
    return rows


async def run(args) -> dict[str, Any]:
    with running_server(args) as url:
        connector = aiohttp.TCPConnector(limit=args.concurrency + 4)
        async with aiohttp.ClientSession(connector=connector) as session:
            data = await setup_data(session, url)
            results: dict[str, Any] = {}
            results["trivial view"] = await load(session, url, "GET", "/bench/trivial/", None, {},
                                                 args.seconds, args.concurrency)
            results["trivial view, one at a time"] = await sequential(session, url, "/bench/trivial/", 200)
            results.update(await issue_26_rows(session, url, url, data, args))
            if args.issue_26:
                return results
            for label, method, path, body, auth in endpoints(data)[1:]:
                headers = data["headers"] if auth else {}
                results[label] = await load(session, url, method, path, body, headers, args.seconds,
                                            args.concurrency)
                print(f"  {label:42} {results[label]['rps']:>8} req/s", file=sys.stderr, flush=True)
            results["game action (POST /actions/, sequential)"] = await action_latency(
                session, url, data, args.actions
            )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--catalog-changes", type=int, default=10,
                        help="samples of the first list request after a catalog change")
    parser.add_argument("--issue-26", action="store_true", help="only the trivial view and issue 26's rows")
    parser.add_argument("--output", default=str(ROOT / "tests/bench/results/http_bench.json"))
    args, _ = parser.parse_known_args()
    results = asyncio.run(run(args))
    trivial = results["trivial view"]["rps"] or 1
    print(f"{'endpoint':46} {'req/s':>9} {'share':>7} {'p50 ms':>8} {'p99 ms':>8}  {'target':<14} statuses")
    for label, r in results.items():
        if r.get("sequential"):  # one at a time: the trivial view's p50 (measured the same way) over its p50
            alone = results[r.get("baseline", "trivial view, one at a time")]["p50_ms"]
            share = f"{100 * alone / r['p50_ms']:.0f}%*" if r["p50_ms"] else ""
        else:
            share = f"{100 * r['rps'] / trivial:.0f}%"
        target = ISSUE_26_TARGETS.get(label, "")
        extra = f"  {r['bytes'] / 1024:.1f} KB" if "bytes" in r else ""
        print(f"{label:46} {r['rps']:>9} {share:>7} {r['p50_ms']:>8} {r['p99_ms']:>8}  {target:<14} "
              f"{r['statuses']}{extra}")
    print("* measured one request at a time: the share is the trivial view's p50, measured the same way (one"
          " at a time, after the same pause), over this p50")
    bad = {label: r["statuses"] for label, r in results.items() if set(r["statuses"]) - {200}}
    report = {"workers": args.workers, "concurrency": args.concurrency, "seconds": args.seconds,
              "tree": args.tree, "legacy": args.legacy, "results": results}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    if bad:
        print(f"non-200 answers: {bad}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
