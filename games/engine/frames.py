"""Typed frames: the pending steps of a Battlecards game (GameState.frames), one slotted dataclass per kind.

Each frame class names its `kind` (the step or stage table it runs in the rule book) and serialises to the
same JSON dict the engine has always stored (`to_json` / `frame_from_json`): a field in `OPTIONAL` is left
out of the JSON while it holds its default (a key that older states never had), `JSON_NAMES` renames a
field whose JSON key is a Python keyword. No frame is a mapping: rules read and write fields.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from vocabulary.battlecards import Forces

from .core.errors import StateError


@dataclass(frozen=True, slots=True)
class BattleMode:
    """What kind of battle a battle frame fights: a battlecard's battle (the card's forces, rounds until it
    ends, a winner takes the card) or an Air Raid (C15: air forces only, ONE round, nobody wins)."""

    name: str
    rounds: int | None  # None: rounds until the battle ends (no round limit, issue 12)
    decides_winner: bool
    forces: Forces | None  # both sides' forces when the mode fixes them (else the battlecard's)


BATTLE = BattleMode("battle", None, True, None)
AIR_RAID = BattleMode("air_raid", 1, False, Forces(air=True))
BATTLE_MODES = {m.name: m for m in (BATTLE, AIR_RAID)}


class Frame:
    """Base of the frame classes: JSON (de)serialisation over the dataclass fields."""

    __slots__ = ()
    kind: ClassVar[str]
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    JSON_NAMES: ClassVar[dict[str, str]] = {}

    @classmethod
    def _fields(cls) -> tuple[tuple[str, str, bool, Any], ...]:
        spec = cls.__dict__.get("_spec_cache")
        if spec is None:
            out = []
            for f in fields(cls):  # type: ignore[arg-type]
                default = f.default_factory() if callable(f.default_factory) else f.default
                out.append((f.name, cls.JSON_NAMES.get(f.name, f.name), f.name in cls.OPTIONAL, default))
            spec = tuple(out)
            setattr(cls, "_spec_cache", spec)  # noqa: B010  (a plain class attribute, not a slot)
        return spec

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, key, optional, default in self._fields():
            value = getattr(self, name)
            if optional and value == default:
                continue
            out[key] = copy.deepcopy(value)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Frame:
        return _build(cls, data, {})


def _build(cls: type[Frame], data: dict[str, Any], ready: dict[str, Any]) -> Any:
    """A frame of class `cls` from its JSON (values copied) and the already typed values in `ready`."""
    kwargs = dict(ready)
    for name, key, optional, _ in cls._fields():
        if name in ready:
            continue
        if key in data:
            kwargs[name] = copy.deepcopy(data[key])
        elif not optional:
            raise StateError(f"a {cls.kind} frame without {key!r}")
    return cls(**kwargs)


@dataclass(slots=True, eq=False)
class GameFrame(Frame):
    """The bottom frame: whose turn is next."""

    kind: ClassVar[str] = "game"
    next: str


@dataclass(slots=True, eq=False)
class SetupRevealFrame(Frame):
    """Both seats have deployed at set-up: reveal, then the set-up V-2s."""

    kind: ClassVar[str] = "setup_reveal"


@dataclass(slots=True, eq=False)
class TurnFrame(Frame):
    kind: ClassVar[str] = "turn"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"traded", "proposed"})
    seat: str
    stage: str  # "start" (the turn-start decision) | "end"
    traded: bool = False    # OR3: a reserve card traded this turn
    proposed: bool = False  # OR3: a seat trade proposed this turn


@dataclass(slots=True, eq=False)
class DeployFrame(Frame):
    kind: ClassVar[str] = "deploy"
    seat: str
    count: int
    cards: list[str] | None  # the cards that may be deployed (None: any of the reserve hand)
    reason: str


@dataclass(slots=True, eq=False)
class BattlecardFrame(Frame):
    """A battlecard comes up (drawn, turned over by a pre-emptive strike, or counterattacked)."""

    kind: ClassVar[str] = "battlecard"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"defender", "all_armies", "emergency_asking",
                                                    "emergency_asked"})
    seat: str
    card: str
    stage: str
    aggressor: str
    counter: bool = False
    pre: bool = False
    defender: str | None = None  # team games: the enemy army chosen
    all_armies: bool = False  # a team game's homeland battle: every army may participate (OR3/OR4)
    emergency_asking: str | None = None
    emergency_asked: list[str] | None = None


@dataclass(slots=True, eq=False)
class PendingShot:
    """A declared shot waiting for the target's defend window, then the shooter's retarget window (GU1)."""

    seat: str
    enemy: str
    unit: str
    target: str
    type: str  # "fire" | "autokill"
    stage: str  # "defend" | "retarget"
    assigned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "enemy": self.enemy, "unit": self.unit, "target": self.target,
                "type": self.type, "stage": self.stage, "assigned": self.assigned}


@dataclass(slots=True, eq=False)
class BattleFrame(Frame):
    """A battle between two armies; per-army entries are keyed by army, axis side first. The fire records
    of the round: `done` (units that fired, held or supported), `shots` (unit -> the kinds it shot at, or
    ["autokill"]), `fired` (submarines revealed by firing, S7), `supports` ([supporter, recipient, mode,
    bonus, kinds]), `carrier_used`, `p2_passed` (the phase-2 windows passed, C8); `shot`: the pending shot."""

    kind: ClassVar[str] = "battle"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"asking", "ignored", "loser", "all_armies", "joined"})
    mode: BattleMode
    card: str | None
    aggressor: str
    defender: str
    counter: bool
    special: str | None
    stage: str
    kinds: dict[str, list[str]]
    opt_classes: dict[str, list[str]]
    need_infantry_free: dict[str, bool]
    include: dict[str, bool]
    asked: list[str] = field(default_factory=list)
    stacks: dict[str, dict[str, int]] = field(default_factory=dict)
    units: dict[str, list[str]] = field(default_factory=dict)
    present: dict[str, list[str]] = field(default_factory=dict)
    withdrawn: dict[str, list[str]] = field(default_factory=dict)
    round: int = 1
    phase: int = 0
    side: int = 0
    done: list[str] = field(default_factory=list)
    shots: dict[str, list[str]] = field(default_factory=dict)
    fired: list[str] = field(default_factory=list)
    supports: list[list[Any]] = field(default_factory=list)
    carrier_used: dict[str, int] = field(default_factory=dict)
    intel: dict[str, bool] = field(default_factory=dict)
    intel_played: dict[str, bool] = field(default_factory=dict)
    chem: dict[str, int] = field(default_factory=dict)
    codebreak: dict[str, int] = field(default_factory=dict)
    had_ground: bool = False
    shot: PendingShot | None = None
    sub_wd: list[str] | None = None  # [seat, submarine]: it may withdraw right after firing (S6)
    sab_queue: list[list[str]] = field(default_factory=list)  # [seat, OSS unit] still to sabotage
    p0: bool = False
    winner: str | None = None
    p2_passed: list[str] = field(default_factory=list)
    asking: str | None = None  # the army asked commit_optional
    ignored: bool = False  # neither side had forces: the card goes back to the discard
    loser: str | None = None  # asked scorched_earth
    all_armies: bool = False
    joined: dict[str, list[str]] | None = None  # homeland battles: commander -> the armies joined under it

    def to_json(self) -> dict[str, Any]:
        out = Frame.to_json(self)
        out["mode"] = self.mode.name
        out["shot"] = self.shot.to_json() if self.shot is not None else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BattleFrame:
        mode = BATTLE_MODES.get(data["mode"])
        if mode is None:
            raise StateError(f"unknown battle mode {data['mode']!r}")
        shot = data.get("shot")
        ready: dict[str, Any] = {"mode": mode, "shot": PendingShot(**shot) if shot is not None else None}
        if "stacks" not in data:  # absent in states saved before the divided-stack choice (C1, C2)
            ready["stacks"] = {s: {} for s in data["units"]}
        return _build(cls, data, ready)


@dataclass(slots=True, eq=False)
class V2Frame(Frame):
    kind: ClassVar[str] = "v2"
    seat: str
    card: str
    stage: str  # "start" | "replace"


@dataclass(slots=True, eq=False)
class SabotageFrame(Frame):
    """The Sabotage card's victim chooses which unit of the class is destroyed (G4)."""

    kind: ClassVar[str] = "sabotage"
    seat: str
    cls: str


