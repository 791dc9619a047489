"""Where the machine's CPU goes while a row of the HTTP bench runs against `make serve`'s layout: the CPU time
of each group of processes (the API's gunicorn workers, PostgreSQL, nginx, Redis, this client) read from /proc
around the row, per timed request, beside the whole machine's busy time from /proc/stat (issue 42: the action
POST's served cost against its cost in process, tests/bench/view_cpu.py).

    .venv/bin/python tests/bench/cpu_split.py --layout front --workers 2
    GUNICORN_THREADS=1 .venv/bin/python tests/bench/cpu_split.py --layout front --workers 2

Rows: the trivial view and the action POST answered by the bot, as http_bench.py --issue-26 sends them (16
clients; a finished game is replaced by a new one, untimed, but its CPU is counted), `--rounds` times each.
Linux only (/proc); the machine should be otherwise idle, since every process is counted in a group.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import http_bench  # noqa: E402
from live_server import add_arguments, proc_cpu, running_server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _group(pid: int, name: str, command: str) -> str:
    if pid == os.getpid():
        return "client (this process)"
    if name.startswith("postgres"):
        return "postgres"
    if name.startswith("nginx"):
        return "nginx"
    if "redis" in name:
        return "redis"
    if "gunicorn" in command:
        return "gunicorn (streams)" if "gunicorn_worker.Worker" in command else "gunicorn (api)"
    return "other"


def process_cpu() -> dict[tuple[str, int], float]:
    """(group, pid) -> CPU seconds (user + system) of every process now running."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        name, ticks = proc_cpu(text)
        pid = int(stat.parent.name)
        found[(_group(pid, name, command), pid)] = ticks / TICK
    return found


def machine_cpu() -> tuple[float, float]:
    """(all, idle) CPU seconds of the machine since boot (/proc/stat's first line; idle with iowait)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values) / TICK, (values[3] + values[4]) / TICK


async def measure(label: str, row: Any) -> dict[str, Any]:
    before, (all0, idle0) = process_cpu(), machine_cpu()
    result = await row()
    after, (all1, idle1) = process_cpu(), machine_cpu()
    spent: dict[str, float] = {}
    for key, seconds in after.items():
        spent[key[0]] = spent.get(key[0], 0.0) + seconds - before.get(key, 0.0)
    n = max(1, result["requests"])
    return {"row": label, "rps": result["rps"], "requests": result["requests"],
            "machine_busy_ms": round(1e3 * ((all1 - all0) - (idle1 - idle0)) / n, 2),
            "idle_percent": round(100 * (idle1 - idle0) / max(1e-9, all1 - all0)),
            "ms_per_request": {g: round(1e3 * s / n, 2)
                               for g, s in sorted(spent.items(), key=lambda kv: -kv[1]) if s > 0}}


async def run(args: argparse.Namespace) -> None:
    with running_server(args) as url:
        connector = aiohttp.TCPConnector(limit=args.concurrency + 4)
        async with aiohttp.ClientSession(connector=connector) as session:
            data = await http_bench.setup_data(session, url)
            rows = {
                "trivial view": lambda: http_bench.load(session, url, "GET", "/bench/trivial/", None, {},
                                                        args.seconds, args.concurrency),
                "action POST answered by the bot": lambda: http_bench.concurrent_actions(
                    session, url, data, args.seconds, args.concurrency),
            }
            for label, row in rows.items():
                for _ in range(args.rounds):
                    m = await measure(label, row)
                    parts = ", ".join(f"{g} {v}" for g, v in m["ms_per_request"].items())
                    print(f"{label}: {m['rps']} req/s; machine busy {m['machine_busy_ms']} ms a request "
                          f"({m['idle_percent']} % idle); CPU ms a request: {parts}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
