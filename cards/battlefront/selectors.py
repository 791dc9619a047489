"""Reads of the Battlefront cards: the API querysets and the rows in the fixture shape (for the loader)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.db.models.functions import Lower

from cards.models import (
    BattlefrontCard,
    BattlefrontCardAbility,
    BattlefrontSpecialUse,
    BattlefrontSpecialUseAbility,
)


def _abilities(model) -> Prefetch:
    return Prefetch("abilities", queryset=model.objects.order_by("position", "id"))


def battlefront_card_list() -> QuerySet[BattlefrontCard]:
    """Every card with its abilities: two queries whatever the page size."""
    return BattlefrontCard.objects.prefetch_related(_abilities(BattlefrontCardAbility)).order_by(
        "position", "code"
    )


def battlefront_special_use_list() -> QuerySet[BattlefrontSpecialUse]:
    return BattlefrontSpecialUse.objects.prefetch_related(_abilities(BattlefrontSpecialUseAbility)).order_by(
        "position", "code"
    )


def battlefront_card_dict(card: BattlefrontCard) -> dict[str, Any]:
    """A card in the shape of fixtures/battlefront/cards.json (uses the prefetched abilities)."""
    row: dict[str, Any] = {
        "code": card.code,
        "name": card.name,
        "type": card.card_type,
        "force": card.force,
        "notes": card.notes,
        "abilities": [a.as_dict() for a in card.abilities.all()],
    }
    if card.is_special or card.optional_rule:
        row["optional_rule"] = card.optional_rule
    return row


def battlefront_special_use_dict(use: BattlefrontSpecialUse) -> dict[str, Any]:
    return {
        "code": use.code,
        "nationality": use.nationality,
        "nationality_name": use.get_nationality_display(),
        "name": use.name,
        "type": use.card_type or None,
        "force": use.force,
        "abilities": [a.as_dict() for a in use.abilities.all()],
        "text": use.text,
    }


def battlefront_dicts() -> dict[str, list[dict[str, Any]]]:
    """The rows as the fixture's "cards", "special_cards" and "special_uses" lists, in printed order.

    Four queries whatever the number of rows.
    """
    cards = list(battlefront_card_list())
    return {
        "cards": [battlefront_card_dict(c) for c in cards if not c.is_special],
        "special_cards": [battlefront_card_dict(c) for c in cards if c.is_special],
        "special_uses": [battlefront_special_use_dict(u) for u in battlefront_special_use_list()],
    }


def battlefront_card_names(codes) -> dict[str, str]:
    """{code: name} of those of `codes` that are Battlefront cards (one query; none when `codes` is empty)."""
    codes = sorted(set(codes))
    if not codes:
        return {}
    return dict(BattlefrontCard.objects.filter(code__in=codes).order_by("code").values_list("code", "name"))


def battlefront_cards_named(names) -> dict[str, tuple[str, str]]:
    """{lowercased name or code: (code, name)} of the Battlefront cards that `names` give by code or by name
    (any case); one query, none when `names` is empty."""
    keys = sorted({str(n).strip().lower() for n in names} - {""})
    if not keys:
        return {}
    found: dict[str, tuple[str, str]] = {}
    rows = BattlefrontCard.objects.annotate(lower_name=Lower("name")).filter(
        Q(code__in=keys) | Q(lower_name__in=keys)
    )
    for code, name, lower_name in rows.values_list("code", "name", "lower_name"):
        found[code] = found[lower_name] = (code, name)
    return found
