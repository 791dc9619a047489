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


async def load(session, url, method, path, body, headers, seconds, concurrency) -> dict[str, Any]:
    samples: list[float] = []
    statuses: dict[int, int] = {}
    stop_at = 0.0

    async def client(record: bool) -> None:
        while time.perf_counter() < stop_at:
            start = time.perf_counter()
            async with session.request(method, url + path, json=body, headers=headers) as r:
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


async def run(args) -> dict[str, Any]:
    with running_server(args) as url:
        connector = aiohttp.TCPConnector(limit=args.concurrency + 4)
        async with aiohttp.ClientSession(connector=connector) as session:
            data = await setup_data(session, url)
            results: dict[str, Any] = {}
            for label, method, path, body, auth in endpoints(data):
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
    parser.add_argument("--output", default=str(ROOT / "tests/bench/results/http_bench.json"))
    args, _ = parser.parse_known_args()
    results = asyncio.run(run(args))
    trivial = results["trivial view"]["rps"] or 1
    print(f"{'endpoint':46} {'req/s':>9} {'share':>7} {'p50 ms':>8} {'p99 ms':>8}  statuses")
    for label, r in results.items():
        share = "" if r.get("sequential") else f"{100 * r['rps'] / trivial:.0f}%"
        print(f"{label:46} {r['rps']:>9} {share:>7} {r['p50_ms']:>8} {r['p99_ms']:>8}  {r['statuses']}")
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
