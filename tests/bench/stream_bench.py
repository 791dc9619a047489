"""Event-stream benchmark: many concurrent SSE listeners on one ASGI worker, pushed by LISTEN/NOTIFY.

    .venv/bin/python tests/bench/stream_bench.py            # 1,000 listeners on 100 games, 1 worker
    .venv/bin/python tests/bench/stream_bench.py --games 20 --listeners-per-game 5 --actions 3

Starts the real servers (live_server.py, `make serve`'s layout: the API's WSGI workers and the streams' one
uvicorn worker, production settings, PostgreSQL) on 127.0.0.1, creates `--games` games against a bot through
the API (`--users` players, each playing several games), opens `--listeners-per-game` streams on each game,
then plays `--actions` moves in every game (`--concurrency` games at a time). Measured:
  * the worker's memory (VmRSS) and thread count before the listeners connect (after `--warm` streams were
    opened and closed: the worker's one-time cost of its first streams is not a listener's) and once all
    are waiting: memory per listener, and whether a waiting stream holds a thread. An RSS difference only
    counts memory the worker had to ask the system for: a worker that served other requests before (one
    process for everything) reuses their freed heap, and shows less than a stream process that did not;
  * latency from an action's commit to the event at each listener, p50 / p99 (commit time = the log
    entry's created_at, written by the same transaction just before it commits; same machine clock);
  * every listener's sequence of log ids must be exactly 1..last_seq of its game: 0 lost, 0 duplicated,
    0 out of order;
  * `--reconnect-share` of the listeners drop their connection after the first move and reconnect with
    Last-Event-ID: they must miss nothing either.
With `--spectate` the listeners are spectators instead (`--spectator-users` other users, on
/spectate/stream/: the public log, no delay): the same figures per spectator listener, and the spectator
count a game shows while they listen (the distinct users watching it).
Bounded: every stream has a timeout; the whole run takes well under two minutes on a quiet machine.
Results are printed and written to tests/bench/results/stream_bench.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import aiohttp  # noqa: E402
from bench_theaters import bench_starters  # noqa: E402
from live_server import ROOT, add_arguments, proc_status, running_server  # noqa: E402

PASSWORD = "Bench-Password-1942"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


class Listener:
    """One SSE client: records (seq, arrival time, entry created_at) of every log entry it receives."""

    def __init__(self, session, url: str, game: dict[str, Any], timeout: float,
                 spectator: dict[str, str] | None = None) -> None:
        self.session, self.url, self.game, self.timeout = session, url, game, timeout
        self.spectator = spectator  # a spectator's headers: the spectator stream instead of the player's
        self.path = "spectate/stream" if spectator else "events/stream"
        self.received: list[tuple[int, float, float]] = []
        self.connected = asyncio.Event()
        self.reconnects = 0
        self.drop_after: int | None = None  # drop the connection once this seq has arrived
        self.errors: list[str] = []
        self.busy = 0  # 503 server_busy answers retried

    @property
    def last_id(self) -> int:
        return self.received[-1][0] if self.received else 0

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            headers = {**(self.spectator or self.game["headers"]), "Accept": "text/event-stream"}
            if self.received:
                headers["Last-Event-ID"] = str(self.last_id)
            try:
                async with self.session.get(
                    f"{self.url}/api/games/{self.game['id']}/{self.path}/?timeout={self.timeout}",
                    headers=headers,
                ) as r:
                    if r.status == 503:  # server_busy (its pool is out of connections): retry, as told
                        self.busy += 1
                        await asyncio.sleep(float(r.headers.get("Retry-After", 1)))
                        continue
                    if r.status != 200:
                        self.errors.append(f"{r.status} {await r.text()}")
                        self.connected.set()  # done: counted in listener_errors, the run goes on
                        return
                    self.connected.set()
                    if await self._read(r, stop):
                        return
            except (TimeoutError, aiohttp.ClientError) as exc:
                self.errors.append(repr(exc))
                await asyncio.sleep(0.2)

    async def _read(self, response, stop: asyncio.Event) -> bool:
        """Read until the stream ends; True when the listener is done (game over or stop asked)."""
        data = None
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                data = json.loads(line[6:])
            elif line.startswith("event: end"):
                return True
            elif line == "" and data is not None:
                if "seq" in data:
                    created = datetime.fromisoformat(data["created_at"]).timestamp()
                    self.received.append((data["seq"], time.time(), created))
                    if self.drop_after is not None and data["seq"] >= self.drop_after:
                        self.drop_after = None
                        self.reconnects += 1
                        return False  # leave the context: the connection closes; reconnect
                data = None
            if stop.is_set():
                return True
        return stop.is_set()


async def make_user(session, url: str, index: int) -> dict[str, str]:
    username = f"sb{int(time.time()) % 100000}x{index}"
    async with session.post(f"{url}/api/auth/register/",
                            json={"username": username, "password": PASSWORD}) as r:
        assert r.status == 201, await r.text()
        return {"Authorization": f"Token {(await r.json())['token']}"}


async def make_game(session, url: str, index: int, headers: dict[str, str]) -> dict[str, Any]:
    body = {"my_deck": {"starter": bench_starters()[0]}, "opponent_deck": {"starter": bench_starters()[1]},
            "opponent": {"kind": "bot", "bot": "random"}, "seed": 7000 + index}
    async with session.post(f"{url}/api/games/", json=body, headers=headers) as r:
        assert r.status == 201, await r.text()
        return {"id": (await r.json())["id"], "headers": headers}


async def play(session, url: str, game: dict[str, Any], moves: int, done: list[int]) -> None:
    for _ in range(moves):
        async with session.get(f"{url}/api/games/{game['id']}/view/", headers=game["headers"]) as r:
            view = await r.json()
        if view["status"] != "active" or not view["your_turn"]:
            break
        body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        async with session.post(f"{url}/api/games/{game['id']}/actions/", json=body,
                                headers=game["headers"]) as r:
            assert r.status == 200, await r.text()
            await r.read()
        done[0] += 1


async def connect_all(listeners: list[Listener], timeout: float) -> None:
    """Wait until every listener has its answer, printing progress (and errors so far) every 10 s."""
    waiting = asyncio.ensure_future(asyncio.gather(*(lst.connected.wait() for lst in listeners)))
    deadline = time.monotonic() + timeout
    while not waiting.done():
        await asyncio.wait({waiting}, timeout=10)
        connected = sum(lst.connected.is_set() for lst in listeners)
        errors = [e for lst in listeners for e in lst.errors]
        busy = sum(lst.busy for lst in listeners)
        print(f"  {connected}/{len(listeners)} streams answered, {len(errors)} errors {errors[-1:]}, "
              f"{busy} busy retries", file=sys.stderr, flush=True)
        if time.monotonic() > deadline:
            waiting.cancel()
            raise TimeoutError(f"{connected} of {len(listeners)} streams answered in {timeout} s")


async def warm_up(session, url: str, games: list[dict[str, Any]], timeout: float) -> None:
    """One stream on each of `games`, opened and closed: what the worker builds once (its database pool and
    event-bus connection, its threads, imported code) is not counted per listener."""
    stop = asyncio.Event()
    listeners = [Listener(session, url, g, timeout) for g in games]
    tasks = [asyncio.create_task(listener.run(stop)) for listener in listeners]
    await asyncio.wait_for(asyncio.gather(*(lst.connected.wait() for lst in listeners)), 120)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def run(args) -> dict[str, Any]:
    # The per-user cap at what the run needs: a stream's slot is taken by checking the user's `cap` keys
    # (config.throttling), so live_server's wide-open default (100,000) costs each opening a 100,000-key read.
    users = args.spectator_users if args.spectate else args.users
    per_user = -(-args.games * args.listeners_per_game // users)
    cap = {"GAMES_SSE_MAX_STREAMS_PER_USER": str(2 * per_user + args.warm)}
    with running_server(args, extra_env=cap) as server:
        url = str(server)
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=None, sock_read=args.stream_timeout + 30)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            users = await asyncio.gather(*(make_user(session, url, i) for i in range(args.users)))
            games = await asyncio.gather(
                *(make_game(session, url, i, users[i % len(users)]) for i in range(args.games))
            )
            worker = server.stream_worker_pids()[0]  # the event streams' uvicorn worker
            fresh = proc_status(worker)
            await warm_up(session, server.stream_url, games[: args.warm], args.stream_timeout)
            await asyncio.sleep(1)
            before = proc_status(worker)

            spectators = [  # one after the other (the server sheds a burst of registrations: 503)
                await make_user(session, url, args.users + i) for i in range(args.spectator_users)
            ] if args.spectate else []
            listeners = [Listener(session, server.stream_url, g, args.stream_timeout,
                                  spectators[(gi * args.listeners_per_game + i) % len(spectators)]
                                  if spectators else None)
                         for gi, g in enumerate(games) for i in range(args.listeners_per_game)]
            rng = random.Random(1)
            for listener in rng.sample(listeners, int(len(listeners) * args.reconnect_share)):
                listener.drop_after = 1  # right after the entries that existed already
            stop = asyncio.Event()
            started = time.perf_counter()
            tasks = [asyncio.create_task(listener.run(stop)) for listener in listeners]
            await connect_all(listeners, args.connect_timeout)
            connect_seconds = time.perf_counter() - started
            await asyncio.sleep(2)  # all waiting now
            waiting = proc_status(worker)
            watching = None
            if spectators:  # what the first game shows: the distinct users with a spectator stream open
                async with session.get(f"{url}/api/games/{games[0]['id']}/spectate/",
                                       headers=spectators[0]) as r:
                    watching = (await r.json())["spectators"]

            moves = [0]
            play_wall = time.time()
            started = time.perf_counter()
            semaphore = asyncio.Semaphore(args.concurrency)

            async def limited(game):
                async with semaphore:
                    await play(session, url, game, args.actions, moves)

            await asyncio.gather(*(limited(g) for g in games))
            play_seconds = time.perf_counter() - started
            final = {}
            for g in games:
                async with session.get(f"{url}/api/games/{g['id']}/", headers=g["headers"]) as r:
                    final[g["id"]] = (await r.json())["last_seq"]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(
                lst.last_id < final[lst.game["id"]] for lst in listeners
            ):
                await asyncio.sleep(0.1)
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    latencies = []
    lost = duplicated = out_of_order = 0
    for listener in listeners:
        seqs = [seq for seq, _, _ in listener.received]
        expected = list(range(1, final[listener.game["id"]] + 1))
        duplicated += len(seqs) - len(set(seqs))
        out_of_order += sum(1 for a, b in zip(seqs, seqs[1:], strict=False) if b <= a)
        lost += len(set(expected) - set(seqs))
        latencies += [(arrived - created) * 1000 for _, arrived, created in listener.received
                      if created >= play_wall]  # entries committed while everyone listened
    pushed = latencies
    n = len(listeners)
    return {
        "games": args.games,
        "listeners": n,
        "listener_kind": "spectator" if args.spectate else "player",
        "spectators_shown_by_first_game": watching,
        "spectator_users_of_first_game": len({id(lst.spectator) for lst in listeners
                                              if lst.game is games[0]}) if args.spectate else None,
        "workers": 1,
        "moves_played": moves[0],
        "connect_all_seconds": round(connect_seconds, 2),
        "play_seconds": round(play_seconds, 2),
        "worker_started": fresh,
        "worker_before": before,
        "worker_listening": waiting,
        "memory_per_listener_kb": round((waiting["VmRSS"] - before["VmRSS"]) / n, 1),
        "threads_added_by_listeners": waiting["Threads"] - before["Threads"],
        "events_received": sum(len(lst.received) for lst in listeners),
        "commit_to_event_ms": {
            "p50": round(percentile(pushed, 0.5), 1),
            "p99": round(percentile(pushed, 0.99), 1),
            "max": round(max(pushed, default=0), 1),
            "n": len(pushed),
        },
        "lost": lost,
        "duplicated": duplicated,
        "out_of_order": out_of_order,
        "reconnected_listeners": sum(1 for lst in listeners if lst.reconnects),
        "listener_errors": sum(len(lst.errors) for lst in listeners),
        "server_busy_retries": sum(lst.busy for lst in listeners),
        "example_errors": [e for lst in listeners for e in lst.errors][:3],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--listeners-per-game", type=int, default=10)
    parser.add_argument("--users", type=int, default=10, help="players (each plays games/users games)")
    parser.add_argument("--actions", type=int, default=3, help="moves per game")
    parser.add_argument("--concurrency", type=int, default=10, help="games moving at once")
    parser.add_argument("--stream-timeout", type=float, default=240)
    parser.add_argument("--connect-timeout", type=float, default=600)
    parser.add_argument("--warm", type=int, default=10,
                        help="streams opened and closed before the memory is read (the worker's fixed cost)")
    parser.add_argument("--reconnect-share", type=float, default=0.1)
    parser.add_argument("--spectate", action="store_true", help="the listeners are spectators (other users)")
    parser.add_argument("--spectator-users", type=int, default=50, help="spectator accounts (--spectate)")
    parser.add_argument("--output", default=None, help="default: results/stream_bench[_spectators].json")
    args, _ = parser.parse_known_args()
    args.workers = 1
    name = "stream_bench_spectators.json" if args.spectate else "stream_bench.json"
    args.output = args.output or str(ROOT / "tests/bench/results" / name)
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=2))
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    ok = report["lost"] == report["duplicated"] == report["out_of_order"] == report["listener_errors"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
