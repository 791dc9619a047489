"""Fixtures of the cards tests: the small hand-made catalog in tests/cards/data/mini and an empty catalog."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from vocabulary.battlecards import Catalog, load_catalog_dir

MINI = Path(__file__).parent / "data" / "mini"


@pytest.fixture
def empty_catalog(db) -> None:
    """No catalog rows in this test (rows loaded for the session are deleted inside the test transaction),
    and no record of a previous load (FixtureState), so the next load applies its fixtures as they are."""
    from cards.models import (
        ArsenalCard,
        Battlecard,
        BattlecardPrerequisite,
        CardSet,
        CatalogVersion,
        ConflictCard,
        FixtureState,
        Nation,
        Theater,
    )

    for model in (
        BattlecardPrerequisite,
        Battlecard,
        ConflictCard,
        ArsenalCard,
        CardSet,
        Theater,
        Nation,
        CatalogVersion,
        FixtureState,
    ):
        model.objects.all().delete()


@pytest.fixture
def mini_dir(tmp_path) -> Path:
    """A writable copy of the mini catalog."""
    target = tmp_path / "catalog"
    shutil.copytree(MINI, target)
    return target


@pytest.fixture
def mini_catalog(empty_catalog) -> Catalog:
    call_command("load_catalog", "--path", str(MINI), stdout=io.StringIO())
    return load_catalog_dir(MINI)


@pytest.fixture(params=["mini", "real"])
def loaded(request, catalog_db, db) -> Catalog:
    """The catalog in the database, as definitions: once the mini catalog, once the real one.

    `catalog_db` and `db` are requested here, not only through getfixturevalue: pytest-django then sees these
    tests use the database (it sets it up when one of them runs first, alone or on an xdist worker, and runs
    them before the tests that flush it), and the session's catalog is loaded before this test's transaction
    begins, not inside it (its rollback would take the rows away and every later test would reload them)."""
    if request.param == "mini":
        return request.getfixturevalue("mini_catalog")
    request.getfixturevalue("catalog_rows")
    return request.getfixturevalue("catalog")


class _NoResponseCache:
    """Stands in for config.http_cache's shared cache only (the catalog version token keeps its cache)."""

    def get(self, key, default=None):
        return default

    def set(self, *args, **kwargs) -> None:
        return None


def list_query_counts(client, url: str, sizes, **params) -> tuple[list[int], list[int]]:
    """The SQL queries of a catalog list page that misses the response cache, for each page size: cold (this
    catalog version has shown none of its rows yet: they are serialized with their prefetches,
    cards.list_forms) and warm (the same page again: version token, count, page keys)."""
    from unittest import mock

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cards.list_forms import tables
    from config.http_cache import local_bodies

    cold: list[int] = []
    warm: list[int] = []
    with mock.patch("config.http_cache.cache", _NoResponseCache()):
        for size in sizes:
            tables.clear()
            for counts in (cold, warm):
                local_bodies.clear()
                with CaptureQueriesContext(connection) as ctx:
                    response = client.get(url, {**params, "page_size": size})
                assert response.status_code == 200, response.content
                counts.append(len(ctx.captured_queries))
    return cold, warm


class _NoResponseCache:
    """Stands in for the shared cache of config.http_cache only (the version token's cache stays)."""

    def get(self, key, default=None):
        return default

    def set(self, *args, **kwargs) -> None:
        return None


@pytest.fixture
def no_shared_response_cache(monkeypatch) -> None:
    """config.http_cache's shared cache answers nothing and keeps nothing (each process's own copy of
    recent bodies, `local_bodies`, is the test's to clear)."""
    monkeypatch.setattr("config.http_cache.cache", _NoResponseCache())
