"""The War's seats, the printed numbers and the game set-up (seed + two decks of card codes)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import SetupError

SEATS: tuple[str, str] = ("p1", "p2")
OTHER = {"p1": "p2", "p2": "p1"}
HAND_SIZE = 7  # "draws starting hand of 7 cards from the top"
DRAW_PER_TURN = 2  # "each player will draw two cards at the beginning of his turn"
FIRST_TURN_DRAW = 1  # "The player who moves first also draws one card at the beginning of his turn."
RESOURCES_PER_TURN = 2  # "A player may put up to two resource cards from his hand to his resource zone"
TYPES = ("depot", "plant", "fuel")  # cost order "1/5/1": depot / plant / fuel
LINES = ("1", "2")
DECK = "deck"  # the name of the deck as an attack target

# Rules revisions: a game replays under the revision recorded with it (the games service writes it into the
# game's frozen card snapshot; `TheWarCatalog.rules_revision`, None = this current one). A stored game whose
# snapshot records none is revision 1 and replays exactly as it was played.
#   1: before issue 36: a unit going on with the breakthrough feature kept its 1st-line damage, compared with
#      its already reduced defense (the blockers' attack counted twice).
#   2: the blockers' attack, already taken off its defense, is taken off its damage when it breaks through.
#   3: decisions asked from public facts only: the re-draw, the attacker's abilities and the defender's
#      special cards are always offered, with a pass (issue 36, item 3); the scout party at any decision of
#      its owner (item 4); the AA-attack used voluntarily, a rotated aircraft attacked on its airfield keeps
#      its defense (item 5).
LEGACY_RULES_REVISION = 1
RULES_REVISION = 3


@dataclass(frozen=True, slots=True)
class GameSetup:
    """A seed and each seat's deck (card codes, any order; the engine shuffles)."""

    seed: int
    decks: dict[str, tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "decks": {s: list(self.decks[s]) for s in SEATS}}

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        try:
            decks = {s: tuple(str(c) for c in data["decks"][s]) for s in SEATS}
            return cls(int(data["seed"]), decks)
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"not a The War setup: {exc!r}") from exc
