"""What the bot-versus-bot commands (`simulate` in simulations, `calibrate_bot_ratings` in games) share:
a deck argument and the card definitions they play with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError
from django.db.utils import OperationalError, ProgrammingError


def deck_ref(value: str) -> dict[str, Any]:
    return {"deck_id": int(value)} if value.isdigit() else {"starter": value}


NO_CATALOG_TABLES = "the database has no card tables: run `make migrate` and `manage.py load_catalog`"


def simulation_catalog(source: str, *, notice: Callable[[str], Any]) -> Any:
    """The card definitions: fixtures/catalog, or the database's (`db`), or the database's when it has cards
    and else the fixtures (`auto`). An unmigrated database (a fresh SQLite file) is no catalog: `auto` says
    so in one line through `notice` and plays from the fixtures, `db` stops with what to run."""
    from vocabulary.battlecards import load_catalog_dir

    if source == "fixtures":
        return load_catalog_dir()
    from cards import selectors

    try:
        catalog = selectors.catalog_definitions()
    except (OperationalError, ProgrammingError) as exc:
        if source == "db":
            raise CommandError(f"--catalog db: {NO_CATALOG_TABLES}.") from exc
        notice(f"simulate: {NO_CATALOG_TABLES}; using the fixture catalog (fixtures/catalog).")
        return load_catalog_dir()
    if source == "auto" and not catalog.arsenal:
        return load_catalog_dir()
    return catalog
