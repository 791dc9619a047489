"""The documented shapes of a Tide of Iron referee view, its decisions and actions (OpenAPI only), built
from the engine's ACTION_TYPES and DECISION_KINDS (games.engine.tide_of_iron) so they cannot drift.
Used by games.view_serializers (AnyAction, GameView)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.engine.tide_of_iron import ACTION_TYPES, DECISION_KINDS, DIRECTIONS, REPORTS, SEATS
from games.schema_fields import camel as _camel
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum

PHASES = ["action", "command", "status"]








def _seat(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(SEATS), **kwargs)


def _action_serializer(spec: dict[str, Any]) -> type[serializers.Serializer]:
    type_name = spec["type"]
    attrs: dict[str, Any] = {"__doc__": spec["description"], "type": _enum(type_name, role="toi-action")}
    for name, field in spec["fields"].items():
        if name == "seat":
            attrs[name] = _seat(help_text="The seat that acts (yours).")
        else:
            attrs[name] = serializers.CharField(required=field["required"], max_length=64)
    return type(f"TideOfIron{_camel(type_name)}Action", (serializers.Serializer,), attrs)


TOI_ACTION_SERIALIZERS = {spec["type"]: _action_serializer(spec) for spec in ACTION_TYPES}


def toi_action_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """The TideOfIronAction component: one of the referee's action types, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name="TideOfIronAction",
        serializers=TOI_ACTION_SERIALIZERS,
        resource_type_field_name="type",
        many=many,
    )


class _BoardSize(serializers.Serializer):
    width = serializers.IntegerField()
    height = serializers.IntegerField()


PROMPTS: dict[str, dict[str, serializers.Field]] = {
    "act": {
        "round": serializers.IntegerField(),
        "phase": _enum(*PHASES, role=None),
        "command": serializers.IntegerField(help_text="Your command points as last reported."),
        "reports": serializers.ListField(
            child=_enum(*REPORTS, role="toi-report"),
            help_text="Board reports you may send now besides the legal actions (free values).",
        ),
    },
    "target": {
        "card": serializers.CharField(),
        "board": _BoardSize(),
    },
    "target_column": {
        "card": serializers.CharField(),
        "board": _BoardSize(),
    },
    "target_row": {
        "card": serializers.CharField(),
        "board": _BoardSize(),
        "column": serializers.IntegerField(help_text="The column chosen for the target hex."),
    },
    "confirm": {
        "claim": serializers.JSONField(
            help_text="The other player's report: by, type (command, phase, result, los) and its values."
        ),
    },
    "los": {
        "card": serializers.CharField(),
        "target": serializers.CharField(help_text="The target hex."),
        "los": serializers.ListField(child=serializers.CharField()),
    },
}


def _decision_serializer(kind: str) -> type[serializers.Serializer]:
    prompt = type(
        f"TideOfIron{_camel(kind)}Prompt",
        (serializers.Serializer,),
        {"__doc__": f"The prompt of a Tide of Iron {kind} decision.", **PROMPTS[kind]},
    )
    return type(
        f"TideOfIron{_camel(kind)}Decision",
        (serializers.Serializer,),
        {
            "__doc__": f"A pending Tide of Iron {kind} decision (prompt and legal actions only for the "
            "deciding "
            "seat).",
            "seat": _seat(help_text="The seat that decides."),
            "kind": _enum(kind, role="toi-decision"),
            "prompt": prompt(required=False),
            "legal_actions": _documented(
                toi_action_schema(many=True),
                serializers.JSONField,
                required=False,
                help_text="Send one of these (or, at an act decision, a board report).",
            ),
        },
    )


TideOfIronDecision = PolymorphicProxySerializer(
    component_name="TideOfIronDecision",
    serializers={kind: _decision_serializer(kind) for kind in DECISION_KINDS},
    resource_type_field_name="kind",
    many=False,
)


class ToiCardRefSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="A Strategy card code (its definition is in the answer's `cards`)."
    )


class ToiDeckSizeSerializer(serializers.Serializer):
    code = serializers.CharField()
    title = serializers.CharField()
    size = serializers.IntegerField(help_text="Cards left (their order and identity stay hidden).")


class ToiPlayAreaCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    waiting_for_contact = serializers.BooleanField(help_text="Contact failed: may retry once a later round.")
    round = serializers.IntegerField(help_text="The round it was placed.")
    last_contact_round = serializers.IntegerField()


class ToiSideSerializer(serializers.Serializer):
    seat = _seat()
    command = serializers.IntegerField(help_text="Command points as last reported.")
    decks = ToiDeckSizeSerializer(many=True)
    hq = ToiCardRefSerializer(many=True, help_text="The HQ area (face up).")
    play_area = ToiPlayAreaCardSerializer(many=True)


class ToiUnitSerializer(serializers.Serializer):
    unit = serializers.CharField()
    hex = serializers.CharField()
    side = _seat()
    kind = _enum("squad", "vehicle", role="toi-unit-kind")
    officer = serializers.BooleanField()


class ToiBoardSerializer(serializers.Serializer):
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    marker = _enum(*DIRECTIONS, role=None, help_text="Where face 1 of the north marker points.")
    cover = serializers.DictField(child=serializers.IntegerField(), help_text="Hex -> defense dice.")
    units = ToiUnitSerializer(many=True)


class ToiResolvingSerializer(serializers.Serializer):
    seat = _seat()
    code = serializers.CharField()
    target = serializers.CharField(allow_null=True)
    los = serializers.CharField(allow_null=True)
    final = serializers.CharField(allow_null=True)


class ToiOptionsSerializer(serializers.Serializer):
    scenario = serializers.CharField()
    board_width = serializers.IntegerField()
    board_height = serializers.IntegerField()
    marker = _enum(*DIRECTIONS, role=None)
    first_player = _seat()
    defense_success_on = serializers.IntegerField()


class ToiScenarioRefSerializer(serializers.Serializer):
    code = serializers.CharField()
    title = serializers.CharField()


class ToiResultSerializer(serializers.Serializer):
    """How the match ended (an empty object while it goes on)."""

    kind = serializers.CharField(required=False)
    result = serializers.CharField(required=False, help_text="axis, allies or draw, as reported.")
    by = _seat(required=False)
    round = serializers.IntegerField(required=False)


class TideOfIronViewSerializer(serializers.Serializer):
    """What one Tide of Iron seat may see: everything but the order and identity of the undrawn Strategy
    cards and the RNG state."""

    game = _enum("tide-of-iron", role="game-toi")
    seat = _seat()
    status = _enum("active", "finished", role="toi-status")
    winner = _seat(allow_null=True)
    result = ToiResultSerializer()
    round = serializers.IntegerField()
    phase = _enum(*PHASES, role=None)
    turn_seat = _seat()
    ply = serializers.IntegerField()
    options = ToiOptionsSerializer()
    scenario = ToiScenarioRefSerializer()
    board = ToiBoardSerializer()
    me = ToiSideSerializer()
    opponent = ToiSideSerializer()
    box = ToiCardRefSerializer(many=True, help_text="Cards removed from the game after use.")
    resolving = ToiResolvingSerializer(allow_null=True, help_text="The activation being resolved.")
    claim = serializers.JSONField(
        allow_null=True,
        required=False,
        help_text="Rules revision 2: the report waiting for the other player's confirm or dispute.",
    )
    decision = _documented(TideOfIronDecision, serializers.JSONField, allow_null=True)
