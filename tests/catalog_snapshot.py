"""The catalog's rows kept in memory once loaded, and written back in a few statements after a test that
flushed the database (transactional_db, live_server): `load_catalog` writes them row by row (about 5,000
statements, 2-4 s a time on PostgreSQL), and each such test reloaded it. tests/test_catalog_snapshot.py checks
that a restore gives exactly the rows a load gives, on the database the suite runs on.
"""
from __future__ import annotations

import io

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model

_rows: list[tuple[type[Model], list[Model]]] = []


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


def take() -> None:
    """Keep the rows the catalog's load left (call right after `load_catalog`)."""
    _rows[:] = [(model, list(model.objects.order_by("pk"))) for model in catalog_models()]


def taken() -> bool:
    return bool(_rows)


def empty() -> bool:
    """No catalog table holds a row (as after a flush)."""
    return not any(model.objects.exists() for model, _ in _rows)


def restore() -> None:
    """Write the kept rows back into empty catalog tables, then move the tables' id sequences past them."""
    for model, rows in _rows:
        model.objects.bulk_create(rows, batch_size=500)
    statements = connection.ops.sequence_reset_sql(no_style(), [model for model, _ in _rows])
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def ensure_catalog(content_hash: str) -> str:
    """The session's catalog (`content_hash`) in the database again if a flushing test removed it: written
    back from memory into empty tables, else loaded (the database must be reachable: a `db` test, or inside
    django_db_blocker.unblock())."""
    from cards.models import CatalogVersion

    if not CatalogVersion.objects.filter(content_hash=content_hash).exists():
        if taken() and empty():
            restore()
        else:
            call_command("load_catalog", stdout=io.StringIO())
    return content_hash
