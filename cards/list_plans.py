"""Compiled list queries of the catalog's list pages (cards.list_forms.PrebuiltListMixin).

The statements of a list page (its keys with the total count, or the count then the keys under DISTINCT)
depend on the request's filters only through their shape (config.compiled_filters): which filters are
active, the structure of their values, the ordering. The first request of a shape builds the queryset as
`list` always did (get_queryset, the FilterSet's filters, the fingerprint column) and compiles it; later
requests of that shape bind their values into that SQL and run it, with no FilterSet, queryset or compiler.
Anything the shapes do not describe (?q=, ?search=, a `method` filter given a value, an invalid value, a
page past the end) takes the queryset path, unchanged. Here: the compiled statements, the per-process
table of plans by shape, and running a statement as the ORM would (its LIMIT/OFFSET and converters).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connection

MAX_PLANS = 512  # compiled shapes kept per process, least recently used dropped
EMPTY = None  # a statement Django does not run: the filters match no row (EmptyResultSet)


class Statement:
    """SQL of one statement without its LIMIT/OFFSET, how many leading columns of a row are the result, and
    the from-database converters of those columns (as the ORM applies them)."""

    __slots__ = ("sql", "columns", "converters")

    def __init__(self, sql: str, columns: int, converters: dict | None = None) -> None:
        self.sql, self.columns, self.converters = sql, columns, list((converters or {}).items())


class Plan:
    __slots__ = ("distinct", "page", "count")

    def __init__(self, distinct: bool, page: Statement | None, count: Statement | None) -> None:
        self.distinct, self.page, self.count = distinct, page, count


UNSUPPORTED = Plan(False, None, None)  # a shape whose SQL did not take the parameters as bound


class Plans:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._plans: OrderedDict[tuple, Plan] = OrderedDict()
        self.compiled = 0  # shapes compiled in this process (tests, benchmarks)
        self.served = 0  # lists answered from compiled statements (approximate under threads: tests only)

    def get(self, key: tuple) -> Plan | None:
        plan = self._plans.get(key)
        if plan is not None:
            with self._lock:
                if key in self._plans:
                    self._plans.move_to_end(key)
        return plan

    def put(self, key: tuple, plan: Plan) -> None:
        with self._lock:
            self.compiled += 1
            self._plans[key] = plan
            while len(self._plans) > MAX_PLANS:
                self._plans.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._plans.clear()


plans = Plans()


class Slice:
    """A paginator's object list that only records the slice the page takes (the count is given)."""

    def __init__(self) -> None:
        self.taken: slice | None = None

    def __getitem__(self, key: slice) -> list:
        self.taken = key
        return []


def compile_queryset(queryset) -> tuple[Statement | None, list[Any]]:
    """The statement of `queryset` (unsliced) and its parameters; EMPTY when Django would not run it."""
    compiler = queryset.query.get_compiler(using=connection.alias)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:
        return EMPTY, []
    converters = compiler.get_converters([s[0] for s in compiler.select[0 : compiler.col_count]])
    return Statement(sql, compiler.col_count, converters), list(params)


def captured_count(queryset) -> tuple[Statement | None, list[Any], int]:
    """queryset.count() as the statement Django runs for it (captured while it runs), its parameters and the
    count."""
    seen: list[tuple[str, Any]] = []

    def capture(execute, sql, params, many, context):
        seen.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        count = queryset.count()
    if not seen:
        return EMPTY, [], count
    if len(seen) != 1:
        raise LookupError("count statements")
    sql, params = seen[0]
    return Statement(sql, 1), list(params or ()), count


def same_params(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(type(x) is type(y) and x == y for x, y in zip(a, b, strict=True))


def converted(statement: Statement, row: tuple, skip: int | None = None) -> tuple:
    """`row` with the statement's from-database converters applied (as SQLCompiler.apply_converters), but
    for the column `skip`."""
    values = list(row)
    for position, (functions, expression) in statement.converters:
        if position == skip:
            continue
        value = values[position]
        for function in functions:
            value = function(value, expression, connection)
        values[position] = value
    return tuple(values)


def run_statement(
    statement: Statement | None, params: list[Any], low: int, high: int | None, *, last: bool = True
) -> list[tuple]:
    """The rows of `statement` with its LIMIT/OFFSET; last=False: the last column is left unconverted (the
    caller converts it where it reads it)."""
    if statement is EMPTY or (high is not None and high <= low):  # Django runs no statement for [n:n]
        return []
    limit = connection.ops.limit_offset_sql(low, high)
    with connection.cursor() as cursor:
        cursor.execute(f"{statement.sql} {limit}" if limit else statement.sql, params)
        rows = cursor.fetchall()
    columns = statement.columns
    rows = [row[:columns] if len(row) > columns else row for row in rows]
    skip = None if last else columns - 1
    if any(position != skip for position, _ in statement.converters):
        rows = [converted(statement, row, skip) for row in rows]
    return rows
