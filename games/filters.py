"""Query filters of the games list (django-filter)."""

from __future__ import annotations

import django_filters

from games.models import EndReason, Game, GameStatus, SeatName


class GameFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    winner = django_filters.ChoiceFilter(choices=SeatName.choices)
    end_reason = django_filters.ChoiceFilter(choices=EndReason.choices)
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = Game
        fields = ["status", "winner", "end_reason"]
