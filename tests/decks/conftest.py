"""Fixtures of the deck tests: players with token clients, real starter entries, the real catalog rows."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from decks.rules import set_arsenal_counts
from tests.decks.factories import UserFactory

GB_STARTER = "gb-we-starter"
DE_STARTER = "de-we-starter"


@pytest.fixture
def starter_entries(catalog):
    def entries(code: str) -> dict[str, int]:
        card_set = catalog.sets[code]
        return set_arsenal_counts(card_set, catalog, card_set.nation)

    return entries


@pytest.fixture
def gb_entries(starter_entries) -> dict[str, int]:
    return starter_entries(GB_STARTER)


@pytest.fixture
def de_entries(starter_entries) -> dict[str, int]:
    return starter_entries(DE_STARTER)


def as_list(entries: dict[str, int]) -> list[dict[str, Any]]:
    return [{"card": code, "count": count} for code, count in sorted(entries.items())]


@pytest.fixture
def owner(catalog_rows):
    return UserFactory(username="owner")


@pytest.fixture
def other(catalog_rows):
    return UserFactory(username="other")


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def owner_client(owner) -> APIClient:
    return token_client(owner)


@pytest.fixture
def other_client(other) -> APIClient:
    return token_client(other)


@pytest.fixture
def anon_client(catalog_rows) -> APIClient:
    return APIClient()
