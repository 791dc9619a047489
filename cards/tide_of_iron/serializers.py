"""Output serializers of Tide of Iron's Strategy card API: values in the fixture's shape
(fixtures/tide_of_iron/), every reference a stable code, the provenance of every value alongside."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiScenario
from vocabulary.tide_of_iron import SEATS, EffectKind, Keyword, Source

LOOKUP = {"lookup_field": "code"}
KEYWORDS = {
    "type": "array",
    "description": "The card's keywords in resolution order: value is Establish Contact's target number or "
    "an attack's strength; suppressive: a suppressive attack (else normal); success_on: the lowest die "
    "that scores a success (5 unless the card says otherwise).",
    "items": {
        "type": "object",
        "properties": {
            "keyword": {"type": "string", "enum": [k.value for k in Keyword]},
            "value": {"type": "integer"},
            "suppressive": {"type": "boolean"},
            "success_on": {"type": "integer", "minimum": 1, "maximum": 6},
        },
        "required": ["keyword"],
    },
}
EFFECTS = {
    "type": "array",
    "description": 'Lasting effects the referee applies ("When you activate another Artillery card, its cost '
    'is reduced by 1 (to a minimum of 0)."): card_type is a deck-title word.',
    "items": {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": [e.value for e in EffectKind]},
            "card_type": {"type": "string"},
            "amount": {"type": "integer"},
            "minimum": {"type": "integer"},
        },
        "required": ["kind", "card_type", "amount", "minimum"],
    },
}
PROVENANCE = {
    "type": "object",
    "description": 'Per value ("cost", "keywords.0", "text.0"): {source: "seed", quote} (stated in the text: '
    'the quote occurs in it) or {source: "estimated", note} (the method).',
    "additionalProperties": {
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": [s.value for s in Source]},
            "quote": {"type": "string"},
            "note": {"type": "string"},
        },
        "required": ["source"],
    },
}
SEATS_SCHEMA = {
    "type": "object",
    "description": "Per player (axis, allies): the Strategy decks the scenario gives him, and how many cards "
    "he draws from EACH of them at the beginning of the game and in every Status Phase.",
    "properties": {
        seat: {
            "type": "object",
            "properties": {
                "decks": {"type": "array", "items": {"type": "string"}},
                "start_draw": {"type": "integer"},
                "status_draw": {"type": "integer"},
            },
            "required": ["decks", "start_draw", "status_draw"],
        }
        for seat in SEATS
    },
}


def _json_field(schema: dict[str, Any], attr: str):
    @extend_schema_field(schema)
    class JsonField(serializers.Field):
        def __init__(self, **kwargs):
            kwargs.update(read_only=True, source="*")
            super().__init__(**kwargs)

        def to_representation(self, value):
            return getattr(value, attr) or ([] if schema["type"] == "array" else {})

    JsonField.__name__ = f"Toi{attr.title()}Field"
    return JsonField


KeywordsField = _json_field(KEYWORDS, "keywords")
EffectsField = _json_field(EFFECTS, "effects")
ProvenanceField = _json_field(PROVENANCE, "provenance")
SeatsField = _json_field(SEATS_SCHEMA, "seats")


def _estimated(provenance: dict[str, Any]) -> list[str]:
    return sorted(k for k, p in (provenance or {}).items() if p.get("source") == Source.ESTIMATED)


class ToiCardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="toicard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="toicard-face", help_text="The card drawn as SVG (estimated values marked).", **LOOKUP
    )
    deck = serializers.CharField(source="deck.code", help_text="The code of the Strategy deck it belongs to.")
    deck_title = serializers.CharField(source="deck.title")
    keywords = KeywordsField()
    effects = EffectsField()
    text = serializers.ListField(child=serializers.CharField(), read_only=True)
    provenance = ProvenanceField()
    estimated = serializers.SerializerMethodField(
        help_text="The values that are estimated (provenance keys)."
    )

    class Meta:
        model = ToiCard
        fields = [
            "code",
            "url",
            "face_url",
            "title",
            "deck",
            "deck_title",
            "cost",
            "phase",
            "play_area",
            "keywords",
            "effects",
            "text",
            "contact",
            "area_attack",
            "wide_blast",
            "suppressive",
            "provenance",
            "estimated",
        ]

    def get_estimated(self, card: ToiCard) -> list[str]:
        return _estimated(card.provenance)


class ToiDeckEntrySerializer(serializers.Serializer):
    card = serializers.CharField(source="card.code")
    title = serializers.CharField(source="card.title")
    count = serializers.IntegerField()


class ToiDeckSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="toideck-detail", **LOOKUP)
    entries = ToiDeckEntrySerializer(many=True, read_only=True)
    card_count = serializers.SerializerMethodField()
    provenance = ProvenanceField()

    class Meta:
        model = ToiDeck
        fields = ["code", "url", "title", "card_count", "entries", "provenance", "position"]

    def get_card_count(self, deck: ToiDeck) -> int:
        return sum(e.count for e in deck.entries.all())


class ToiScenarioSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="toiscenario-detail", **LOOKUP)
    seats = SeatsField()
    provenance = ProvenanceField()

    class Meta:
        model = ToiScenario
        fields = ["code", "url", "title", "seats", "provenance", "position"]
