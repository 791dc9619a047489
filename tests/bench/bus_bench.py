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

Bounded (issue 42: it hung when PostgreSQL ran out of connections at 64 writers): a cell runs only when the
server has the connections for it (its writers + the listener + --spare-connections left to everyone else;
else it is skipped and said so), every connection has a connect timeout and a statement timeout, a cell
stops after its seconds + CELL_GRACE_SECONDS whatever happens, an error in any client process or in the
listener stops the cell's processes at once, and the whole run stops at --deadline. The throwaway database is
dropped in every case; the exit status is 1 when a cell was skipped, failed or cut by the deadline.

    .venv/bin/python tests/bench/bus_bench.py [--seconds 5] [--writers 8,32,64] [--redis redis://127.0.0.1:6379/15]
        [--deadline 600] [--spare-connections 10]
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
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
CONNECT_TIMEOUT = 5  # seconds, every PostgreSQL and Redis connection
STATEMENT_TIMEOUT_MS = 10_000  # no statement of the bench waits on another: a longer one is a stuck server
CELL_GRACE_SECONDS = 20.0  # a cell's processes start, connect and report within this beyond its seconds
CONNECT_ARGS = {"connect_timeout": CONNECT_TIMEOUT, "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}"}


class BenchError(Exception):
    """A cell could not run or finish: the bench stops it (and reports) instead of waiting."""
PAYLOAD = json.dumps({"event": "x" * 1000})


def drop_database(pg: str, name: str, attempts: int = 6) -> None:
    """Drop the run's database, trying again for a few seconds: DROP DATABASE ... WITH (FORCE) gives up when
    the backends it ends take over 5 s to go (a loaded machine), and the server may have no connection slot
    free for a moment (its clients' connections are still closing)."""
    for attempt in range(attempts):
        try:
            with psycopg.connect(_admin_dsn(pg), autocommit=True, **CONNECT_ARGS) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.OperationalError as exc:  # ObjectInUse, or too many clients
            if attempt == attempts - 1:
                raise
            print(f"dropping {name} failed ({type(exc).__name__}: {str(exc).strip()}); again", flush=True)
            time.sleep(1 + attempt)


def _admin_dsn(base: str) -> str:
    return f"{base}/postgres"


async def _writer(dsn: str, game: int, mode: str, redis_url: str, stop_at: float, counts: list[int]) -> None:
    publisher = None
    if mode == "redis":
        import redis.asyncio as aioredis

        publisher = aioredis.Redis.from_url(redis_url, socket_connect_timeout=CONNECT_TIMEOUT,
                                            socket_timeout=CONNECT_TIMEOUT)
    async with await psycopg.AsyncConnection.connect(dsn, **CONNECT_ARGS) as conn:
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

    try:
        out.put(("ok", asyncio.run(main())))
    except BaseException as exc:  # noqa: BLE001 - any failure is reported, so the parent stops at once
        out.put(("error", f"{type(exc).__name__}: {exc}"))


async def _listen(dsn: str, mode: str, redis_url: str, stop: asyncio.Event, got: list[int]) -> None:
    if mode == "pg_notify":
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True, **CONNECT_ARGS) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            gen = conn.notifies(timeout=0.2)
            while not stop.is_set():
                async for _ in gen:
                    got[0] += 1
                gen = conn.notifies(timeout=0.2)
    elif mode == "redis":
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url, socket_connect_timeout=CONNECT_TIMEOUT,
                                         socket_timeout=CONNECT_TIMEOUT)
        async with client.pubsub() as pubsub:
            await pubsub.subscribe(CHANNEL)
            while not stop.is_set():
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
                if message is not None:
                    got[0] += 1
        await client.aclose()


def free_connections(dsn: str) -> int:
    """Connections the server takes now from an ordinary client (max_connections less the reserved ones
    and those open)."""
    with psycopg.connect(dsn, autocommit=True, **CONNECT_ARGS) as conn:
        return conn.execute(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int - count(*) FROM pg_stat_activity"
        ).fetchone()[0]


