"""The toy game's rules (pure Python, the names core.engine.ModuleEngine reads).

Two cards, "toy-high" (2) and "toy-low" (1), are shuffled by the seed and dealt one to each seat. p1, then p2,
plays his card face up or folds; a fold loses, else the higher card wins. A seat's view shows its own card
only, until cards are played."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine.core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from games.engine.core.events import Event
from games.engine.core.machine import Decision

SEATS = ("p1", "p2")
DECISION_KINDS = ("play",)

__all__ = ["DECISION_KINDS", "SEATS", "Action", "Catalog", "EngineError", "GameSetup", "ToyState", "apply",
           "legal_actions", "new_game", "public_view", "replay", "view"]


@dataclass(frozen=True)
class Catalog:
    values: dict[str, int]

    @classmethod
    def from_dicts(cls, *, cards: list[dict[str, Any]]) -> Catalog:
        try:
            return cls({c["code"]: int(c["value"]) for c in cards})
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"not a toy catalog: {exc!r}", code="bad_catalog") from exc


CARDS = [{"code": "toy-high", "name": "High", "value": 2}, {"code": "toy-low", "name": "Low", "value": 1}]


@dataclass(frozen=True)
class GameSetup:
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"game": "toy", "seed": self.seed}

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        if not isinstance(data, dict) or data.get("game") != "toy" or not isinstance(data.get("seed"), int):
            raise SetupError("a toy setup is {'seed': int}", code="bad_setup")
        return cls(data["seed"])


@dataclass(frozen=True)
class Action:
    type: str
    seat: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if (not isinstance(data, dict) or data.get("type") not in ("play", "fold")
                or data.get("seat") not in SEATS or set(data) != {"type", "seat"}):
            raise MalformedAction("a toy action is {'type': 'play' | 'fold', 'seat': 'p1' | 'p2'}",
                                  code="malformed_action")
        return cls(data["type"], data["seat"])


class ToyState:
    def __init__(self, catalog: Catalog, setup: GameSetup) -> None:
        self.catalog, self.setup = catalog, setup
        self.hands: dict[str, str] = {}
        self.played: dict[str, str | None] = {}  # seat -> card code played, None: folded
        self.ply = 0
        self.turn = 1
        self.winner: str | None = None
        self.result: dict[str, Any] = {}

    @property
    def status(self) -> str:
        return "finished" if self.winner or len(self.played) == 2 else "active"

    @property
    def decision(self) -> Decision | None:
        if self.status == "finished":
            return None
        seat = next(s for s in SEATS if s not in self.played)
        return Decision(seat, "play", {"card": self.hands[seat]})

    @property
    def current_seat(self) -> str | None:
        return self.decision.seat if self.decision else None

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup.to_json(), "hands": dict(self.hands), "played": dict(self.played),
                "ply": self.ply, "winner": self.winner, "result": dict(self.result)}

    @classmethod
    def from_json(cls, data: dict[str, Any], catalog: Catalog) -> ToyState:
        try:
            st = cls(catalog, GameSetup.from_json(data["setup"]))
            st.hands, st.played = dict(data["hands"]), dict(data["played"])
            st.ply, st.winner, st.result = int(data["ply"]), data["winner"], dict(data["result"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a toy state: {exc!r}", code="bad_state") from exc
        return st


def new_game(catalog: Catalog, setup: GameSetup) -> ToyState:
    st = ToyState(catalog, setup)
    cards = sorted(catalog.values)
    random.Random(setup.seed).shuffle(cards)
    st.hands = dict(zip(SEATS, cards, strict=True))
    return st


def legal_actions(st: ToyState) -> list[Action]:
    d = st.decision
    return [] if d is None else [Action("play", d.seat), Action("fold", d.seat)]


def apply(st: ToyState, action: Action | dict[str, Any]) -> list[Event]:
    if isinstance(action, dict):
        action = Action.from_json(action)
    if st.decision is None:
        raise IllegalAction("the game is over", code="game_over")
    if action.seat != st.decision.seat:
        raise IllegalAction(f"it is {st.decision.seat}'s turn", code="not_your_turn")
    if action not in legal_actions(st):
        raise IllegalAction(f"{action.to_json()} is not legal now", code="illegal_action")
    seat = action.seat
    st.played[seat] = st.hands[seat] if action.type == "play" else None
    st.ply += 1
    events = [Event("played" if action.type == "play" else "folded", {"seat": seat, "card": st.played[seat]})]
    other = SEATS[1 - SEATS.index(seat)]
    if action.type == "fold":
        st.winner = other
    elif len(st.played) == 2:
        values = {s: st.catalog.values[c] if c else 0 for s, c in st.played.items()}
        st.winner = max(values, key=values.__getitem__)
    if st.winner:
        st.result = {"kind": "victory", "winner": st.winner}
        events.append(Event("game_over", {"winner": st.winner}))
    return events


def public_view(st: ToyState) -> dict[str, Any]:
    d = st.decision
    return {"game": "toy", "status": st.status, "ply": st.ply, "winner": st.winner,
            "played": {s: ({"code": c} if c else None) for s, c in st.played.items()},
            "decision": None if d is None else {"seat": d.seat, "kind": d.kind}}


def view(st: ToyState, seat: str) -> dict[str, Any]:
    hand = [{"code": st.hands[seat]}] if seat not in st.played else []
    out = public_view(st) | {"seat": seat, "hand": hand}
    d = st.decision
    if d is not None and d.seat == seat:
        out["decision"] = {"seat": seat, "kind": d.kind, "prompt": {},
                           "legal_actions": [a.to_json() for a in legal_actions(st)]}
    return out


def replay(catalog: Catalog, setup: GameSetup, actions_json: list[dict[str, Any]]) -> ToyState:
    st = new_game(catalog, setup)
    for data in actions_json:
        apply(st, data)
    return st
