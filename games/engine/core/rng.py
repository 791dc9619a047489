"""The one source of randomness of a game: a seeded `random.Random` whose state is serialised with the game.

Every shuffle, reshuffle and random insertion goes through the game's `rng` (bots never draw from it).
"""
from __future__ import annotations

import base64
import hashlib
import random
import struct
from typing import Any


def new_rng(seed: int) -> random.Random:
    return random.Random(seed)


def rng_to_json(rng: random.Random) -> list[Any]:
    """`[version, words, gauss_next]` of `random.Random.getstate()`, the Mersenne Twister's 625 words (its
    624 words of state and its position) as one base64 string of little-endian 32-bit words (3.3 KB) rather
    than a list of 625 numbers (6.7 KB, 40 % of a Battlecards state): the state column is written at every
    action, and PostgreSQL parses a jsonb number much more slowly than a string (issue 42)."""
    version, internal, gauss = rng.getstate()
    return [version, base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii"), gauss]


def rng_from_json(rng: random.Random, data: list[Any]) -> None:
    """The RNG's state from rng_to_json's JSON, or from the list of numbers that states stored before it
    hold (still read: stored games and their logs stay valid)."""
    words = data[1]
    if isinstance(words, str):
        raw = base64.b64decode(words.encode("ascii"), validate=True)
        if len(raw) % 4:
            raise ValueError("the RNG's words are not whole 32-bit words")
        words = struct.unpack(f"<{len(raw) // 4}I", raw)
    rng.setstate((data[0], tuple(words), data[2]))


def rng_as_written(data: dict[str, Any]) -> dict[str, Any]:
    """A stored state's JSON with its "rng" entry as rng_to_json writes it now (a state stored before issue 42
    holds the list of numbers): two states' JSON compare equal this way when they hold the same game."""
    if "rng" not in data:
        return data
    rng = random.Random()
    rng_from_json(rng, data["rng"])
    return {**data, "rng": rng_to_json(rng)}


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
