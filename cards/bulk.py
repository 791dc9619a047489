"""Bulk data and catalog sync (reads): the gzipped catalog file per version, changes between versions.

The bulk file is the catalog dicts of the current CatalogVersion (fixture shape, see
cards.battlecards.canonical) wrapped with the version hash and time, plus every ruling (with the cards it
concerns) and the section each game's catalog part adds (games.game_types: a definition's `bulk_section`;
battlefront: the Battlefront cards in the fixtures/battlefront/cards.json shape; the_war: The War's
{version, cards, starters}, every field of fixtures/the_war/ with its provenance), as compact JSON, gzipped
deterministically (mtime 0): the same data gives the same bytes. It is built once per catalog cache token
(cards.selectors.catalog_cache_token: a new one after every load or admin edit, Battlefront, The War and
rulings ones too) and kept in memory.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.module_loading import import_string

from cards.battlecards.selectors import catalog_dicts, ruling_dicts
from cards.canonical import content_hash
from cards.models import CatalogVersion
from cards.selectors import catalog_cache_token, catalog_version_current, version_by_hash
from config.errors import DomainError
from games.game_types import GAME_TYPES

TABLES = ("nations", "theaters", "sets", "arsenal", "conflict_cards", "battlecards")


@dataclass(frozen=True)
class BulkFile:
    name: str
    version: str
    updated_at: datetime | None
    data: bytes
    etag: str

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def filename(self) -> str:
        return f"battlecards-catalog-{self.version[:12]}.json.gz"


_lock = threading.Lock()
_files: dict[str, BulkFile] = {}


def _rulings() -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "position"} for row in ruling_dicts()]


def _game_sections() -> dict[str, Any]:
    """The sections the games' catalog parts add (a registered definition's `bulk_section`: its key in the
    file and the import path of the function that gives it), in registration order."""
    return {
        kind.bulk_section[0]: import_string(kind.bulk_section[1])()
        for kind in GAME_TYPES.values()
        if kind.bulk_section is not None
    }


def _build(version: str, updated_at: datetime | None, contents: dict[str, Any]) -> BulkFile:
    document = {
        "object": "catalog",
        "version": version,
        "updated_at": updated_at.isoformat() if updated_at else None,
        **{table: contents[table] for table in TABLES},
        "rulings": _rulings(),
        **_game_sections(),
    }
    raw = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    data = gzip.compress(raw, compresslevel=9, mtime=0)
    return BulkFile("catalog", version, updated_at, data, f'"{hashlib.sha256(data).hexdigest()[:32]}"')


def bulk_catalog_file() -> BulkFile:
    """The gzipped catalog of the current version (built on first use per version)."""
    version = catalog_version_current()
    if version is None:  # rows never loaded through load_catalog: the rows as they are, uncached
        data = catalog_dicts()
        return _build(content_hash(data), None, data)
    key = f"{version.content_hash}:{catalog_cache_token()}"
    with _lock:
        cached = _files.get(key)
    if cached is not None:
        return cached
    contents = (
        CatalogVersion.objects.filter(pk=version.pk).values_list("contents", flat=True).first()
        or catalog_dicts()
    )
    built = _build(version.content_hash, version.loaded_at, contents)
    with _lock:
        _files.clear()
        _files[key] = built
    return built


# ------------------------------------------------------------------------------------------------ changes


class VersionContentsUnavailable(DomainError):
    status = 410
    code = "version_contents_unavailable"
    default_detail = "The contents of that catalog version were not kept; download the bulk file instead."


def _version_by_hash(since: str) -> CatalogVersion:
    return version_by_hash(CatalogVersion, since, noun="catalog version")


def _table_changes(before: list[dict], after: list[dict]) -> dict[str, Any]:
    old = {row["code"]: row for row in before}
    new = {row["code"]: row for row in after}
    changed = {
        code: sorted(k for k in set(old[code]) | set(new[code]) if old[code].get(k) != new[code].get(k))
        for code in sorted(set(old) & set(new))
        if old[code] != new[code]
    }
    return {
        "added": sorted(set(new) - set(old)),
        "changed": changed,
        "removed": sorted(set(old) - set(new)),
    }


def catalog_changes(*, since: str) -> dict[str, Any]:
    """What changed from version `since` (a hash or a prefix of one) to the current version, per table."""
    old = _version_by_hash(since)
    current = catalog_version_current()
    if old.contents is None:
        raise VersionContentsUnavailable()
    if current is None or current.content_hash == old.content_hash:
        after, to_hash = old.contents, old.content_hash
    else:
        after = (
            CatalogVersion.objects.filter(pk=current.pk).values_list("contents", flat=True).first()
            or catalog_dicts()
        )
        to_hash = current.content_hash
    tables = {table: _table_changes(old.contents.get(table, []), after.get(table, [])) for table in TABLES}
    return {
        "from_version": old.content_hash,
        "to_version": to_hash,
        "changed": any(t["added"] or t["changed"] or t["removed"] for t in tables.values()),
        "tables": tables,
    }
