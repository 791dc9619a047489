"""WarState: each seat's zones, per-card marks, the typed frame stack and the one RNG.

Frames are slotted dataclasses (no dicts): `SetupFrame` (the re-draw decisions), `TurnFrame` (the seven
phases, stage = the phase), `PaymentFrame` (a cost paid as taps and conversions), `WaveFrame` (one assault
wave, stage = the step of the rulebook's order) holding `Engagement`s. `to_json`/`from_json` are lossless.
"""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from vocabulary.the_war import TheWarCatalog

from ..core.order import by_id
from ..core.state import EngineState
from .setup import SEATS, GameSetup

ZONES = ("deck", "hand", "resources", "line1", "line2", "reserve", "conditions", "losses")


@dataclass(slots=True)
class SetupFrame:
    kind: ClassVar[str] = "setup"
    order: list[str]
    index: int = 0
    stage: str = "redraw"


@dataclass(slots=True)
class TurnFrame:
    kind: ClassVar[str] = "turn"
    seat: str
    stage: str = "restore"
    first: bool = False  # the starting player's first turn (draws one card)
    resources_played: int = 0
    maintenance_done: list[str] = field(default_factory=list)
    moved_improvements: list[str] = field(default_factory=list)  # each moves at most once a build phase


@dataclass(slots=True)
class PaymentFrame:
    """A cost being paid: `need` depot/plant/fuel, `red` the part only resource cards may give; `purpose`
    says what follows (build, improve, maintain, attack, salvo, location) with `card`/`unit`/`target`."""

    kind: ClassVar[str] = "payment"
    seat: str
    purpose: str
    card: str
    need: list[int]
    red: list[int]
    unit: str | None = None
    target: str | None = None
    stage: str = "pay"


@dataclass(slots=True)
class Pool:
    """Damage points one side still has to distribute, and the enemy units (or object) they may go on."""

    side: str  # "attacker" | "defender": who distributes them
    points: int
    targets: list[str]


@dataclass(slots=True)
class Engagement:
    """Jointly fighting units of both sides. `target`: the attacked object (a targeted unit, a 2nd-line
    object or None for a blocked general attacker); `pools`: the damage to distribute, in order."""

    attackers: list[str]
    defenders: list[str]
    target: str | None = None
    second_line: bool = False
    pools: list[Pool] = field(default_factory=list)
    values: dict[str, list[int]] = field(default_factory=dict)  # unit -> [attack, defense] fixed
    restricted: dict[str, list[str]] = field(default_factory=dict)  # interceptor -> the escorts it must fight


@dataclass(slots=True)
class WaveFrame:
    kind: ClassVar[str] = "wave"
    seat: str  # the attacking player
    stage: str = "targeted"
    targeted: list[list[str]] = field(default_factory=list)  # [unit, target]
    general: list[str] = field(default_factory=list)
    fire: list[list[str]] = field(default_factory=list)  # [howitzer, unit]
    blocks: list[list[str]] = field(default_factory=list)  # [blocker, attacker]
    supports: list[list[str]] = field(default_factory=list)  # [supporter, target]
    engagements: list[Engagement] = field(default_factory=list)
    index: int = 0
    through: list[str] = field(default_factory=list)  # units that reached the 2nd line
    offered: list[str] = field(default_factory=list)  # breakthrough-feature units that may go on
    # breakthrough unit -> [attack, defense] (rules revision 2 adds the blockers' attack it took)
    reduced: dict[str, list[int]] = field(default_factory=dict)
    strikes: list[list[str]] = field(default_factory=list)  # [unit, object]
    passive: list[str] = field(default_factory=list)  # targets already rotated when attacked
    aa_modes: dict[str, str] = field(default_factory=dict)  # unit -> "air" | "ground" (announced)
    asked: list[str] = field(default_factory=list)  # stages already asked (asked again until "done")
    escorts: list[list[str]] = field(default_factory=list)  # [fighter, bomber]
    intercepts: list[list[str]] = field(default_factory=list)  # [fighter, aircraft]
    landings: list[list[str]] = field(default_factory=list)  # [paratroopers, carrier, object]
    acted: bool = False


FRAME_CLASSES: dict[str, type] = {c.kind: c for c in (SetupFrame, TurnFrame, PaymentFrame, WaveFrame)}


