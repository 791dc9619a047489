"""bus_bench.py stops by itself (issue 42 item 5: it hung when PostgreSQL ran out of connections at 64
writers: a client process died without a result and the parent waited for it forever).

Needs the PostgreSQL server at BENCH_PG (default postgresql://postgres@127.0.0.1:5432); skipped without one,
except in CI. Each test makes and drops a throwaway database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

BENCH = Path(__file__).resolve().parent / "bus_bench.py"
PG = os.environ.get("BENCH_PG", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture
def pg():
    try:
        psycopg.connect(f"{PG}/postgres", connect_timeout=2).close()
    except psycopg.OperationalError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL at {PG}")
    return PG


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The command's result; its process id in `.pid` (bus_bench.py names its database after it)."""
    with subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, cwd=BENCH.parent) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    done.pid = proc.pid  # type: ignore[attr-defined]
    return done


def _bench_databases(pg: str) -> set[str]:
    with psycopg.connect(f"{pg}/postgres") as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'bench_bus_%'")
        return {r[0] for r in rows}


def test_a_client_process_that_fails_stops_the_cell_at_once(pg):
    name = f"bench_bus_broken_{os.getpid()}"
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        with psycopg.connect(f"{pg}/{name}", autocommit=True) as conn:  # no game rows: every writer fails
            conn.execute("CREATE TABLE game (id int PRIMARY KEY, version int NOT NULL)")
            conn.execute("CREATE TABLE entry (game_id int, seq int, payload jsonb)")
        script = (
            "import bus_bench, sys\n"
            "try:\n"
            f"    bus_bench.run_cell({f'{pg}/{name}'!r}, 'none', 4, 1.0, 'redis://127.0.0.1:1/0')\n"
            "except bus_bench.BenchError as exc:\n"
            "    print('stopped:', exc); sys.exit(3)\n"
        )
        began = time.monotonic()
        done = _run("-c", script, timeout=30)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "a client process failed" in done.stdout
        assert time.monotonic() - began < 15
    finally:
        with psycopg.connect(f"{pg}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_more_writers_than_the_server_has_connections_are_skipped_and_the_run_ends(pg):
    done = _run(str(BENCH), "--pg", pg, "--writers", "2,1000", "--seconds", "0.5", "--deadline", "60",
                timeout=90)
    assert done.returncode == 1, done.stdout + done.stderr  # a cell was skipped: not a clean run
    lines = done.stdout.splitlines()
    measured = [line for line in lines if line.split()[:1] == ["2"] and line.rstrip().endswith("x")]
    assert measured, done.stdout  # the cell that fits still ran
    assert any(line.split()[:2] == ["1000", "skipped:"] for line in lines), done.stdout
    assert "load average" in done.stdout
    # its throwaway database is gone (only its own: another test may hold one of its own meanwhile)
    assert f"bench_bus_{done.pid}" not in _bench_databases(pg), done.stdout + done.stderr
