"""django-filter FilterSets of the Battlefront card API; an invalid value is a 400, never a 500 or ignored."""

from __future__ import annotations

import django_filters as df
from django.db.models import Q, QuerySet

from cards.filters import StableOrderingFilter
from cards.models import (
    BATTLEFRONT_ABILITY_CHOICES,
    BATTLEFRONT_NATIONALITY_CHOICES,
    BATTLEFRONT_TARGET_TYPE_CHOICES,
    BATTLEFRONT_TYPE_CHOICES,
    BATTLEFRONT_WORDING_CHOICES,
    BattlefrontCard,
    BattlefrontSpecialUse,
)
from config.filters import BoundedNumberFilter, SharedFormFilterSet, StrictBooleanFilter

ABILITY_FILTER_CHOICES = [*BATTLEFRONT_ABILITY_CHOICES, ("none", "no ability")]


class AbilityFilterMixin(SharedFormFilterSet):
    """?ability=, ?extra=, ?negates=, ?wording= on a model whose ability rows are `abilities` (subqueries)."""

    ability = df.MultipleChoiceFilter(
        choices=ABILITY_FILTER_CHOICES,
        method="filter_ability",
        help_text='Ability kind(s): scout, extra, negate, discard_and_draw; "none": no ability. Any of them.',
    )
    extra = df.MultipleChoiceFilter(
        choices=BATTLEFRONT_TARGET_TYPE_CHOICES,
        method="filter_extra",
        help_text="Allows an extra card of this type at its Front (e.g. I: Play an Extra Infantry).",
    )
    negates = df.MultipleChoiceFilter(
        choices=BATTLEFRONT_TARGET_TYPE_CHOICES,
        method="filter_negates",
        help_text="Negates an opposing card of this type (e.g. T: Opposing Tank Negated).",
    )
    wording = df.ChoiceFilter(
        choices=BATTLEFRONT_WORDING_CHOICES,
        method="filter_wording",
        help_text="Negation printed as opposing_negated (Opposing X Negated) or negate_opposing.",
    )

    @staticmethod
    def _owners(model, **lookups) -> QuerySet:
        """Subquery: the pks of `model` rows having an ability that matches `lookups`."""
        relation = model._meta.get_field("abilities")
        return relation.related_model.objects.filter(**lookups).values(relation.field.attname)

    def _with(self, queryset: QuerySet, **lookups) -> QuerySet:
        return queryset.filter(pk__in=self._owners(queryset.model, **lookups))

    def filter_ability(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        kinds = [v for v in value if v != "none"]
        q = Q(pk__in=self._owners(queryset.model, kind__in=kinds)) if kinds else Q(pk__in=[])
        if "none" in value:
            q |= ~Q(pk__in=self._owners(queryset.model))
        return queryset.filter(q)

    def filter_extra(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        return self._with(queryset, kind="extra", card_type__in=value) if value else queryset

    def filter_negates(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        return self._with(queryset, kind="negate", card_type__in=value) if value else queryset

    def filter_wording(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return self._with(queryset, kind="negate", wording=value) if value else queryset


class BattlefrontCardFilter(AbilityFilterMixin):
    type = df.MultipleChoiceFilter(
        field_name="card_type", choices=BATTLEFRONT_TYPE_CHOICES, help_text="Card type letter(s)."
    )
    force = BoundedNumberFilter(help_text="Force exactly.")
    force_min = BoundedNumberFilter(field_name="force", lookup_expr="gte")
    force_max = BoundedNumberFilter(field_name="force", lookup_expr="lte")
    special = StrictBooleanFilter(
        field_name="is_special", help_text="true: only the five optional Special cards; false: the 70."
    )
    name = df.CharFilter(lookup_expr="icontains", help_text="Name contains (any case).")
    notes = df.CharFilter(lookup_expr="icontains", help_text="Printed notes contain (any case).")
    ordering = StableOrderingFilter(
        fields=("code", "name", ("card_type", "type"), "force", "position"),
        help_text="Comma-separated fields, '-' for descending, e.g. -force,name. Default: printed order.",
    )

    class Meta:
        model = BattlefrontCard
        fields: list[str] = []


class BattlefrontSpecialUseFilter(AbilityFilterMixin):
    nationality = df.MultipleChoiceFilter(choices=BATTLEFRONT_NATIONALITY_CHOICES)
    type = df.MultipleChoiceFilter(
        field_name="card_type",
        choices=[*BATTLEFRONT_TARGET_TYPE_CHOICES, ("none", "not played as a card")],
        method="filter_type",
        help_text='The type it is played as; "none": not played as a card.',
    )
    force_min = BoundedNumberFilter(field_name="force", lookup_expr="gte")
    force_max = BoundedNumberFilter(field_name="force", lookup_expr="lte")
    ordering = StableOrderingFilter(
        fields=("code", "name", "nationality", ("card_type", "type"), "force", "position"),
        help_text="Comma-separated fields, '-' for descending. Default: printed order.",
    )

    class Meta:
        model = BattlefrontSpecialUse
        fields: list[str] = []

    def filter_type(self, queryset: QuerySet, name: str, value: list[str]) -> QuerySet:
        if not value:
            return queryset
        return queryset.filter(card_type__in=["" if v == "none" else v for v in value])
