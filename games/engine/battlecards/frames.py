"""Typed frames: the pending steps of a Battlecards game (GameState.frames), one slotted dataclass per kind.

Each frame class names its `kind` (the step or stage table it runs in the rule book) and serialises to the
same JSON dict the engine has always stored (`to_json` / `frame_from_json`): a field in `OPTIONAL` is left
out of the JSON while it holds its default (a key that older states never had), `JSON_NAMES` renames a
field whose JSON key is a Python keyword, `CODECS` turns a typed field (a battle mode, a record) into its
stored JSON and back. No frame is a mapping: rules read and write fields.

The battle's records are typed too (issue 22): an assigned support (`SupportRecord`), the pending shot
(`PendingShot`), the submarine that may withdraw (`SubmarineWithdrawal`), an OSS unit still to sabotage
(`PendingSabotage`) and the phase-2 A-bomb window marks (`Phase2Mark`); each writes the list or string
stored before.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, NamedTuple

from vocabulary.battlecards import Forces

from ..core.errors import StateError
from ..core.plain import plain_copy


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


class Codec(NamedTuple):
    """How a typed frame field is stored: `dump` gives its JSON (a fresh value), `load` reads it back."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


def records(rec: Any) -> Codec:
    """A list of records of class `rec` (its to_json / from_json)."""
    return Codec(lambda xs: [x.to_json() for x in xs], lambda data: [rec.from_json(x) for x in data])


def optional_record(rec: Any) -> Codec:
    """A record of class `rec` or None."""
    return Codec(lambda x: None if x is None else x.to_json(),
                 lambda data: None if data is None else rec.from_json(data))


class Frame:
    """Base of the frame classes: JSON (de)serialisation over the dataclass fields."""

    __slots__ = ()
    kind: ClassVar[str]
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    JSON_NAMES: ClassVar[dict[str, str]] = {}
    CODECS: ClassVar[dict[str, Codec]] = {}

    @classmethod
    def _fields(cls) -> tuple[tuple[str, str, bool, Any, Codec | None], ...]:
        spec = cls.__dict__.get("_spec_cache")
        if spec is None:
            out = []
            for f in fields(cls):  # type: ignore[arg-type]
                default = f.default_factory() if callable(f.default_factory) else f.default
                out.append((f.name, cls.JSON_NAMES.get(f.name, f.name), f.name in cls.OPTIONAL, default,
                            cls.CODECS.get(f.name)))
            spec = tuple(out)
            setattr(cls, "_spec_cache", spec)  # noqa: B010  (a plain class attribute, not a slot)
        return spec

    def to_json(self) -> dict[str, Any]:
        # the plain fields copied together, in one plain_copy, rather than one copy per field
        out: dict[str, Any] = {"kind": self.kind}
        for name, key, optional, default, codec in self._fields():
            value = getattr(self, name)
            if optional and value == default:
                continue
            out[key] = value if codec is None else codec.dump(value)
        return plain_copy(out)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Frame:
        return _build(cls, data, {})


def _build(cls: type[Frame], data: dict[str, Any], ready: dict[str, Any]) -> Any:
    """A frame of class `cls` from its JSON (values copied or read by their codec) and the already typed
    values in `ready`."""
    kwargs = dict(ready)
    for name, key, optional, _, codec in cls._fields():
        if name in ready:
            continue
        if key in data:
            kwargs[name] = plain_copy(data[key]) if codec is None else codec.load(data[key])
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


