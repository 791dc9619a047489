"""django-filter FilterSet of the deck list (invalid values are a 400 in the common error shape)."""

from __future__ import annotations

import django_filters

from config.filters import OrderingFilter, StrictBooleanFilter
from decks.models import Deck
from games.game_type_fields import GameIdFilter, deck_game_choices


class DeckFilter(django_filters.FilterSet):
    game = GameIdFilter(field_name="game", choices=deck_game_choices)
    nation = django_filters.CharFilter(field_name="nation", lookup_expr="iexact")
    is_public = StrictBooleanFilter(field_name="is_public")
    search = django_filters.CharFilter(field_name="name", lookup_expr="icontains")
    ordering = OrderingFilter(fields=("name", "updated_at", "created_at"))

    class Meta:
        model = Deck
        fields = ("game", "nation", "is_public")
