"""Serializer fields documented for the OpenAPI schema, shared by the view serializers of every game type."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def camel(name: str) -> str:
    """"play_special" -> "PlaySpecial" (schema component names)."""
    return "".join(part.capitalize() for part in name.split("_"))


def documented(schema: Any, base: type[serializers.Field], **kwargs: Any) -> serializers.Field:
    """A `base` field documented by `schema` (a subclass: serializers deep-copy their field instances,
    which would drop an annotation made on an instance)."""
    return extend_schema_field(schema)(type(base.__name__, (base,), {}))(**kwargs)


def enum(*values: str, role: str | None = None, **kwargs: Any) -> serializers.Field:
    """A string field of these values, documented as an enum. `role` keeps equal value sets of different
    meaning apart (the decision kind "fire" and the action type "fire" get an enum component each)."""
    schema: dict[str, Any] = {"type": "string", "enum": list(values)}
    if role:
        schema["x-spec-enum-id"] = f"{role}:{','.join(values)}"
    if kwargs.get("allow_null"):
        schema = {**schema, "nullable": True, "enum": [*values, None]}
    return documented(schema, serializers.CharField, **kwargs)
