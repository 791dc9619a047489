"""The War bots (engine bot protocol: `choose(view, legal, seat)`; `needs_view` False reads only the ply).
No second RNG: the random bot's pick hashes (salt, ply, seat) (core.rng)."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import TheWarCatalog, load_catalog

from ..core.bots import SaltedRandomBot
from .setup import SEATS
from .state import WarState


class RandomBot(SaltedRandomBot):
    """Uniform over the legal actions (deterministic per salt, ply and seat)."""

    first_seat = SEATS[0]


class HeuristicBot:
    """Plays resources, builds the dearest unit it can, attacks with everything that can, blocks an
    attacker only with a unit that survives it, strikes the deck, and puts damage where it destroys.

    It reads only what its seat may see: the view's cards (ids and codes) and damage, or, in self-play
    (`bind`), the same facts from the state (faster; the choices are the same)."""

    ORDER = {
        "keep": 0, "play_resource": 0, "maintain": 0, "tap": 0, "convert": 1,
        "build": 2, "improve": 3, "attack": 0, "target": 1, "wave": 0, "breakthrough": 0,
        "strike": 0, "land": 0, "deck_hit": 0, "salvo": 0, "fire_support": 0, "eliminate": 1,
        "play_location": 1, "block": 0, "support": 1, "hit": 0, "move": 9, "scout": 9,
        "move_improvement": 9, "discard_condition": 9, "abandon": 5, "redraw": 5, "done": 8,
    }

    def __init__(self, catalog: TheWarCatalog | None = None, salt: str | int = "heuristic",
                 state: WarState | None = None) -> None:
        self._catalog = catalog
        self.state = state
        self.salt = str(salt)

    @property
    def needs_view(self) -> bool:
        return self.state is None

    @property
    def catalog(self) -> TheWarCatalog:
        if self._catalog is None:
            self._catalog = self.state.catalog if self.state is not None else load_catalog()
        return self._catalog

    def bind(self, state: WarState) -> None:
        self.state = state

    def _value(self, a: Any, code_of: Any, damage: dict[str, int]) -> float:
        t = a.type
        base = float(self.ORDER.get(t, 8))
        cards = self.catalog.cards
        if t == "build":
            return base - 0.01 * cards[code_of(a.card)].cost_total
        if t == "block":
            b, att = cards[code_of(a.unit)], cards[code_of(a.attacker)]
            if (b.defense or 0) <= (att.attack or 0):
                return 8.5  # would die: do not block
            return base
        if t == "support":
            return 8.5
        if t == "strike":
            return base if a.target == "deck" else base + 0.5
        if t == "hit":
            df = cards[code_of(a.target)].defense or 0
            return base - (0.5 if damage.get(a.target, 0) < df else -0.5)
        return base

    def choose(self, view: dict[str, Any], legal: Any, seat: str) -> Any:
        st = self.state
        if st is not None:
            codes, damage = st.codes, st.damage
        else:
            codes, damage = {}, {}
            stack: list[Any] = [view]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    if isinstance(item.get("id"), str) and isinstance(item.get("code"), str):
                        codes[item["id"]] = item["code"]
                        if item.get("damage"):
                            damage[item["id"]] = item["damage"]
                    stack.extend(v for v in item.values() if isinstance(v, dict | list))
                elif isinstance(item, list):
                    stack.extend(item)
        best, best_v = None, None
        for a in legal:
            v = self._value(a, codes.__getitem__, damage)
            if best_v is None or v < best_v:
                best, best_v = a, v
        return best
