"""django-filter FilterSet of The War's card API; an invalid value is a 400, never a 500 or ignored."""

from __future__ import annotations

import django_filters as df
from django.db.models import Q, QuerySet

from cards.filters import StableOrderingFilter
from cards.the_war.models import (
    RESOURCES,
    THE_WAR_ARMY_CHOICES,
    THE_WAR_CATEGORY_CHOICES,
    THE_WAR_HERO_MODE_CHOICES,
    THE_WAR_LINE_CHOICES,
    THE_WAR_RARITY_CHOICES,
    THE_WAR_RESOURCE_KIND_CHOICES,
    THE_WAR_SUBTYPE_CHOICES,
    THE_WAR_UNIT_TYPE_CHOICES,
    TheWarCard,
    TheWarStarter,
)
from config.filters import SharedFormFilterSet, StrictBooleanFilter
from vocabulary.the_war import AbilityKind, Feature, Restriction

RESOURCE_CHOICES = [(r, r) for r in RESOURCES]


def _json_any(field: str, values: list[str]) -> Q:
    """Rows whose JSON list `field` holds any of `values` (jsonb containment)."""
    q = Q(pk__in=[])
    for value in values:
        q |= Q(**{f"{field}__contains": [value]})
    return q


class TheWarCardFilter(SharedFormFilterSet):
    category = df.MultipleChoiceFilter(choices=THE_WAR_CATEGORY_CHOICES, help_text="Card category(ies).")
    army = df.MultipleChoiceFilter(
        choices=[*THE_WAR_ARMY_CHOICES, ("none", "no army")],
        method="filter_army",
        help_text='red-army, wehrmacht; "none": cards of no army (basic resources, locations, ...).',
    )
    unit_type = df.MultipleChoiceFilter(choices=THE_WAR_UNIT_TYPE_CHOICES)
    subtype = df.MultipleChoiceFilter(choices=THE_WAR_SUBTYPE_CHOICES)
    line = df.TypedChoiceFilter(choices=THE_WAR_LINE_CHOICES, coerce=int, help_text="1 or 2.")
    rarity = df.ChoiceFilter(choices=THE_WAR_RARITY_CHOICES)
    resource_kind = df.ChoiceFilter(choices=THE_WAR_RESOURCE_KIND_CHOICES)
    hero_mode = df.ChoiceFilter(choices=THE_WAR_HERO_MODE_CHOICES)
    feature = df.MultipleChoiceFilter(
        choices=[(f.value, f.value) for f in Feature], method="filter_feature", help_text="Any of them."
    )
    restriction = df.MultipleChoiceFilter(
        choices=[(r.value, r.value) for r in Restriction], method="filter_restriction"
    )
    ability = df.MultipleChoiceFilter(
        choices=[*((a.value, a.value) for a in AbilityKind), ("none", "no ability")],
        method="filter_ability",
        help_text='Ability kind(s); "none": no ability.',
    )
    resource = df.MultipleChoiceFilter(
        choices=RESOURCE_CHOICES, method="filter_resource", help_text="Its cost includes this resource."
    )
    resource_cards_only = StrictBooleanFilter(
        method="filter_resource_cards_only",
        help_text='true: part of its cost "must be obtained only from resource cards".',
    )
    attack = df.NumberFilter()
    attack_min = df.NumberFilter(field_name="attack", lookup_expr="gte")
    attack_max = df.NumberFilter(field_name="attack", lookup_expr="lte")
    defense = df.NumberFilter()
    defense_min = df.NumberFilter(field_name="defense", lookup_expr="gte")
    defense_max = df.NumberFilter(field_name="defense", lookup_expr="lte")
    aa = StrictBooleanFilter(
        field_name="aa_attack", lookup_expr="isnull", exclude=True, help_text="true: has an AA attack."
    )
    cost = df.NumberFilter(field_name="cost_sum", help_text="Total cost (all resources) exactly.")
    cost_min = df.NumberFilter(field_name="cost_sum", lookup_expr="gte")
    cost_max = df.NumberFilter(field_name="cost_sum", lookup_expr="lte")
    location = StrictBooleanFilter()
    seed = StrictBooleanFilter(
        method="filter_seed",
        help_text="true: prints at least one value in the rulebook; false: all estimated.",
    )
    title = df.CharFilter(lookup_expr="icontains", help_text="Title contains (any case).")
    text = df.CharFilter(lookup_expr="icontains", help_text="A text line contains (any case).")
    ordering = StableOrderingFilter(
        fields=(
            "code",
            "title",
            "category",
            "army",
            "unit_type",
            "subtype",
            "line",
            "attack",
            "defense",
            ("cost_sum", "cost"),
            "seed_values",
            "position",
        ),
        help_text="Comma-separated fields, '-' for descending, e.g. -attack,title. Default: file order.",
    )

    class Meta:
        model = TheWarCard
        fields: list[str] = []

    def filter_army(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        return queryset.filter(army__in=["" if v == "none" else v for v in value])

    def filter_feature(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        return queryset.filter(_json_any("features", value)) if value else queryset

    def filter_restriction(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        return queryset.filter(_json_any("restrictions", value)) if value else queryset

    def filter_ability(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        q = Q(pk__in=[])
        for kind in value:
            q |= Q(abilities=[]) if kind == "none" else Q(abilities__contains=[{"kind": kind}])
        return queryset.filter(q)

    def filter_resource(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        q = Q(pk__in=[])
        for resource in value:
            q |= Q(**{f"cost_{resource}__isnull": False})
        return queryset.filter(q)

    def filter_resource_cards_only(self, queryset: QuerySet, name: str, value: bool | None) -> QuerySet:
        if value is None:
            return queryset
        q = Q(pk__in=[])
        for resource in RESOURCES:
            q |= Q(**{f"cost_{resource}_resource_cards_only": True})
        return queryset.filter(q if value else ~q)

    def filter_seed(self, queryset: QuerySet, name: str, value: bool | None) -> QuerySet:
        if value is None:
            return queryset
        return queryset.filter(seed_values__gt=0) if value else queryset.filter(seed_values=0)


class TheWarStarterFilter(SharedFormFilterSet):
    army = df.MultipleChoiceFilter(choices=THE_WAR_ARMY_CHOICES)
    ordering = StableOrderingFilter(fields=("code", "name", "army", "position"))

    class Meta:
        model = TheWarStarter
        fields: list[str] = []
