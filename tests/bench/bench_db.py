"""The throwaway database the Django benchmarks run against (SQLite in memory unless DATABASE_URL says
otherwise): `with catalog_test_database(): ...` sets Django up, creates a test database, loads the real
catalog with `load_catalog`, and destroys the database on the way out."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def catalog_test_database() -> Iterator[None]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_catalog", stdout=io.StringIO())
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