@dataclass(frozen=True, slots=True)
class PendingShot:
    """A declared shot waiting for the target's defend window, then the shooter's retarget window (GU1)."""

    seat: str
    enemy: str
    unit: str
    target: str
    type: str  # "fire" | "autokill"
    stage: str  # "defend" | "retarget"
    assigned: bool = False

    # the two changes a defend window makes (built directly: dataclasses.replace is slow on this path)
    def supported(self) -> PendingShot:
        """This shot, with a defensive support assigned against it."""
        return PendingShot(self.seat, self.enemy, self.unit, self.target, self.type, self.stage, True)

    def to_retarget(self) -> PendingShot:
        """This shot, moved on to the shooter's retarget window."""
        return PendingShot(self.seat, self.enemy, self.unit, self.target, self.type, "retarget",
                           self.assigned)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "enemy": self.enemy, "unit": self.unit, "target": self.target,
                "type": self.type, "stage": self.stage, "assigned": self.assigned}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingShot:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class SupportRecord:
    """A support assigned this round (GU1, S3, S4, S5): `supporter` adds `bonus` to `recipient`'s attack
    (`mode` "attack"; artillery's only against the target `kinds`, None: any), defense ("defense") or air
    defense ("air_defense", a carrier's). Stored as [supporter, recipient, mode, bonus, kinds]."""

    supporter: str
    recipient: str
    mode: str  # "attack" | "defense" | "air_defense"
    bonus: int
    kinds: tuple[str, ...] | None = None

    def to_json(self) -> list[Any]:
        return [self.supporter, self.recipient, self.mode, self.bonus,
                None if self.kinds is None else list(self.kinds)]

    @classmethod
    def from_json(cls, data: list[Any]) -> SupportRecord:
        supporter, recipient, mode, bonus, kinds = data
        return cls(supporter, recipient, mode, bonus, None if kinds is None else tuple(kinds))


@dataclass(frozen=True, slots=True)
class SubmarineWithdrawal:
    """S6: `seat`'s `submarine` has just fired and may withdraw. Stored as [seat, submarine]."""

    seat: str
    submarine: str

    def to_json(self) -> list[str]:
        return [self.seat, self.submarine]

    @classmethod
    def from_json(cls, data: list[str]) -> SubmarineWithdrawal:
        seat, submarine = data
        return cls(seat, submarine)


@dataclass(frozen=True, slots=True)
class PendingSabotage:
    """GU4 note: `seat`'s OSS `unit` still to sabotage before the first round. Stored as [seat, unit]."""

    seat: str
    unit: str

    def to_json(self) -> list[str]:
        return [self.seat, self.unit]

    @classmethod
    def from_json(cls, data: list[str]) -> PendingSabotage:
        seat, unit = data
        return cls(seat, unit)


@dataclass(frozen=True, slots=True, eq=False)
class Phase2Mark:
    """C8 (the A-bomb any time in phase 2): a fact of this phase 2 about `seat`'s A-bomb windows, one of
    PASSED (it passed in its own phase-2 turn; stored as "<seat>"), OUT_PASSED (it passed its window
    outside its own turn; "out:<seat>") and ACTED (it acted in its own phase-2 turn; "turn:<seat>").

    A mark is canonical: there is one object per (seat, what) (`Phase2Mark.of`, `from_json`; a second
    construction of the same mark raises, copies are the mark itself), so marks compare by identity: the
    fire decision's hot path tests them often, and `mark in fr.p2_passed` then runs no Python `__eq__`."""

    seat: str
    what: str  # PASSED | OUT_PASSED | ACTED

    PASSED: ClassVar[str] = "passed"
    OUT_PASSED: ClassVar[str] = "out_passed"
    ACTED: ClassVar[str] = "acted"
    _PREFIX: ClassVar[dict[str, str]] = {"passed": "", "out_passed": "out:", "acted": "turn:"}
    _WHAT: ClassVar[dict[str, str]] = {"out": "out_passed", "turn": "acted"}

    def __post_init__(self) -> None:
        if self.what not in self._PREFIX:
            raise ValueError(f"unknown phase-2 mark {self.what!r}")
        key = (self.seat, self.what)
        if key in _PHASE2_MARKS:
            raise ValueError(f"a second phase-2 mark {key}: use Phase2Mark.of")
        _PHASE2_MARKS[key] = self

    @classmethod
    def of(cls, seat: str, what: str) -> Phase2Mark:
        """The one mark `what` of `seat`."""
        mark = _PHASE2_MARKS.get((seat, what))
        return mark if mark is not None else cls(seat, what)

    def __copy__(self) -> Phase2Mark:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Phase2Mark:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return Phase2Mark.of, (self.seat, self.what)

    def to_json(self) -> str:
        return self._PREFIX[self.what] + self.seat

    @classmethod
    def from_json(cls, data: str) -> Phase2Mark:
        prefix, sep, seat = data.partition(":")
        if sep and prefix in cls._WHAT:
            return cls.of(seat, cls._WHAT[prefix])
        return cls.of(data, cls.PASSED)


