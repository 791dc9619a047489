"""The documented shape of a The War seat's view (OpenAPI only; games.view_serializers' GameView names it
through The War's definition). Its decisions and actions are the components games.decision_schemas builds
from the engine's declarations (TheWarDecision, TheWarAction)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.decision_schemas import decision_component
from games.engine.the_war import SEATS
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum


def _seat(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(SEATS), **kwargs)


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
    decision = _documented(decision_component("the-war"), serializers.JSONField, allow_null=True)
    legal_actions = _documented(
        {"type": "array", "items": {"$ref": "#/components/schemas/TheWarAction"}, "deprecated": True},
        serializers.JSONField,
        help_text="Deprecated (issue 37; removed in release 0.2.0): a copy of `decision.legal_actions` "
        "(empty unless the decision is yours). Read `decision.legal_actions`, as in every game.",
    )
