"""A process-local memory of the newest engine state of recently used games, and of the seat views built
from it (issue 26: a game view decoded the stored state JSON and rebuilt every card definition each time).

The log and the row stay the source of truth: an entry is keyed by what changes with every write of the
state (the row's version and `updated_at`, both written by every progress save, and the game's status), so
a row read later than the entry simply misses and is decoded again. Entries are built only from a row read
from the database, or (a seat's encoded view only: keep_seat_json) from the state an action POST of this
process wrote, once its transaction has committed; never from a state a transaction has not committed yet.
They are never mutated: callers receive the cached state read-only (a view never changes its state; code
that applies actions decodes its own copy). Bounded (least recently used games leave first); nothing here is
shared between processes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

MAX_GAMES = 256

_LOCK = threading.Lock()
_GAMES: OrderedDict[Any, tuple[tuple, dict[str, Any]]] = OrderedDict()


def row_key(game: Any) -> tuple:
    """What identifies the stored state of a loaded game row (changes with every progress save)."""
    return (game.version, game.updated_at, game.status, game.snapshot_hash)


def _entry(game: Any) -> dict[str, Any] | None:
    key = row_key(game)
    with _LOCK:
        found = _GAMES.get(game.pk)
        if found is None or found[0] != key:
            return None
        _GAMES.move_to_end(game.pk)
        return found[1]


def _store(game: Any, entry: dict[str, Any]) -> dict[str, Any]:
    key = row_key(game)
    with _LOCK:
        found = _GAMES.get(game.pk)
        if found is not None and found[0] == key:
            return found[1]
        _GAMES[game.pk] = (key, entry)
        _GAMES.move_to_end(game.pk)
        while len(_GAMES) > MAX_GAMES:
            _GAMES.popitem(last=False)
    return entry


def cached_state(game: Any) -> Any | None:
    """The decoded state of this exact row, when this process already holds it (read-only)."""
    entry = _entry(game)
    return None if entry is None else entry.get("state")


def remember_state(game: Any, state: Any) -> Any:
    """Keep the state decoded from this row (the row's own `state` column, as read from the database)."""
    entry = _store(game, {"state": state, "seats": {}})
    with _LOCK:  # an entry a writer opened (keep_seat_json) has no state yet
        return entry.setdefault("state", state)


def seat_part(game: Any, seat: str, build: Callable[[], Any]) -> Any:
    """The part of a seat's view that depends only on the stored state (built once per row and seat).

    `build` must be a pure function of the row's state and the seat; its result is shared read-only."""
    entry = _entry(game)
    if entry is None:
        return build()
    seats = entry["seats"]
    part = seats.get(seat)
    if part is None:
        part = seats[seat] = build()
    return part


def seat_json(game: Any, seat: str, build: Callable[[], Any]) -> Any:
    """The encoded JSON of a seat's seat_part (e.g. its bytes), built once per row and seat like it.

    `build` must be a pure function of the row's state and the seat; its result is shared read-only."""
    entry = _entry(game)
    if entry is None:
        return build()
    encoded = entry.setdefault("json", {})
    part = encoded.get(seat)
    if part is None:
        part = encoded[seat] = build()
    return part


def kept_seat_json(game: Any, seat: str) -> Any | None:
    """The encoded seat part this process keeps for this exact row and seat (seat_json's), or None."""
    entry = _entry(game)
    return None if entry is None else entry.get("json", {}).get(seat)


def keep_seat_json(game: Any, seat: str, encoded: Any) -> None:
    """Keep the encoded seat part (seat_json's) that a committed write of this process built from the state
    it wrote, for the row it wrote (`game` as written): an action POST answers with its seat's view, so the
    next GET of that view finds it encoded. Only the encoded part is kept for readers: the written state
    itself goes to the next writer (below), never to readers."""
    entry = _store(game, {"seats": {}})  # this row's entry, or a new one without a state
    with _LOCK:
        entry.setdefault("json", {}).setdefault(seat, encoded)


# ------------------------------------------------------------------ the next writer's state (action POSTs)
# The state an action POST applied its action and the bots' answers to, once that write has committed and
# the POST has built its response: the next action POST on the same game in this process takes it instead
# of reading and decoding the stored JSON, when the row it has locked is still the one written with it
# (same row_key). It is never shared: it is kept only after its owner's last read, a taker removes it under
# the lock (one taker at most) and owns it from then on, and nobody reads it while it is kept; readers
# (the views above) decode their own. A write that fails keeps nothing, so a state half-applied by an
# action the engine refused is never handed on.

_WRITERS: OrderedDict[Any, tuple[tuple, Any]] = OrderedDict()


def keep_for_write(game: Any, state: Any) -> None:
    """Hand `state` on to the next writer of this game: the caller's committed write put this row (row_key
    of `game` as written) with this state, and the caller will not touch the state again."""
    with _LOCK:
        _WRITERS[game.pk] = (row_key(game), state)
        _WRITERS.move_to_end(game.pk)
        while len(_WRITERS) > MAX_GAMES:
            _WRITERS.popitem(last=False)


def held_version(pk: Any) -> int | None:
    """The version of the row a kept state of this game was written with, or None when none is kept."""
    found = _WRITERS.get(pk)
    return None if found is None else found[0][0]


def take_for_write(game: Any) -> Any | None:
    """The kept state of this game when the locked row `game` is the one it was written with (removed: the
    caller owns it now, and applies to it); None otherwise (then a kept state of an older row is dropped)."""
    with _LOCK:
        found = _WRITERS.pop(game.pk, None)
    if found is None or found[0] != row_key(game):
        return None
    return found[1]


def clear() -> None:
    with _LOCK:
        _GAMES.clear()
        _WRITERS.clear()
