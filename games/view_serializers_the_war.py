"""The documented shapes of a The War seat's view, its decisions and actions (OpenAPI only), built from the
engine's ACTION_TYPES and DECISION_KINDS (games.engine.the_war) so they cannot drift.
Used by games.view_serializers (AnyAction, GameView)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.engine.the_war import ACTION_TYPES, DECISION_KINDS, SEATS
from games.schema_fields import camel as _camel
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum


def _seat(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(SEATS), **kwargs)


def _action_serializer(spec: dict[str, Any]) -> type[serializers.Serializer]:
    type_name = spec["type"]
    attrs: dict[str, Any] = {"__doc__": spec["description"], "type": _enum(type_name, role="the-war-action")}
    for name, field in spec["fields"].items():
        if name == "seat":
            attrs[name] = _seat(help_text="The seat that acts (yours).")
        else:
            attrs[name] = serializers.CharField(
                required=field["required"], max_length=64, help_text="A card id (e.g. p1.16) or a value."
            )
    return type(f"TheWar{_camel(type_name)}Action", (serializers.Serializer,), attrs)


THE_WAR_ACTION_SERIALIZERS = {spec["type"]: _action_serializer(spec) for spec in ACTION_TYPES}


def the_war_action_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """The TheWarAction component: one of The War's action types, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name="TheWarAction",
        serializers=THE_WAR_ACTION_SERIALIZERS,
        resource_type_field_name="type",
        many=many,
    )


class TheWarDecisionSerializer(serializers.Serializer):
    """The pending decision: whose it is and its kind; the prompt and legal actions only for the deciding
    seat (the same place as in every game)."""

    seat = _seat()
    kind = _enum(*DECISION_KINDS, role="the-war-decision")
    prompt = serializers.DictField(
        required=False, help_text="What the decision is about (its fields depend on the kind)."
    )
    legal_actions = _documented(
        the_war_action_schema(many=True), serializers.JSONField, required=False,
        help_text="Your legal actions (only when the decision is yours): send exactly one of these.",
    )


class TheWarCardRefSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The card instance (e.g. p1.16): actions name it.")
    code = serializers.CharField(help_text="The card code (its definition is in the answer's `cards`).")


class TheWarUnitSerializer(TheWarCardRefSerializer):
    rotated = serializers.BooleanField()
    damage = serializers.IntegerField(required=False, help_text="Damage this wave.")
    improvements = TheWarCardRefSerializer(many=True, required=False)


class TheWarPlayerSerializer(serializers.Serializer):
    """A seat's public zones: the deck and hand as sizes only."""

    deck_size = serializers.IntegerField(help_text="Cards left (their order stays hidden).")
    hand_size = serializers.IntegerField()
    resources = TheWarUnitSerializer(many=True)
    line1 = TheWarUnitSerializer(many=True, help_text="The first line.")
    line2 = TheWarUnitSerializer(many=True, help_text="The second line.")
    reserve = TheWarUnitSerializer(many=True)
    conditions = TheWarUnitSerializer(many=True, help_text="Battlefield conditions and the location.")
    losses = serializers.ListField(child=serializers.CharField(), help_text="Card codes, face up.")
    revealed_starting_hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="The public re-draw reveal (codes)."
    )


class TheWarPoolSerializer(serializers.Serializer):
    raw = serializers.ListField(child=serializers.IntegerField(), help_text="Resources paid into the pool.")
    converted = serializers.ListField(child=serializers.IntegerField(), help_text="Converted resources.")


class TheWarPlayersSerializer(serializers.Serializer):
    p1 = TheWarPlayerSerializer()
    p2 = TheWarPlayerSerializer()


class TheWarViewSerializer(serializers.Serializer):
    """What one The War seat may see (the spectator view has seat null, no hand, no pool, no scouted hand):
    never the opponent's hand (except the public re-draw reveal and what the seat's own scout party showed
    it), never any deck order, never the RNG state."""

    game = _enum("the-war", role="game-the-war")
    seat = _seat(allow_null=True)
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    status = _enum("active", "finished", role="the-war-status")
    winner = _seat(allow_null=True)
    result = serializers.DictField(help_text="How the game ended (empty while it goes on).")
    first_player = _seat()
    hand = TheWarCardRefSerializer(many=True, required=False)
    pool = TheWarPoolSerializer(required=False)
    scouted_hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True, required=False,
        help_text="What your scout party showed you of the opponent's hand (codes), this turn.",
    )
    deck_list = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="Your own deck list (card codes; your card ids p1.NN / p2.NN index it from 01).",
    )
    players = TheWarPlayersSerializer()
    table = serializers.DictField(
        required=False,
        help_text="The public facts the zones do not show (what a search bot rebuilds a game from): the "
        "pending steps (frames; a card the opponent pays for while it is still in his hand is not named), "
        "both pools, the improvements in play order, the turn each unit was built, breakthrough power, "
        "heroes played, the specials in force and the re-draws.",
    )
    opponent = _seat(required=False)
    decision = TheWarDecisionSerializer(allow_null=True)
    legal_actions = _documented(
        {"type": "array", "items": {"$ref": "#/components/schemas/TheWarAction"}, "deprecated": True},
        serializers.JSONField,
        help_text="Deprecated (issue 37; removed in release 0.2.0): a copy of `decision.legal_actions` "
        "(empty unless the decision is yours). Read `decision.legal_actions`, as in every game.",
    )
