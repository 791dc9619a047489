"""manage.py load_catalog [--path DIR] [--battlefront FILE | --skip-battlefront]
[--the-war DIR | --skip-the-war] [--reset]: validate fixtures/catalog/ and apply it to the database, then
its rulings.json, the Battlefront cards (fixtures/battlefront/cards.json) and The War's cards and starters
(fixtures/the_war/cards.json + starters.json) and Tide of Iron's Strategy cards (fixtures/tide_of_iron/)
the same way.

The fixtures are the source of the shipped catalog and an edit made in the admin is a local override: each
load applies only what the fixtures changed since the last load, keeps every edited field (a fixture change
meeting one is listed as a conflict) and reports the overrides it keeps; --reset applies the fixtures as
they are. The overrides are also kept on the "fixture states" page of the admin (cards.models.FixtureState).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cards.battlecards.rulings import rulings_load
from cards.battlefront.services import BATTLEFRONT_FIXTURE, BATTLEFRONT_TABLES, battlefront_load
from cards.fixture_merge import describe
from cards.services import TABLES, CatalogInvalid, catalog_load
from cards.the_war.services import THE_WAR_FIXTURE_DIR, THE_WAR_TABLES, the_war_load
from cards.tide_of_iron.services import TIDE_OF_IRON_FIXTURE_DIR, TIDE_OF_IRON_TABLES, tide_of_iron_load
from vocabulary.battlecards import DEFAULT_CATALOG_DIR, read_fixture_dicts

MAX_LISTED = 50


class Command(BaseCommand):
    help = (
        "Load the card catalog from fixture JSON (default fixtures/catalog/) in one transaction, keeping the "
        "edits made in the admin (listed). Idempotent: a second run changes nothing. --reset discards them."
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
        parser.add_argument(
            "--the-war",
            default=str(THE_WAR_FIXTURE_DIR),
            help="The War's directory with cards.json and starters.json (default fixtures/the_war/).",
        )
        parser.add_argument(
            "--skip-the-war", action="store_true", help="Leave The War's cards and starters alone."
        )
        parser.add_argument(
            "--tide-of-iron",
            default=str(TIDE_OF_IRON_FIXTURE_DIR),
            help="Tide of Iron's directory with cards.json and decks.json (default fixtures/tide_of_iron/).",
        )
        parser.add_argument(
            "--skip-tide-of-iron", action="store_true", help="Leave Tide of Iron's Strategy cards alone."
        )
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Apply the fixtures as they are: discard every edit made in the admin (they are listed).",
        )

    def handle(self, *args, **options):
        root = Path(options["path"])
        reset = options["reset"]
        if not root.is_dir():
            raise CommandError(f"catalog directory not found: {root}")
        try:
            raw = read_fixture_dicts(root)
        except FileNotFoundError as exc:
            raise CommandError(f"catalog file missing: {exc.filename}") from exc
        except ValueError as exc:  # json.JSONDecodeError
            raise CommandError(f"catalog file is not valid JSON: {exc}") from exc
        try:
            result = catalog_load(raw=raw, source=str(root), reset=reset)
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
        self._report("catalog", result.fixture_changed, result.overrides, reset, result.discarded)
        self._load_rulings(root, reset)
        if not options["skip_battlefront"]:
            self._load_battlefront(Path(options["battlefront"]), reset)
        if not options["skip_the_war"]:
            self._load_the_war(Path(options["the_war"]), reset)
        if not options["skip_tide_of_iron"]:
            self._load_tide_of_iron(Path(options["tide_of_iron"]), reset)

    def _report(self, name: str, fixture_changed: bool, overrides, reset: bool, discarded) -> None:
        """Whether the fixtures were applied, and every local override kept (conflicts first)."""
        if reset:
            self.stdout.write(f"{name}: reset to the fixtures")
            for override in (discarded or [])[:MAX_LISTED]:
                self.stdout.write(f"  discarded: {describe(override)}")
            return
        applied = "changed since the last load: applied" if fixture_changed else "unchanged since last load"
        self.stdout.write(f"{name}: fixtures {applied}")
        if not overrides:
            return
        conflicts = [o for o in overrides if o.get("conflict")]
        summary = f"{name}: {len(overrides)} local overrides kept (edits made in the admin)"
        if conflicts:
            summary += f", {len(conflicts)} in conflict with a fixture change"
        self.stdout.write(self.style.WARNING(summary + "; load_catalog --reset applies the fixtures"))
        ordered = conflicts + [o for o in overrides if not o.get("conflict")]
        for override in ordered[:MAX_LISTED]:
            line = f"  {describe(override)}"
            self.stdout.write(self.style.WARNING(line) if override.get("conflict") else line)
        if len(ordered) > MAX_LISTED:
            self.stdout.write(f"  ... {len(ordered) - MAX_LISTED} more: see Fixture states in the admin")

    def _load_rulings(self, root: Path, reset: bool) -> None:
        """rulings.json (optional in other directories): the FAQ and estimated rulings per card."""
        path = root / "rulings.json"
        if not path.exists():
            return
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CommandError(f"rulings.json is not valid JSON: {exc}") from exc
        result = rulings_load(rows=rows, reset=reset)
        for problem in result.unknown:
            self.stderr.write(self.style.WARNING(f"warning: ruling links an unknown card: {problem}"))
        self.stdout.write(
            f"rulings: {result.total} ({len(result.created)} created, {len(result.deleted)} deleted)"
            + (f", {len(result.updated)} updated" if result.updated else "")
        )
        self._report("rulings", result.fixture_changed, result.overrides, reset, result.discarded)

    def _load_battlefront(self, path: Path, reset: bool) -> None:
        """The Battlefront cards and special uses (cards.battlefront.services.battlefront_load), by code."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise CommandError(f"Battlefront file missing: {path}") from exc
        except ValueError as exc:
            raise CommandError(f"{path.name} is not valid JSON: {exc}") from exc
        try:
            result = battlefront_load(raw=raw, reset=reset)
        except CatalogInvalid as exc:
            raise CommandError(f"invalid Battlefront cards: {exc.detail}") from exc
        for table in BATTLEFRONT_TABLES:
            c = result.changes[table]
            self.stdout.write(
                f"{table}: {c.total} ({len(c.created)} created, {len(c.updated)} updated, "
                f"{len(c.deleted)} deleted)"
            )
        self._report("battlefront", result.fixture_changed, result.overrides, reset, result.discarded)

    def _load_the_war(self, root: Path, reset: bool) -> None:
        """The War's cards and starters (cards.the_war.services.the_war_load), by code."""
        self._load_game_files(
            root, reset, label="The War", state="the_war", files=("cards", "starters"), tables=THE_WAR_TABLES,
            load=the_war_load,
        )

    def _load_tide_of_iron(self, root: Path, reset: bool) -> None:
        """Tide of Iron's Strategy cards, decks and scenarios (cards.tide_of_iron.services), by code."""
        self._load_game_files(
            root, reset, label="Tide of Iron", state="tide_of_iron", files=("cards", "decks"),
            tables=TIDE_OF_IRON_TABLES, load=tide_of_iron_load,
        )

    def _load_game_files(
        self, root: Path, reset: bool, *, label: str, state: str, files: tuple[str, ...], tables: Any,
        load: Any,
    ) -> None:
        """A game's JSON files (`<name>.json` for each of `files`, passed to `load` by name), by code."""
        docs = {}
        for name in files:
            path = root / f"{name}.json"
            try:
                docs[name] = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError as exc:
                raise CommandError(f"{label} file missing: {path}") from exc
            except ValueError as exc:
                raise CommandError(f"{label} {name}.json is not valid JSON: {exc}") from exc
        try:
            result = load(**docs, reset=reset, source=str(root))
        except CatalogInvalid as exc:
            raise CommandError(f"invalid {label} cards: {exc.detail}") from exc
        for table in tables:
            c = result.changes[table]
            self.stdout.write(
                f"{table}: {c.total} ({len(c.created)} created, {len(c.updated)} updated, "
                f"{len(c.deleted)} deleted)"
            )
        self._report(state, result.fixture_changed, result.overrides, reset, result.discarded)
