"""django-filter FilterSets of Tide of Iron's Strategy card API; an invalid value is a 400."""

from __future__ import annotations

import django_filters as df
from django.db.models import Q, QuerySet

from cards.tide_of_iron.models import TOI_PHASE_CHOICES, ToiCard
from config.filters import StrictBooleanFilter
from vocabulary.tide_of_iron import Keyword


class ToiCardFilter(df.FilterSet):
    deck = df.CharFilter(field_name="deck__code", help_text="A deck code (toi-artillery-i).")
    phase = df.ChoiceFilter(choices=TOI_PHASE_CHOICES)
    keyword = df.MultipleChoiceFilter(
        choices=[(k.value, k.value) for k in Keyword], method="filter_keyword", help_text="Any of them."
    )
    cost = df.NumberFilter()
    cost_max = df.NumberFilter(field_name="cost", lookup_expr="lte")
    play_area = StrictBooleanFilter()
    suppressive = StrictBooleanFilter()

    class Meta:
        model = ToiCard
        fields: list[str] = []

    def filter_keyword(self, queryset: QuerySet, name: str, values: list[str]) -> QuerySet:
        q = Q(pk__in=[])
        for value in values:
            q |= Q(keywords__contains=[{"keyword": value}])
        return queryset.filter(q) if values else queryset
