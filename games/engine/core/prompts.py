"""The shape of each decision's prompt, declared by the engine that asks it (issue 37): plain JSON Schema
(a small subset), so a game's engine owns its prompts beside the rules that build them, a test checks every
prompt it asks against its declaration, and the API's OpenAPI components are built from it (games/
decision_schemas.py) without hand-written copies.

A game's package exports `PROMPT_SCHEMAS`: decision kind -> `prompt({...})`. The building blocks below give
the subset the components are built from: integers and strings (either optionally null too; a string
optionally of an enum), booleans, lists, maps (string keys) of one value shape, named objects (`title`: the
component's name) and any JSON value. Every property of a prompt or object is required unless listed in
`optional`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Schema = dict[str, Any]

ANY: Schema = {}  # any JSON value


def _described(schema: Schema, description: str | None) -> Schema:
    return {**schema, "description": description} if description else schema


def integer(description: str | None = None, *, nullable: bool = False) -> Schema:
    return _described({"type": ["integer", "null"] if nullable else "integer"}, description)


def boolean(description: str | None = None) -> Schema:
    return _described({"type": "boolean"}, description)


def string(description: str | None = None, *, enum: Iterable[str] | None = None,
           nullable: bool = False) -> Schema:
    schema: Schema = {"type": ["string", "null"] if nullable else "string"}
    if enum is not None:
        schema["enum"] = list(enum)
    return _described(schema, description)


def any_value(description: str | None = None) -> Schema:
    return _described(dict(ANY), description)


def array(items: Schema, description: str | None = None) -> Schema:
    return _described({"type": "array", "items": items}, description)


def mapping(values: Schema, description: str | None = None) -> Schema:
    """An object of any keys whose values all have the shape `values` (front -> count, army -> army)."""
    return _described({"type": "object", "additionalProperties": values}, description)


def obj(properties: Mapping[str, Schema], *, title: str | None = None, description: str | None = None,
        optional: Iterable[str] = ()) -> Schema:
    """An object of exactly these properties (`title`: the name of its API component)."""
    schema: Schema = {"type": "object", "properties": dict(properties),
                      "required": [name for name in properties if name not in set(optional)],
                      "additionalProperties": False}
    if title:
        schema["title"] = title
    return _described(schema, description)


def prompt(properties: Mapping[str, Schema] | None = None, *, optional: Iterable[str] = ()) -> Schema:
    """A decision's prompt: an object of these properties (none: an empty object)."""
    return obj(properties or {}, optional=optional)


def with_description(schema: Schema, description: str) -> Schema:
    """`schema` (a named object, say) described where it is used."""
    return _described(schema, description)
