"""JSON containment (`field__contains=...`) on SQLite, the embedded default.

Django implements `JSONField`'s `contains` lookup on PostgreSQL (`@>`), MySQL and Oracle, and raises
NotSupportedError on SQLite. The catalog filters and search keys use it on lists of strings and lists of flat
objects (The War's `features`, `abilities`, `restrictions`; Tide of Iron's `keywords`), so on SQLite the same
lookup is compiled here from SQLite's JSON1 functions with PostgreSQL's `@>` meaning:

- an object contains another when every key of the other is present with a contained value;
- an array contains another when each element of the other is contained by some element of it;
- a scalar contains an equal scalar of the same JSON type (numbers compare as numbers);
- at the top level only, an array contains a scalar that is one of its elements.

Every other backend keeps Django's own SQL. Registered on JSONField once, from `cards.apps`.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import NotSupportedError
from django.db.models import JSONField
from django.db.models.expressions import Expression
from django.db.models.fields.json import DataContains


def _label(key: Any) -> str:
    """An object key as a quoted label of a JSON path. SQLite matches a label against a key's text as stored,
    escapes included, and Django stores JSON as json.dumps writes it (non-ASCII as \\uXXXX): the label is
    the key written the same way. (SQLite's paths have no escape for a double quote.)"""
    if '"' in str(key) or "\\" in str(key):
        raise NotSupportedError("JSON containment of a key with a quote or backslash: not on SQLite.")
    return json.dumps(str(key))


class SQLiteJSONContains(DataContains):
    """`contains` on a JSONField: Django's SQL everywhere, PostgreSQL's `@>` meaning compiled for SQLite."""

    def as_sqlite(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        if isinstance(self.rhs, Expression) or hasattr(self.rhs, "resolve_expression"):
            raise NotSupportedError("contains lookup with an expression is not supported on SQLite.")
        lhs, lhs_params = self.process_lhs(compiler, connection)
        builder = _Builder(lhs, list(lhs_params))
        if isinstance(self.rhs, (dict, list)):
            return builder.node("'$'", [], self.rhs, 0), builder.params
        # PostgreSQL's one exception, at the top level only: an array contains a scalar it has as an element
        whole = builder.node("'$'", [], self.rhs, 0)
        args, args_params = builder.args("'$'", [])
        builder.params += [*args_params, *args_params]
        element = builder.node("_jc0.fullkey", [], self.rhs, 1)
        return (
            f"({whole} OR (json_type({args}) = 'array' AND "  # noqa: S608
            f"EXISTS (SELECT 1 FROM json_each({args}) AS _jc0 WHERE {element})))",
            builder.params,
        )


class _Builder:
    """Builds the containment SQL with its parameters in the order the placeholders appear."""

    def __init__(self, doc: str, doc_params: list[Any]) -> None:
        self.doc = doc
        self.doc_params = doc_params
        self.params: list[Any] = []

    def args(self, path: str, path_params: list[Any]) -> tuple[str, list[Any]]:
        """`doc, path` as SQL with the parameters of both (the document's own, then the path's)."""
        return f"{self.doc}, {path}", [*self.doc_params, *path_params]

    def node(self, path: str, path_params: list[Any], value: Any, depth: int) -> str:
        args, args_params = self.args(path, path_params)
        kind = f"json_type({args})"
        if isinstance(value, dict):
            sql = [f"{kind} = 'object'"]
            self.params += args_params
            for key, item in value.items():
                sql.append(self.node(f"{path} || %s", [*path_params, f".{_label(key)}"], item, depth))
            return "(" + " AND ".join(sql) + ")"
        if isinstance(value, list):
            sql = [f"{kind} = 'array'"]
            self.params += args_params
            alias = f"_jc{depth}"
            for item in value:
                self.params += args_params
                inner = self.node(f"{alias}.fullkey", [], item, depth + 1)
                sql.append(f"EXISTS (SELECT 1 FROM json_each({args}) AS {alias} WHERE {inner})")  # noqa: S608 (fixed SQL; values are parameters)
            return "(" + " AND ".join(sql) + ")"
        if value is None:
            self.params += args_params
            return f"{kind} = 'null'"
        if isinstance(value, bool):
            self.params += [*args_params, "true" if value else "false"]
            return f"{kind} = %s"
        if isinstance(value, (int, float)):
            self.params += [*args_params, *args_params, value]
            return f"({kind} IN ('integer', 'real') AND json_extract({args}) = %s)"
        if isinstance(value, str):
            self.params += [*args_params, *args_params, value]
            return f"({kind} = 'text' AND json_extract({args}) = %s)"
        raise NotSupportedError(f"JSON containment of a {type(value).__name__} is not supported on SQLite.")


def register() -> None:
    JSONField.register_lookup(SQLiteJSONContains)
