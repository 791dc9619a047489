"""Tide of Iron referee actions: small immutable values with a "type", a "seat" and short string fields.

Choices the referee can list (activate, retry_contact, discard, target, los, pass_turn, next_phase,
end_match) are among the legal actions of the deciding seat; reports of what is on the physical board
(report_command, place_unit, remove_unit, set_cover) take free values and are accepted at the deciding
seat's "act" decision (listed in its prompt as `reports`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..core.actions import FieldAction, action_schema, parse_action_fields
from ..core.errors import MalformedAction
from .setup import SEATS


@dataclass(frozen=True, slots=True)
class Action(FieldAction):
    def __str__(self) -> str:
        return " ".join(str(v) for v in self.key() if v is not None)

    @staticmethod
    def from_json(data: Any) -> Action:
        cls, kwargs = parse_action_fields(ACTION_CLASSES, data)
        if kwargs["seat"] not in SEATS:
            raise MalformedAction(f"seat must be one of {list(SEATS)}")
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Pay the command cost of a card in your HQ area and resolve it."""

    type: ClassVar[str] = "activate"
    card: str


@dataclass(frozen=True, slots=True)
class RetryContact(Action):
    """Action Phase, once in every round after the failed one: establish contact again for a card waiting
    in your play area (no cost)."""

    type: ClassVar[str] = "retry_contact"
    card: str


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Revision 1 only (matches stored before issue 36): discard a card of your play area. Revision 2 refuses
    it: a play-area card stays "until the end of the game, or until the card is discarded by its own
    effects"."""

    type: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True, slots=True)
class Target(Action):
    """Place the target token on a board hex ("column,row")."""

    type: ClassVar[str] = "target"
    hex: str


@dataclass(frozen=True, slots=True)
class TargetColumn(Action):
    """Revision 2, first step of the target: the column of the target hex (then its row)."""

    type: ClassVar[str] = "target_column"
    column: str


@dataclass(frozen=True, slots=True)
class TargetRow(Action):
    """Revision 2, second step of the target: the row of the target hex in the column chosen."""

    type: ClassVar[str] = "target_row"
    row: str


@dataclass(frozen=True, slots=True)
class Los(Action):
    """Report the best LOS of a non-fatigued friendly unit to the target hex: none, normal, or officer (a
    squad containing an officer)."""

    type: ClassVar[str] = "los"
    los: str


@dataclass(frozen=True, slots=True)
class PassTurn(Action):
    """Your action was on the board (or you pass): the other player decides."""

    type: ClassVar[str] = "pass_turn"


@dataclass(frozen=True, slots=True)
class NextPhase(Action):
    """End the phase: Action -> Command -> Status (draws) -> the next round's Action Phase."""

    type: ClassVar[str] = "next_phase"


@dataclass(frozen=True, slots=True)
class EndMatch(Action):
    """End the match with the result the board shows: axis, allies or draw."""

    type: ClassVar[str] = "end_match"
    result: str


@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """Revision 2: accept the other player's report (command points, a phase end, the match result, LOS)."""

    type: ClassVar[str] = "confirm"


@dataclass(frozen=True, slots=True)
class Dispute(Action):
    """Revision 2: dispute the other player's report: command points keep the previous count, the phase
    goes on (your decision: once per phase), a result ends the match as "no result", LOS counts as none."""

    type: ClassVar[str] = "dispute"


@dataclass(frozen=True, slots=True)
class ReportCommand(Action):
    """Report your command points as the board shows them (an integer 0..99)."""

    type: ClassVar[str] = "report_command"
    points: str


@dataclass(frozen=True, slots=True)
class PlaceUnit(Action):
    """Report a unit on a hex: its label (unique), side (axis/allies), kind (squad/vehicle), officer
    (yes/no, a squad containing an officer). Placing a known label moves it."""

    type: ClassVar[str] = "place_unit"
    unit: str
    hex: str
    side: str
    kind: str
    officer: str | None = None


@dataclass(frozen=True, slots=True)
class RemoveUnit(Action):
    """Report that a unit left the board."""

    type: ClassVar[str] = "remove_unit"
    unit: str


@dataclass(frozen=True, slots=True)
class SetCover(Action):
    """Report a hex's cover: the defense dice a unit there rolls against an area attack (0..9)."""

    type: ClassVar[str] = "set_cover"
    hex: str
    cover: str


ACTION_CLASSES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Activate,
        RetryContact,
        Discard,
        Target,
        TargetColumn,
        TargetRow,
        Los,
        PassTurn,
        NextPhase,
        EndMatch,
        Confirm,
        Dispute,
        ReportCommand,
        PlaceUnit,
        RemoveUnit,
        SetCover,
    )
}
for _cls in ACTION_CLASSES.values():
    _cls._names = tuple(f.name for f in fields(_cls))
REPORTS = ("report_command", "place_unit", "remove_unit", "set_cover")
UNIT_KINDS = ("squad", "vehicle")
OFFICER = ("no", "yes")  # "a squad containing an officer"
COMMAND_POINTS = (0, 99)  # a command-point report: an integer in these bounds
COVER_DICE = (0, 9)  # a cover report: the defense dice, an integer in these bounds
# What each report's fields take, beyond "a short string" (the referee refuses anything else with
# bad_report or not_a_board_hex): `enum` (exactly these values), `minimum`/`maximum` (an integer),
# `values`: "board_hex" (a full hex of the match's board, Board.hexes()) or "reported_unit" (a unit
# label of the board as reported, the view's board.units); a field without any is a free label.
REPORT_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "report_command": {"points": {"minimum": COMMAND_POINTS[0], "maximum": COMMAND_POINTS[1]}},
    "place_unit": {
        "unit": {},
        "hex": {"values": "board_hex"},
        "side": {"enum": list(SEATS)},
        "kind": {"enum": list(UNIT_KINDS)},
        "officer": {"enum": list(OFFICER)},
    },
    "remove_unit": {"unit": {"values": "reported_unit"}},
    "set_cover": {
        "hex": {"values": "board_hex"},
        "cover": {"minimum": COVER_DICE[0], "maximum": COVER_DICE[1]},
    },
}


# The action types and their fields (core.actions.action_schema; the OpenAPI components are built from it)
ACTION_TYPES: list[dict[str, Any]] = action_schema(
    ACTION_CLASSES, enums={"seat": SEATS}, field_extras=REPORT_FIELDS
)
ACTION_SCHEMA = ACTION_TYPES  # the name every engine exports (core.engine.ModuleEngine.action_schema)
