"""Action commits per second with and without the event-bus notification, at 8, 32 and 64 concurrent writers.

PostgreSQL takes a global lock at commit for any transaction with a pending NOTIFY (so notifications keep
commit order): past some rate of concurrent writers, those commits serialise. This measures it on the
machine at hand, with the shape of an action's write (games/services/play.py): lock the game row, bump its
version, append a log row of about 1 KB, and wake the streams:

- `none`: no notification (the floor: what the database does without a bus);
- `pg_notify`: `SELECT pg_notify(channel, game)` inside the transaction (EVENT_BUS_URL="", the default);
- `redis`: a Redis PUBLISH after the commit (EVENT_BUS_URL=redis://...).

Each writer works on its own game (as separate games do), in 2 client processes of asyncio psycopg
connections; a listener (LISTEN, or a Redis SUBSCRIBE) drains the notifications as the streams would.
A throwaway database `bench_bus_<pid>` is created and dropped. Prints two tables: the end-to-end one
(Python clients, as the server's workers are) and, where `pgbench` is installed, the database alone (a C
client with 2 threads, the same transaction with and without `pg_notify`), which isolates the commit lock
from the clients' own CPU on a small machine.

    .venv/bin/python tests/bench/bus_bench.py [--seconds 5] [--writers 8,32,64] [--redis redis://127.0.0.1:6379/15]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import psycopg

CHANNEL = "bench_bus_game_log"
PAYLOAD = json.dumps({"event": "x" * 1000})


def _admin_dsn(base: str) -> str:
    return f"{base}/postgres"


async def _writer(dsn: str, game: int, mode: str, redis_url: str, stop_at: float, counts: list[int]) -> None:
    publisher = None
    if mode == "redis":
        import redis.asyncio as aioredis

        publisher = aioredis.Redis.from_url(redis_url)
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        seq = 0
        while time.monotonic() < stop_at:
            async with conn.transaction():
                cur = await conn.execute("SELECT version FROM game WHERE id = %s FOR UPDATE", (game,))
                (version,) = await cur.fetchone()
                await conn.execute("UPDATE game SET version = %s WHERE id = %s", (version + 1, game))
                seq += 1
                await conn.execute(
                    "INSERT INTO entry (game_id, seq, payload) VALUES (%s, %s, %s)", (game, seq, PAYLOAD)
                )
                if mode == "pg_notify":
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(game)))
            if publisher is not None:
                await publisher.publish(CHANNEL, str(game))
            counts[0] += 1
    if publisher is not None:
        await publisher.aclose()


def _client_process(dsn: str, games: list[int], mode: str, redis_url: str, start_at: float, seconds: float,
                    out: multiprocessing.Queue) -> None:
    async def main() -> int:
        counts = [0]
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop_at = time.monotonic() + seconds
        await asyncio.gather(*(_writer(dsn, g, mode, redis_url, stop_at, counts) for g in games))
        return counts[0]

    out.put(asyncio.run(main()))


async def _listen(dsn: str, mode: str, redis_url: str, stop: asyncio.Event, got: list[int]) -> None:
    if mode == "pg_notify":
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            gen = conn.notifies(timeout=0.2)
            while not stop.is_set():
                async for _ in gen:
                    got[0] += 1
                gen = conn.notifies(timeout=0.2)
    elif mode == "redis":
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url)
        async with client.pubsub() as pubsub:
            await pubsub.subscribe(CHANNEL)
            while not stop.is_set():
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
                if message is not None:
                    got[0] += 1
        await client.aclose()


def run_cell(dsn: str, mode: str, writers: int, seconds: float, redis_url: str) -> tuple[float, int]:
    """Commits per second with `writers` concurrent writers; and how many notifications the listener got."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE entry")
        conn.execute("UPDATE game SET version = 0")
    queue: multiprocessing.Queue = multiprocessing.Queue()
    start_at = time.time() + 1.0
    halves = [list(range(1, writers + 1))[i::2] for i in range(2)]
    procs = [
        multiprocessing.Process(target=_client_process,
                                args=(dsn, half, mode, redis_url, start_at, seconds, queue))
        for half in halves if half
    ]

    async def listen_while_running() -> int:
        stop = asyncio.Event()
        got = [0]
        task = asyncio.create_task(_listen(dsn, mode, redis_url, stop, got))
        for p in procs:
            p.start()
        while any(p.is_alive() for p in procs):
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)
        stop.set()
        await task
        return got[0]

    notified = asyncio.run(listen_while_running())
    total = sum(queue.get() for _ in procs)
    for p in procs:
        p.join()
    return total / seconds, notified


