"""The OpenAPI components of every game's actions and decisions, built from what its engine declares (issue
37): the action types and their fields (`engine.action_schema`, core.actions.action_schema) and the prompt
of each decision kind (`engine.prompt_schemas`, core.prompts: JSON Schema), named as the game's definition
says (`GameType.api_schema`). Nothing here is written for one game: a game's components cannot drift from
its engine, and a new game gets them by declaring its schemas.

Per game: `<prefix>Action` (one of the action types, told apart by `type`) and `<prefix>Decision` (one
component per decision kind, told apart by `kind`, each with its own `<prefix><Kind>Prompt` and its legal
actions).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.game_type_base import ApiSchema, GameType
from games.game_types import get_game_type
from games.schema_fields import camel, documented, enum

# a prompt the engine does not declare, and an empty one (an empty serializer would vanish from the schema)
ANY_PROMPT = {"type": "object", "description": "What the decision is about (its fields depend on the kind)."}
NO_PROMPT = {"type": "object", "description": "No details.", "additionalProperties": False}

# ------------------------------------------------------------------------------ JSON Schema -> fields

_NAMED: dict[str, type[serializers.Serializer]] = {}  # a named object's serializer, one per title


def named_serializer(schema: dict[str, Any]) -> type[serializers.Serializer]:
    """The serializer of a named object (`title`: its component's name), built once per title."""
    title = schema["title"]
    if title not in _NAMED:
        _NAMED[title] = object_serializer(schema, f"{title}Serializer", doc=None)
    return _NAMED[title]


def object_serializer(schema: dict[str, Any], name: str, *, doc: str | None) -> type[serializers.Serializer]:
    """A serializer class of the object `schema`'s properties, in their order."""
    required = set(schema.get("required", ()))
    attrs: dict[str, Any] = {"__doc__": doc}
    for prop, sub in schema.get("properties", {}).items():
        attrs[prop] = schema_field(sub, **({} if prop in required else {"required": False}))
    return type(name, (serializers.Serializer,), attrs)


def schema_field(schema: dict[str, Any], **kwargs: Any) -> serializers.Field:
    """A serializer field of the JSON Schema `schema` (the subset of core.prompts)."""
    if schema.get("description"):
        kwargs["help_text"] = schema["description"]
    kind = schema.get("type")
    if isinstance(kind, list):  # [type, "null"]
        kwargs["allow_null"] = "null" in kind
        kind = next(k for k in kind if k != "null")
    if kind == "integer":
        return serializers.IntegerField(**kwargs)
    if kind == "boolean":
        return serializers.BooleanField(**kwargs)
    if kind == "string":
        return enum(*schema["enum"], **kwargs) if "enum" in schema else serializers.CharField(**kwargs)
    if kind == "array":
        items = schema["items"]
        if items.get("title"):
            return named_serializer(items)(many=True, **kwargs)
        return serializers.ListField(child=schema_field(items), **kwargs)
    if kind == "object" and schema.get("title"):
        return named_serializer(schema)(**kwargs)
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return serializers.DictField(child=schema_field(schema["additionalProperties"]), **kwargs)
    return serializers.JSONField(**kwargs)


# ----------------------------------------------------------------------------------------- actions


def _names(game: GameType) -> ApiSchema:
    if game.api_schema is None:
        raise LookupError(f"{game.name} documents no API schema (GameType.api_schema)")
    return game.api_schema


def _action_serializer(names: ApiSchema, spec: dict[str, Any]) -> type[serializers.Serializer]:
    type_name = spec["type"]
    attrs: dict[str, Any] = {"__doc__": spec["description"] or f"The {type_name} action.",
                             "type": enum(type_name, role=f"{names.role}action")}
    for name, field in spec["fields"].items():
        if name == "seat":
            attrs[name] = serializers.ChoiceField(choices=field["enum"],
                                                  help_text="The seat that acts (yours).")
        elif "enum" in field:
            attrs[name] = serializers.ChoiceField(choices=field["enum"], required=field["required"],
                                                  help_text=field.get("description"))
        else:
            attrs[name] = serializers.CharField(required=field["required"], max_length=64,
                                                help_text=field.get("description"))
    return type(f"{names.prefix}{camel(type_name)}Action", (serializers.Serializer,), attrs)


@cache
def action_serializers(game_id: str) -> dict[str, type[serializers.Serializer]]:
    """Action type -> its serializer (the components of the game's `<prefix>Action`)."""
    game = get_game_type(game_id)
    names = _names(game)
    return {spec["type"]: _action_serializer(names, spec) for spec in game.engine.action_schema}


def action_component(game_id: str, *, many: bool = False) -> PolymorphicProxySerializer:
    """The `<prefix>Action` component: one of the game's action types, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name=f"{_names(get_game_type(game_id)).prefix}Action",
        serializers=action_serializers(game_id),
        resource_type_field_name="type",
        many=many,
    )


def acting_seats(game_id: str) -> list[str]:
    """The seats the game's actions name (its action schema's `seat` values)."""
    return list(get_game_type(game_id).engine.action_schema[0]["fields"]["seat"]["enum"])


# --------------------------------------------------------------------------------------- decisions


def _prompt_field(names: ApiSchema, kind: str, schema: dict[str, Any] | None) -> serializers.Field:
    if schema is None or not schema.get("properties"):
        return documented(ANY_PROMPT if schema is None else NO_PROMPT, serializers.DictField, required=False)
    doc = f"The prompt of a {names.words}{kind} decision."
    return object_serializer(schema, f"{names.prefix}{camel(kind)}Prompt", doc=doc)(required=False)


def _decision_serializer(game_id: str, kind: str) -> type[serializers.Serializer]:
    game = get_game_type(game_id)
    names = _names(game)
    prompt = _prompt_field(names, kind, game.engine.prompt_schemas.get(kind))  # first: the schema's order
    return type(
        f"{names.prefix}{camel(kind)}Decision",
        (serializers.Serializer,),
        {
            "__doc__": f"A pending {names.words}{kind} decision (prompt and legal actions only for the "
            "deciding seat).",
            "seat": serializers.ChoiceField(choices=acting_seats(game_id),
                                            help_text="The seat that decides."),
            "kind": enum(kind, role=f"{names.role}decision"),
            "prompt": prompt,
            "legal_actions": documented(action_component(game_id, many=True), serializers.JSONField,
                                        required=False, help_text=names.legal_help),
        },
    )


@cache
def decision_serializers(game_id: str) -> dict[str, type[serializers.Serializer]]:
    """Decision kind -> its serializer: the kinds whose prompts the engine declares, in their order, then
    any other kind it asks (a prompt of any shape)."""
    engine = get_game_type(game_id).engine
    kinds = [*engine.prompt_schemas, *(k for k in engine.decision_kinds if k not in engine.prompt_schemas)]
    return {kind: _decision_serializer(game_id, kind) for kind in kinds}


def decision_component(game_id: str) -> PolymorphicProxySerializer:
    """The `<prefix>Decision` component: one of the game's decision kinds, told apart by `kind`."""
    return PolymorphicProxySerializer(
        component_name=f"{_names(get_game_type(game_id)).prefix}Decision",
        serializers=decision_serializers(game_id),
        resource_type_field_name="kind",
        many=False,
    )
