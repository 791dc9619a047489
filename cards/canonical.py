"""The content hash of catalog dicts (pure Python, no Django), shared by every game's catalog part.

`content_hash(dicts)` is the SHA-256 of the dicts as sorted compact JSON: the version hash of a catalog
(Battlecards' canonical dicts: cards.battlecards.canonical; the other games' rows: cards/<game>/).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

CatalogDicts = dict[str, list[dict[str, Any]]]


def content_hash(normalized: CatalogDicts) -> str:
    payload = json.dumps(normalized, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
