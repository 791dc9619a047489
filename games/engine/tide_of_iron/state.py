"""TideOfIronState: each player's Strategy decks (order hidden), HQ area and play area (face up), the box,
the reported command points and board, round and phase, the activation being resolved, and the one RNG.

The activation being resolved is a slotted dataclass (`Activation`, stored as the JSON dict it was before
it was typed); all other mutable data is plain JSON, so `to_json` is a deep copy and `from_json` loses
nothing (the RNG state included). The pending decision is derived by the referee's one frame (rules.py,
on the shared machine core.machine).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..core.errors import StateError
from ..core.state import EngineState
from .setup import LEGACY_REVISION, SEATS, GameSetup, TideOfIronCatalog


def _decks_in_scenario_order(
    catalog: TideOfIronCatalog, setup: GameSetup, data: Any, seat: str
) -> dict[str, list[str]]:
    """A seat's stored decks (a list of {"deck", "cards"}, or the legacy object) in the scenario's deck
    order: the draws go through them in that order whatever order a database returned an object's keys in
    (PostgreSQL's jsonb returns them shortest first). Decks the scenario does not name keep their order."""
    if isinstance(data, list):
        pairs = [(str(e["deck"]), [str(c) for c in e["cards"]]) for e in data]
    else:
        pairs = [(str(d), [str(c) for c in cards]) for d, cards in data.items()]
    stored = dict(pairs)
    if len(stored) != len(pairs):
        raise StateError(f"{seat} holds a deck twice")
    scenario = catalog.scenarios.get(setup.options.scenario)
    order = list(scenario.seats[seat]["decks"]) if scenario is not None else []
    ordered = {d: stored[d] for d in order if d in stored}
    ordered.update((d, cards) for d, cards in stored.items() if d not in ordered)
    return ordered


@dataclass(slots=True)
class Activation:
    """The card being resolved (an activation, or a retry to establish contact): its keyword `step`, the
    target hex, the LOS report and the hex it drifted to as they are reported or rolled, and `need`, the
    report it waits for ("target" | "los" | None). A retry holds its play-area `entry` (put back there if
    contact fails again)."""

    seat: str
    card: str
    step: int = 0
    target: str | None = None
    los: str | None = None
    final: str | None = None
    need: str | None = None
    from_play: bool = False
    entry: dict[str, Any] | None = None
    column: int | None = None  # revision 2: the target's column, chosen before its row

    OPTIONAL = ("entry", "column")  # stored only when set: the stored form of the other activations stays

    def to_json(self) -> dict[str, Any]:
        out = {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)}
        for name in self.OPTIONAL:
            if out[name] is None:  # only a retry's activation stores its entry
                del out[name]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Activation:
        names = [f.name for f in fields(cls)]
        if not set(names) - set(cls.OPTIONAL) <= set(data) <= set(names):
            raise StateError(f"an activation has the keys {names} ('entry' for a retry, 'column' optional)")
        return cls(**{k: copy.deepcopy(v) for k, v in data.items()})


@dataclass(frozen=True, slots=True)
class RefereeFrame:
    """The one frame of a match (derived, never stored): the referee, whose step (rules.py) derives the
    pending decision from the state: a claim to confirm, the pending activation's report, else the turn."""

    kind: ClassVar[str] = "referee"


REFEREE = RefereeFrame()


