"""Game-independent action parsing: every game's actions are frozen dataclasses of short string fields
(a `type` ClassVar, a `seat`, then the fields; a field defaulting to None is optional)."""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from .errors import MalformedAction


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
