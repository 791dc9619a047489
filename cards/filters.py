"""django-filter FilterSets of the read API. Invalid values make the filterset invalid: a 400, never a 500."""

from __future__ import annotations

import django_filters as df
from django import forms
from django.db import DatabaseError
from django.db.models import Q, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from cards.models import (
    CATEGORY_CHOICES,
    EFFECT_CHOICES,
    KIND_CHOICES,
    SET_KIND_CHOICES,
    SIDE_CHOICES,
    UNIT_CLASS_CHOICES,
    ArsenalCard,
    Battlecard,
    CardSet,
    ConflictCard,
    Nation,
    Theater,
)
from cards.selectors import arsenal_codes_with_ability
from config.filters import (
    MAX_QUERY_NUMBER,
    BoundedNumberFilter,
    OrderingFilter,
    SharedFormFilterSet,
    StrictBooleanFilter,
)
from vocabulary.battlecards import ABILITY_SCHEMA, SINGLE_COPY_CLASSES, SINGLE_COPY_MAX

PROVENANCE_FILTER_CHOICES = [
    ("estimated", "some value is estimated by the project"),
    ("seed", "every value comes from the seed documents"),
]
PHASE_FILTER_CHOICES = [("1", "1"), ("2", "2"), ("3", "3"), ("4", "4"), ("none", "never fires")]
ABILITY_CHOICES = [(k, k) for k in ABILITY_SCHEMA]


class StableOrderingFilter(OrderingFilter):
    """?ordering=points,-name (unknown fields are a 400); ties broken by code so pages never overlap."""

    compiled_kind = "ordering"  # its SQL depends on the value only: config.compiled_filters

    def filter(self, qs, value):
        if value in (None, "", [], ()):
            return qs
        ordering = [self.get_ordering_value(param) for param in value if param]
        if not any(o.lstrip("-") == "code" for o in ordering):
            ordering.append("code")
        return qs.order_by(*ordering)


class MaxPerDeckField(forms.CharField):
    """A positive integer, or "unlimited"."""

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return None
        if value == "unlimited":
            return value
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise forms.ValidationError(
                'Enter a positive whole number or "unlimited".', code="invalid"
            ) from None
        if not 1 <= number <= MAX_QUERY_NUMBER:
            raise forms.ValidationError(
                f'Enter a whole number from 1 to {MAX_QUERY_NUMBER} or "unlimited".', code="invalid"
            )
        return number


class MaxPerDeckFilter(df.Filter):
    field_class = MaxPerDeckField


@extend_schema_field(OpenApiTypes.STR)
class CodeFilter(df.ModelMultipleChoiceFilter):
    """Filter by the code(s) of a related row (?nation=GB&nation=US); an unknown code is a 400."""

    compiled_kind = "multiple"  # ModelMultipleChoiceFilter's SQL (config.compiled_filters)

    def schema_enum(self) -> list[str] | None:
        """The codes the catalog holds now, for the OpenAPI schema (config.schema.FilterExtension); None
        without a database to read (none configured, or none allowed: pytest-django's RuntimeError)."""
        try:
            return sorted(self.queryset.values_list(self.extra["to_field_name"], flat=True))
        except (DatabaseError, RuntimeError):
            return None

    def filter(self, qs, value):
        if isinstance(value, QuerySet) and value.query.is_empty():  # not asked: the form's queryset.none(),
            return qs  # whose truth django-filter would find out by compiling a query for nothing
        return super().filter(qs, value)


def code_filter(relation: str, queryset, help_text: str = "") -> CodeFilter:
    return CodeFilter(
        field_name=f"{relation}__code", queryset=queryset, to_field_name="code", help_text=help_text
    )


class NationFilter(SharedFormFilterSet):
    side = df.ChoiceFilter(choices=SIDE_CHOICES)
    ordering = StableOrderingFilter(fields=("code", "name", "side"))

    class Meta:
        model = Nation
        fields = ["side"]


class TheaterFilter(SharedFormFilterSet):
    ordering = StableOrderingFilter(fields=("code", "name"))

    class Meta:
        model = Theater
        fields: list[str] = []


class CardSetFilter(SharedFormFilterSet):
    kind = df.ChoiceFilter(choices=SET_KIND_CHOICES)
    nation = code_filter("nation", Nation.objects.all())
    side = df.ChoiceFilter(field_name="nation__side", choices=SIDE_CHOICES)
    theater = code_filter("theater", Theater.objects.all())
    ordering = StableOrderingFilter(fields=("code", "name", "kind", "printed_points", "printed_cards"))

    class Meta:
        model = CardSet
        fields = ["kind", "nation", "side", "theater"]


