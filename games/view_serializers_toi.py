"""The documented shape of a Tide of Iron referee view (OpenAPI only; games.view_serializers' GameView names
it through Tide of Iron's definition). Its decisions and actions are the components games.decision_schemas
builds from the engine's declarations (TideOfIronDecision, TideOfIronAction)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.decision_schemas import decision_component
from games.engine.tide_of_iron import DIRECTIONS, SEATS
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum

PHASES = ["action", "command", "status"]


def _seat(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(SEATS), **kwargs)


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
    decision = _documented(decision_component("tide-of-iron"), serializers.JSONField, allow_null=True)
