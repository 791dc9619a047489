"""The catalog's rows kept once loaded, and written back after a test that flushed the database
(transactional_db, live_server): `load_catalog` writes them row by row (about 5,000 statements, 2-4 s a time
on PostgreSQL), and each such test reloaded it.

The rows are copied into tables of their own in the same test database (`snapshot__<table>`: no model
has them, so a flush leaves them alone) and copied back with one INSERT ... SELECT per table, which the
database runs without a row passing through Python: 0.06 s on PostgreSQL where writing them back from memory
with bulk_create took 0.32 s (and the suite restores the catalog after every flushing test).
tests/test_catalog_snapshot.py checks that a restore gives exactly the rows a load gives, on the database the
suite runs on.
"""
from __future__ import annotations

import io

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model

_models: list[type[Model]] = []  # the catalog's tables, once their rows are kept


def catalog_models() -> list[type[Model]]:
    """Every table of the cards app (with its many-to-many tables), each after the tables it refers to."""
    models = list(apps.get_app_config("cards").get_models(include_auto_created=True))
    ordered: list[type[Model]] = []

    def visit(model: type[Model]) -> None:
        if model in ordered:
            return
        for field in model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is not None and target is not model and target in models:
                visit(target)  # type: ignore[arg-type]
        ordered.append(model)

    for model in models:
        visit(model)
    return ordered


def _copy_sql(model: type[Model], *, back: bool) -> str:
    """INSERT ... SELECT between a catalog table and its snapshot table, by column name."""
    quote = connection.ops.quote_name
    table = model._meta.db_table
    columns = ", ".join(quote(field.column) for field in model._meta.concrete_fields)
    source, target = (f"snapshot__{table}", table) if back else (table, f"snapshot__{table}")
    return f"INSERT INTO {quote(target)} ({columns}) SELECT {columns} FROM {quote(source)}"


def take() -> None:
    """Keep the rows the catalog's load left: call right after `load_catalog`, outside a test's transaction
    (the snapshot tables must outlive it)."""
    if connection.in_atomic_block:  # a test's transaction would take the tables away: restores load instead
        _models.clear()
        return
    quote = connection.ops.quote_name
    models = catalog_models()
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            snapshot = quote(f"snapshot__{table}")
            cursor.execute(f"DROP TABLE IF EXISTS {snapshot}")
            cursor.execute(f"CREATE TABLE {snapshot} AS SELECT * FROM {quote(table)} WHERE 1 = 0")
            cursor.execute(_copy_sql(model, back=False))
    _models[:] = models


def taken() -> bool:
    return bool(_models)


def empty() -> bool:
    """No catalog table holds a row (as after a flush)."""
    return not any(model.objects.exists() for model in _models)


def restore() -> None:
    """Write the kept rows back into empty catalog tables, then move the tables' id sequences past them."""
    with connection.cursor() as cursor:
        for model in _models:
            cursor.execute(_copy_sql(model, back=True))
        for sql in connection.ops.sequence_reset_sql(no_style(), _models):
            cursor.execute(sql)


def ensure_catalog(content_hash: str) -> str:
    """The session's catalog (`content_hash`) in the database again if a flushing test removed it: written
    back from the snapshot tables into empty tables, else loaded (the database must be reachable: a `db`
    test, or inside django_db_blocker.unblock())."""
    from cards.models import CatalogVersion

    if not CatalogVersion.objects.filter(content_hash=content_hash).exists():
        if taken() and empty():
            restore()
        else:
            call_command("load_catalog", stdout=io.StringIO())
    return content_hash
