"""Input validation and output shapes of the deck API. No business logic: a deck's legality is its game's
deck rules (decks.rules, decks.rules_the_war), read by decks.selectors; the output serializers render it.

Entry lists are `[{"card": code, "count": n}, ...]`; they become `{code: count}` after validation. Input
shape errors get specific machine codes (too_many_entries, duplicate_entry, invalid_count); wrong types are
the generic `invalid` with per-field `errors`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api_input import validated_input
from config.errors import ValidationFailed
from decks import rules
from decks.models import MAX_ENTRY_COUNT, Deck, DeckVersion, Game
from decks.rule_results import DeckValidation
from decks.services import MAX_ENTRIES
from games.game_type_fields import GameIdField, deck_game_choices

# ---------------------------------------------------------------------------------------------- input


CODE_MAX_LENGTH = 64
NATION_MAX_LENGTH = 16
COUNT_SCHEMA = {"type": "integer", "minimum": 1, "maximum": MAX_ENTRY_COUNT}


@extend_schema_field(COUNT_SCHEMA)
class EntryCountField(serializers.IntegerField):
    """An entry's count: the schema declares 1..MAX_ENTRY_COUNT; EntriesField refuses others."""


class EntryInputSerializer(serializers.Serializer):
    card = serializers.CharField(max_length=CODE_MAX_LENGTH, help_text="Arsenal card code")
    count = EntryCountField(help_text=f"1 to {MAX_ENTRY_COUNT}")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # a partial update (PATCH) makes DRF skip missing fields of nested serializers too; an entry is
        # always whole, so both fields stay required there
        missing = {name: ["This field is required."] for name in ("card", "count") if name not in attrs}
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class NotPlain(Exception):
    """An input that the plain fast path leaves to the serializer."""


def plain_text(value: Any, max_length: int) -> bool:
    """Would DRF's CharField(max_length) keep `value` exactly as it is (a printable str, no surrounding space,
    1..max_length characters)?"""
    if type(value) is not str:
        return False
    return 0 < len(value) <= max_length and value.isprintable() and value == value.strip()


def plain_entries(data: Any) -> list[dict[str, Any]] | None:
    """The items of a non-empty list of plain entries, each `{"card": code, "count": int}` whose code DRF's
    CharField would keep as it is (printable, no surrounding space, 1..CODE_MAX_LENGTH characters) and whose
    count is an int: exactly what EntryInputSerializer would return for them, without its per-field machinery
    (most of a deck check's time, issue 42). None when any item is otherwise: then the serializer runs."""
    if type(data) is not list or not data:
        return None
    items = []
    for item in data:
        if type(item) is not dict:
            return None
        card, count = item.get("card"), item.get("count")
        if type(count) is not int or not plain_text(card, CODE_MAX_LENGTH):
            return None
        items.append({"card": card, "count": count})
    return items


class EntriesField(serializers.ListField):
    """A list of {card, count} validated into {code: count}: at most 500 entries, no card twice."""

    child = EntryInputSerializer()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text",
            f"[{{card, count}}] (or {{code: count}}), at most {MAX_ENTRIES} entries, each card once",
        )
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        return entries_checked(data, super().to_internal_value)


def entries_checked(data: Any, items_of: Callable[[Any], list[dict[str, Any]]] | None) -> dict[str, int]:
    """EntriesField's validation: `{code: count}` from a list of entries (or the shorthand object). Plain
    entries skip DRF's per-item checks; others go through `items_of` (the ListField's, for DRF's error
    messages), or raise NotPlain when it is None."""
    if isinstance(data, dict):  # the {code: count} shorthand
        data = [{"card": code, "count": count} for code, count in data.items()]
    if isinstance(data, list) and len(data) > MAX_ENTRIES:
        raise ValidationFailed(
            f"A deck may have at most {MAX_ENTRIES} entries; got {len(data)}.",
            code="too_many_entries",
            limit=MAX_ENTRIES,
            actual=len(data),
        )
    items = plain_entries(data)
    if items is None:  # anything unusual: DRF's own checks, for their error messages
        if items_of is None:
            raise NotPlain
        items = items_of(data)
    entries: dict[str, int] = {}
    duplicates: list[str] = []
    bad_counts: list[dict[str, Any]] = []
    for item in items:
        code, count = item["card"], item["count"]
        if code in entries:
            duplicates.append(code)
        if not 1 <= count <= MAX_ENTRY_COUNT:
            bad_counts.append({"card": code, "count": count})
        entries[code] = count
    if duplicates:
        raise ValidationFailed(
            f"Each card may appear once; repeated: {', '.join(sorted(set(duplicates)))}.",
            code="duplicate_entry",
            cards=sorted(set(duplicates)),
        )
    if bad_counts:
        raise ValidationFailed(
            f"Counts must be between 1 and {MAX_ENTRY_COUNT}.", code="invalid_count", entries=bad_counts
        )
    return entries