class ArsenalCardFilter(SharedFormFilterSet):
    nation = code_filter("nation", Nation.objects.all(), "Nation code(s), e.g. GB; repeat for several.")
    side = df.ChoiceFilter(field_name="nation__side", choices=SIDE_CHOICES)
    set = code_filter("sets", CardSet.objects.all(), "Set code(s): cards listed in any of them.")
    kind = df.MultipleChoiceFilter(choices=KIND_CHOICES, help_text="Stack the card deploys to.")
    unit_class = df.MultipleChoiceFilter(
        field_name="classes__code",
        choices=UNIT_CLASS_CHOICES,
        help_text="Unit class(es); a card matches if it has any of them.",
    )
    phase = df.MultipleChoiceFilter(
        choices=PHASE_FILTER_CHOICES,
        method="filter_phase",
        help_text='Firing phase 1-4, or "none" for cards that never fire.',
    )
    ability = df.MultipleChoiceFilter(
        choices=ABILITY_CHOICES,
        method="filter_ability",
        help_text="Ability kind(s); a card matches if it has any of them.",
    )
    points_min = BoundedNumberFilter(field_name="points", lookup_expr="gte")
    points_max = BoundedNumberFilter(field_name="points", lookup_expr="lte")
    attack_ground_min = BoundedNumberFilter(field_name="attack_ground", lookup_expr="gte")
    attack_ground_max = BoundedNumberFilter(field_name="attack_ground", lookup_expr="lte")
    attack_air_min = BoundedNumberFilter(field_name="attack_air", lookup_expr="gte")
    attack_air_max = BoundedNumberFilter(field_name="attack_air", lookup_expr="lte")
    attack_sea_min = BoundedNumberFilter(field_name="attack_sea", lookup_expr="gte")
    attack_sea_max = BoundedNumberFilter(field_name="attack_sea", lookup_expr="lte")
    defense_ground_min = BoundedNumberFilter(field_name="defense_ground", lookup_expr="gte")
    defense_ground_max = BoundedNumberFilter(field_name="defense_ground", lookup_expr="lte")
    defense_air_min = BoundedNumberFilter(field_name="defense_air", lookup_expr="gte")
    defense_air_max = BoundedNumberFilter(field_name="defense_air", lookup_expr="lte")
    defense_sea_min = BoundedNumberFilter(field_name="defense_sea", lookup_expr="gte")
    defense_sea_max = BoundedNumberFilter(field_name="defense_sea", lookup_expr="lte")
    max_per_deck = MaxPerDeckFilter(
        method="filter_max_per_deck",
        help_text='Effective copies allowed per deck (generals and leaders are always 1), or "unlimited".',
    )
    provenance = df.ChoiceFilter(choices=PROVENANCE_FILTER_CHOICES, method="filter_provenance")
    ukrainian = StrictBooleanFilter()
    variant_of = df.CharFilter(
        field_name="variant_of__code", help_text="Code of the card this one is a variant of."
    )
    ordering = StableOrderingFilter(
        fields=(
            "code",
            "name",
            "points",
            "kind",
            "phase",
            "max_per_deck",
            ("nation__code", "nation"),
            "attack_ground",
            "attack_air",
            "attack_sea",
            "defense_ground",
            "defense_air",
            "defense_sea",
        ),
        help_text="Comma-separated fields, '-' for descending, e.g. points,-name.",
    )

    class Meta:
        model = ArsenalCard
        fields: list[str] = []

    def filter_phase(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        q = Q(phase__in=[int(v) for v in value if v != "none"])
        if "none" in value:
            q |= Q(phase__isnull=True)
        return queryset.filter(q)

    def filter_ability(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        codes = {code for kind in value for code in arsenal_codes_with_ability(kind)}
        return queryset.filter(code__in=sorted(codes))

    def filter_max_per_deck(self, queryset: QuerySet, name: str, value) -> QuerySet:
        # copies allowed per deck: vocabulary.battlecards.max_copies, as a query
        single = Q(classes__code__in=SINGLE_COPY_CLASSES)
        singles = queryset.filter(single).values("pk")
        if value == "unlimited":
            return queryset.filter(max_per_deck__isnull=True).exclude(pk__in=singles)
        if value == SINGLE_COPY_MAX:
            return queryset.filter(Q(max_per_deck=value) | Q(pk__in=singles))
        return queryset.filter(max_per_deck=value).exclude(pk__in=singles)

    def filter_provenance(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if not value:
            return queryset
        return queryset.filter(estimated=(value == "estimated"))


class ConflictCardFilter(SharedFormFilterSet):
    theater = code_filter("theater", Theater.objects.all())
    set = code_filter("card_set", CardSet.objects.all())
    category = df.MultipleChoiceFilter(choices=CATEGORY_CHOICES)
    effect = df.MultipleChoiceFilter(choices=EFFECT_CHOICES)
    action_number = BoundedNumberFilter()
    provenance = df.ChoiceFilter(choices=PROVENANCE_FILTER_CHOICES, method="filter_provenance")
    ordering = StableOrderingFilter(fields=("code", "name", "count", "category", "action_number", "effect"))

    class Meta:
        model = ConflictCard
        fields: list[str] = []

    def filter_provenance(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(estimated=(value == "estimated")) if value else queryset


class BattlecardFilter(SharedFormFilterSet):
    theater = code_filter("theater", Theater.objects.all())
    set = code_filter("card_set", CardSet.objects.all())
    aggressor = df.CharFilter(help_text='Nation code of the stated aggressor, or "drawing-player".')
    homeland = code_filter("homeland_of", Nation.objects.all(), "Nation code: that nation's homeland battle.")
    is_homeland = StrictBooleanFilter(
        field_name="homeland_of",
        lookup_expr="isnull",
        exclude=True,
        help_text="true: only homeland battles (losing one eliminates the defender).",
    )
    victory_points_min = BoundedNumberFilter(field_name="victory_points", lookup_expr="gte")
    victory_points_max = BoundedNumberFilter(field_name="victory_points", lookup_expr="lte")
    emergency_deployment = StrictBooleanFilter()
    provenance = df.ChoiceFilter(choices=PROVENANCE_FILTER_CHOICES, method="filter_provenance")
    ordering = StableOrderingFilter(fields=("code", "name", "action_number", "victory_points", "aggressor"))

    class Meta:
        model = Battlecard
        fields: list[str] = []

    def filter_provenance(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(estimated=(value == "estimated")) if value else queryset


# "class" is a Python keyword: expose the unit-class filter under the query parameter name `class`.
ArsenalCardFilter.base_filters["class"] = ArsenalCardFilter.base_filters.pop("unit_class")
