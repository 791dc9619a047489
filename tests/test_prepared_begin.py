"""A transaction's BEGIN sent with its first statement (config.prepared.begun_with_next_statement, issue 42):
on PostgreSQL a prepared query that opens an atomic block's transaction (the action POST's row lock) costs
one round trip instead of two (psycopg sends BEGIN alone before it). What each test reads off the wire is
libpq's own trace of the connection: what the client sent, what the server answered.

The transaction it opens is the atomic block's, as if psycopg had begun it: the row stays locked until the
block ends, the block's exit commits or rolls back, a failing statement is Django's error and leaves the
connection usable, and nothing changes outside an atomic block or for a transaction already begun."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction

from config.prepared import PreparedQuery

REASON = "round trips and the BEGIN psycopg sends are PostgreSQL's; SQLite runs in process"

pytestmark = [pytest.mark.postgresql_only(reason=REASON), pytest.mark.django_db(transaction=True)]

LOCKED_USER = PreparedQuery(lambda pk: User.objects.select_for_update().filter(pk=pk), sentinel=-424_242)
USER = PreparedQuery(lambda pk: User.objects.filter(pk=pk), sentinel=-424_243)


@contextmanager
def traced() -> Iterator[list[list[str]]]:
    """libpq's trace of Django's connection while the block runs, as round trips: each the messages the
    client sent (F lines) before the server's answers (B lines). Filled when the block ends."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    trips: list[list[str]] = []
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
        try:
            yield trips
        finally:
            pgconn.untrace()
        trace.seek(0)
        sending = False
        for line in trace.read().splitlines():
            direction, _, message = line.split("\t", 2)
            if direction == "F":
                if not sending:
                    trips.append([])
                    sending = True
                trips[-1].append(message)
            else:
                sending = False


def _begins(trip: list[str]) -> bool:
    return any('"BEGIN"' in message for message in trip)


@pytest.fixture
def bob():
    return User.objects.create_user("bob-begin", password="x")


def _second_connection(**options) -> psycopg.Connection:
    """A connection of its own to the test database (Django's parameters, without its cursor class)."""
    params = {k: v for k, v in connection.get_connection_params().items() if k != "cursor_factory"}
    return psycopg.connect(**params, **options)


def _other_connection_may_lock(pk: int) -> bool:
    """Whether a second connection can lock the user's row right now (NOWAIT: no waiting)."""
    with _second_connection(autocommit=True) as other:
        try:
            other.execute("SELECT 1 FROM auth_user WHERE id = %s FOR UPDATE NOWAIT", [pk])
        except psycopg.errors.LockNotAvailable:
            return False
        return True


def test_a_transactions_first_prepared_query_takes_its_begin_along_in_one_round_trip(bob):
    with traced() as trips, transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
    assert row.username == "bob-begin"
    assert len(trips) == 2, trips  # BEGIN with the locked read; COMMIT
    assert _begins(trips[0]) and any("FOR UPDATE" in m for m in trips[0])
    assert trips[1] == ['Query\t "COMMIT"']


def test_without_it_begin_costs_a_round_trip_of_its_own(bob):
    """The reference: psycopg's own BEGIN, before a statement that is not a prepared query's."""
    with traced() as trips, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE", [bob.pk])
    assert trips[0] == ['Query\t "BEGIN"']
    assert len(trips) == 3  # BEGIN; the locked read; COMMIT


def test_the_row_stays_locked_until_the_block_ends_and_the_block_commits(bob):
    with transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        assert connection.connection.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert not _other_connection_may_lock(bob.pk)
        User.objects.filter(pk=bob.pk).update(first_name="Committed")
    assert _other_connection_may_lock(bob.pk)
    assert User.objects.get(pk=bob.pk).first_name == "Committed"
    assert connection.get_autocommit() and connection.connection.autocommit


def test_an_error_in_the_block_rolls_back_what_it_wrote(bob):
    with pytest.raises(RuntimeError), transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        User.objects.filter(pk=bob.pk).update(first_name="Lost")
        raise RuntimeError("after the write")
    assert User.objects.get(pk=bob.pk).first_name == ""
    assert _other_connection_may_lock(bob.pk)


def test_a_failing_statement_is_djangos_error_and_the_connection_goes_on(bob):
    """The locked read waits on a row another connection holds until the session's lock_timeout: the
    server's error comes back with the pipeline's answers, as Django's OperationalError, and the block's
    exit rolls back; the connection serves the next block."""
    with _second_connection() as other:
        other.execute("SELECT 1 FROM auth_user WHERE id = %s FOR UPDATE", [bob.pk])  # held until it ends
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '50ms'")
        try:
            with pytest.raises(OperationalError, match="lock"), transaction.atomic():
                LOCKED_USER.rows(bob.pk)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    assert connection.connection.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
    assert row.pk == bob.pk


def test_outside_an_atomic_block_or_once_begun_nothing_changes(bob):
    with traced() as trips:
        USER.rows(bob.pk)
    assert not any(_begins(t) for t in trips) and len(trips) == 1
    with transaction.atomic():
        User.objects.filter(pk=bob.pk).update(last_name="First")  # psycopg's BEGIN, then this
        with traced() as trips:
            LOCKED_USER.rows(bob.pk)
    assert not any(_begins(t) for t in trips) and len(trips) == 1


def test_a_libpq_without_pipelines_keeps_psycopgs_own_begin(bob, monkeypatch):
    """psycopg built on a libpq older than 14 has no pipeline mode: the statement runs as before."""
    from config import prepared

    monkeypatch.setattr(prepared, "_pipelines_supported", lambda: False)
    with traced() as trips, transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
    assert row.pk == bob.pk
    assert trips[0] == ['Query\t "BEGIN"'] and len(trips) == 3
