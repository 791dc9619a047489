"""Reads of Tide of Iron's Strategy cards, decks and scenarios: the API querysets and the loader's rows."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiDeckEntry, ToiScenario


def toi_card_list() -> QuerySet[ToiCard]:
    """Every card in file order with its deck (one query)."""
    return ToiCard.objects.select_related("deck").order_by("position", "code")


def toi_deck_list() -> QuerySet[ToiDeck]:
    """Every deck with its entries and their cards: two queries whatever the number."""
    entries = ToiDeckEntry.objects.select_related("card").order_by("position", "id")
    return ToiDeck.objects.prefetch_related(Prefetch("entries", queryset=entries)).order_by(
        "position", "code"
    )


def toi_scenario_list() -> QuerySet[ToiScenario]:
    return ToiScenario.objects.order_by("position", "code")


def toi_deck_row(deck: ToiDeck) -> dict[str, Any]:
    return {
        "code": deck.code,
        "title": deck.title,
        "entries": [{"card": e.card.code, "count": e.count} for e in deck.entries.all()],
        "provenance": dict(deck.provenance or {}),
    }


def toi_scenario_row(scenario: ToiScenario) -> dict[str, Any]:
    return {
        "code": scenario.code,
        "title": scenario.title,
        "seats": dict(scenario.seats or {}),
        "provenance": dict(scenario.provenance or {}),
    }


def toi_dicts() -> dict[str, list[dict[str, Any]]]:
    """The cards, decks and scenarios as the loader's rows, in file order."""
    return {
        "toi_decks": [toi_deck_row(d) for d in toi_deck_list()],
        "toi_cards": [c.as_dict() for c in toi_card_list()],
        "toi_scenarios": [toi_scenario_row(s) for s in toi_scenario_list()],
    }
