"""Both databases are first-class (issue 34 §1): what differs between SQLite (the embedded default `make run`
serves) and PostgreSQL is handled in one place and checked here on whichever database the suite runs on
(CI runs it on both).

- config.prepared: a query compiled once binds its value as the filtered field converts it for the backend
  (a UUID is a hex string on SQLite; binding the raw UUID, or looking for it among the compiled parameters,
  broke every seat action there).
- config.json_lookups: JSONField `contains` has PostgreSQL's `@>` meaning on SQLite too.
- The PostgreSQL-only tests carry one marker with a reason, and none is an API, web, contract or game-flow
  test.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.models import Deck

ROOT = Path(__file__).resolve().parents[1]


def contains(outer: Any, inner: Any, *, top: bool = False) -> bool:
    """PostgreSQL's jsonb `@>` (containment), in Python: the meaning both databases must give (`top`: the
    documents' top level, where an array also contains a scalar element of its own)."""
    scalar = not isinstance(inner, (list, dict))
    if top and scalar and isinstance(outer, list) and any(contains(o, inner) for o in outer):
        return True
    if isinstance(inner, dict):
        return isinstance(outer, dict) and all(k in outer and contains(outer[k], v) for k, v in inner.items())
    if isinstance(inner, list):
        return isinstance(outer, list) and all(any(contains(o, i) for o in outer) for i in inner)
    if isinstance(inner, bool) or isinstance(outer, bool):
        return type(outer) is type(inner) and outer == inner
    if isinstance(inner, (int, float)):
        return isinstance(outer, (int, float)) and outer == inner
    return type(outer) is type(inner) and outer == inner


# ----------------------------------------------------------------------------------------- JSON contains

_TEXT = st.text(alphabet="ab é-_1", max_size=4)
_NUMBERS = st.one_of(st.integers(-3, 3), st.floats(-2, 2).map(lambda x: round(x, 1)))
_SCALARS = st.one_of(_TEXT, _NUMBERS, st.booleans(), st.none())
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TEXT, inner, max_size=3)),
    max_leaves=8,
)


def _probes(model: Any, field: str) -> list[Any]:
    """Values to look for: each element of each stored list, each single key of an element object, whole
    stored values, and things no row holds."""
    probes: list[Any] = [[], ["no-such-value"], [{"kind": "no-such-kind"}]]
    for stored in model.objects.values_list(field, flat=True):
        if isinstance(stored, list):
            probes.append(stored[:2])
            for element in stored[:3]:
                probes.append([element])
                if isinstance(element, dict):
                    probes += [[{k: v}] for k, v in list(element.items())[:3]]
        elif isinstance(stored, dict):
            probes.append(stored)
            probes += [{k: v} for k, v in list(stored.items())[:3]]
    unique = {repr(p): p for p in probes}
    return list(unique.values())


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("app_model", "field"),
    [
        ("the_war.TheWarCard", "features"),
        ("the_war.TheWarCard", "abilities"),
        ("the_war.TheWarCard", "restrictions"),
        ("the_war.TheWarCard", "bonuses"),
        ("tide_of_iron.ToiCard", "keywords"),
    ],
)
def test_json_contains_on_the_catalog_has_postgresqls_meaning(app_model, field, catalog_rows):
    from django.apps import apps

    module, name = app_model.split(".")
    model = next(
        m for m in apps.get_models() if m.__name__ == name and m.__module__.startswith(f"cards.{module}")
    )
    rows = {row.pk: getattr(row, field) for row in model.objects.all()}
    probes = _probes(model, field)
    assert len(probes) > 5
    for probe in probes:
        found = set(model.objects.filter(**{f"{field}__contains": probe}).values_list("pk", flat=True))
        assert found == {pk for pk, stored in rows.items() if contains(stored, probe)}, probe


@pytest.mark.django_db
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=_VALUES, probe=_VALUES)
def test_json_contains_on_any_document_has_postgresqls_meaning(document, probe):
    """Any JSON document and probe, evaluated in SQL (no rows written): the database's answer is `@>`'s."""
    from django.db import connection
    from django.db.models import JSONField, Value

    lookup = JSONField().get_lookup("contains")(Value(document, output_field=JSONField()), probe)
    compiler = Deck.objects.all().query.get_compiler(connection=connection)
    sql, params = compiler.compile(lookup)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT CASE WHEN {sql} THEN 1 ELSE 0 END", params)  # noqa: S608
        assert bool(cursor.fetchone()[0]) is contains(document, probe, top=True), (document, probe)


# ------------------------------------------------------------------------------ PostgreSQL-only markers

# Where a test may need PostgreSQL, and why (what only PostgreSQL has). Nothing under tests/web or
# tests/contract, and no API or game-flow test, is among them.
POSTGRESQL_ONLY = {
    "tests/test_migrations.py": "lz4 TOAST compression of the state column",
    "tests/games/test_action_statements.py": "the one-statement write is a PostgreSQL data-modifying CTE",
    "tests/games/test_action_hot_state.py": "statement counts of that PostgreSQL write",
    "tests/games/test_event_push.py": "LISTEN/NOTIFY, the default event bus",
    "tests/games/test_stream_asgi.py": "LISTEN/NOTIFY, the default event bus",
    "tests/games/test_spectators.py": "LISTEN/NOTIFY, the default event bus",
    "tests/games/test_feed.py": "LISTEN/NOTIFY, the default event bus",
    "tests/games/test_integrity.py": "the append-only trigger on the action log",
    "tests/games/test_database_outage.py": "a database server's outage and the pool reconnecting",
    "tests/games/test_concurrency.py": "row locks under concurrency",
    "tests/test_ops.py": "statement_timeout and pg_stat_activity of production's database options",
    "tests/games/test_takeback_concurrency.py": "row locks under concurrency",
    "tests/test_postgresql_pool.py": "the production connection pool and its check",
    "tests/games/test_prepared_statements.py": "statements prepared on the PostgreSQL server",
    "tests/test_prepared_begin.py": "round trips to a PostgreSQL server, read off libpq's trace",
}


def _marker_uses() -> dict[str, list[str]]:
    uses: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "postgresql_only":
                uses.setdefault(str(path.relative_to(ROOT)), []).append(ast.unparse(node))
    return uses


def test_postgresql_only_tests_are_marked_with_a_reason_in_the_listed_files_only():
    uses = _marker_uses()
    uses.pop("tests/conftest.py", None)  # where the marker is implemented
    uses.pop("tests/test_database_parity.py", None)
    assert set(uses) <= set(POSTGRESQL_ONLY), sorted(set(uses) - set(POSTGRESQL_ONLY))
    for path in uses:
        assert not path.startswith(("tests/web/", "tests/contract/")), path
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text()
        if path.name == "test_database_parity.py":
            continue
        # the one way to skip on SQLite is the marker (its reason is required by tests/conftest.py)
        assert 'vendor != "postgresql", reason' not in text, path
        assert 'pytest.skip("the live server shares the test database' not in text, path
