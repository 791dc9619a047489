"""A transaction's BEGIN sent with its first statement (config.prepared.begun_with_next_statement, issue 42):
on PostgreSQL a prepared query that opens an atomic block's transaction (the action POST's row lock) costs
one round trip instead of two (psycopg sends BEGIN alone before it). What each test reads off the wire is
libpq's own trace of the connection: what the client sent, what the server answered.

The transaction it opens is the atomic block's, as if psycopg had begun it: the row stays locked until the
block ends, the block's exit commits or rolls back, a failing statement is Django's error and leaves the
connection usable, and nothing changes outside an atomic block or for a transaction already begun."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, OperationalError, connection, transaction

from config.prepared import PreparedQuery, commits_with_statement, executed_and_committed

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
    return any(re.search(r"\bBEGIN\b", message) for message in trip)


@pytest.fixture(params=[None, 2], ids=["pipelined", "prepared"])
def prepares(request):
    """The connection's prepare_threshold: None (Django's default: BEGIN and the statement in one pipeline,
    begun_with_next_statement) or 2 (production's: one query `BEGIN; EXECUTE`, the statement prepared on
    the server, begun_with_prepared_statement)."""
    connection.ensure_connection()
    pg = connection.connection
    before = pg.prepare_threshold
    pg.prepare_threshold = request.param
    yield request.param
    pg.prepare_threshold = before


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


def test_a_transactions_first_prepared_query_takes_its_begin_along_in_one_round_trip(bob, prepares):
    with traced() as trips, transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
    assert row.username == "bob-begin"
    assert len(trips) == 2, trips  # BEGIN with the locked read; COMMIT
    assert _begins(trips[0]) and any("FOR UPDATE" in m for m in trips[0])
    assert trips[1] == ['Query\t "COMMIT"']


@pytest.mark.parametrize("prepares", [2], indirect=True)
def test_with_statements_prepared_begin_and_the_read_are_one_query_prepared_once(bob, prepares):
    """Production (a prepare_threshold): one simple query, `PREPARE name AS <the locked read>; BEGIN;
    EXECUTE name(<values>)` the first time on the connection, then `BEGIN; EXECUTE name(<values>)`."""
    carol = User.objects.create_user("carol-begin", password="x")
    with traced() as first, transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
    assert row.username == "bob-begin"
    (query,) = first[0]
    assert query.startswith("Query")
    assert re.search(r"PREPARE (\w+) AS .*FOR UPDATE.*; BEGIN; EXECUTE \1\(", query)
    with traced() as second, transaction.atomic():
        (row,) = LOCKED_USER.rows(carol.pk)
    assert row.username == "carol-begin"  # the value bound anew, the statement the same
    assert len(second) == 2 and second[1] == ['Query\t "COMMIT"']
    (query,) = second[0]
    assert "PREPARE" not in query and "FOR UPDATE" not in query
    assert re.fullmatch(rf'Query\t "BEGIN; EXECUTE bc_prepared_\d+\({carol.pk}(::int\w*)?\)"', query), query


def test_a_prepared_statements_values_are_sql_literals_whatever_they_hold(prepares):
    """The values written into `EXECUTE name(...)` are psycopg's literals: quotes, backslashes, percent
    signs and semicolons are data, never SQL."""
    odd = "o'brien; DROP TABLE auth_user; -- 100% \\ %s"
    User.objects.create_user(odd, password="x")
    by_name = PreparedQuery(lambda name: User.objects.select_for_update().filter(username=name),
                            sentinel="prepared-begin-name")
    for _ in range(2):  # prepared, then executed again
        with transaction.atomic():
            (row,) = by_name.rows(odd)
            assert row.username == odd
        with transaction.atomic():
            assert by_name.rows("nobody'") == []
    assert User.objects.filter(username=odd).exists()


def test_without_it_begin_costs_a_round_trip_of_its_own(bob):
    """The reference: psycopg's own BEGIN, before a statement that is not a prepared query's."""
    with traced() as trips, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE", [bob.pk])
    assert trips[0] == ['Query\t "BEGIN"']
    assert len(trips) == 3  # BEGIN; the locked read; COMMIT


def test_the_row_stays_locked_until_the_block_ends_and_the_block_commits(bob, prepares):
    with transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        assert connection.connection.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert not _other_connection_may_lock(bob.pk)
        User.objects.filter(pk=bob.pk).update(first_name="Committed")
    assert _other_connection_may_lock(bob.pk)
    assert User.objects.get(pk=bob.pk).first_name == "Committed"
    assert connection.get_autocommit() and connection.connection.autocommit


def test_an_error_in_the_block_rolls_back_what_it_wrote(bob, prepares):
    with pytest.raises(RuntimeError), transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        User.objects.filter(pk=bob.pk).update(first_name="Lost")
        raise RuntimeError("after the write")
    assert User.objects.get(pk=bob.pk).first_name == ""
    assert _other_connection_may_lock(bob.pk)


def test_a_failing_statement_is_djangos_error_and_the_connection_goes_on(bob, prepares):
    """The locked read waits on a row another connection holds until the session's lock_timeout: the
    server's error comes back with the pipeline's (or the query's) answers, as Django's OperationalError, and
    the block's exit rolls back; the connection serves the next block (prepared: under a new name, as the
    failed query's PREPARE may be done)."""
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


def test_outside_an_atomic_block_or_once_begun_nothing_changes(bob, prepares):
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


@pytest.mark.parametrize("prepares", [2], indirect=True)
@pytest.mark.parametrize("statement", ["DEALLOCATE ALL", "DISCARD ALL"])
def test_a_prepared_statement_gone_from_the_session_is_prepared_again(bob, prepares, statement):
    """Something ran DEALLOCATE ALL or DISCARD ALL on the connection (a pooler's reset, an operator): the
    next locked read finds its statement gone, rolls back the transaction it began and prepares it again,
    inside the same atomic block."""
    with transaction.atomic():
        LOCKED_USER.rows(bob.pk)
    with connection.cursor() as cursor:
        cursor.execute(statement)
    with traced() as trips, transaction.atomic():
        (row,) = LOCKED_USER.rows(bob.pk)
        assert not _other_connection_may_lock(bob.pk)
        User.objects.filter(pk=bob.pk).update(first_name="Again")
    assert row.pk == bob.pk
    sent = [m.split("\t")[1].split()[0] for t in trips for m in t]
    assert sent == ['"BEGIN;', '"ROLLBACK"', '"PREPARE', '"UPDATE', '"COMMIT"'], trips
    assert User.objects.get(pk=bob.pk).first_name == "Again"
    assert _other_connection_may_lock(bob.pk)


RENAME = "UPDATE auth_user SET first_name = %s WHERE id = %s RETURNING id, first_name"


@pytest.mark.parametrize("prepares", [2], indirect=True)
def test_the_transactions_last_statement_carries_its_commit(bob, prepares):
    """executed_and_committed: `EXECUTE name(...); COMMIT` in one query; the block's exit sends no second
    COMMIT and runs its on_commit callbacks; what it wrote is everybody's at once."""
    committed = []
    with traced() as trips, transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        transaction.on_commit(lambda: committed.append(True))
        assert commits_with_statement(connection)
        row = executed_and_committed(connection, RENAME, ["Folded", bob.pk])
        assert row == (bob.pk, "Folded")
        assert _other_connection_may_lock(bob.pk)  # committed: the row's lock is gone
        assert committed == []  # the callbacks run at the block's exit, as ever
    assert committed == [True]
    assert len(trips) == 2, trips  # BEGIN with the locked read; the write with COMMIT: no third trip
    (query,) = trips[1]
    folded = r"PREPARE (\w+) AS UPDATE .*; EXECUTE \1\('Folded', \d+(::int\w*)?\); COMMIT\"$"
    assert re.search(folded, query), query
    with transaction.atomic():  # prepared once: the next time only EXECUTE
        LOCKED_USER.rows(bob.pk)
        with traced() as trips:
            executed_and_committed(connection, RENAME, ["Again", bob.pk])
    assert "PREPARE" not in trips[0][0] and trips[0][0].endswith('; COMMIT"')
    assert User.objects.get(pk=bob.pk).first_name == "Again"
    assert connection.get_autocommit() and connection.connection.autocommit


def test_only_a_transaction_it_began_for_the_outermost_block_may_carry_its_commit(bob, prepares):
    assert not commits_with_statement(connection)  # no block
    with transaction.atomic():
        User.objects.filter(pk=bob.pk).update(last_name="First")  # psycopg's own BEGIN
        LOCKED_USER.rows(bob.pk)
        assert not commits_with_statement(connection)
    with transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        assert commits_with_statement(connection) == (prepares is not None)  # the pipelined BEGIN: not it
        with transaction.atomic():  # a savepoint: an inner block's statement is never the last
            assert not commits_with_statement(connection)


@pytest.mark.parametrize("prepares", [2], indirect=True)
def test_a_commit_that_fails_is_djangos_error_and_nothing_is_written(bob, prepares):
    """A deferred foreign key fails at the COMMIT the statement carries: Django's IntegrityError, the
    transaction rolled back, the connection usable."""
    add_group = "INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s) RETURNING id"
    with pytest.raises(IntegrityError), transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        executed_and_committed(connection, add_group, [bob.pk, 987_654])
    assert connection.connection.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert not bob.groups.exists() and _other_connection_may_lock(bob.pk)
    with transaction.atomic():
        LOCKED_USER.rows(bob.pk)
        executed_and_committed(connection, RENAME, ["After", bob.pk])
    assert User.objects.get(pk=bob.pk).first_name == "After"
