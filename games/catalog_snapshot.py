"""The frozen card definitions of a game: their hash, and the engine's catalog rebuilt from them.

A game stores at creation the plain JSON of the card definitions it uses (Battlecards:
cards.battlecards.snapshot.snapshot_dicts; another game: its definition's `live_snapshot`, games.game_types);
every later request rebuilds the engine's catalog from that snapshot (never from the live catalog), so
editing a card in the admin never changes a running or finished game. Pure Python.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from vocabulary.battlecards import Catalog


def snapshot_hash(snapshot: dict[str, Any]) -> str:
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


_CACHE: OrderedDict[str, Catalog] = OrderedDict()
_CACHE_SIZE = 64


def cached_catalog(digest: str) -> Catalog | None:
    """The Catalog of a snapshot already built in this process, if any (no need to load the snapshot)."""
    catalog = _CACHE.get(digest)
    if catalog is not None:
        _CACHE.move_to_end(digest)
    return catalog


def catalog_from_snapshot(
    snapshot: dict[str, Any], digest: str | None = None, *, build: Callable[[Any], Any] | None = None
) -> Catalog:
    """Rebuild the frozen Catalog a game was created with (cached per snapshot hash: it never changes).

    `build` turns the snapshot into a catalog (default: the Battlecards Catalog.from_dicts; another game
    type passes its own, see games.game_types)."""
    digest = digest or snapshot_hash(snapshot)
    catalog = _CACHE.get(digest)
    if catalog is None:
        catalog = build(snapshot) if build is not None else Catalog.from_dicts(**snapshot)
        _CACHE[digest] = catalog
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(digest)
    return catalog
