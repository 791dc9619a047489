"""Reads of The War's cards and starters: the API querysets and the rows in the loader's shape."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Prefetch, QuerySet, Value
from django.db.models.functions import Coalesce

from cards.the_war.models import TheWarCard, TheWarStarter, TheWarStarterEntry


def the_war_card_list() -> QuerySet[TheWarCard]:
    """Every card in file order, annotated with its total cost (`cost_sum`, for filters and ordering)."""
    total = Coalesce(F("cost_depot"), Value(0)) + Coalesce(F("cost_plant"), Value(0))
    total = total + Coalesce(F("cost_fuel"), Value(0))
    return TheWarCard.objects.annotate(cost_sum=total).order_by("position", "code")


def the_war_starter_list() -> QuerySet[TheWarStarter]:
    """Every starter with its entries and their cards: two queries whatever the number."""
    entries = TheWarStarterEntry.objects.select_related("card").order_by("position", "id")
    return TheWarStarter.objects.prefetch_related(Prefetch("entries", queryset=entries)).order_by(
        "position", "code"
    )


def the_war_card_row(card: TheWarCard) -> dict[str, Any]:
    return card.as_dict()


def the_war_starter_row(starter: TheWarStarter) -> dict[str, Any]:
    """A starter in the loader's shape (uses the prefetched entries)."""
    return {
        "code": starter.code,
        "name": starter.name,
        "army": starter.army,
        "entries": [{"card": e.card.code, "count": e.count} for e in starter.entries.all()],
        "provenance": dict(starter.provenance or {}),
    }


def the_war_dicts() -> dict[str, list[dict[str, Any]]]:
    """The cards and starters as the loader's rows, in file order (three queries whatever the size)."""
    return {
        "cards": [the_war_card_row(c) for c in TheWarCard.objects.order_by("position", "code")],
        "starters": [the_war_starter_row(s) for s in the_war_starter_list()],
    }