def run_cell(dsn: str, mode: str, writers: int, seconds: float, redis_url: str,
             deadline: float | None = None) -> tuple[float, int]:
    """Commits per second with `writers` concurrent writers; and how many notifications the listener got.

    Raises BenchError (after stopping every process it started) when a client process or the listener
    fails, or the cell runs past its seconds + CELL_GRACE_SECONDS or past `deadline` (time.monotonic())."""
    with psycopg.connect(dsn, autocommit=True, **CONNECT_ARGS) as conn:
        conn.execute("TRUNCATE entry")
        conn.execute("UPDATE game SET version = 0")
    queue: multiprocessing.Queue = multiprocessing.Queue()
    start_at = time.time() + 1.0
    halves = [list(range(1, writers + 1))[i::2] for i in range(2)]
    procs = [
        multiprocessing.Process(target=_client_process,
                                args=(dsn, half, mode, redis_url, start_at, seconds, queue), daemon=True)
        for half in halves if half
    ]
    cell_ends = time.monotonic() + 1.0 + seconds + CELL_GRACE_SECONDS
    if deadline is not None:
        cell_ends = min(cell_ends, deadline)

    async def listen_while_running() -> tuple[int, int]:
        stop = asyncio.Event()
        got = [0]
        task = asyncio.create_task(_listen(dsn, mode, redis_url, stop, got))
        results: list[tuple[str, object]] = []
        try:
            for p in procs:
                p.start()
            while len(results) < len(procs):
                while not queue.empty():
                    results.append(queue.get_nowait())
                errors = [str(detail) for kind, detail in results if kind == "error"]
                if errors:
                    raise BenchError(f"a client process failed: {errors[0]}")
                if task.done() and task.exception() is not None:
                    raise BenchError(f"the listener failed: {task.exception()!r}")
                if len(results) < len(procs) and not any(p.is_alive() for p in procs) and queue.empty():
                    raise BenchError("a client process ended without a result")
                if time.monotonic() > cell_ends:
                    raise BenchError(f"the cell ran past its {seconds:g} s + {CELL_GRACE_SECONDS:g} s"
                                     " or the run's deadline")
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
        finally:
            stop.set()
            for p in procs:
                if p.is_alive():
                    p.terminate()
            with contextlib.suppress(Exception):  # the listener's own error was reported above
                await asyncio.wait_for(task, timeout=CONNECT_TIMEOUT)
        return sum(int(count) for _, count in results), got[0]

    try:
        total, notified = asyncio.run(listen_while_running())
    finally:
        for p in procs:
            p.join(timeout=CONNECT_TIMEOUT)
            if p.is_alive():
                p.kill()
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
            capture_output=True, text=True, check=True, timeout=seconds + CELL_GRACE_SECONDS,
        ).stdout
    finally:
        os.unlink(handle.name)
    match = re.search(r"tps = ([0-9.]+)", out)
    return float(match.group(1)) if match else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", default="8,32,64")
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", "postgresql://postgres@127.0.0.1:5432"))
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/15"))
    parser.add_argument("--deadline", type=float, default=600.0, help="seconds for the whole run, at most")
    parser.add_argument("--spare-connections", type=int, default=10,
                        help="PostgreSQL connections always left to the server's other clients")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.deadline
    writer_counts = [int(w) for w in args.writers.split(",")]
    name = f"bench_bus_{os.getpid()}"
    with psycopg.connect(_admin_dsn(args.pg), autocommit=True, **CONNECT_ARGS) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = f"{args.pg}/{name}"
    modes = ["none", "pg_notify", "redis"]
    try:
        import redis

        redis.Redis.from_url(args.redis, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - report and measure the PostgreSQL rows only
        print(f"(no Redis at {args.redis}: {exc}; the redis column is left out)")
        modes.remove("redis")
    failed = False

    def room_for(writers: int, extra: int) -> bool:
        nonlocal failed
        free = free_connections(dsn)
        if free - args.spare_connections >= writers + extra:
            return True
        print(f"{writers:>8}   skipped: needs {writers + extra} connections, the server has {free} free"
              f" (of which {args.spare_connections} are left to others)", flush=True)
        failed = True
        return False

    def time_left(cell_seconds: float) -> bool:
        nonlocal failed
        if time.monotonic() + cell_seconds <= deadline:
            return True
        print(f"stopped: the run's --deadline of {args.deadline:g} s comes before the next cell ends",
              flush=True)
        failed = True
        return False

    try:
        with psycopg.connect(dsn, autocommit=True, **CONNECT_ARGS) as conn:
            conn.execute("CREATE TABLE game (id int PRIMARY KEY, version int NOT NULL)")
            conn.execute("CREATE TABLE entry (id bigserial PRIMARY KEY, game_id int NOT NULL,"
                         " seq int NOT NULL, payload jsonb NOT NULL)")
            conn.execute("CREATE INDEX ON entry (game_id, seq)")
            conn.execute("INSERT INTO game SELECT g, 0 FROM generate_series(1, %s) g", (max(writer_counts),))
            sync = conn.execute("SHOW synchronous_commit").fetchone()[0]
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"action commits per second, {args.seconds:g} s per cell, 2 client processes, "
              f"synchronous_commit={sync}, {os.cpu_count()} cores, load average {load}")
        header = f"{'writers':>8} " + " ".join(f"{m:>16}" for m in modes) + "   notify/none   redis/none"
        print(header)
        for writers in writer_counts:
            if not time_left(len(modes) * (args.seconds + 2)):
                break
            if not room_for(writers, extra=2):  # the writers, the listener, this process's own check
                continue
            rates = {}
            try:
                for mode in modes:
                    rate, notified = run_cell(dsn, mode, writers, args.seconds, args.redis, deadline)
                    rates[mode] = rate
                    if mode != "none" and notified < rate * args.seconds * 0.99:
                        print(f"  ({mode}: the listener got {notified} notifications of "
                              f"{rate * args.seconds:.0f} commits)")
            except BenchError as exc:
                print(f"{writers:>8}   stopped: {exc}", flush=True)
                failed = True
                continue
            cells = " ".join(f"{rates[m]:>14.0f}/s" for m in modes)
            ratio_pg = rates["pg_notify"] / rates["none"] if rates["none"] else 0.0
            ratio_redis = (rates["redis"] / rates["none"]) if "redis" in rates and rates["none"] else 0.0
            print(f"{writers:>8} {cells}   {ratio_pg:>10.2f}x  {ratio_redis:>10.2f}x", flush=True)
        if shutil.which("pgbench"):
            print("the database alone (pgbench, 2 threads; redis's database work is the `none` column)")
            print(f"{'writers':>8} {'none':>16} {'pg_notify':>16}   notify/none")
            for writers in writer_counts:
                if not time_left(2 * (args.seconds + 2)) or not room_for(writers, extra=1):
                    continue
                try:
                    none = pgbench_cell(args.pg, name, False, writers, args.seconds)
                    notify = pgbench_cell(args.pg, name, True, writers, args.seconds)
                except (subprocess.SubprocessError, OSError) as exc:
                    print(f"{writers:>8}   stopped: pgbench: {exc}", flush=True)
                    failed = True
                    continue
                ratio = notify / none if none else 0.0
                print(f"{writers:>8} {none:>14.0f}/s {notify:>14.0f}/s   {ratio:>10.2f}x", flush=True)
    finally:
        drop_database(args.pg, name)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