@dataclass(slots=True, eq=False)
class DivideFrame(Frame):
    kind: ClassVar[str] = "divide"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"src", "dst", "need"})
    seat: str
    stage: str  # "choose" | "split"
    src: str | None = None
    dst: str | None = None
    need: int | None = None


@dataclass(slots=True, eq=False)
class ReorganizeFrame(Frame):
    kind: ClassVar[str] = "reorganize"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"size", "moves", "max"})
    seat: str
    stage: str  # "choose" | "swap"
    size: int | None = None
    moves: int | None = None
    max: int | None = None


@dataclass(slots=True, eq=False)
class CaptureFrame(Frame):
    kind: ClassVar[str] = "capture"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"ref"})
    seat: str
    stage: str  # "browse" | "pick"
    ref: str | None = None


@dataclass(slots=True, eq=False)
class TransferFrame(Frame):
    """Optional Rule 5.4: up to 3 cards from one stack to another."""

    kind: ClassVar[str] = "transfer"
    seat: str
    moved: int = 0
    src: str | None = None
    dst: str | None = None


@dataclass(slots=True, eq=False)
class ArmyTransferFrame(Frame):
    """FAQ OR3: up to 3 forces to a friendly army."""

    kind: ClassVar[str] = "army_transfer"
    seat: str
    to: str
    moved: int = 0


