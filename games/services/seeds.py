"""Seeds: the commitment published at creation, the deal's seed and the bots' salt."""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 62


def new_seed() -> int:
    """A game's seed when its creator gives none."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """A new game's secret salt (the one place it is drawn: the test suite makes it reproducible here)."""
    return secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    """sha256 over "<seed>:<salt>": published at creation; seed and salt are revealed after the end."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def deal_seed(seed: int, salt: str) -> int:
    """The engine's seed: the game seed mixed with the server's secret salt.

    A player who picks `seed` still cannot reproduce the deal (and so learn the other seat's hand or the
    deck order) while the game runs; after the end seed and salt are published and anyone can recompute it.
    """
    return int(hashlib.sha256(f"deal:{seed}:{salt}".encode()).hexdigest()[:16], 16)


def bot_salt(salt: str) -> str:
    """Bots' choices hash this secret (revealed with the seed at the end), so nobody can predict them."""
    return hashlib.sha256(f"bot:{salt}".encode()).hexdigest()[:16]
