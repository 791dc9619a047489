"""Catalog lists that miss the response cache answer from forms prebuilt per catalog version
(cards.list_forms): the same bodies as serializing the page's rows, never stale after a catalog change, links
per host."""

from __future__ import annotations

import pytest
from rest_framework import viewsets
from rest_framework.test import APIClient

from cards.apis import CatalogViewSet
from cards.list_forms import tables
from cards.models import ArsenalCard
from cards.services import catalog_cache_clear
from config.http_cache import local_bodies

# every catalog list, with filters, ?q=, ?search= and orderings that pick and order rows differently
REQUESTS = [
    "/api/nations/?ordering=-name",
    "/api/theaters/",
    "/api/sets/?kind=starter&page_size=7",
    "/api/arsenal-cards/?page_size=50",
    "/api/arsenal-cards/?nation=DE&kind=air&ordering=-points,name",
    "/api/arsenal-cards/?q=class:artillery%20-is:variant&page=2&page_size=5",
    "/api/arsenal-cards/?search=tiger",
    "/api/conflict-cards/?ordering=-action_number&page_size=20",
    "/api/battlecards/?theater=WE",
    "/api/battlefront/cards/?type=T&ordering=-force",
    "/api/battlefront/special-uses/",
    "/api/the-war/cards/?q=is:unit&page_size=30&page=2",
    "/api/the-war/starters/",
]


class _NoResponseCache:
    """Stands in for the shared cache of config.http_cache only (the version token's cache stays)."""

    def get(self, key, default=None):
        return default

    def set(self, *args, **kwargs) -> None:
        return None


@pytest.fixture(autouse=True)
def _every_request_misses(monkeypatch):
    monkeypatch.setattr("config.http_cache.cache", _NoResponseCache())


def _miss(client: APIClient, url: str, **extra):
    local_bodies.clear()
    response = client.get(url, **extra)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("url", REQUESTS)
def test_a_page_from_the_prebuilt_forms_is_the_page_serialized_from_its_rows(catalog_rows, monkeypatch, url):
    client = APIClient()
    prebuilt = _miss(client, url)
    again = _miss(client, url)  # now from the table built by the first request
    builds = tables.builds
    assert _miss(client, url) == again == prebuilt and tables.builds == builds  # no rebuild
    monkeypatch.setattr(CatalogViewSet, "list", viewsets.ReadOnlyModelViewSet.list)  # DRF's own list
    assert _miss(client, url) == prebuilt


def test_a_catalog_change_is_visible_at_once(catalog_rows, settings):
    settings.CATALOG_TOKEN_SECONDS = 0
    client = APIClient()
    url = "/api/arsenal-cards/?search=gb-montgomery"
    before = _miss(client, url)["results"][0]
    ArsenalCard.objects.filter(code=before["code"]).update(name="Monty")
    catalog_cache_clear()  # what an admin edit or load_catalog does: a new version token
    after = _miss(client, url)["results"][0]
    assert before["name"] != "Monty" and after["name"] == "Monty"


def test_each_host_gets_its_own_links(catalog_rows, settings):
    settings.ALLOWED_HOSTS = ["testserver", "cards.example.org"]
    client = APIClient()
    here = _miss(client, "/api/nations/")["results"][0]["url"]
    there = _miss(client, "/api/nations/", HTTP_HOST="cards.example.org")["results"][0]["url"]
    assert here.startswith("http://testserver/") and there.startswith("http://cards.example.org/")


def test_a_row_newer_than_the_table_is_served_as_it_is(catalog_rows, settings):
    """Same version token, a row the table has never seen (written without a version change): the table is
    rebuilt once and the row served."""
    client = APIClient()
    url = "/api/arsenal-cards/?search=gb-montgomery"
    card = _miss(client, url)["results"][0]
    row = ArsenalCard.objects.get(code=card["code"])
    row.pk, row.code, row.name = None, "gb-montgomery-copy", "Montgomery (copy)"
    row.save()
    copied = _miss(client, "/api/arsenal-cards/?search=gb-montgomery-copy")["results"]
    assert [c["name"] for c in copied] == ["Montgomery (copy)"]
