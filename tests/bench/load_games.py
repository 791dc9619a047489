"""Load test (bounded, loopback only): concurrent games against bots through the API, with event-stream
listeners attached, then the action-log invariants checked with `manage.py verify_games`.

    .venv/bin/python tests/bench/load_games.py                   # 50 games, 200 listeners, 1 worker
    .venv/bin/python tests/bench/load_games.py --workers 2 --games 50 --listeners 200 --moves 40

Starts the real server (live_server.py), registers `--players` players (password hashing is slow by
design, so a player plays several games at once), creates `--games` games against the
random bot, attaches `--listeners` streams spread over the games, and plays every game at once: each
player reads its view and posts its first legal action, up to `--moves` actions, then resigns a game that
is not over, so every game ends. Checked: 0 server errors (5xx) and 0 unexpected answers; every action
the client made appears exactly once in its game's log; every listener saw exactly seqs 1..last_seq of its
game (0 lost, duplicated or out of order); `verify_games` replays every game to its stored state.
Printed: p50 / p99 latency per endpoint. Results also go to tests/bench/results/load_games.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import aiohttp  # noqa: E402
from bench_theaters import bench_starters  # noqa: E402
from live_server import ROOT, add_arguments, running_server  # noqa: E402
from stream_bench import Listener, percentile  # noqa: E402

PASSWORD = "Load-Password-1942"


class Api:
    """Times every request per endpoint label and counts the statuses."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session, self.url = session, url
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    async def call(self, label: str, method: str, path: str, *, headers=None, body=None) -> tuple[int, Any]:
        start = time.perf_counter()
        async with self.session.request(method, self.url + path, json=body, headers=headers) as r:
            data = await r.json(content_type=None)
            status = r.status
        self.latency[label].append((time.perf_counter() - start) * 1000)
        self.statuses[label][status] += 1
        return status, data


async def new_player(api: Api, index: int, tag: str) -> dict[str, str]:
    status, data = await api.call("POST /auth/register/", "POST", "/api/auth/register/",
                                  body={"username": f"load{tag}x{index}", "password": PASSWORD})
    assert status == 201, data
    return {"Authorization": f"Token {data['token']}"}


async def new_game(api: Api, index: int, headers: dict[str, str]) -> dict[str, Any]:
    allies, axis = bench_starters()
    body = {"my_deck": {"starter": allies if index % 2 else axis},
            "opponent_deck": {"starter": axis if index % 2 else allies},
            "opponent": {"kind": "bot", "bot": "random"}, "seed": 9000 + index}
    status, data = await api.call("POST /games/", "POST", "/api/games/", headers=headers, body=body)
    assert status == 201, data
    return {"id": data["id"], "headers": headers, "seat": data["my_seat"], "actions": []}


async def play(api: Api, game: dict[str, Any], moves: int) -> None:
    gid, headers = game["id"], game["headers"]
    for _ in range(moves):
        status, view = await api.call("GET /games/{id}/view/", "GET", f"/api/games/{gid}/view/",
                                      headers=headers)
        assert status == 200, view
        if view["status"] != "active":
            return
        if not view["your_turn"]:  # bots answer inside the request: this does not happen against a bot
            await asyncio.sleep(0.05)
            continue
        action = view["view"]["decision"]["legal_actions"][0]
        status, data = await api.call("POST /games/{id}/actions/", "POST", f"/api/games/{gid}/actions/",
                                      headers=headers, body={"version": view["version"], "action": action})
        assert status == 200, data
        mine = [e for e in data["entries"] if e["kind"] == "action" and e["seat"] == game["seat"]
                and not e["by_bot"]]
        assert len(mine) == 1, data["entries"]
        game["actions"].append(mine[0]["seq"])
    status, data = await api.call("GET /games/{id}/", "GET", f"/api/games/{gid}/", headers=headers)
    if data["status"] == "active":
        status, data = await api.call("POST /games/{id}/resign/", "POST", f"/api/games/{gid}/resign/",
                                      headers=headers)
        assert status == 200, data