def frame_to_json(fr: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": fr.kind}
    for f in fields(fr):
        v = getattr(fr, f.name)
        v = [asdict(e) for e in v] if f.name == "engagements" else copy.deepcopy(v)
        out[f.name] = v
    return out


def frame_from_json(data: dict[str, Any]) -> Any:
    cls = FRAME_CLASSES[data["kind"]]
    kwargs = {k: copy.deepcopy(v) for k, v in data.items() if k != "kind"}
    if "engagements" in kwargs:
        kwargs["engagements"] = [Engagement(**{**e, "pools": [Pool(**p) for p in e["pools"]]})
                                 for e in kwargs["engagements"]]
    return cls(**kwargs)


class WarState(EngineState[TheWarCatalog, GameSetup]):
    """The whole game. Mutated only through `apply`."""

    GAME = "the-war"
    TITLE = "The War"
    SETUP = GameSetup

    def __init__(self, catalog: TheWarCatalog, setup: GameSetup) -> None:
        super().__init__(catalog, setup)
        self.codes: dict[str, str] = {}  # card id -> card code (ids "p1.07": seat and deck-list index)
        self.zones: dict[str, dict[str, list[str]]] = {s: {z: [] for z in ZONES} for s in SEATS}
        self.rotated: set[str] = set()
        self.damage: dict[str, int] = {}  # this wave's damage per unit
        # improvement id -> unit id, in id order (core.order: never in the order stored or attached, so
        # views, moves and losses list a unit's improvements alike after a JSON column reordered the keys)
        self.attached: dict[str, str] = {}
        self.control: dict[str, str] = {}  # a captured unit -> the seat controlling it (its zones hold it)
        self.built_turn: dict[str, int] = {}  # unit id -> turn it was built
        self.pool: dict[str, list[int]] = {s: [0, 0, 0, 0, 0, 0] for s in SEATS}  # raw d/p/f, converted d/p/f
        self.power: dict[str, int] = {}  # breakthrough power accumulated this attack phase, per condition
        self.heroes_played: dict[str, list[str]] = {s: [] for s in SEATS}
        self.mobile_turn: dict[str, int] = dict.fromkeys(SEATS, -1)  # turn a Blitzkrieg-like card was played
        self.scouted: dict[str, list[str] | None] = dict.fromkeys(SEATS)
        self.active: list[str] = []  # special cards whose attack/defense changes last this assault wave
        self.specials_this_turn: list[str] = []  # codes of attack/defense-changing specials played this turn
        self.revealed: dict[str, list[str] | None] = dict.fromkeys(SEATS)  # the re-draw reveal (public)
        self.redraws: dict[str, int] = dict.fromkeys(SEATS, 0)
        self.first_seat: str = SEATS[0]
        self.turn = 0

    def code(self, cid: str):
        return self.catalog.cards[self.codes[cid]]

    def to_json(self) -> dict[str, Any]:
        return {
            **self._json_head(),
            "codes": dict(self.codes),
            "zones": copy.deepcopy(self.zones),
            "rotated": sorted(self.rotated),
            "damage": dict(self.damage),
            "attached": dict(self.attached),
            "control": dict(self.control),
            "built_turn": dict(self.built_turn),
            "pool": copy.deepcopy(self.pool),
            "power": dict(self.power),
            "heroes_played": copy.deepcopy(self.heroes_played),
            "mobile_turn": dict(self.mobile_turn),
            "scouted": copy.deepcopy(self.scouted),
            "active": list(self.active),
            "specials_this_turn": list(self.specials_this_turn),
            "revealed": copy.deepcopy(self.revealed),
            "redraws": dict(self.redraws),
            "first_seat": self.first_seat,
            "frames": [frame_to_json(f) for f in self.frames],
            "turn": self.turn,
            "ply": self.ply,
            **self._json_outcome(),
        }

    def _read_json(self, data: dict[str, Any]) -> None:
        self.codes = {str(k): str(v) for k, v in data["codes"].items()}
        self.zones = {s: {z: [str(c) for c in data["zones"][s][z]] for z in ZONES} for s in SEATS}
        self.rotated = set(data["rotated"])
        self.damage = {k: int(v) for k, v in data["damage"].items()}
        self.attached = by_id(dict(data["attached"]))
        self.control = {str(k): str(v) for k, v in data["control"].items()}
        self.built_turn = {k: int(v) for k, v in data["built_turn"].items()}
        self.pool = {s: [int(x) for x in data["pool"][s]] for s in SEATS}
        self.power = {k: int(v) for k, v in data["power"].items()}
        self.heroes_played = {s: list(data["heroes_played"][s]) for s in SEATS}
        self.mobile_turn = {s: int(data["mobile_turn"][s]) for s in SEATS}
        self.scouted = copy.deepcopy(data["scouted"])
        self.active = [str(c) for c in data["active"]]
        self.specials_this_turn = [str(c) for c in data["specials_this_turn"]]
        self.revealed = copy.deepcopy(data["revealed"])
        self.redraws = {s: int(data["redraws"][s]) for s in SEATS}
        self.first_seat = data["first_seat"]
        self.frames = [frame_from_json(f) for f in data["frames"]]
        self.turn = int(data["turn"])

    def _loaded(self) -> None:
        for code in self.codes.values():
            if code not in self.catalog.cards:
                raise self.unknown_card(code)
