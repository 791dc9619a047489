"""Shared pytest fixtures (keep small and generic; append new fixtures below)."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command

from fixtures.tools import seeds
from tests.cache_backends import cache_backend  # noqa: F401 - the fixture, for every test module
from vocabulary.battlecards import Catalog, load_catalog_dir


def in_ci() -> bool:
    """CI=true (set by .ci/run and by CI services): what must run there fails instead of skipping."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_seed(name: str) -> Path:
    """The rules document `name` (e.g. "battlecards-faq-v1.6.txt") from shared/seeds/ beside the repository
    (fixtures/tools/seeds.py; BATTLECARDS_SEEDS=<dir> names another place). Without it the calling test is
    skipped with the reason, except under CI=true, where it fails: CI has the documents, never skips them."""
    path = seeds.seed(name)
    if path is not None:
        return path
    reason = (
        f"the rules document {name} is not in {seeds.where()} (they live outside the repository, in "
        f"../shared/seeds/; set {seeds.ENV}=<dir> to use another place)"
    )
    if in_ci():
        pytest.fail(f"{reason}; CI=true: the tests that read them must run", pytrace=False)
    pytest.skip(reason)


def pytest_collection_modifyitems(config, items):
    """`@pytest.mark.postgresql_only(reason="...")`: the one way a test says it needs PostgreSQL. It must give
    its reason (what only PostgreSQL has); on any other database the test is skipped with that reason."""
    from django.db import connection

    for item in items:
        marker = item.get_closest_marker("postgresql_only")
        if marker is None:
            continue
        reason = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")
        if not reason:
            raise pytest.UsageError(f"{item.nodeid}: postgresql_only needs a reason")
        if connection.vendor != "postgresql":
            item.add_marker(pytest.mark.skip(reason=f"PostgreSQL only: {reason}"))


@pytest.fixture
def seed_document() -> Callable[[str], Path]:
    """require_seed, for tests that read the rules documents: `seed_document("battlefront-rules.txt")`."""
    return require_seed


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The real catalog definitions, straight from fixtures/catalog/ (no database)."""
    return load_catalog_dir()


@pytest.fixture(scope="session")
def catalog_db(django_db_setup, django_db_blocker) -> str:
    """Load the real catalog into the test database once per session; returns its content hash.

    Request `db` too (or a fixture that does) to use the rows. Tests that flush the database
    (transactional_db / live_server) delete these rows: use `catalog_rows` there, which reloads if needed.
    """
    from cards.models import CatalogVersion
    from tests import catalog_snapshot

    with django_db_blocker.unblock():
        call_command("load_catalog", stdout=io.StringIO())
        catalog_snapshot.take()
        return CatalogVersion.objects.order_by("-id").first().content_hash


@pytest.fixture
def catalog_rows(catalog_db, db) -> str:
    """The real catalog in the database for this test, reloaded if a flushing test removed it."""
    from tests.catalog_snapshot import ensure_catalog

    return ensure_catalog(catalog_db)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: no throttle counts, stream slots, catalog responses or prebuilt
    catalog forms."""
    from django.core.cache import cache

    from cards.list_forms import tables
    from config.http_cache import local_bodies

    cache.clear()
    local_bodies.clear()
    tables.clear()
    yield


@pytest.fixture(autouse=True)
def _reproducible_salts(monkeypatch):
    """Every game a test creates gets a secret salt of its own (games.services.seeds.new_salt), but the same
    salts on every run: the n-th game of a test is dealt alike each time, so a test's games, their length and
    its time do not change from run to run (with fresh salts one whole game through the API lasted from 300 to
    1,900 actions, and a failure seen once could not be replayed). Production draws them with `secrets`."""
    import hashlib
    import itertools

    count = itertools.count()
    monkeypatch.setattr(
        "games.services.seeds.new_salt",
        lambda: hashlib.sha256(f"test-salt-{next(count)}".encode()).hexdigest()[:32],
    )


@pytest.fixture
def fixed_salt(monkeypatch):
    """Every game's secret salt the same ("5a" * 16): the deal (seed + salt) depends on the seed alone."""
    monkeypatch.setattr("games.services.seeds.new_salt", lambda: "5a" * 16)


@pytest.fixture
def fixed_deal(monkeypatch):
    """Both the seed and the secret salt of every game created fixed, for a test that plays a game created
    without a seed of its own (the site's forms): the same deal and the same bot moves on every run."""
    monkeypatch.setattr("games.services.seeds.new_salt", lambda: "5a" * 16)
    monkeypatch.setattr("games.services.seeds.new_seed", lambda: 20261126)