class TideOfIronState(EngineState[TideOfIronCatalog, GameSetup]):
    """A match. Mutated only through `apply`."""

    GAME = "tide-of-iron"
    TITLE = "Tide of Iron"
    SETUP = GameSetup

    def __init__(self, catalog: TideOfIronCatalog, setup: GameSetup) -> None:
        super().__init__(catalog, setup)
        self.frames: list[RefereeFrame] = [REFEREE]  # the machine's stack (core.machine): the referee alone
        # top = last; order hidden. In the scenario's deck order, the order of every draw: stored as a list
        # (revision 2), or as the legacy {deck: cards} object whose key order a database need not keep
        self.decks: dict[str, dict[str, list[str]]] = {s: {} for s in SEATS}
        self.hq: dict[str, list[str]] = {s: [] for s in SEATS}
        # {"card", "round" (placed), "tried" (round of the last contact roll), "pending" (contact not made)}
        self.play: dict[str, list[dict[str, Any]]] = {s: [] for s in SEATS}
        self.box: list[str] = []  # "removed from the game after use (place them back in the game box)"
        self.command: dict[str, int] = dict.fromkeys(SEATS, 0)
        self.cover: dict[str, int] = {}  # hex -> defense dice of a unit there (reported)
        self.units: dict[str, dict[str, Any]] = {}  # label -> {hex, side, kind, officer} (reported)
        self.round = 1
        self.phase = "action"
        self.turn_seat = setup.options.first_player
        self.pending: Activation | None = None  # the activation being resolved
        # revision 2 (the referee protocol, README.md): the report waiting for the other player's confirm or
        # dispute ({"by", "type": command | phase | result | los, ...}), and each seat's phase-end disputes
        # in the current phase
        self.claim: dict[str, Any] | None = None
        self.disputes: dict[str, int] = dict.fromkeys(SEATS, 0)

    @property
    def turn(self) -> int:
        return self.round

    @property
    def options(self):
        return self.setup.options

    @property
    def revision(self) -> int:
        return self.setup.revision

    def to_json(self) -> dict[str, Any]:
        return {
            **self._json_head(),
            "decks": self._decks_json(),
            "hq": copy.deepcopy(self.hq),
            "play": copy.deepcopy(self.play),
            "box": list(self.box),
            "command": dict(self.command),
            "cover": dict(self.cover),
            "units": copy.deepcopy(self.units),
            "round": self.round,
            "phase": self.phase,
            "turn_seat": self.turn_seat,
            "pending": self.pending.to_json() if self.pending is not None else None,
            "ply": self.ply,
            **self._json_outcome(),
            **(
                {}
                if self.revision == LEGACY_REVISION  # a legacy state keeps its stored form
                else {"claim": copy.deepcopy(self.claim), "disputes": dict(self.disputes)}
            ),
        }

    def _read_json(self, data: dict[str, Any]) -> None:
        cat, setup = self.catalog, self.setup
        self.decks = {s: _decks_in_scenario_order(cat, setup, data["decks"][s], s) for s in SEATS}
        self.hq = {s: [str(c) for c in data["hq"][s]] for s in SEATS}
        self.play = {s: [dict(e) for e in data["play"][s]] for s in SEATS}
        self.box = [str(c) for c in data["box"]]
        self.command = {s: int(data["command"][s]) for s in SEATS}
        self.cover = {str(h): int(v) for h, v in data["cover"].items()}
        self.units = {str(k): dict(v) for k, v in data["units"].items()}
        self.round = int(data["round"])
        self.phase = str(data["phase"])
        self.turn_seat = str(data["turn_seat"])
        self.pending = Activation.from_json(data["pending"]) if data["pending"] is not None else None
        self.claim = copy.deepcopy(data.get("claim"))
        self.disputes = {s: int((data.get("disputes") or {}).get(s, 0)) for s in SEATS}

    def _loaded(self) -> None:
        for code in self.all_cards():
            if code not in self.catalog.cards:
                raise self.unknown_card(code)

    def _decks_json(self) -> dict[str, Any]:
        if self.revision == LEGACY_REVISION:
            return copy.deepcopy(self.decks)
        return {s: [{"deck": d, "cards": list(cards)} for d, cards in self.decks[s].items()] for s in SEATS}

    def all_cards(self) -> list[str]:
        out = list(self.box)
        for s in SEATS:
            out += self.hq[s] + [e["card"] for e in self.play[s]]
            for cards in self.decks[s].values():
                out += cards
        return out

    def __repr__(self) -> str:
        return f"<TideOfIronState round={self.round} phase={self.phase} ply={self.ply} status={self.status}>"