async def run(args) -> dict[str, Any]:
    tag = str(int(time.time()) % 100000)
    with running_server(args) as server:
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=None, sock_read=args.stream_timeout + 30)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            api = Api(session, str(server))
            players = [await new_player(api, i, tag) for i in range(args.players)]  # hashing: one by one
            games = await asyncio.gather(
                *(new_game(api, i, players[i % len(players)]) for i in range(args.games))
            )
            listeners = [Listener(session, str(server), games[i % len(games)], args.stream_timeout)
                         for i in range(args.listeners)]
            stop = asyncio.Event()
            tasks = [asyncio.create_task(lst.run(stop)) for lst in listeners]
            await asyncio.wait_for(asyncio.gather(*(lst.connected.wait() for lst in listeners)), 300)
            started = time.perf_counter()
            await asyncio.gather(*(play(api, g, args.moves) for g in games))
            play_seconds = time.perf_counter() - started
            logs = {}
            for g in games:
                status, data = await api.call("GET /games/{id}/events/", "GET",
                                              f"/api/games/{g['id']}/events/?since=0", headers=g["headers"])
                logs[g["id"]] = data
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not all(
                lst.last_id >= logs[lst.game["id"]]["last_seq"] for lst in listeners
            ):
                await asyncio.sleep(0.1)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
        verify = server.manage("verify_games")

    lost_actions = duplicated_actions = 0
    for g in games:
        logged = [e["seq"] for e in logs[g["id"]]["entries"]
                  if e["kind"] == "action" and e["seat"] == g["seat"] and not e["by_bot"]]
        duplicated_actions += len(logged) - len(set(logged))
        lost_actions += len(set(g["actions"]) - set(logged))
        duplicated_actions += len(set(logged) - set(g["actions"]))
    lost = duplicated = out_of_order = 0
    for lst in listeners:
        seqs = [seq for seq, _, _ in lst.received]
        duplicated += len(seqs) - len(set(seqs))
        out_of_order += sum(1 for a, b in zip(seqs, seqs[1:], strict=False) if b <= a)
        lost += len(set(range(1, logs[lst.game["id"]]["last_seq"] + 1)) - set(seqs))
    server_errors = sum(
        n for counts in api.statuses.values() for status, n in counts.items() if status >= 500
    )
    return {
        "games": args.games,
        "listeners": args.listeners,
        "workers": args.workers,
        "actions_played": sum(len(g["actions"]) for g in games),
        "play_seconds": round(play_seconds, 2),
        "finished_games": sum(1 for g in games if logs[g["id"]]["status"] == "finished"),
        "server_errors": server_errors,
        "statuses": {label: dict(c) for label, c in api.statuses.items()},
        "lost_actions": lost_actions,
        "duplicated_actions": duplicated_actions,
        "events": {"lost": lost, "duplicated": duplicated, "out_of_order": out_of_order,
                   "listener_errors": sum(len(lst.errors) for lst in listeners)},
        "verify_games": (verify.stdout.strip() + " " + verify.stderr.strip()).strip(),
        "verify_games_ok": verify.returncode == 0,
        "latency_ms": {label: {"n": len(v), "p50": round(percentile(v, 0.5), 1),
                               "p99": round(percentile(v, 0.99), 1)} for label, v in api.latency.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--players", type=int, default=10, help="each plays games/players games at once")
    parser.add_argument("--moves", type=int, default=40, help="actions per game before resigning")
    parser.add_argument("--stream-timeout", type=float, default=280)
    parser.add_argument("--output", default=str(ROOT / "tests/bench/results/load_games.json"))
    args, _ = parser.parse_known_args()
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=2))
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    events = report["events"]
    ok = (report["server_errors"] == report["lost_actions"] == report["duplicated_actions"] == 0
          and events["lost"] == events["duplicated"] == events["out_of_order"] == 0
          and report["verify_games_ok"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
