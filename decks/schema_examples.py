"""Example answers and inputs of the deck API's OpenAPI declarations (decks.schema): a deck, its validation,
a version and a starter, as the API answers them."""

from __future__ import annotations

ENTRIES_EXAMPLE = [{"card": "de-tiger-i", "count": 3}, {"card": "de-infantry", "count": 6}]

DECK_EXAMPLE = {
    "id": 12,
    "name": "Heavy armour",
    "game": "battlecards",
    "nation": "DE",
    "description": "",
    "is_public": False,
    "owner": "erwin",
    "version": 3,
    "created_at": "2026-01-02T10:00:00Z",
    "updated_at": "2026-01-02T11:00:00Z",
    "entries": [
        {
            "card": "de-tiger-i",
            "count": 3,
            "name": "Tiger I Tank",
            "nation": "DE",
            "kind": "ground",
            "points": 11,
        }
    ],
    "totals": {
        "cards": 3,
        "points": 33,
        "points_before_discount": 33,
        "ukrainian_cards": 0,
        "ukrainian_discount": 0,
    },
    "is_valid": False,
    "official": None,
}

VALIDATION_EXAMPLE = {
    "game": "battlecards",
    "nation": "GB",
    "is_valid": False,
    "totals": {
        "cards": 39,
        "points": 401,
        "points_before_discount": 401,
        "ukrainian_cards": 0,
        "ukrainian_discount": 0,
    },
    "official": None,
    "violations": [
        {
            "code": "too_few_cards",
            "message": "A customized deck must have at least 40 cards; this one has 39.",
            "card": None,
            "limit": 40,
            "actual": 39,
            "deck": None,
            "pack": None,
        },
        {
            "code": "wrong_side",
            "message": "Me-262 Jet Fighter (DE, axis) fights for the other side: a British "
            "deck may only hold British units (no Me-262 in the RAF).",
            "card": "de-me-262",
            "limit": 0,
            "actual": 1,
            "deck": None,
            "pack": None,
        },
    ],
}

VERSION_EXAMPLE = {
    "number": 3,
    "name": "Heavy armour",
    "nation": "DE",
    "description": "",
    "is_public": False,
    "created_at": "2026-01-02T11:00:00Z",
    "cards": 3,
    "entries": DECK_EXAMPLE["entries"],
}

STARTER_EXAMPLE = {
    "code": "gb-we-starter",
    "name": "British starter deck (Western Europe)",
    "game": "battlecards",
    "nation": "GB",
    "theater": "WE",
    "printed_cards": 47,
    "printed_points": 502,
    "totals": {
        "cards": 47,
        "points": 502,
        "points_before_discount": 502,
        "ukrainian_cards": 0,
        "ukrainian_discount": 0,
    },
    "is_valid": True,
    "entries": [
        {
            "card": "gb-infantry",
            "count": 6,
            "name": "British Infantry",
            "nation": "GB",
            "kind": "ground",
            "points": 4,
        }
    ],
}
