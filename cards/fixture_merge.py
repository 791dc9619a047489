"""Three-way merge of fixture data with local (admin) edits, as `load_catalog` applies it (pure Python).

The fixtures are the source of the shipped catalog; a row edited in the admin is a local override. Each
table is a list of fixture-shaped row dicts keyed by `code` (rulings: `key`). Given

- `base`: the fixture rows applied by the last load (cards.models.FixtureState),
- `local`: the rows in the database now (the base plus any admin edits),
- `fixture`: the rows of the fixture files now,

`merge_tables` returns the rows to write: per field, a value edited locally is kept and a value changed in
the fixtures (and not edited locally) is applied; a row added or deleted locally stays added or deleted.
Where both sides changed the same field (or one deleted a row the other changed) the local side wins and the
field is flagged as a conflict. `overrides` lists every field (or whole row, field "") where the result
differs from the fixtures, so an operator sees what the admin keeps apart from the shipped catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Row = dict[str, Any]
Tables = Mapping[str, list[Row]]
ROW = ""  # the `field` of an override of a whole row (added or deleted locally)


@dataclass
class MergeResult:
    rows: dict[str, list[Row]]
    overrides: list[dict[str, Any]] = field(default_factory=list)
    conflict_keys: set[tuple[str, str, str]] = field(default_factory=set)


def _by_key(rows: Iterable[Row] | None, key: str) -> dict[str, Row]:
    return {r[key]: r for r in rows or ()}


def _merge_row(base: Row, local: Row, fixture: Row) -> tuple[Row, list[str]]:
    """Field by field: (merged row, fields both sides changed differently, where the local value is kept)."""
    out: Row = {}
    conflicts = []
    missing = object()
    for name in dict.fromkeys([*fixture, *local]):
        b, lo, fx = base.get(name, missing), local.get(name, missing), fixture.get(name, missing)
        if lo in (b, fx):
            value = fx
        elif fx == b:
            value = lo
        else:
            value = lo
            conflicts.append(name)
        if value is not missing:
            out[name] = value
    return out, conflicts


def merge_tables(
    *, base: Tables, local: Tables, fixture: Tables, tables: Iterable[str], key: str = "code"
) -> MergeResult:
    """The rows to write per table (fixture order, then rows only the database has), with the overrides."""
    result = MergeResult(rows={})
    for table in tables:
        b_rows, l_rows = _by_key(base.get(table), key), _by_key(local.get(table), key)
        f_rows = _by_key(fixture.get(table), key)
        merged: dict[str, Row] = {}
        for code in dict.fromkeys([*f_rows, *l_rows, *b_rows]):
            b, lo, fx = b_rows.get(code), l_rows.get(code), f_rows.get(code)
            conflicts: list[str] = []
            if lo in (b, fx):
                row = fx
            elif fx == b:
                row = lo
            elif lo is None or fx is None:  # deleted on one side, changed on the other: keep the local side
                row, conflicts = lo, [ROW]
            else:
                row, conflicts = _merge_row(b or {}, lo, fx)
            if row is not None:
                merged[code] = row
            result.conflict_keys.update((table, code, name) for name in conflicts)
            result.overrides.extend(_differences(table, code, fixture=fx, result=row))
        result.rows[table] = list(merged.values())
    return result


def _differences(table: str, code: str, *, fixture: Row | None, result: Row | None) -> list[dict[str, Any]]:
    if fixture == result:
        return []
    if fixture is None or result is None:
        return [{"table": table, "code": code, "field": ROW, "fixture": fixture, "local": result}]
    return [
        {"table": table, "code": code, "field": name, "fixture": fixture.get(name), "local": result.get(name)}
        for name in dict.fromkeys([*fixture, *result])
        if fixture.get(name) != result.get(name)
    ]


def overrides_of(*, local: Tables, fixture: Tables, tables: Iterable[str], key: str = "code") -> list[dict]:
    """Where the rows in the database differ from the fixture rows (field by field, or whole rows)."""
    out: list[dict[str, Any]] = []
    for table in tables:
        l_rows, f_rows = _by_key(local.get(table), key), _by_key(fixture.get(table), key)
        for code in dict.fromkeys([*f_rows, *l_rows]):
            out.extend(_differences(table, code, fixture=f_rows.get(code), result=l_rows.get(code)))
    return out


def merge_plan(
    *, base: Tables | None, base_overrides: list[dict] | None, local: Tables, fixture: Tables,
    tables: Iterable[str], reset: bool,
) -> tuple[Tables, list[dict], list[dict]]:
    """One load of a game's fixture tables: (rows to write, overrides kept, admin edits discarded).
    The fixture as it is on the first load (no `base`) or with `reset` (which lists the edits it discards),
    else the three-way merge of the last applied fixture (`base`), the rows now and the fixture now."""
    tables = list(tables)
    discarded = overrides_of(local=local, fixture=fixture, tables=tables) if reset else []
    if reset or base is None:
        return fixture, [], discarded
    merged = merge_tables(base=base, local=local, fixture=fixture, tables=tables)
    overrides = flag_conflicts(merged.overrides, new=merged.conflict_keys, earlier=base_overrides or [])
    return merged.rows, overrides, discarded


def flag_conflicts(
    overrides: list[dict[str, Any]], *, new: set[tuple[str, str, str]], earlier: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Mark the overrides that met a fixture change (now, or at an earlier load and still overridden)."""
    flagged = set(new) | {(o["table"], o["code"], o["field"]) for o in earlier if o.get("conflict")}
    return [{**o, "conflict": (o["table"], o["code"], o["field"]) in flagged} for o in overrides]


def describe(override: Mapping[str, Any]) -> str:
    """One line for the command output and the admin: what is kept locally, against which fixture value."""
    where = f"{override['table']} {override['code']}"
    tag = " [CONFLICT: the fixtures changed it too]" if override.get("conflict") else ""
    if override["field"] == ROW:
        what = "deleted locally" if override["local"] is None else "added locally"
        if override["local"] is not None and override["fixture"] is not None:
            what = "differs"
        return f"{where}: row {what}{tag}"
    local, fixture = _short(override["local"]), _short(override["fixture"])
    return f"{where}: {override['field']} = {local} (fixtures: {fixture}){tag}"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