class EntriesFieldSchema(OpenApiSerializerFieldExtension):
    """EntriesField in the schema: the list of {card, count}, or the shorthand object {code: count}."""

    target_class = EntriesField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        entry = auto_schema.resolve_serializer(EntryInputSerializer, direction)
        return {
            "oneOf": [
                {"type": "array", "items": entry.ref, "maxItems": MAX_ENTRIES},
                {
                    "type": "object",
                    "additionalProperties": COUNT_SCHEMA,
                    "maxProperties": MAX_ENTRIES,
                    "description": "The shorthand {card code: count}.",
                },
            ],
            "description": self.target.help_text or "",
        }


GAME_HELP = (
    "The deck's game (fixed at creation): battlecards (default) or the-war (the old id the_war is read too)"
)
NATION_HELP = "Battlecards: a nation code, e.g. GB. The War: the deck's army, red-army or wehrmacht"


class DeckCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    game = GameIdField(choices=deck_game_choices, default=Game.BATTLECARDS, help_text=GAME_HELP)
    nation = serializers.CharField(max_length=16, help_text=NATION_HELP)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(required=False, default=False)
    entries = EntriesField(required=False, default=list)


class DeckUpdateInputSerializer(serializers.Serializer):
    """PUT and PATCH: any subset of the fields; `entries`, when given, replaces every entry."""

    name = serializers.CharField(max_length=120, required=False)
    nation = serializers.CharField(max_length=16, required=False, help_text=NATION_HELP)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    is_public = serializers.BooleanField(required=False)
    entries = EntriesField(required=False)
    version = serializers.IntegerField(
        required=False, min_value=1, help_text="Optimistic lock: the version you edited (409 if stale)"
    )


class EntriesReplaceInputSerializer(serializers.Serializer):
    entries = EntriesField()
    version = serializers.IntegerField(
        required=False, min_value=1, help_text="Optimistic lock (409 if stale)"
    )


class DeckValidateInputSerializer(serializers.Serializer):
    game = GameIdField(choices=deck_game_choices, default=Game.BATTLECARDS, help_text=GAME_HELP)
    nation = serializers.CharField(max_length=NATION_MAX_LENGTH, help_text=NATION_HELP)
    entries = EntriesField()


def deck_validate_input(data: Any) -> dict[str, Any]:
    """DeckValidateInputSerializer's validated data. The usual body (a plain nation code and plain entries,
    the game absent or a deck game's id, nothing else) is checked without building the serializer, which
    cost more than the deck's rules (issue 42); any other body goes through it, for its error messages."""
    if type(data) is dict and "entries" in data and data.keys() <= {"game", "nation", "entries"}:
        game, nation = data.get("game", Game.BATTLECARDS), data.get("nation")
        if plain_text(nation, NATION_MAX_LENGTH) and any(game == name for name, _ in deck_game_choices()):
            try:
                return {"game": game, "nation": nation, "entries": entries_checked(data["entries"], None)}
            except NotPlain:
                pass
    return validated_input(DeckValidateInputSerializer, data)


class DeckRefInputSerializer(serializers.Serializer):
    deck_id = serializers.IntegerField(required=False, min_value=1, help_text="A saved deck you may read")
    starter = serializers.CharField(required=False, max_length=64, help_text="An official starter set code")
    nation = serializers.CharField(required=False, max_length=16, help_text="Inline deck: its nation")
    entries = EntriesField(required=False, help_text="Inline deck: its entries")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        forms = [k for k in ("deck_id", "starter", "nation") if attrs.get(k) is not None]
        if len(forms) != 1:
            raise ValidationFailed(
                'A deck is exactly one of {"deck_id": id}, {"starter": code} or '
                '{"nation": code, "entries": [..]}.',
                code="invalid_deck_ref",
            )
        return attrs


class ConflictChoiceInputSerializer(serializers.Serializer):
    theater = serializers.CharField(
        required=False, max_length=16, help_text="Default: the decks' shared theater"
    )
    mode = serializers.ChoiceField(
        choices=[m.value for m in rules.ConflictMode], default=rules.ConflictMode.THIN
    )
    packs = serializers.ListField(
        child=serializers.CharField(max_length=64),
        required=False,
        default=list,
        max_length=100,
        help_text="Expansion pack set codes (mode 'packs'): each pack's conflict cards are all used",
    )


class MatchupInputSerializer(serializers.Serializer):
    a = DeckRefInputSerializer()
    b = DeckRefInputSerializer()
    conflict = ConflictChoiceInputSerializer(required=False)


class StarterCloneInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    is_public = serializers.BooleanField(required=False, default=False)


class DeckImportInputSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=120, required=False, help_text="Default: the text's '# name: ...' header line"
    )
    game = GameIdField(
        choices=deck_game_choices,
        required=False,
        help_text="Default: the text's '# game: ...' header line, else battlecards",
    )
    nation = serializers.CharField(
        max_length=16,
        required=False,
        help_text="Default: the text's '# nation: XX' header line (The War: the army, '# army: ...')",
    )
    text = serializers.CharField(
        trim_whitespace=False, help_text="One card per line, e.g. '3 Tiger I Tank' (64 KB)"
    )
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(required=False, default=False)


class StarterListQuerySerializer(serializers.Serializer):
    game = GameIdField(
        choices=deck_game_choices,
        required=False,
        help_text="Only the starters of this game (default: every game)",
    )


class DeckListQuerySerializer(serializers.Serializer):
    public = serializers.BooleanField(
        required=False, default=False, help_text="Every public deck, others' too"
    )
    mine = serializers.BooleanField(required=False, default=False, help_text="Only my own decks")


MAX_VERSION_NUMBER = 2**31 - 1  # the largest version any database stores; bigger is a 400 everywhere


class VersionDiffQuerySerializer(serializers.Serializer):
    from_ = serializers.IntegerField(min_value=1, max_value=MAX_VERSION_NUMBER)
    to = serializers.IntegerField(min_value=1, max_value=MAX_VERSION_NUMBER)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        data = {"from_": data.get("from"), "to": data.get("to")}
        return super().to_internal_value(data)


# ---------------------------------------------------------------------------------------------- output


class EntryOutputSerializer(serializers.Serializer):
    card = serializers.CharField()
    count = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    nation = serializers.CharField(allow_null=True)
    kind = serializers.CharField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)


class TotalsSerializer(serializers.Serializer):
    """A deck's totals: cards (every game); points and the Ukrainian discount (Battlecards only)."""

    cards = serializers.IntegerField()
    points = serializers.IntegerField(required=False, help_text="Battlecards only")
    points_before_discount = serializers.IntegerField(required=False, help_text="Battlecards only")
    ukrainian_cards = serializers.IntegerField(required=False, help_text="Battlecards only")
    ukrainian_discount = serializers.IntegerField(required=False, help_text="Battlecards only")


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    limit = serializers.IntegerField(allow_null=True)
    actual = serializers.IntegerField(allow_null=True)
    deck = serializers.CharField(allow_null=True)
    pack = serializers.CharField(allow_null=True)


class OfficialSerializer(serializers.Serializer):
    starter = serializers.CharField()
    copies = serializers.IntegerField()
    packs = serializers.ListField(child=serializers.CharField())


class ValidationOutputSerializer(serializers.Serializer):
    game = GameIdField(choices=deck_game_choices)
    nation = serializers.CharField(help_text="The War: the army")
    army = serializers.CharField(required=False, help_text="The War only: the deck's army")
    is_valid = serializers.BooleanField()
    totals = TotalsSerializer()
    official = OfficialSerializer(allow_null=True)
    violations = ViolationSerializer(many=True)


class DeckOutputSerializer(serializers.ModelSerializer):
    """A deck with its entries, totals and legality."""

    # renders what decks.selectors.deck_readings read and validated: context["readings"] = {deck id: reading}

    owner = serializers.CharField(source="owner.username", read_only=True)
    entries = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    is_valid = serializers.SerializerMethodField()
    official = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = (
            "id",
            "name",
            "game",
            "nation",
            "description",
            "is_public",
            "owner",
            "version",
            "created_at",
            "updated_at",
            "entries",
            "totals",
            "is_valid",
            "official",
        )
        read_only_fields = fields

    def _validation(self, deck: Deck) -> DeckValidation:
        return self.context["readings"][deck.pk].validation

    @extend_schema_field(EntryOutputSerializer(many=True))
    def get_entries(self, deck: Deck) -> list[dict[str, Any]]:
        return self.context["readings"][deck.pk].entries

    @extend_schema_field(TotalsSerializer)
    def get_totals(self, deck: Deck) -> dict[str, int]:
        return self._validation(deck).totals.to_dict()

    def get_is_valid(self, deck: Deck) -> bool:
        return self._validation(deck).is_valid

    @extend_schema_field(OfficialSerializer(allow_null=True))
    def get_official(self, deck: Deck) -> dict[str, Any] | None:
        official = self._validation(deck).official
        return official.to_dict() if official else None


