"""Output serializers of the read-only catalog API. Every reference is a stable code, never a primary key."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.battlecards.canonical import BATTLECARD_KEYS
from cards.models import ArsenalCard, Battlecard, CardSet, ConflictCard, Nation, SetMembership, Theater
from cards.selectors import arsenal_card_effective_max

LOOKUP = {"lookup_field": "code"}


class StatsSerializer(serializers.Serializer):
    """Attack or defense against each kind of unit; null means N/A."""

    ground = serializers.IntegerField(allow_null=True)
    air = serializers.IntegerField(allow_null=True)
    sea = serializers.IntegerField(allow_null=True)


class ForcesSerializer(serializers.Serializer):
    ground = serializers.BooleanField()
    air = serializers.BooleanField()
    sea = serializers.BooleanField()
    non_artillery_ground_required = serializers.BooleanField(
        help_text="A non-artillery ground unit is needed to START the battle (FAQ GU3)."
    )
    optional_ground_classes = serializers.ListField(child=serializers.CharField())


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {
                "source": {"type": "string", "enum": ["seed", "estimated"]},
                "note": {"type": "string"},
            },
        },
    }
)
class ProvenanceField(serializers.JSONField):
    """{field: {source: seed|estimated, note}}: where each value comes from."""


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"kind": {"type": "string"}},
            "required": ["kind"],
            "additionalProperties": True,
        },
    }
)
class AbilitiesField(serializers.JSONField):
    """[{kind, ...params}] in the vocabulary of vocabulary.battlecards.ABILITY_SCHEMA."""


class NationSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="nation-detail", **LOOKUP)
    arsenal_card_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Nation
        fields = ["code", "url", "name", "side", "arsenal_card_count"]


class TheaterSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="theater-detail", **LOOKUP)
    conflict_card_count = serializers.IntegerField(read_only=True)
    battlecard_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Theater
        fields = ["code", "url", "name", "conflict_card_count", "battlecard_count"]


class SetEntrySerializer(serializers.ModelSerializer):
    card = serializers.SlugRelatedField(slug_field="code", read_only=True)
    name = serializers.CharField(source="card.name", read_only=True)
    nation = serializers.CharField(source="card.nation.code", read_only=True)
    points = serializers.IntegerField(source="card.points", read_only=True)

    class Meta:
        model = SetMembership
        fields = [
            "card",
            "name",
            "nation",
            "printed_name",
            "count",
            "points",
            "count_provenance",
            "count_note",
        ]


class CardSetSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="cardset-detail", **LOOKUP)
    nation = serializers.SlugRelatedField(
        slug_field="code", read_only=True, allow_null=True, help_text="Null for a set of no one nation."
    )
    theater = serializers.SlugRelatedField(slug_field="code", read_only=True, allow_null=True)
    computed_cards = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Sum of the entries' counts (unknown counts skipped)."
    )
    computed_points = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Sum of count x points over the entries."
    )
    cards_difference = serializers.SerializerMethodField(help_text="computed_cards - printed_cards.")
    points_difference = serializers.SerializerMethodField(help_text="computed_points - printed_points.")
    unknown_count_entries = serializers.IntegerField(
        read_only=True, help_text="Entries whose count is unknown."
    )
    entries = SetEntrySerializer(source="memberships", many=True, read_only=True)

    class Meta:
        model = CardSet
        fields = [
            "code",
            "url",
            "name",
            "kind",
            "nation",
            "theater",
            "printed_cards",
            "computed_cards",
            "cards_difference",
            "printed_points",
            "computed_points",
            "points_difference",
            "unknown_count_entries",
            "notes",
            "entries",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_cards_difference(self, obj: CardSet) -> int | None:
        if obj.printed_cards is None:
            return None
        return (obj.computed_cards or 0) - obj.printed_cards

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_points_difference(self, obj: CardSet) -> int | None:
        if obj.printed_points is None:
            return None
        return (obj.computed_points or 0) - obj.printed_points


class CardSetCountSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)

    class Meta:
        model = SetMembership
        fields = ["set", "count", "count_provenance"]


class ArsenalCardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="arsenalcard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="arsenalcard-face", help_text="The card drawn as SVG.", **LOOKUP
    )
    rulings_url = serializers.HyperlinkedIdentityField(
        view_name="arsenalcard-rulings", help_text="FAQ and estimated rulings on this card.", **LOOKUP
    )
    nation = serializers.CharField(source="nation.code", read_only=True)
    side = serializers.CharField(source="nation.side", read_only=True)
    classes = serializers.SerializerMethodField()
    effective_max_per_deck = serializers.SerializerMethodField(
        help_text="Copies allowed per deck; generals and leaders are always 1; null: no limit."
    )
    attack = serializers.SerializerMethodField()
    defense = serializers.SerializerMethodField()
    abilities = AbilitiesField(read_only=True)
    variant_of = serializers.CharField(source="variant_of_id", read_only=True, allow_null=True)
    variants = serializers.SlugRelatedField(slug_field="code", many=True, read_only=True)
    sets = CardSetCountSerializer(source="memberships", many=True, read_only=True)
    provenance = ProvenanceField(read_only=True)

    class Meta:
        model = ArsenalCard
        fields = [
            "code",
            "url",
            "face_url",
            "rulings_url",
            "name",
            "nation",
            "side",
            "kind",
            "classes",
            "points",
            "max_per_deck",
            "effective_max_per_deck",
            "attack",
            "defense",
            "phase",
            "abilities",
            "ukrainian",
            "variant_of",
            "variants",
            "sets",
            "estimated",
            "provenance",
        ]

    def get_classes(self, obj: ArsenalCard) -> list[str]:
        return [link.unit_class.code for link in obj.class_links.all()]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_effective_max_per_deck(self, obj: ArsenalCard) -> int | None:
        return arsenal_card_effective_max(obj)

    @extend_schema_field(StatsSerializer)
    def get_attack(self, obj: ArsenalCard) -> dict:
        return {"ground": obj.attack_ground, "air": obj.attack_air, "sea": obj.attack_sea}

    @extend_schema_field(StatsSerializer)
    def get_defense(self, obj: ArsenalCard) -> dict:
        return {"ground": obj.defense_ground, "air": obj.defense_air, "sea": obj.defense_sea}


class ConflictCardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="conflictcard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="conflictcard-face", help_text="The card drawn as SVG.", **LOOKUP
    )
    rulings_url = serializers.HyperlinkedIdentityField(
        view_name="conflictcard-rulings", help_text="FAQ and estimated rulings on this card.", **LOOKUP
    )
    theater = serializers.SlugRelatedField(slug_field="code", read_only=True)
    set = serializers.SlugRelatedField(source="card_set", slug_field="code", read_only=True)
    params = serializers.DictField(read_only=True, help_text="Parameters of the effect, e.g. {draw, deploy}.")
    provenance = ProvenanceField(read_only=True)

    class Meta:
        model = ConflictCard
        fields = [
            "code",
            "url",
            "face_url",
            "rulings_url",
            "name",
            "theater",
            "set",
            "count",
            "category",
            "action_number",
            "effect",
            "params",
            "text",
            "estimated",
            "provenance",
        ]


class PrerequisiteSerializer(serializers.Serializer):
    holder = serializers.CharField(help_text='A nation code, or "allies"/"axis".')
    battlecard = serializers.CharField(source="requires.code")


class BattlecardSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="battlecard-detail", **LOOKUP)
    face_url = serializers.HyperlinkedIdentityField(
        view_name="battlecard-face", help_text="The card drawn as SVG.", **LOOKUP
    )
    rulings_url = serializers.HyperlinkedIdentityField(
        view_name="battlecard-rulings", help_text="FAQ and estimated rulings on this card.", **LOOKUP
    )
    theater = serializers.SlugRelatedField(slug_field="code", read_only=True)
    set = serializers.SlugRelatedField(source="card_set", slug_field="code", read_only=True)
    aggressor_forces = ForcesSerializer(read_only=True)
    defender_forces = ForcesSerializer(read_only=True)
    prerequisites = PrerequisiteSerializer(source="prerequisite_links", many=True, read_only=True)
    homeland_of = serializers.SlugRelatedField(slug_field="code", read_only=True, allow_null=True)
    provenance = ProvenanceField(read_only=True)

    class Meta:
        model = Battlecard
        # the canonical row's keys (code first, provenance last), with the links and the estimated flag
        fields = ["code", "url", "face_url", "rulings_url", *BATTLECARD_KEYS[1:-1], "estimated", "provenance"]
