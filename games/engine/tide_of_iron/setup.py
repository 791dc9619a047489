"""Tide of Iron referee set-up: the seats, the frozen Strategy card catalog, Options and GameSetup.

The catalog is the fixture shape of fixtures/tide_of_iron/ (cards, decks, scenarios), frozen per match by
the games service (games.definitions.tide_of_iron.TideOfIron.live_snapshot); this module reads only what
the referee uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import SetupError
from .hexes import DEFAULT_MARKER, DIRECTIONS, Board, HexError

SEATS = ("axis", "allies")
OTHER = {"axis": "allies", "allies": "axis"}
PHASES = ("action", "command", "status")  # a round: Action Phase, Command Phase, Status Phase
DEFAULT_SCENARIO = "toi-scenario-artillery-duel"
DEFAULT_BOARD = (24, 18)  # reading: the players report their map's size; a two-board map by default
DEFAULT_SUCCESS_ON = 5  # "score successes on results of "5" and "6" unless stated otherwise on the card"
LOS = ("none", "normal", "officer")  # the LOS the player reports for the target hex
DRIFT_NUMBERS = {"none": 6, "normal": 4, "officer": 3, "adjacent": 3}
# The rules revision a match is played under, recorded in its setup ("revision"; absent = 1, the rules of
# the games stored before issue 36, which replay exactly as before). README.md, "Rules revisions".
LEGACY_REVISION = 1
RULES_REVISION = 2
REVISIONS = (LEGACY_REVISION, RULES_REVISION)


@dataclass(frozen=True, slots=True)
class Keyword:
    keyword: str
    value: int | None = None
    suppressive: bool = False
    success_on: int = DEFAULT_SUCCESS_ON


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    title: str
    deck: str
    cost: int
    phase: str
    play_area: bool
    keywords: tuple[Keyword, ...]
    effects: tuple[dict[str, Any], ...]
    raw: dict[str, Any]

    def has(self, keyword: str) -> bool:
        return any(k.keyword == keyword for k in self.keywords)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.raw)


@dataclass(frozen=True, slots=True)
class Deck:
    code: str
    title: str
    cards: tuple[str, ...]  # one code per copy, in catalog order


@dataclass(frozen=True, slots=True)
class Scenario:
    code: str
    title: str
    seats: dict[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class TideOfIronCatalog:
    cards: dict[str, Card]
    decks: dict[str, Deck]
    scenarios: dict[str, Scenario]

    @classmethod
    def from_dicts(cls, *, cards: list[dict], decks: list[dict], scenarios: list[dict]) -> TideOfIronCatalog:
        try:
            parsed = {
                c["code"]: Card(
                    code=c["code"],
                    title=c["title"],
                    deck=c["deck"],
                    cost=int(c["cost"]),
                    phase=c["phase"],
                    play_area=bool(c.get("play_area", False)),
                    keywords=tuple(
                        Keyword(
                            k["keyword"],
                            k.get("value"),
                            bool(k.get("suppressive", False)),
                            int(k.get("success_on", DEFAULT_SUCCESS_ON)),
                        )
                        for k in c.get("keywords") or ()
                    ),
                    effects=tuple(dict(e) for e in c.get("effects") or ()),
                    raw=dict(c),
                )
                for c in cards
            }
            deck_map = {
                d["code"]: Deck(
                    d["code"],
                    d["title"],
                    tuple(e["card"] for e in d["entries"] for _ in range(int(e["count"]))),
                )
                for d in decks
            }
            scenario_map = {s["code"]: Scenario(s["code"], s["title"], dict(s["seats"])) for s in scenarios}
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"not a Tide of Iron card catalog: {exc!r}", code="bad_catalog") from exc
        for card in parsed.values():
            if any(k.keyword == "establish-contact" and not isinstance(k.value, int) for k in card.keywords):
                raise SetupError(f"{card.code}: Establish Contact lacks a target number", code="bad_catalog")
        return cls(parsed, deck_map, scenario_map)

    def card(self, code: str) -> Card:
        return self.cards[code]

    def deck_title(self, code: str) -> str:
        return self.decks[self.cards[code].deck].title


def _bad(message: str) -> SetupError:
    return SetupError(message, code="bad_options")


@dataclass(frozen=True, slots=True)
class Options:
    """What the players choose at creation: the scenario (which decks each player has), the map's size in
    hexes, the direction face 1 of the north directional marker points to, who acts first in a round, and
    the lowest defense die that scores a success (a reading: the text only cites the defense rules)."""

    scenario: str = DEFAULT_SCENARIO
    board_width: int = DEFAULT_BOARD[0]
    board_height: int = DEFAULT_BOARD[1]
    marker: str = DEFAULT_MARKER
    first_player: str = "allies"
    defense_success_on: int = DEFAULT_SUCCESS_ON

    def __post_init__(self) -> None:
        if not isinstance(self.scenario, str) or not self.scenario:
            raise _bad("scenario must be a scenario code")
        for name in ("board_width", "board_height", "defense_success_on"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise _bad(f"{name} must be an integer")
        try:
            Board(self.board_width, self.board_height)
        except HexError as exc:
            raise _bad(str(exc)) from exc
        if self.marker not in DIRECTIONS:
            raise _bad(
                f"marker (the direction face 1 of the north marker points to) is one of {list(DIRECTIONS)}"
            )
        if self.first_player not in SEATS:
            raise _bad(f"first_player is one of {list(SEATS)}")
        if not 1 <= self.defense_success_on <= 6:
            raise _bad("defense_success_on is 1..6")

    @property
    def board(self) -> Board:
        return Board(self.board_width, self.board_height)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "board_width": self.board_width,
            "board_height": self.board_height,
            "marker": self.marker,
            "first_player": self.first_player,
            "defense_success_on": self.defense_success_on,
        }

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise _bad("options must be a JSON object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise _bad(f"unknown options {sorted(unknown)}")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The seed, the options and the rules revision (a new match: the current one; a stored setup without
    "revision": LEGACY_REVISION, so that a match stored before it replays and continues as it was played)."""

    seed: int
    options: Options = field(default_factory=Options)
    revision: int = RULES_REVISION

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "tide-of-iron", "seed": self.seed, "options": self.options.to_json()}
        if self.revision != LEGACY_REVISION:  # a legacy setup keeps its stored form
            out["revision"] = self.revision
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        if not isinstance(data, dict) or set(data) - {"game", "seed", "options", "revision"}:
            raise SetupError("a setup is {'seed': int, 'options': {...}, 'revision'?: int}", code="bad_setup")
        if data.get("game", "tide-of-iron") != "tide-of-iron":
            raise SetupError("not a Tide of Iron setup", code="bad_setup")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError("seed must be an integer", code="bad_setup")
        revision = data.get("revision", LEGACY_REVISION)
        if revision not in REVISIONS or isinstance(revision, bool):
            raise SetupError(f"revision is one of {list(REVISIONS)}", code="bad_setup")
        return cls(seed=seed, options=Options.from_json(data.get("options")), revision=revision)
