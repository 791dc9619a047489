"""The one source of randomness of a game: a seeded `random.Random` whose state is serialised with the game.

Every shuffle, reshuffle and random insertion goes through the game's `rng` (bots never draw from it).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any


def new_rng(seed: int) -> random.Random:
    return random.Random(seed)


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(rng: random.Random, data: list[Any]) -> None:
    rng.setstate((data[0], tuple(data[1]), data[2]))


# ---- bots: no second RNG, a "random" choice is a hash of (salt, ply, seat) ----------------------------
MASK64 = (1 << 64) - 1


def hashed_index(base: int, ply: int, first_seat: bool, n: int) -> int:
    """A deterministic index in range(n) from (salt base, ply, seat): splitmix64."""
    z = (base + (ply * 2 + first_seat) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return (z ^ (z >> 31)) % n


_SALTS: dict[str, int] = {}


def salt_base(salt: str) -> int:
    """A bot's salt as a 64-bit number (blake2b), memoised (bounded: salts are a few per process)."""
    base = _SALTS.get(salt)
    if base is None:
        if len(_SALTS) >= 10_000:
            _SALTS.clear()
        base = _SALTS[salt] = int.from_bytes(hashlib.blake2b(salt.encode(), digest_size=8).digest(), "big")
    return base