_PHASE2_MARKS: dict[tuple[str, str], Phase2Mark] = {}  # the canonical marks; bounded: three per seat name


@dataclass(slots=True, eq=False)
class BattleFrame(Frame):
    """A battle between two armies; per-army entries are keyed by army, axis side first. The fire records
    of the round: `done` (units that fired, held or supported), `shots` (unit -> the kinds it shot at, or
    ["autokill"]), `fired` (submarines revealed by firing, S7), `supports` (SupportRecord), `carrier_used`,
    `p2_passed` (Phase2Mark: the phase-2 A-bomb windows, C8); `shot`: the pending shot (PendingShot);
    `sub_wd`: the submarine that may withdraw (SubmarineWithdrawal); `sab_queue`: the OSS units still to
    sabotage (PendingSabotage)."""

    kind: ClassVar[str] = "battle"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"asking", "ignored", "loser", "all_armies", "joined"})
    CODECS: ClassVar[dict[str, Codec]] = {
        "mode": Codec(lambda m: m.name, lambda name: _battle_mode(name)),
        "shot": optional_record(PendingShot),
        "supports": records(SupportRecord),
        "sub_wd": optional_record(SubmarineWithdrawal),
        "sab_queue": records(PendingSabotage),
        "p2_passed": records(Phase2Mark),
    }
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
    supports: list[SupportRecord] = field(default_factory=list)
    carrier_used: dict[str, int] = field(default_factory=dict)
    intel: dict[str, bool] = field(default_factory=dict)
    intel_played: dict[str, bool] = field(default_factory=dict)
    chem: dict[str, int] = field(default_factory=dict)
    codebreak: dict[str, int] = field(default_factory=dict)
    had_ground: bool = False
    shot: PendingShot | None = None
    sub_wd: SubmarineWithdrawal | None = None  # it may withdraw right after firing (S6)
    sab_queue: list[PendingSabotage] = field(default_factory=list)  # still to sabotage, in order
    p0: bool = False
    winner: str | None = None
    p2_passed: list[Phase2Mark] = field(default_factory=list)
    asking: str | None = None  # the army asked commit_optional
    ignored: bool = False  # neither side had forces: the card goes back to the discard
    loser: str | None = None  # asked scorched_earth
    all_armies: bool = False
    joined: dict[str, list[str]] | None = None  # homeland battles: commander -> the armies joined under it

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BattleFrame:
        ready: dict[str, Any] = {}
        if "stacks" not in data:  # absent in states saved before the divided-stack choice (C1, C2)
            ready["stacks"] = {s: {} for s in data["units"]}
        return _build(cls, data, ready)


def _battle_mode(name: str) -> BattleMode:
    mode = BATTLE_MODES.get(name)
    if mode is None:
        raise StateError(f"unknown battle mode {name!r}")
    return mode


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
           "BattleMode", "BattlecardFrame", "CaptureFrame", "Codec", "DeployFrame", "DivideFrame", "Frame",
           "GameFrame", "PendingSabotage", "PendingShot", "Phase2Mark", "ReorganizeFrame",
           "ReserveTradeFrame", "SabotageFrame", "SeatTradeFrame", "SetupRevealFrame", "SubmarineWithdrawal",
           "SupportRecord", "TransferFrame", "TurnFrame", "V2Frame", "frame_from_json", "optional_record",
           "records"]
