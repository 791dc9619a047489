"""Events: what happened, and who may know it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    # "all", one seat ("axis" | "allies" | "axis-1" ...; Battlefront: "west" | "east"), or a side in a team
    # game ("allies": every army allies-N; see may_see)
    visible_to: str = "all"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "visible_to": self.visible_to}


def may_see(visible_to: str, seat: str) -> bool:
    """Whether `seat` may see an event for `visible_to`: "all", the seat itself, or a group the seat is in,
    named by the seat's prefix (a Battlecards side covers its armies: "allies" -> "allies-1", "allies-2")."""
    return visible_to == "all" or visible_to == seat or seat.startswith(visible_to + "-")


def events_for(events: list[Event], seat: str) -> list[Event]:
    """The events `seat` may see (public ones, its own private ones and its group's, see may_see)."""
    return [e for e in events if may_see(e.visible_to, seat)]
