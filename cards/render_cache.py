"""One in-process cache of rendered card faces, shared by every game's faces (cards/faces.py,
cards/battlefront/faces.py, cards/the_war/faces.py): rendered text by key, valid for one catalog version or
cache token; a new one empties it. An empty version caches nothing (no catalog loaded yet)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable


class RenderedCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[Hashable, str] = {}
        self._version = ""

    def get(self, key: Hashable, version: str) -> str | None:
        with self._lock:
            if self._version != version:
                self._items.clear()
                self._version = version
            return self._items.get(key)

    def put(self, key: Hashable, version: str, value: str) -> None:
        if not version:
            return
        with self._lock:
            if self._version == version:  # a newer version came in meanwhile: this value is stale
                self._items[key] = value

    def get_or_render(self, key: Hashable, version: str, render: Callable[[], str]) -> str:
        cached = self.get(key, version)
        if cached is None:
            cached = render()
            self.put(key, version, cached)
        return cached
