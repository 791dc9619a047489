"""manage.py load_catalog [--path DIR] [--battlefront FILE | --skip-battlefront]: validate fixtures/catalog/
and upsert it into the database, then the Battlefront cards (fixtures/battlefront/cards.json) the same way."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.battlefront.services import BATTLEFRONT_FIXTURE, BATTLEFRONT_TABLES, battlefront_load
from cards.services import TABLES, CatalogInvalid, catalog_load, rulings_load
from games.engine.cards import DEFAULT_CATALOG_DIR, read_fixture_dicts


class Command(BaseCommand):
    help = (
        "Load the card catalog from fixture JSON (default fixtures/catalog/) in one transaction. "
        "Idempotent: a second run changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--path", default=str(DEFAULT_CATALOG_DIR), help="Catalog directory (fixture format)."
        )
        parser.add_argument(
            "--battlefront",
            default=str(BATTLEFRONT_FIXTURE),
            help="The Battlefront cards file (default fixtures/battlefront/cards.json).",
        )
        parser.add_argument(
            "--skip-battlefront", action="store_true", help="Leave the Battlefront cards alone."
        )

    def handle(self, *args, **options):
        root = Path(options["path"])
        if not root.is_dir():
            raise CommandError(f"catalog directory not found: {root}")
        try:
            raw = read_fixture_dicts(root)
        except FileNotFoundError as exc:
            raise CommandError(f"catalog file missing: {exc.filename}") from exc
        except ValueError as exc:  # json.JSONDecodeError
            raise CommandError(f"catalog file is not valid JSON: {exc}") from exc
        try:
            result = catalog_load(raw=raw, source=str(root))
        except CatalogInvalid as exc:
            raise CommandError(f"invalid catalog: {exc.detail}") from exc

        for table, keys in result.unknown_keys.items():
            self.stderr.write(
                self.style.WARNING(f"warning: {table} has keys the catalog does not store: {keys}")
            )
        if not result.changed:
            self.stdout.write(f"catalog unchanged (hash {result.content_hash[:12]})")
        for table in TABLES:
            c = result.changes[table]
            line = (
                f"{table}: {c.total} ({len(c.created)} created, {len(c.updated)} updated, "
                f"{len(c.deleted)} deleted)"
            )
            self.stdout.write(line)
        if result.changed:
            self.stdout.write(
                self.style.SUCCESS(
                    f"catalog loaded (hash {result.content_hash[:12]}, version {result.version.pk})"
                )
            )
        self._load_rulings(root)
        if not options["skip_battlefront"]:
            self._load_battlefront(Path(options["battlefront"]))

    def _load_rulings(self, root: Path) -> None:
        """rulings.json (optional in other directories): the FAQ and estimated rulings per card."""
        path = root / "rulings.json"
        if not path.exists():
            return
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CommandError(f"rulings.json is not valid JSON: {exc}") from exc
        result = rulings_load(rows=rows)
        for problem in result.unknown:
            self.stderr.write(self.style.WARNING(f"warning: ruling links an unknown card: {problem}"))
        self.stdout.write(
            f"rulings: {result.total} ({len(result.created)} created, {len(result.deleted)} deleted)"
        )

    def _load_battlefront(self, path: Path) -> None:
        """The Battlefront cards and special uses (cards.battlefront.services.battlefront_load), by code."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise CommandError(f"Battlefront file missing: {path}") from exc
        except ValueError as exc:
            raise CommandError(f"{path.name} is not valid JSON: {exc}") from exc
        try:
            result = battlefront_load(raw=raw)
        except CatalogInvalid as exc:
            raise CommandError(f"invalid Battlefront cards: {exc.detail}") from exc
        for table in BATTLEFRONT_TABLES:
            c = result.changes[table]
            self.stdout.write(
                f"{table}: {c.total} ({len(c.created)} created, {len(c.updated)} updated, "
                f"{len(c.deleted)} deleted)"
            )
