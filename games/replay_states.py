"""The engine state after the first k engine actions in effect of a game, for the delayed spectator view and
the site's replay page (issue 34, finding 9: each new ?delay= and each replay step replayed the game from its
set-up, 0.1 to 0.7 s at 370 plies).

Snapshots: the state after every SNAPSHOT_PLIES-th action in effect (ply 32, 64, ...) is kept in the shared
cache (settings.CACHES: Redis in production, so every worker process uses them), encoded as the engine's state
JSON (zlib-compressed), under a key naming the game, the ply, the actions in effect up to it (a digest of
their log seqs: a takeback that rewinds past a snapshot makes a new prefix, so a new key) and the rules
revision (a digest of the engines' source: code that plays differently never reads another code's
snapshots). A state is then the nearest kept snapshot at or below k decoded, plus at most SNAPSHOT_PLIES - 1
actions applied; the snapshots a request passes that are missing are written as it goes, so only the first
request of a game (since the cache forgot it) replays from the set-up.

The snapshots are full engine states (hidden information: hands, deck order, RNG): they stay on the server,
in the cache only, and only the callers' public views of the states they give leave it. The log in the
database stays the source of truth: a snapshot is a pure function of the set-up and the actions its key
names, so a lost or expired one is rebuilt from them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from django.core.cache import cache

SNAPSHOT_PLIES = 32  # a snapshot every this many actions in effect: any ply is at most 31 applies away
SNAPSHOT_TTL_SECONDS = 7 * 24 * 3600
KEY_PREFIX = "replay-state"


@functools.cache
def rules_revision() -> str:
    """A digest of every engine source file (games/engine/**/*.py), computed once per process: a snapshot
    written by code that plays by other rules is never read. Empty when the sources cannot be read (then
    no snapshot is read or written)."""
    root = Path(__file__).resolve().parent / "engine"
    digest = hashlib.sha256()
    files = sorted(root.rglob("*.py"))
    for path in files:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16] if files else ""


def prefix_digests(seqs: Sequence[int], *, every: int = SNAPSHOT_PLIES) -> dict[int, str]:
    """For each snapshot ply b (every, 2 * every, ... <= len(seqs)): a digest of the log seqs of the first b
    actions in effect (chained, so the whole list is hashed once)."""
    digests: dict[int, str] = {}
    running = hashlib.blake2b(digest_size=12)
    for ply in range(every, len(seqs) + 1, every):
        running.update(",".join(map(str, seqs[ply - every:ply])).encode() + b";")
        digests[ply] = running.copy().hexdigest()
    return digests


def snapshot_key(*, game_id: Any, ply: int, digest: str, revision: str) -> str:
    return f"{KEY_PREFIX}:{revision}:{game_id}:{ply}:{digest}"


def _encode(state_json: Mapping[str, Any]) -> bytes:
    return zlib.compress(json.dumps(state_json, separators=(",", ":")).encode(), 1)


def _decode(blob: bytes) -> dict[str, Any]:
    return json.loads(zlib.decompress(blob))


def state_after(
    *,
    kind: Any,
    game_id: Any,
    catalog: Any,
    setup: Any,
    effective: Sequence[Sequence[Any]],
    count: int,
    actions_of: Callable[[list[int]], list[Any]] | None = None,
) -> Any:
    """The engine state after the first `count` of `effective` ((kind, seq, action, ...) log entries in
    effect, in seq order: games.takeback_rules.effective_actions) applied to the game's set-up.

    `setup` is the stored set-up JSON, or a callable returning it (read only when no snapshot serves).
    `actions_of(seqs)`, when given, returns the logged actions of those seqs (then the entries' own action
    is not read): only the actions applied after the snapshot are asked for."""
    count = max(0, min(count, len(effective)))
    revision = rules_revision()
    digests = prefix_digests([entry[1] for entry in effective[:count]]) if revision else {}
    keys = {
        ply: snapshot_key(game_id=game_id, ply=ply, digest=digest, revision=revision)
        for ply, digest in digests.items()
    }
    found = cache.get_many(list(keys.values())) if keys else {}
    start, state = 0, None
    for ply in sorted(keys, reverse=True):
        blob = found.get(keys[ply])
        if blob is not None:
            state, start = kind.state_from_json(_decode(blob), catalog), ply
            break
    if state is None:
        setup_json = setup() if callable(setup) else setup
        state = kind.replay(catalog, setup_json, [])
    todo = effective[start:count]
    actions = actions_of([e[1] for e in todo]) if actions_of is not None else [e[2] for e in todo]
    missing: dict[str, bytes] = {}
    for ply, action in enumerate(actions, start=start):
        kind.apply(state, action)  # the logged JSON, as kind.replay applies it
        key = keys.get(ply + 1)
        if key is not None and key not in found:
            missing[key] = _encode(state.to_json())
    if missing:
        cache.set_many(missing, SNAPSHOT_TTL_SECONDS)
    return state
