"""Query filters of the games list (django-filter)."""

from __future__ import annotations

import django_filters

from games.game_type_fields import GameIdFilter
from games.models import SIDE_SEATS, EndReason, Game, GameStatus


class GameFilter(django_filters.FilterSet):
    game_type = GameIdFilter()
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    winner = django_filters.ChoiceFilter(choices=[(s.value, s.label) for s in SIDE_SEATS])
    end_reason = django_filters.ChoiceFilter(choices=EndReason.choices)
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = Game
        fields = ["game_type", "status", "winner", "end_reason"]