class DeckVersionOutputSerializer(serializers.ModelSerializer):
    # renders context["entry_rows"] = {version number: its entries with their cards}
    # (decks.selectors.deck_version_entry_rows)
    entries = serializers.SerializerMethodField()
    cards = serializers.SerializerMethodField()

    class Meta:
        model = DeckVersion
        fields = ("number", "name", "nation", "description", "is_public", "created_at", "cards", "entries")
        read_only_fields = fields

    @extend_schema_field(EntryOutputSerializer(many=True))
    def get_entries(self, version: DeckVersion) -> list[dict[str, Any]]:
        return self.context["entry_rows"][version.number]

    def get_cards(self, version: DeckVersion) -> int:
        return sum(version.entries.values())


class DiffEntrySerializer(serializers.Serializer):
    card = serializers.CharField()
    count = serializers.IntegerField()


class DiffChangeSerializer(serializers.Serializer):
    card = serializers.CharField()
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()
    delta = serializers.IntegerField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class VersionDiffOutputSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()
    added = DiffEntrySerializer(many=True)
    removed = DiffEntrySerializer(many=True)
    changed = DiffChangeSerializer(many=True)
    counts = serializers.DictField(child=serializers.IntegerField())
    cards = serializers.DictField(child=serializers.IntegerField())
    fields = serializers.DictField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class StarterOutputSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    game = GameIdField(choices=deck_game_choices)
    nation = serializers.CharField(help_text="The War: the starter's army")
    theater = serializers.CharField(allow_null=True)
    printed_cards = serializers.IntegerField(allow_null=True)
    printed_points = serializers.IntegerField(allow_null=True)
    totals = TotalsSerializer()
    is_valid = serializers.BooleanField()
    entries = EntryOutputSerializer(many=True)


class BucketSerializer(serializers.Serializer):
    cards = serializers.IntegerField()
    points = serializers.IntegerField()


class CostBucketSerializer(BucketSerializer):
    cost = serializers.IntegerField()


class StatsOutputSerializer(serializers.Serializer):
    """A Battlecards deck's stats."""

    game = GameIdField(choices=deck_game_choices)
    totals = TotalsSerializer()
    by_kind = serializers.DictField(child=BucketSerializer())
    by_class = serializers.DictField(child=BucketSerializer())
    by_phase = serializers.DictField(child=BucketSerializer())
    by_cost = CostBucketSerializer(many=True)


class ResourceCostSerializer(serializers.Serializer):
    cost = serializers.IntegerField(help_text="Amount of this resource a card costs")
    cards = serializers.IntegerField()


class TheWarTotalsSerializer(serializers.Serializer):
    cards = serializers.IntegerField()


class TheWarStatsOutputSerializer(serializers.Serializer):
    """A The War deck's stats: cards per category, unit type, subtype and line; the resource curve per
    resource type (non-resource cards by their cost in it) and the resource cards by what they yield."""

    game = GameIdField(choices=deck_game_choices)
    totals = TheWarTotalsSerializer()
    by_category = serializers.DictField(child=serializers.IntegerField())
    by_unit_type = serializers.DictField(child=serializers.IntegerField())
    by_subtype = serializers.DictField(child=serializers.IntegerField())
    by_line = serializers.DictField(child=serializers.IntegerField())
    resource_curve = serializers.DictField(child=ResourceCostSerializer(many=True))
    resource_cards = serializers.DictField(child=serializers.IntegerField())


class DeckSourceSerializer(serializers.Serializer):
    deck_id = serializers.IntegerField(required=False)
    starter = serializers.CharField(required=False)
    name = serializers.CharField(required=False)
    inline = serializers.BooleanField(required=False)


class MatchupDeckSerializer(ValidationOutputSerializer):
    source = DeckSourceSerializer()


class ConflictOutputSerializer(serializers.Serializer):
    theater = serializers.CharField()
    mode = serializers.CharField()
    packs = serializers.ListField(child=serializers.CharField())


class ConflictDeckSerializer(serializers.Serializer):
    cards = serializers.IntegerField()
    codes = serializers.ListField(child=serializers.CharField())


class MatchupOutputSerializer(serializers.Serializer):
    is_legal = serializers.BooleanField()
    differences = serializers.DictField(child=serializers.IntegerField())
    balance_exempt = serializers.BooleanField()
    packs_used_whole = serializers.ListField(child=serializers.CharField())
    deck_a = MatchupDeckSerializer()
    deck_b = MatchupDeckSerializer()
    conflict = ConflictOutputSerializer()
    conflict_deck = ConflictDeckSerializer()
    violations = ViolationSerializer(many=True)


class ImportLineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    text = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()
    suggestions = serializers.ListField(child=serializers.CharField())
