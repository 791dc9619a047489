"""config.postgresql: the production pool's connection check sends nothing for a healthy idle connection
and still finds (and replaces) a connection PostgreSQL ended."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.postgresql import base as pooled
from config.postgresql.base import check_connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgresql_only(reason="the connection pool and its check exist only for PostgreSQL"),
]


@pytest.fixture
def full_checks(monkeypatch):
    """Each time psycopg_pool's own check (one empty statement, a round trip) runs."""
    calls: list[object] = []
    original = ConnectionPool.check_connection

    def counted(conn):
        calls.append(conn)
        return original(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def _connect() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def _terminate(conn: psycopg.Connection) -> None:
    with _connect() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [conn.info.backend_pid])
    deadline = time.monotonic() + 5
    while pooled._nothing_to_read(conn.pgconn.socket) and time.monotonic() < deadline:
        time.sleep(0.01)  # PostgreSQL's goodbye reaches the socket


def test_a_healthy_idle_connection_is_handed_out_without_a_statement(full_checks):
    with _connect() as conn:
        conn.execute("SELECT 1")
        check_connection(conn)
        assert full_checks == []


def test_a_connection_in_a_transaction_gets_psycopg_pools_own_check(full_checks):
    with _connect() as conn:
        conn.autocommit = False
        conn.execute("SELECT 1")
        with pytest.raises(psycopg.ProgrammingError):  # as before: the pool never hands one out
            check_connection(conn)
        assert full_checks == [conn]


def test_a_connection_postgresql_ended_fails_the_check(full_checks):
    with _connect() as conn:
        _terminate(conn)
        with pytest.raises(psycopg.OperationalError):
            check_connection(conn)
        assert full_checks == [conn]


def test_the_pool_of_the_backend_replaces_a_connection_postgresql_ended():
    settings = {**connection.settings_dict, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": True}
    settings["OPTIONS"] = {**settings.get("OPTIONS", {}), "pool": {"min_size": 1, "max_size": 1}}
    wrapper = pooled.DatabaseWrapper(settings, alias="pool-check-test")
    pool = wrapper.pool
    try:
        assert pool._check is check_connection
        pool.open(wait=True)
        with pool.connection() as conn:
            first_pid = conn.info.backend_pid
        with pool.connection() as conn:  # the same, healthy: handed out again
            assert conn.info.backend_pid == first_pid
            kept = conn
        _terminate(kept)
        with pool.connection() as conn:  # the ended one failed the check: a new one
            assert conn.info.backend_pid != first_pid
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        wrapper.close_pool()
