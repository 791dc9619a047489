"""Game-independent action parsing and schema: every game's actions are frozen dataclasses of short string
fields (a `type` ClassVar, a `seat`, then the fields; a field defaulting to None is optional)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def action_schema(classes: Mapping[str, type], *, enums: Mapping[str, Sequence[str]] | None = None,
                  field_help: Mapping[str, str] | None = None,
                  default_help: str | None = None,
                  field_extras: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
                  ) -> list[dict[str, Any]]:
    """The JSON schema of a game's actions from their typed fields (the OpenAPI components and generated
    clients are built from it, so they cannot drift from the classes): one entry per type, in `classes`'
    order, `{"type", "description", "fields": {name: {"type": "string", "required": bool, "enum"?: [...],
    "description"?: str}}}`.

    A field is required unless it defaults to None; `enums` lists the values of a field by name (every
    game's `seat`, Battlefront's `front`); a field's description is its class's own `field_help[name]`,
    else the argument `field_help[name]` (for every class), else `default_help` (never for the seat: the API
    describes it). `field_extras[type][name]` adds keys to one field of one type (Tide of Iron's report
    fields: `enum`, `minimum`/`maximum`, `values`).
    """
    enums, shared, extras = enums or {}, field_help or {}, field_extras or {}
    out = []
    for type_name, cls in classes.items():
        own: Mapping[str, str] = getattr(cls, "field_help", {})
        props: dict[str, Any] = {}
        for f in fields(cls):
            prop: dict[str, Any] = {"type": "string", "required": f.default is not None}
            if f.name in enums:
                prop["enum"] = list(enums[f.name])
            text = own.get(f.name) or shared.get(f.name) or (None if f.name == "seat" else default_help)
            if text:
                prop["description"] = text
            prop.update(extras.get(type_name, {}).get(f.name, {}))
            props[f.name] = prop
        out.append({"type": type_name, "description": (cls.__doc__ or "").strip(), "fields": props})
    return out
