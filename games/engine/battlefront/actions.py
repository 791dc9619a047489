"""Battlefront actions: small immutable values with a "type" and a "seat" (JSON and a short text form).

Cards are named by their code (the shared deck holds one copy of each card, so a code names one card).

    play          {"card", "front", "use"?}  deploy a hand card onto a front ("use": how a Special card is
                                             used, e.g. "panzer-tanks"); text "play bf-major C"
    play_special  {"card", "use"}            a Special card used without a front (Industrial Giant)
    pass          {}                         play no card now (deployment ends after two passes in a row)
    discard       {"card"}                   hand limit: discard one excess card at the end of the turn
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..core.actions import FieldAction, action_schema, parse_action_fields
from ..core.errors import MalformedAction
from .setup import FRONTS, SEATS


@dataclass(frozen=True, slots=True)
class Action(FieldAction):
    @staticmethod
    def from_text(seat: str, text: str) -> Action:
        """Parse the text form (`to_text`) for `seat`."""
        if not isinstance(text, str):
            raise MalformedAction("an action text is a string")
        parts = text.split()
        cls = ACTION_CLASSES.get(parts[0]) if parts else None
        if cls is None:
            raise MalformedAction(f"unknown action {text!r}")
        names = cls._names[1:]
        if len(parts) - 1 > len(names):
            raise MalformedAction(f"{cls.type}: too many fields in {text!r}")
        return Action.from_json({"type": cls.type, "seat": seat, **dict(zip(names, parts[1:], strict=False))})

    @staticmethod
    def from_json(data: Any) -> Action:
        cls, kwargs = parse_action_fields(ACTION_CLASSES, data)
        if kwargs["seat"] not in SEATS:
            raise MalformedAction(f"seat must be one of {list(SEATS)}")
        if "front" in kwargs and kwargs["front"] not in FRONTS:
            raise MalformedAction(f"front must be one of {list(FRONTS)}")
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Deploy `card` from the hand onto `front` (a Special card: `use` names how it is used)."""

    type: ClassVar[str] = "play"
    card: str
    front: str
    use: str | None = None


@dataclass(frozen=True, slots=True)
class PlaySpecial(Action):
    """Use a Special card without a front (US Industrial Giant: discard it & draw 2 cards)."""

    type: ClassVar[str] = "play_special"
    card: str
    use: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Play no card now; deployment ends when both players pass in a row."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """End of turn, hand above 8 cards: discard `card`."""

    type: ClassVar[str] = "discard"
    card: str


ACTION_CLASSES: dict[str, type[Action]] = {cls.type: cls for cls in (Play, PlaySpecial, Pass, Discard)}
for _cls in ACTION_CLASSES.values():
    _cls._names = tuple(f.name for f in fields(_cls))


# The action types and their fields (core.actions.action_schema; the OpenAPI components are built from it)
ACTION_TYPES: list[dict[str, Any]] = action_schema(ACTION_CLASSES, enums={"seat": SEATS, "front": FRONTS},
                                                   field_help={"front": "A front."})
ACTION_SCHEMA = ACTION_TYPES  # the name every engine exports (core.engine.ModuleEngine.action_schema)
