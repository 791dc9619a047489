"""BattlefrontState: the shared deck, hands, fronts, markers, captures, the frame stack and the one RNG.

Frames are slotted dataclasses (no dicts): `GameFrame` (the turn's stage) and `DeployFrame` (the
deployment phase's alternation); each serialises to the JSON dict stored before they were typed. All other
mutable data is plain JSON (dicts, lists, str, int, None), so `to_json` is a deep copy and `from_json`
loses nothing (the RNG state included). The pending decision is derived from the frames (core.machine).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..core.errors import StateError
from ..core.state import EngineState
from .cards import BattlefrontCatalog
from .setup import FRONTS, SEATS, GameSetup


@dataclass(slots=True)
class GameFrame:
    """The bottom frame: the turn's stage (logistics -> battle -> hand_limit -> end_turn, declared in
    rules.py), whether this turn changed anything (R12) and the seat that won turn 1's coin flip."""

    kind: ClassVar[str] = "game"
    stage: str
    changed: bool = False
    opening: str | None = None


@dataclass(slots=True)
class DeployFrame:
    """The deployment phase: the seat to play, the passes in a row (two end it) and the cards each seat
    placed this turn per front."""

    kind: ClassVar[str] = "deploy"
    seat: str
    passes: int = 0
    placed: dict[str, dict[str, int]] = field(default_factory=lambda: {s: {} for s in SEATS})


Frame = GameFrame | DeployFrame
FRAME_CLASSES: dict[str, type[Frame]] = {c.kind: c for c in (GameFrame, DeployFrame)}


def frame_to_json(fr: Frame) -> dict[str, Any]:
    """The stored JSON of a frame: {"kind", *its fields in order} (the dict it was before it was typed)."""
    out: dict[str, Any] = {"kind": fr.kind}
    for f in fields(fr):
        out[f.name] = copy.deepcopy(getattr(fr, f.name))
    return out


def frame_from_json(data: dict[str, Any]) -> Frame:
    """A frame from its stored JSON: every field present, nothing else (StateError otherwise)."""
    cls = FRAME_CLASSES.get(data.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        raise StateError(f"unknown frame kind {data.get('kind')!r}")
    names = [f.name for f in fields(cls)]
    if set(data) != {"kind", *names}:
        raise StateError(f"a {cls.kind} frame must have exactly the keys {['kind', *names]}")
    return cls(**{n: copy.deepcopy(data[n]) for n in names})


class BattlefrontState(EngineState[BattlefrontCatalog, GameSetup]):
    """The whole game. Mutated only through `apply`."""

    GAME = "battlefront"
    TITLE = "Battlefront"
    SETUP = GameSetup

    def __init__(self, catalog: BattlefrontCatalog, setup: GameSetup) -> None:
        super().__init__(catalog, setup)
        self.deck: list[str] = []                      # the shared deck, top = last
        self.hands: dict[str, list[str]] = {s: [] for s in SEATS}
        self.discards: dict[str, list[str]] = {s: [] for s in SEATS}   # face down, own only
        # front -> seat -> the cards that seat assigned there (in play order); stays between turns
        self.fronts: dict[str, dict[str, list[str]]] = {f: {s: [] for s in SEATS} for f in FRONTS}
        self.uses: dict[str, str] = {}                 # a Special card on a front -> the use it was played as
        self.markers: dict[str, dict[str, int]] = {f: dict.fromkeys(SEATS, 0) for f in FRONTS}
        self.captured: dict[str, str | None] = dict.fromkeys(FRONTS)
        self.scouted: dict[str, list[str] | None] = dict.fromkeys(SEATS)  # what a scout showed, this turn
        self.last_battle: dict[str, Any] | None = None
        self.first_seat: str | None = None            # who deploys first this turn (the coin flip)
        self.frames: list[Frame] = []                 # GameFrame at the bottom, the top one last
        self.turn = 0

    @property
    def options(self):
        return self.setup.options

    def nationality(self, seat: str) -> str | None:
        sc = self.setup.options.special_cards
        return sc[seat] if sc else None

    def game_frame(self) -> GameFrame:
        """The bottom frame (always the game frame)."""
        fr = self.frames[0]
        if not isinstance(fr, GameFrame):
            raise StateError("the bottom frame is not the game frame")
        return fr

    # ---- serialisation ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._json_head(),
            "deck": list(self.deck),
            "hands": copy.deepcopy(self.hands),
            "discards": copy.deepcopy(self.discards),
            "fronts": copy.deepcopy(self.fronts),
            "uses": dict(self.uses),
            "markers": copy.deepcopy(self.markers),
            "captured": dict(self.captured),
            "scouted": copy.deepcopy(self.scouted),
            "last_battle": copy.deepcopy(self.last_battle),
            "first_seat": self.first_seat,
            "frames": [frame_to_json(f) for f in self.frames],
            "turn": self.turn,
            "ply": self.ply,
            **self._json_outcome(),
        }

    def _read_json(self, data: dict[str, Any]) -> None:
        self.deck = [str(c) for c in data["deck"]]
        self.hands = {s: [str(c) for c in data["hands"][s]] for s in SEATS}
        self.discards = {s: [str(c) for c in data["discards"][s]] for s in SEATS}
        self.fronts = {f: {s: [str(c) for c in data["fronts"][f][s]] for s in SEATS} for f in FRONTS}
        self.uses = {str(k): str(v) for k, v in data["uses"].items()}
        self.markers = {f: {s: int(data["markers"][f][s]) for s in SEATS} for f in FRONTS}
        self.captured = {f: data["captured"][f] for f in FRONTS}
        scouted = data["scouted"]
        self.scouted = {s: (list(scouted[s]) if scouted[s] is not None else None) for s in SEATS}
        self.last_battle = copy.deepcopy(data["last_battle"])
        self.first_seat = data["first_seat"]
        self.frames = [frame_from_json(f) for f in data["frames"]]
        self.turn = int(data["turn"])

    def _loaded(self) -> None:
        for code in self.all_cards():
            try:
                self.catalog.card(code)
            except KeyError:
                raise self.unknown_card(code) from None

    def all_cards(self) -> list[str]:
        out = list(self.deck)
        for s in SEATS:
            out += self.hands[s] + self.discards[s]
            for f in FRONTS:
                out += self.fronts[f][s]
        return out
