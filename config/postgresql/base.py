"""Django's PostgreSQL backend, whose connection pool checks a connection before handing it out without a
round trip when nothing shows it is broken (production settings, DB_POOL: ENGINE "config.postgresql").

With CONN_HEALTH_CHECKS, Django's pool checks every connection it hands out with psycopg_pool's
`check_connection`: an empty statement sent and answered, one round trip to PostgreSQL in every request that
touches the database (issue 42: the action POST's fourth statement, beside the token's row, the lock and the
write). Here that check runs only when the connection shows something: not idle, not OK, or data waiting on
its socket. A connection PostgreSQL ended (pg_terminate_backend, a restart, a shutdown) has PostgreSQL's
error and the end of the stream waiting on its socket, so it is checked as before and dropped; an idle healthy
one has nothing to read, since PostgreSQL sends nothing unasked to a connection that listens to no channel.
A host that vanished without closing the connection (a partition) shows nothing either: the request's first
statement then fails after the keepalive and TCP user timeouts (production settings) instead of the check
failing after them, and is a 503 `database_unavailable` (config.middleware).
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool

__all__ = ["DatabaseWrapper", "check_connection"]


def _nothing_to_read(fileno: int) -> bool:
    poller = select.poll()
    poller.register(fileno, select.POLLIN | select.POLLPRI)
    return not poller.poll(0)


def check_connection(conn: Any) -> None:
    """The pool's `check`: quiet when the connection is idle, OK and has nothing waiting to be read;
    otherwise psycopg_pool's own check (an empty statement), which raises when the connection is broken."""
    pgconn = conn.pgconn
    if (
        pgconn.status == pq.ConnStatus.OK
        and pgconn.transaction_status == pq.TransactionStatus.IDLE
        and _nothing_to_read(pgconn.socket)
    ):
        return
    ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        # Django gives the pool psycopg_pool's check when CONN_HEALTH_CHECKS is on (and no way to give
        # another): it is replaced once, right after the pool is made, before the pool is opened.
        if pool is not None and getattr(pool, "_check", None) not in (None, check_connection):
            pool._check = check_connection
        return pool
