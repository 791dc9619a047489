"""Battlecards' card vocabulary: card definitions as frozen values, and the catalog they form.

This package is the one contract between the catalog data (fixtures/catalog/*.json, loaded into the
database by `manage.py load_catalog`) and every consumer: the rules engine (games.engine), deck rules
(decks/rules.py) and the catalog app (cards). No app owns it. Pure Python: no Django, no app imports
(import-linter contract "The card vocabulary is pure Python").

It is also the one home of "max copies per card" (`max_copies`, `SINGLE_COPY_CLASSES`): the catalog API,
its filters and `?q=` search, deck rules, the engine's set-up check and the balance proposals all read it.

Two ways to build a Catalog, which must give equal values:
  * `load_catalog_dir(path)`      - straight from the fixture JSON (engine tests, bots, benchmarks)
  * `Catalog.from_dicts(...)`     - from plain dicts (the Django app serialises its rows to the same dicts)

Fixture JSON format (one file per kind; see fixtures/README.md for sources and estimation):
  nations.json      [{"code": "GB", "name": "British", "side": "allies"}, ...]
  theaters.json     [{"code": "WE", "name": "Western Europe"}, ...]
  sets.json         [{"code", "name", "kind": "starter"|"expansion"|"conflict", "nation": "GB"|null,
                      "theater": "WE", "printed_points": int|null, "printed_cards": int|null,
                      "notes": str, "entries": [{"card": code, "printed_name": str, "count": int|null,
                      "count_provenance": "seed"|"estimated", "count_note": str}]}]
  arsenal/*.json    [ArsenalCard dicts, see ArsenalCardDef.from_dict]
  conflict/*.json   {"conflict_cards": [ConflictCardDef dicts], "battlecards": [BattlecardDef dicts]}
"""

from vocabulary.battlecards.cards import (
    Ability,
    ArsenalCardDef,
    BattlecardDef,
    CardSetDef,
    ConflictCardDef,
    Forces,
    NationDef,
    Prerequisite,
    SetEntry,
    Stats,
)
from vocabulary.battlecards.catalog import (
    DEFAULT_CATALOG_DIR,
    Catalog,
    load_catalog_dir,
    read_fixture_dicts,
)
from vocabulary.battlecards.terms import (
    ABILITY_SCHEMA,
    CONFLICT_CATEGORIES,
    CONFLICT_EFFECTS,
    KINDS,
    PROVENANCES,
    SIDES,
    SINGLE_COPY_CLASSES,
    SINGLE_COPY_MAX,
    UNIT_CLASSES,
    CatalogError,
    freeze,
    is_single_copy,
    max_copies,
    thaw,
    validate_ability,
)

__all__ = [
    "ABILITY_SCHEMA",
    "Ability",
    "ArsenalCardDef",
    "BattlecardDef",
    "CONFLICT_CATEGORIES",
    "CONFLICT_EFFECTS",
    "CardSetDef",
    "Catalog",
    "CatalogError",
    "ConflictCardDef",
    "DEFAULT_CATALOG_DIR",
    "Forces",
    "KINDS",
    "NationDef",
    "PROVENANCES",
    "Prerequisite",
    "SIDES",
    "SINGLE_COPY_CLASSES",
    "SINGLE_COPY_MAX",
    "SetEntry",
    "Stats",
    "UNIT_CLASSES",
    "freeze",
    "is_single_copy",
    "load_catalog_dir",
    "max_copies",
    "read_fixture_dicts",
    "thaw",
    "validate_ability",
]
