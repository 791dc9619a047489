"""Battlefront set-up values: the seats, the fronts, Options (the three optional rules) and GameSetup."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import SetupError
from .cards import NATIONALITIES

SEATS = ("west", "east")
OTHER = {"west": "east", "east": "west"}
# THE FRONTS, in printed order (also the order fronts are listed in views and events)
FRONTS = ("R", "CR", "C", "CL", "L")
FRONT_NAMES = {"R": "Right Flank", "CR": "Center Right", "C": "Center", "CL": "Center Left",
               "L": "Left Flank"}

HAND_DEAL = 7    # LOGISTICS PHASE: "Each player is dealt 7 cards from the deck."
MAX_PER_FRONT_PER_TURN = 2  # "In a turn you can assign a maximum of 2 cards to a single Front."
HAND_LIMIT = 8   # "Maximum hand size is 8 cards."
CAPTURE_LEAD = 3  # "If you ever have 3 more VP than your opponent at a Front, you Capture that Front."
FRONTS_TO_WIN = 3  # "Capture 3 of the 5 Fronts."


def _bad(message: str) -> SetupError:
    return SetupError(message, code="bad_options")


@dataclass(frozen=True, slots=True)
class Options:
    """The OPTIONAL rules: 2 FRONT VICTORY CONDITIONS, BLITZKRIEG (the attacker's seat) and SPECIAL CARDS
    (each seat's nationality; None: no Special cards in the deck)."""

    two_front_victory: bool = False
    blitzkrieg_attacker: str | None = None
    special_cards: dict[str, str] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.two_front_victory, bool):
            raise _bad("two_front_victory must be a boolean")
        if self.blitzkrieg_attacker is not None and self.blitzkrieg_attacker not in SEATS:
            raise _bad(f"blitzkrieg_attacker must be null or one of {list(SEATS)}")
        sc = self.special_cards
        if sc is not None:
            if not isinstance(sc, dict) or set(sc) != set(SEATS):
                raise _bad(f"special_cards must name a nationality for each seat {list(SEATS)}")
            for seat in SEATS:
                if sc[seat] not in NATIONALITIES:
                    raise _bad(f"special_cards[{seat!r}] must be one of {list(NATIONALITIES)}")
            object.__setattr__(self, "special_cards", {seat: sc[seat] for seat in SEATS})

    def __hash__(self) -> int:
        return hash(repr(self.to_json()))

    @property
    def blitzkrieg_defender(self) -> str | None:
        a = self.blitzkrieg_attacker
        return None if a is None else OTHER[a]

    def to_json(self) -> dict[str, Any]:
        return {"two_front_victory": self.two_front_victory, "blitzkrieg_attacker": self.blitzkrieg_attacker,
                "special_cards": dict(self.special_cards) if self.special_cards is not None else None}

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise _bad("options must be a JSON object")
        unknown = set(data) - {"two_front_victory", "blitzkrieg_attacker", "special_cards"}
        if unknown:
            raise _bad(f"unknown options {sorted(unknown)}")
        try:
            return cls(**data)
        except TypeError as exc:  # unhashable or odd values
            raise _bad(f"bad options: {exc}") from exc


@dataclass(frozen=True, slots=True)
class GameSetup:
    seed: int
    options: Options = field(default_factory=Options)

    def to_json(self) -> dict[str, Any]:
        return {"game": "battlefront", "seed": self.seed, "options": self.options.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        if not isinstance(data, dict) or set(data) - {"game", "seed", "options"}:
            raise SetupError("a setup is {'seed': int, 'options': {...}}", code="bad_setup")
        if data.get("game", "battlefront") != "battlefront":
            raise SetupError("not a Battlefront setup", code="bad_setup")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError("seed must be an integer", code="bad_setup")
        return cls(seed=seed, options=Options.from_json(data.get("options")))
