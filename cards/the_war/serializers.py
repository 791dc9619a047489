"""Output serializers of The War's card API: values in the fixture's shape (fixtures/the_war/cards.json),
every reference a stable code, the provenance of every value alongside."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.the_war.models import LIST_FIELDS, RESOURCES, TheWarCard, TheWarStarter
from vocabulary.the_war import (
    MAX_COPIES_PER_TITLE,
    MAX_HERO_COPIES,
    AbilityKind,
    EffectKind,
    Feature,
    Restriction,
    Source,
)

LOOKUP = {"lookup_field": "code"}
COST_ITEM = {
    "type": "object",
    "properties": {
        "resource": {"type": "string", "enum": list(RESOURCES)},
        "amount": {"type": "integer", "minimum": 1},
        "resource_cards_only": {
            "type": "boolean",
            "description": 'The red symbol: "must be obtained only from resource cards".',
        },
    },
    "required": ["resource", "amount", "resource_cards_only"],
}
COST_LIST = {"type": "array", "items": COST_ITEM}
SCHEMAS: dict[str, dict[str, Any]] = {
    "yields": {**COST_LIST, "description": "Resource cards: what the card gives when rotated."},
    "bonuses": {
        "type": "array",
        "description": 'E.g. "+1/2 in combat against armored units": only when every enemy unit in the '
        "engagement is one of `against` (unit types or subtypes).",
        "items": {
            "type": "object",
            "properties": {
                "against": {"type": "array", "items": {"type": "string"}},
                "attack": {"type": "integer"},
                "defense": {"type": "integer"},
            },
            "required": ["against"],
        },
    },
    "features": {"type": "array", "items": {"type": "string", "enum": [f.value for f in Feature]}},
    "restrictions": {"type": "array", "items": {"type": "string", "enum": [r.value for r in Restriction]}},
    "attack_cost": {**COST_LIST, "description": 'Resources spent for each attack ("For attacks: {F}").'},
    "abilities": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": [a.value for a in AbilityKind]},
                "value": {"type": "integer"},
                "cost": COST_LIST,
                "rotate": {"type": "boolean"},
            },
            "required": ["kind"],
        },
    },
    "effects": {
        "type": "array",
        "description": "What an improvement, battlefield condition, special card or hero does: {kind, "
        "target: {side, unit_types, subtypes, domain, line, elite}, attack, defense, amount, action, "
        "feature, when}.",
        "items": {
            "type": "object",
            "properties": {"kind": {"type": "string", "enum": [e.value for e in EffectKind]}},
            "additionalProperties": True,
            "required": ["kind"],
        },
    },
    "maintenance": {**COST_LIST, "description": "Paid at the start of each build phase to keep the card."},
    "text": {"type": "array", "items": {"type": "string"}, "description": "The card's text lines."},
}
PROVENANCE = {
    "type": "object",
    "description": 'Per value ("cost", "text.0", "restrictions.<name>"): {source: "seed", section, quote} '
    '(printed in the rulebook: the quote occurs in it) or {source: "estimated", note}.',
    "additionalProperties": {
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": [s.value for s in Source]},
            "section": {"type": "string"},
            "quote": {"type": "string"},
            "note": {"type": "string"},
        },
        "required": ["source"],
    },
}


def _row_field(name: str, schema: dict[str, Any]):
    @extend_schema_field(schema)
    class RowField(serializers.Field):
        def __init__(self, **kwargs):
            kwargs.setdefault("read_only", True)
            kwargs.setdefault("source", "*")
            super().__init__(**kwargs)

        def to_representation(self, value):
            return getattr(value, name) or []

    RowField.__name__ = f"TheWar{name.title().replace('_', '')}Field"
    return RowField


@extend_schema_field(COST_LIST)
class CostField(serializers.Field):
    def __init__(self, **kwargs):
        kwargs.update(read_only=True, source="*")
        super().__init__(**kwargs)

    def to_representation(self, value: TheWarCard):
        return value.cost_list()


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "description": "Battlefield conditions: how the opponent eliminates it (N cards from his deck to "
        "losses, or a breakthrough of that total attack power).",
        "properties": {"deck_cards": {"type": "integer"}, "breakthrough_power": {"type": "integer"}},
    }
)
class EliminationField(serializers.Field):
    def __init__(self, **kwargs):
        kwargs.update(read_only=True, source="*")
        super().__init__(**kwargs)

    def to_representation(self, value: TheWarCard):
        return value.elimination()


@extend_schema_field(PROVENANCE)
class ProvenanceField(serializers.Field):
    def __init__(self, **kwargs):
        kwargs.update(read_only=True)
        super().__init__(**kwargs)

    def to_representation(self, value):
        return dict(value or {})


class TheWarCardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="thewarcard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="thewarcard-face", help_text="The card drawn as SVG (estimated values marked).", **LOOKUP
    )
    army = serializers.SerializerMethodField(help_text="red-army, wehrmacht; null: no army.")
    number = serializers.SerializerMethodField()
    rarity = serializers.SerializerMethodField()
    cost = CostField(help_text="Depot / plant / fuel (a printed cost 1/5/1).")
    cost_total = serializers.IntegerField(read_only=True)
    resource_kind = serializers.SerializerMethodField()
    unit_type = serializers.SerializerMethodField()
    subtype = serializers.SerializerMethodField()
    hero_mode = serializers.SerializerMethodField()
    elimination = EliminationField()
    yields = _row_field("yields", SCHEMAS["yields"])()
    bonuses = _row_field("bonuses", SCHEMAS["bonuses"])()
    features = _row_field("features", SCHEMAS["features"])()
    restrictions = _row_field("restrictions", SCHEMAS["restrictions"])()
    attack_cost = _row_field("attack_cost", SCHEMAS["attack_cost"])()
    abilities = _row_field("abilities", SCHEMAS["abilities"])()
    effects = _row_field("effects", SCHEMAS["effects"])()
    maintenance = _row_field("maintenance", SCHEMAS["maintenance"])()
    text = _row_field("text", SCHEMAS["text"])()
    max_copies = serializers.SerializerMethodField(
        help_text="Copies of this title a deck may hold: null (no limit) for basic resources, 1 for heroes."
    )
    provenance = ProvenanceField()
    estimated = serializers.SerializerMethodField(help_text="The values whose source is estimated.")
    seed_values = serializers.IntegerField(read_only=True, help_text="How many values are printed (seed).")

    class Meta:
        model = TheWarCard
        fields = [
            "code",
            "url",
            "face_url",
            "title",
            "category",
            "army",
            "number",
            "rarity",
            "cost",
            "cost_total",
            "resource_kind",
            "unit_type",
            "subtype",
            "line",
            "attack",
            "defense",
            "aa_attack",
            "bombing_power",
            "deck_hit",
            *LIST_FIELDS,
            "elimination",
            "location",
            "hero_mode",
            "max_copies",
            "provenance",
            "estimated",
            "seed_values",
            "position",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_army(self, obj: TheWarCard) -> str | None:
        return obj.army or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_number(self, obj: TheWarCard) -> str | None:
        return obj.number or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_rarity(self, obj: TheWarCard) -> str | None:
        return obj.rarity or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_resource_kind(self, obj: TheWarCard) -> str | None:
        return obj.resource_kind or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_unit_type(self, obj: TheWarCard) -> str | None:
        return obj.unit_type or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_subtype(self, obj: TheWarCard) -> str | None:
        return obj.subtype or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_hero_mode(self, obj: TheWarCard) -> str | None:
        return obj.hero_mode or None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_max_copies(self, obj: TheWarCard) -> int | None:
        if obj.category == "resource" and obj.resource_kind == "basic":
            return None
        return MAX_HERO_COPIES if obj.category == "hero" else MAX_COPIES_PER_TITLE

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_estimated(self, obj: TheWarCard) -> list[str]:
        return sorted(k for k, p in (obj.provenance or {}).items() if p.get("source") == Source.ESTIMATED)


class TheWarStarterEntrySerializer(serializers.Serializer):
    card = serializers.CharField(source="card.code", help_text="The card's code.")
    title = serializers.CharField(source="card.title")
    count = serializers.IntegerField()


class TheWarStarterSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="thewarstarter-detail", **LOOKUP)
    entries = TheWarStarterEntrySerializer(many=True, read_only=True)
    card_count = serializers.SerializerMethodField(help_text="Cards in the deck (60).")
    provenance = ProvenanceField()

    class Meta:
        model = TheWarStarter
        fields = ["code", "url", "name", "army", "card_count", "entries", "provenance", "position"]

    def get_card_count(self, obj: TheWarStarter) -> int:
        return sum(e.count for e in obj.entries.all())
