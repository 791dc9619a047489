"""Output serializers of the Battlefront card API: every reference is a stable code, never a primary key."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import (
    BATTLEFRONT_ABILITY_PARAMS,
    BATTLEFRONT_TARGET_TYPE_CHOICES,
    BATTLEFRONT_TYPES,
    BATTLEFRONT_WORDING_CHOICES,
    BattlefrontCard,
    BattlefrontSpecialUse,
)

LOOKUP = {"lookup_field": "code"}
TARGET_TYPES = [code for code, _ in BATTLEFRONT_TARGET_TYPE_CHOICES]


@extend_schema_field(
    {
        "type": "array",
        "description": "Structured abilities: {kind} plus exactly the parameters of the kind: scout {}, "
        "extra {type: the type of the extra card allowed at that Front}, negate {type: the opposing type "
        "negated, wording: which printed wording}, discard_and_draw {count}.",
        "items": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": list(BATTLEFRONT_ABILITY_PARAMS)},
                "type": {"type": "string", "enum": TARGET_TYPES},
                "wording": {"type": "string", "enum": [w for w, _ in BATTLEFRONT_WORDING_CHOICES]},
                "count": {"type": "integer", "minimum": 1},
            },
            "required": ["kind"],
        },
    }
)
class BattlefrontAbilitiesField(serializers.Field):
    """The prefetched ability rows in the fixture shape."""

    def __init__(self, **kwargs):
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("source", "*")
        super().__init__(**kwargs)

    def to_representation(self, value):
        return [ability.as_dict() for ability in value.abilities.all()]


class BattlefrontCardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="battlefrontcard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="battlefrontcard-face", help_text="The card drawn as SVG.", **LOOKUP
    )
    type = serializers.CharField(
        source="card_type", read_only=True, help_text="L, I, P, T, A, S, F (X: an optional Special card)."
    )
    type_name = serializers.CharField(source="get_card_type_display", read_only=True)
    force = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="1-10; null for a Special card (its use says)."
    )
    abilities = BattlefrontAbilitiesField()

    class Meta:
        model = BattlefrontCard
        fields = [
            "code",
            "url",
            "face_url",
            "name",
            "type",
            "type_name",
            "force",
            "notes",
            "abilities",
            "is_special",
            "optional_rule",
            "position",
        ]


class BattlefrontSpecialUseSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="battlefrontspecialuse-detail", **LOOKUP)
    nationality_name = serializers.CharField(source="get_nationality_display", read_only=True)
    type = serializers.SerializerMethodField(help_text="The type it is played as; null: not as a card.")
    type_name = serializers.SerializerMethodField()
    force = serializers.IntegerField(read_only=True, allow_null=True)
    abilities = BattlefrontAbilitiesField()

    class Meta:
        model = BattlefrontSpecialUse
        fields = [
            "code",
            "url",
            "nationality",
            "nationality_name",
            "name",
            "type",
            "type_name",
            "force",
            "abilities",
            "text",
            "position",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_type(self, obj: BattlefrontSpecialUse) -> str | None:
        return obj.card_type or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_type_name(self, obj: BattlefrontSpecialUse) -> str | None:
        return BATTLEFRONT_TYPES[obj.card_type] if obj.card_type else None
