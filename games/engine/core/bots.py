"""Game-independent bot machinery: the salted random bot every game's RandomBot is.

A bot never draws from the game's RNG: its "random" pick is a hash of (salt, ply, seat) (core.rng), so a
bot game is reproducible from the seed, the salts and nothing else.
"""
from __future__ import annotations

from typing import Any, ClassVar

from .rng import hashed_index, salt_base


class SaltedRandomBot:
    """Uniform over the legal actions, deterministic per salt, ply and seat.

    A game subclasses it naming its first seat (the seat bit of the hash); self-play's index-picking fast
    path (core.selfplay.random_pick) reproduces `choose` from `_base` and that bit.
    """

    first_seat: ClassVar[str]
    needs_view = False  # reads only view["ply"]

    def __init__(self, salt: str | int = "random") -> None:
        self.salt = str(salt)

    @property
    def salt(self) -> str:
        return self._salt

    @salt.setter
    def salt(self, value: str) -> None:
        self._salt = value
        self._base = salt_base(value)

    def choose(self, view: dict[str, Any], legal: list[Any], seat: str) -> Any:
        return legal[hashed_index(self._base, view["ply"], seat == self.first_seat, len(legal))]