PGBENCH_SCRIPT = """\\set game :client_id + 1
BEGIN;
SELECT version FROM game WHERE id = :game FOR UPDATE;
UPDATE game SET version = version + 1 WHERE id = :game;
INSERT INTO entry (game_id, seq, payload) VALUES (:game, 0, '{payload}');
{notify}COMMIT;
"""


def pgbench_cell(pg: str, name: str, notify: bool, writers: int, seconds: float) -> float:
    """Transactions per second that pgbench measures: `writers` clients on their own games (row locks never
    contend: game = client id), with or without the NOTIFY."""
    script = PGBENCH_SCRIPT.format(
        payload=PAYLOAD, notify=f"SELECT pg_notify('{CHANNEL}', :game::text);\n" if notify else ""
    )
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as handle:
        handle.write(script)
    try:
        host = re.sub(r"^postgres(ql)?://", "", pg)
        user, _, hostport = host.rpartition("@")
        hostname, _, port = hostport.partition(":")
        out = subprocess.run(
            ["pgbench", "-n", "-h", hostname, "-p", port or "5432", "-U", user or "postgres",
             "-c", str(writers), "-j", "2", "-T", str(int(max(1, seconds))), "-f", handle.name, name],
            capture_output=True, text=True, check=True,
        ).stdout
    finally:
        os.unlink(handle.name)
    match = re.search(r"tps = ([0-9.]+)", out)
    return float(match.group(1)) if match else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", default="8,32,64")
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", "postgresql://postgres@127.0.0.1:5432"))
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/15"))
    args = parser.parse_args()
    writer_counts = [int(w) for w in args.writers.split(",")]
    name = f"bench_bus_{os.getpid()}"
    with psycopg.connect(_admin_dsn(args.pg), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = f"{args.pg}/{name}"
    modes = ["none", "pg_notify", "redis"]
    try:
        import redis

        redis.Redis.from_url(args.redis, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - report and measure the PostgreSQL rows only
        print(f"(no Redis at {args.redis}: {exc}; the redis column is left out)")
        modes.remove("redis")
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE TABLE game (id int PRIMARY KEY, version int NOT NULL)")
            conn.execute("CREATE TABLE entry (id bigserial PRIMARY KEY, game_id int NOT NULL,"
                         " seq int NOT NULL, payload jsonb NOT NULL)")
            conn.execute("CREATE INDEX ON entry (game_id, seq)")
            conn.execute("INSERT INTO game SELECT g, 0 FROM generate_series(1, %s) g", (max(writer_counts),))
            sync = conn.execute("SHOW synchronous_commit").fetchone()[0]
        print(f"action commits per second, {args.seconds:g} s per cell, 2 client processes, "
              f"synchronous_commit={sync}, {os.cpu_count()} cores")
        header = f"{'writers':>8} " + " ".join(f"{m:>16}" for m in modes) + "   notify/none   redis/none"
        print(header)
        for writers in writer_counts:
            rates = {}
            for mode in modes:
                rate, notified = run_cell(dsn, mode, writers, args.seconds, args.redis)
                rates[mode] = rate
                if mode != "none" and notified < rate * args.seconds * 0.99:
                    print(f"  ({mode}: the listener got {notified} notifications of "
                          f"{rate * args.seconds:.0f} commits)")
            cells = " ".join(f"{rates[m]:>14.0f}/s" for m in modes)
            ratio_pg = rates["pg_notify"] / rates["none"] if rates["none"] else 0.0
            ratio_redis = (rates["redis"] / rates["none"]) if "redis" in rates and rates["none"] else 0.0
            print(f"{writers:>8} {cells}   {ratio_pg:>10.2f}x  {ratio_redis:>10.2f}x", flush=True)
        if shutil.which("pgbench"):
            print("the database alone (pgbench, 2 threads; redis's database work is the `none` column)")
            print(f"{'writers':>8} {'none':>16} {'pg_notify':>16}   notify/none")
            for writers in writer_counts:
                none = pgbench_cell(args.pg, name, False, writers, args.seconds)
                notify = pgbench_cell(args.pg, name, True, writers, args.seconds)
                ratio = notify / none if none else 0.0
                print(f"{writers:>8} {none:>14.0f}/s {notify:>14.0f}/s   {ratio:>10.2f}x", flush=True)
    finally:
        with psycopg.connect(_admin_dsn(args.pg), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
