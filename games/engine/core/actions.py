"""Game-independent action parsing: every game's actions are frozen dataclasses of short string fields
(a `type` ClassVar, a `seat`, then the fields; a field defaulting to None is optional)."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import MalformedAction


@dataclass(frozen=True, slots=True)
class FieldAction:
    """The base of a game's actions: a `type`, a `seat` and short string fields (`_names`: seat first, then
    the fields, set by each game after its classes are defined), with their JSON, a compact key and a text
    form. Each game subclasses it with its own `from_json` (the seats and values only it knows)."""

    type: ClassVar[str] = ""
    _names: ClassVar[tuple[str, ...]] = ()
    seat: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in self._names:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def key(self) -> tuple:
        """(type, seat, *fields): the compact form legal actions are enumerated in."""
        return (self.type, *[getattr(self, n) for n in self._names])

    def to_text(self) -> str:
        """The short text form: "<type> <field>..." without the seat, e.g. "play bf-major C"."""
        return " ".join([self.type, *[str(getattr(self, n)) for n in self._names[1:]
                                      if getattr(self, n) is not None]])

    def __str__(self) -> str:
        return f"{self.seat} {self.to_text()}"


def parse_action_fields(registry: dict[str, type], data: Any) -> tuple[type, dict[str, str]]:
    """The action class `data["type"]` names in `registry` and its checked field values.

    Raises MalformedAction for a non-object, an unknown type, a missing or non-string field (at most 64
    characters) or an unexpected field; the caller checks what only its game knows (seats, fronts).
    """
    if not isinstance(data, dict):
        raise MalformedAction("an action is a JSON object")
    kind = data.get("type")
    cls: Any = registry.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction(f"unknown action type {kind!r}")
    kwargs: dict[str, str] = {}
    for f in fields(cls):
        value = data.get(f.name)
        if value is None:
            if f.default is not None:
                raise MalformedAction(f"{cls.type}: missing field {f.name!r}")
            continue
        if not isinstance(value, str) or not value or len(value) > 64:
            raise MalformedAction(f"{cls.type}: field {f.name!r} must be a short string")
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"type"}
    if extra:
        raise MalformedAction(f"{cls.type}: unexpected fields {sorted(extra)}")
    return cls, kwargs
