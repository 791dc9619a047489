"""The documented shape of a Battlefront seat's view (OpenAPI only): the engine builds the view
(battlefront/view.py) as plain JSON; these serializers describe it for the schema. Its decisions and actions
are the components games.decision_schemas builds from the engine's declarations (BattlefrontDecision,
BattlefrontAction)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.decision_schemas import decision_component
from games.engine.battlefront import FRONTS as BATTLEFRONT_FRONTS
from games.engine.battlefront import SEATS as BATTLEFRONT_SEATS
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum

GAME = "battlefront"


def _bf_seat(**kwargs: Any) -> serializers.ChoiceField:
    """A Battlefront seat (west/east)."""
    return serializers.ChoiceField(choices=list(BATTLEFRONT_SEATS), **kwargs)


def _per_bf_seat(field_factory: Any) -> dict[str, serializers.Field]:
    return {seat: field_factory() for seat in BATTLEFRONT_SEATS}



class BattlefrontHandCardSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The card's code (the shared deck holds one of each).")
    type = serializers.CharField(help_text="L, I, P, T, A, S, F, or X (a Special card).")
    force = serializers.IntegerField(allow_null=True, help_text="null for a Special card.")


class BattlefrontFrontCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    type = serializers.CharField(help_text="As played (a Special card: the type of its use).")
    force = serializers.IntegerField()
    negated = serializers.BooleanField(help_text="A negated card adds no force.")
    use = serializers.CharField(required=False, help_text="How a Special card was used.")


BattlefrontFrontCardsSerializer = type(
    "BattlefrontFrontCardsSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: BattlefrontFrontCardSerializer(many=True)),
)
BattlefrontSeatCountsSerializer = type(
    "BattlefrontSeatCountsSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: serializers.IntegerField()),
)


class BattlefrontFrontSerializer(serializers.Serializer):
    front = serializers.ChoiceField(choices=list(BATTLEFRONT_FRONTS))
    name = serializers.CharField()
    cards = BattlefrontFrontCardsSerializer(help_text="Per seat, in play order (face up).")
    force = BattlefrontSeatCountsSerializer(help_text="Force per seat now (negated cards excluded).")
    markers = BattlefrontSeatCountsSerializer(help_text="Victory markers per seat.")
    captured_by = _bf_seat(allow_null=True)


BattlefrontSeatCodesSerializer = type(
    "BattlefrontSeatCodesSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: serializers.ListField(child=serializers.CharField())),
)


class BattlefrontBattleFrontSerializer(serializers.Serializer):
    force = BattlefrontSeatCountsSerializer()
    marker = _bf_seat(allow_null=True, help_text="Who gained a Victory Marker (null: equal force).")
    negated = BattlefrontSeatCodesSerializer(help_text="The negated cards per seat.")
    captured_by = _bf_seat(required=False, help_text="Present when this battle captured the front.")


class BattlefrontBattleSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    fronts = serializers.DictField(
        child=BattlefrontBattleFrontSerializer(),
        help_text="Front -> its battle (captured fronts fight no more).",
    )


class BattlefrontResultSerializer(serializers.Serializer):
    """How the game ended (an empty object while it goes on)."""

    kind = serializers.CharField(
        required=False,
        help_text="three_fronts; breakthrough, outflank or envelopment (two-front victories); stalled; "
        "simultaneous.",
    )
    winner = _bf_seat(required=False, allow_null=True)
    captured = BattlefrontSeatCodesSerializer(required=False, help_text="The fronts each seat captured.")
    markers = BattlefrontSeatCountsSerializer(required=False, help_text="Victory markers per seat.")
    turns = serializers.IntegerField(required=False)
    first_player = _bf_seat(required=False, allow_null=True)


class BattlefrontMeSerializer(serializers.Serializer):
    seat = _bf_seat()
    nationality = serializers.CharField(allow_null=True, help_text="With the Special cards rule.")
    hand = BattlefrontHandCardSerializer(many=True)
    discards = serializers.ListField(child=serializers.CharField(), help_text="Your own discards.")
    captured = serializers.ListField(child=serializers.CharField())
    scouted = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="The opponent's hand as your scout showed it this turn (you only).",
    )


class BattlefrontOpponentSerializer(serializers.Serializer):
    seat = _bf_seat()
    nationality = serializers.CharField(allow_null=True)
    hand_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    captured = serializers.ListField(child=serializers.CharField())


class BattlefrontOptionsSerializer(serializers.Serializer):
    two_front_victory = serializers.BooleanField()
    blitzkrieg_attacker = _bf_seat(allow_null=True)
    special_cards = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="Seat -> nationality."
    )


class BattlefrontViewSerializer(serializers.Serializer):
    """What one Battlefront seat may see: never the opponent's hand or discards, the deck order or the
    RNG state (a scout's look at the opponent's hand goes to the scout's owner only)."""

    game = _enum("battlefront", role="game")
    seat = _bf_seat()
    status = _enum("active", "finished")
    winner = _bf_seat(allow_null=True)
    result = BattlefrontResultSerializer()
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    first_seat = _bf_seat(allow_null=True)
    options = BattlefrontOptionsSerializer()
    hand_limit = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    fronts = BattlefrontFrontSerializer(many=True)
    last_battle = BattlefrontBattleSerializer(allow_null=True)
    me = BattlefrontMeSerializer()
    opponent = BattlefrontOpponentSerializer()
    decision = _documented(decision_component(GAME), serializers.JSONField, allow_null=True)

