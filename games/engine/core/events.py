"""Events: what happened, and who may know it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: str = "all"  # "all" or one seat ("axis" | "allies"; Battlefront: "west" | "east")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "visible_to": self.visible_to}


def events_for(events: list[Event], seat: str) -> list[Event]:
    """The events `seat` may see (public ones and its own private ones)."""
    return [e for e in events if e.visible_to == "all" or e.visible_to == seat]
