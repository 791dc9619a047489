"""A model query of a fixed shape compiled to SQL once per process, run many times with another value.

Django builds the SQL of a queryset afresh at every evaluation; for a wide select_related (the game row lock
with its seats and their users: about 60 columns) that costs more CPU than the database spends answering it
(issue 26: about 1.8 ms of an action POST's ~7). `PreparedQuery(build)` compiles `build(SENTINEL)` the first
time it runs on a connection and remembers the SQL, where the sentinel sits in its parameters and how rows
become model instances (the same converters and select_related populators Django's ModelIterable uses);
`.rows(value)` then runs that SQL with `value` in place of the sentinel and returns the instances, exactly as
`list(build(value))` would.

Only for querysets whose SQL does not depend on the value (a filter by one key); the sentinel must appear
exactly once in the compiled parameters (checked when compiling). `extra` sentinels are further values the
SQL takes (e.g. an integer compared in a CASE of an annotation), each also exactly once in the parameters;
`.rows(value, *extra_values)` binds those as given, in the parameter's own type (psycopg's Int4 stays Int4).
Annotations are set on each instance, as Django's ModelIterable sets them.

The value is bound as the filtered field converts it for the connection (`get_db_prep_value`: a UUID is a
hex string on SQLite, a UUID on PostgreSQL), so one PreparedQuery serves every backend.

On PostgreSQL the SQL runs on a server-binding cursor (`cursor_for`): the values travel apart from the SQL
text, which is the same at every run, so psycopg prepares the statement on the server once the connection
has run it `prepare_threshold` times (production settings: DB_PREPARE_THRESHOLD) and PostgreSQL stops
planning it anew (issue 42: planning the game row lock, the token read and the progress write was about
0.8 ms of PostgreSQL's CPU per action POST, more than executing them). Django's own queries keep its
client-side binding, which never prepares.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import ProgrammingError, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from psycopg import pq
from psycopg.adapt import Transformer


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slot: int
    compiler: Any
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    converters: dict[int, Any]  # the columns' from-database converters (Django computes them per evaluation)
    field: Any  # the filtered field: binds a value as the backend expects it (get_db_prep_value)
    extra_slots: tuple[int, ...]  # where each extra sentinel sits in params
    annotations: tuple[tuple[str, int], ...]  # (attribute, column) of each annotation


class PreparedQuery:
    def __init__(self, build: Callable[..., QuerySet], sentinel: Any, *, extra: tuple[Any, ...] = ()) -> None:
        self._build = build
        self._sentinel = sentinel
        self._extra = extra
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> _Compiled:
        queryset = self._build(self._sentinel, *self._extra)
        field = _filtered_field(queryset.query.where, self._sentinel)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        bound = field.get_db_prep_value(self._sentinel, connections[alias], prepared=False)
        slots = [i for i, p in enumerate(params) if p == bound]
        if len(slots) != 1:
            raise ValueError(f"the sentinel is {len(slots)} times in the parameters of {sql!r}")
        extra_slots = []
        for sentinel in self._extra:
            found = [i for i, p in enumerate(params) if i not in slots and p == sentinel]
            if len(found) != 1:
                raise ValueError(f"the extra sentinel {sentinel!r} is {len(found)} times in the parameters")
            extra_slots.append(found[0])
        select, klass_info = compiler.select, compiler.klass_info
        columns = [s[0] for s in select[0 : compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError(f"composite fields are not supported: {sql!r}")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slot=slots[0],
            compiler=compiler,
            init_list=[f[0].target.attname for f in select[start:end]],
            start=start,
            end=end,
            populators=get_related_populators(klass_info, select, alias),
            converters=compiler.get_converters(columns),
            field=field,
            extra_slots=tuple(extra_slots),
            annotations=tuple(compiler.annotation_col_map.items()),
        )

    def rows(self, value: Any, *extra: Any, using: str = "default") -> list[Any]:
        if len(extra) != len(self._extra):
            raise TypeError(f"{len(self._extra)} extra values expected, {len(extra)} given")
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        params = list(compiled.params)
        params[compiled.slot] = compiled.field.get_db_prep_value(value, connections[using], prepared=False)
        for slot, given in zip(compiled.extra_slots, extra, strict=True):
            params[slot] = type(params[slot])(given)
        fetched = fetch_all(connections[using], compiled.sql, params)
        model = compiled.compiler.klass_info["model"]
        objects = []
        converters = compiled.converters
        for row in compiled.compiler.apply_converters(fetched, converters) if converters else fetched:
            obj = model.from_db(using, compiled.init_list, row[compiled.start : compiled.end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, column in compiled.annotations:
                setattr(obj, name, row[column])
            objects.append(obj)
        return objects


def fetch_all(conn: Any, sql: str, params: list[Any]) -> list[tuple]:
    """The rows of `sql` run with `params` on a cursor_for(conn). When the statement is the first of a
    transaction on PostgreSQL, the transaction's BEGIN goes with it: in one query with the statement
    prepared on the server (begun_with_prepared_statement) where the connection prepares statements, else in
    one pipeline (begun_with_next_statement)."""
    if opens_transaction(conn) and conn.connection.prepare_threshold is not None:
        return begun_with_prepared_statement(conn, sql, params)
    with cursor_for(conn) as cursor:
        if opens_transaction(conn):
            with begun_with_next_statement(conn):
                cursor.execute(sql, params)
        else:
            cursor.execute(sql, params)
        return cursor.fetchall()


def opens_transaction(conn: Any) -> bool:
    """Whether the next statement on `conn` opens its transaction: PostgreSQL, inside an atomic block whose
    BEGIN psycopg has not sent yet (it sends it when the block's first statement runs)."""
    if conn.vendor != "postgresql" or not conn.in_atomic_block or conn.connection is None:
        return False
    pg = conn.connection
    return (
        not pg.autocommit
        and pg.pgconn.transaction_status == pq.TransactionStatus.IDLE
        and pg.pgconn.pipeline_status == pq.PipelineStatus.OFF
        and _pipelines_supported()
    )


@functools.cache
def _pipelines_supported() -> bool:
    """Whether psycopg's libpq has pipeline mode (libpq 14 and later; psycopg-binary's has): without it,
    psycopg's own BEGIN, alone."""
    return bool(psycopg.Pipeline.is_supported())


@contextlib.contextmanager
def begun_with_next_statement(conn: Any) -> Iterator[None]:
    """Send the atomic block's BEGIN in one round trip with the statement the caller runs in the `with`
    block (issue 42: an action POST's lock read paid a round trip of its own for BEGIN).

    psycopg sends BEGIN itself before a transaction's first statement, alone, even in pipeline mode (it syncs
    right after it). Here the connection is switched to psycopg's autocommit mode, whose statements get no
    BEGIN of their own, and BEGIN, the statement and a Sync are sent in one pipeline. The transaction is then
    open on the server as psycopg's would be; Django's atomic block still holds it (its autocommit flag is
    its own): its exit sends COMMIT or ROLLBACK as ever (psycopg sends either whenever the server is in a
    transaction), then sets autocommit back on. The statement's results are on the cursor after the block;
    an error (the statement's, or the server's) is raised at its end as Django's error, and the block's
    exit rolls back."""
    pg = conn.connection
    pg.autocommit = True  # allowed: no transaction open yet
    with conn.wrap_database_errors, pg.pipeline():
        pg.execute("BEGIN")
        yield


# Per psycopg connection (the pool keeps them; a new one starts with none): the SQL of each statement this
# module has prepared on it with PREPARE, and the statement's name.
_SQL_PREPARED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
_NAMES = itertools.count(1)


def begun_with_prepared_statement(conn: Any, sql: str, params: list[Any]) -> list[tuple]:
    """The rows of `sql` with `params`, the atomic block's transaction opened by the same query: one
    simple query `BEGIN; EXECUTE name(values)` (the first time on a connection, `PREPARE name AS sql;`
    first), so one round trip and one wait in psycopg where the pipeline of begun_with_next_statement
    takes five (issue 42: about 0.3 ms of the worker's CPU per action POST on a 2-core machine).

    The statement is prepared once per connection, as psycopg prepares its own (the connection's
    prepare_threshold is not None; DB_PREPARE_THRESHOLD=off, e.g. behind PgBouncer in transaction mode,
    turns both off): PostgreSQL plans it as it plans psycopg's. The values are written into the query as
    SQL literals by psycopg's own adapters (as psycopg.sql.Literal writes them). The transaction is then
    the atomic block's as with begun_with_next_statement: the connection is in psycopg's autocommit mode
    for it, and the block's exit commits or rolls back; an error is Django's."""
    pg = conn.connection
    statements = _SQL_PREPARED.setdefault(pg, {})
    pg.autocommit = True  # allowed: no transaction open yet
    try:
        return _begin_and_execute(conn, statements, sql, params)
    except ProgrammingError as exc:
        if not isinstance(exc.__cause__, psycopg.errors.InvalidSqlStatementName) or sql not in statements:
            raise
    # The statement is gone from the session (DEALLOCATE ALL or DISCARD ALL ran on it): the transaction
    # this call began holds nothing else; roll it back and prepare again.
    pg.rollback()
    statements.clear()
    return _begin_and_execute(conn, statements, sql, params)


def _begin_and_execute(conn: Any, statements: dict[str, str], sql: str, params: list[Any]) -> list[tuple]:
    return _execute(conn, statements, sql, params, before=["BEGIN"], after=[], first_row=False)


def _execute(conn: Any, statements: dict[str, str], sql: str, params: list[Any], *, before: list[str],
             after: list[str], first_row: bool) -> Any:
    """One simple query: [PREPARE name AS sql;] before...; EXECUTE name(values); after... The rows of the
    EXECUTE (its first row with first_row, None if none)."""
    pg = conn.connection
    name = statements.get(sql)
    query = []
    if name is None:
        # a name never used before in this process: a query that failed may have left its PREPARE done
        name = f"bc_prepared_{next(_NAMES)}"
        numbered = sql % tuple(f"${i}" for i in range(1, len(params) + 1))  # Django's %s, %% for a %
        query.append(f"PREPARE {name} AS {numbered}")
    literal = Transformer(pg).as_literal  # psycopg.sql.Literal's own, one for all the values
    values = b", ".join(literal(value) for value in params).decode(pg.info.encoding)
    query += [*before, f"EXECUTE {name}({values})" if params else f"EXECUTE {name}", *after]
    with conn.cursor() as cursor:
        cursor.execute("; ".join(query))
        while cursor.description is None and cursor.nextset():  # past PREPARE's and BEGIN's answers
            pass
        rows = cursor.fetchone() if first_row else cursor.fetchall()
    statements[sql] = name
    return rows


def commits_with_statement(conn: Any) -> bool:
    """Whether a statement may carry its transaction's COMMIT (executed_and_committed): the transaction was
    opened by begun_with_prepared_statement (psycopg in its autocommit mode, the server in a transaction)
    for Django's outermost atomic block, with no savepoint and nothing marked for rollback."""
    if conn.vendor != "postgresql" or conn.connection is None:
        return False
    pg = conn.connection
    return (
        pg.prepare_threshold is not None
        and pg.autocommit
        and pg.pgconn.transaction_status == pq.TransactionStatus.INTRANS
        and len(conn.atomic_blocks) == 1
        and not conn.savepoint_ids
        and not conn.needs_rollback
    )


def executed_and_committed(conn: Any, sql: str, params: list[Any]) -> tuple | None:
    """The first row of `sql` run with `params`, then COMMIT, in one simple query: `EXECUTE name(values);
    COMMIT` (the first time on a connection, `PREPARE name AS sql;` first), one round trip where the
    statement and the atomic block's COMMIT took two (issue 42). Only where commits_with_statement(conn),
    and only for the last statement of the transaction: the caller writes nothing after it. The block's exit
    then finds the transaction ended (psycopg sends no second COMMIT) and runs its on_commit callbacks as
    ever. An error of the statement or of the COMMIT (a deferred constraint) is Django's error, the
    transaction rolled back (a statement gone from the session is prepared again by the next transaction's
    begun_with_prepared_statement)."""
    statements = _SQL_PREPARED.setdefault(conn.connection, {})
    try:
        return _execute(conn, statements, sql, params, before=[], after=["COMMIT"], first_row=True)
    except ProgrammingError as exc:
        # gone from the session inside this transaction (it cannot be retried here: the transaction is
        # aborted): the next transaction prepares it again
        if isinstance(exc.__cause__, psycopg.errors.InvalidSqlStatementName):
            statements.clear()
        raise


def cursor_for(conn: Any) -> Any:
    """A cursor of `conn` for SQL whose text is the same at every run. On PostgreSQL a server-binding cursor:
    the parameters travel apart from the SQL (Django's cursors interpolate them into the text on the client:
    a ~20 KB state JSON escaped into a literal that PostgreSQL parses back out), and psycopg prepares a
    statement its connection has run `prepare_threshold` times (None, Django's default: never). Wrapped like
    any Django cursor (execute wrappers, query logging). Elsewhere the connection's own cursor."""
    if conn.vendor != "postgresql":
        return conn.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    conn.ensure_connection()
    return conn._prepare_cursor(ServerBindingCursor(conn.connection))


def _filtered_field(where: Any, sentinel: Any) -> Any:
    """The model field of the one lookup in `where` whose right-hand side is the sentinel."""
    found = []

    def walk(node: Any) -> None:
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                walk(child)
            elif getattr(child, "rhs", None) == sentinel:
                found.append(child.lhs.output_field)

    walk(where)
    if len(found) != 1:
        raise ValueError(f"the sentinel is the value of {len(found)} lookups, not one")
    return found[0]
