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
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from psycopg import pq


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
    transaction on PostgreSQL, the transaction's BEGIN goes with it (begun_with_next_statement)."""
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