@dataclass(slots=True, eq=False)
class ReserveTradeFrame(Frame):
    kind: ClassVar[str] = "reserve_trade"
    JSON_NAMES: ClassVar[dict[str, str]] = {"mate": "with"}
    seat: str
    mate: str  # the teammate asked (JSON "with")
    card: str


@dataclass(slots=True, eq=False)
class SeatTradeFrame(Frame):
    kind: ClassVar[str] = "seat_trade"
    JSON_NAMES: ClassVar[dict[str, str]] = {"mate": "with"}
    seat: str
    mate: str  # the teammate asked (JSON "with")


FRAME_TYPES: dict[str, type[Frame]] = {c.kind: c for c in (
    GameFrame, SetupRevealFrame, TurnFrame, DeployFrame, BattlecardFrame, BattleFrame, V2Frame, SabotageFrame,
    DivideFrame, ReorganizeFrame, CaptureFrame, TransferFrame, ArmyTransferFrame, ReserveTradeFrame,
    SeatTradeFrame)}


def frame_from_json(data: dict[str, Any]) -> Frame:
    cls = FRAME_TYPES.get(data.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        raise StateError(f"unknown frame kind {data.get('kind')!r}")
    return cls.from_json({k: v for k, v in data.items() if k != "kind"})


__all__ = ["AIR_RAID", "BATTLE", "BATTLE_MODES", "FRAME_TYPES", "ArmyTransferFrame", "BattleFrame",
           "BattleMode", "BattlecardFrame", "CaptureFrame", "DeployFrame", "DivideFrame", "Frame",
           "GameFrame",
           "PendingShot", "ReorganizeFrame", "ReserveTradeFrame", "SabotageFrame", "SeatTradeFrame",
           "SetupRevealFrame", "TransferFrame", "TurnFrame", "V2Frame", "frame_from_json"]
