"""The War bots (engine bot protocol: `choose(view, legal, seat)`; `needs_view` False reads only the ply).
No second RNG: the random bot's pick hashes (salt, ply, seat) (core.rng)."""
from __future__ import annotations

from typing import Any

from ..core.bots import SaltedRandomBot
from .rules import card
from .setup import SEATS
from .state import WarState


class RandomBot(SaltedRandomBot):
    """Uniform over the legal actions (deterministic per salt, ply and seat)."""

    first_seat = SEATS[0]


class HeuristicBot:
    """Plays resources, builds the dearest unit it can, attacks with everything that can, blocks an
    attacker only with a unit that survives it, strikes the deck, and puts damage where it destroys."""

    needs_view = False  # reads the state through `bind` (self-play hands it the state)

    ORDER = {
        "keep": 0, "play_resource": 0, "maintain": 0, "tap": 0, "convert": 1,
        "build": 2, "improve": 3, "attack": 0, "target": 1, "wave": 0, "breakthrough": 0,
        "strike": 0, "deck_hit": 0, "salvo": 0, "fire_support": 0, "eliminate": 1, "play_location": 1,
        "block": 0, "support": 1, "hit": 0, "move": 9, "scout": 9, "move_improvement": 9,
        "discard_condition": 9, "abandon": 5, "redraw": 5, "done": 8,
    }

    def __init__(self, state: WarState | None = None, salt: str | int = "heuristic") -> None:
        self.state = state
        self.salt = str(salt)

    def bind(self, state: WarState) -> None:
        self.state = state

    def _value(self, a: Any) -> float:
        st = self.state
        t = a.type
        base = float(self.ORDER.get(t, 8))
        if st is None:
            return base
        if t == "build":
            c = card(st, a.card)
            return base - 0.01 * c.cost_total
        if t == "block":
            b, att = card(st, a.unit), card(st, a.attacker)
            if (b.defense or 0) <= (att.attack or 0):
                return 8.5  # would die: do not block
            return base
        if t == "support":
            return 8.5
        if t == "strike":
            return base if a.target == "deck" else base + 0.5
        if t == "hit":
            dmg = st.damage.get(a.target, 0)
            df = card(st, a.target).defense or 0
            return base - (0.5 if dmg < df else -0.5)
        return base

    def choose(self, view: dict[str, Any], legal: Any, seat: str) -> Any:
        best, best_v = None, None
        for a in legal:
            v = self._value(a)
            if best_v is None or v < best_v:
                best, best_v = a, v
        return best
