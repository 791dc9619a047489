"""Catalog lists that miss the response cache answer from prebuilt forms (cards.list_forms): the same bodies,
byte for byte, as serializing and rendering the page's rows; never stale after a catalog change, whether the
card or a row it shows changed; the forms of unchanged cards kept across catalog changes; links per host."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.models import F
from django.db.models.expressions import RawSQL
from django.test.utils import CaptureQueriesContext
from django.urls import resolve
from rest_framework import viewsets
from rest_framework.test import APIClient

from cards.apis import CatalogViewSet
from cards.list_forms import fingerprint_sql, tables
from cards.models import ArsenalCard, CardSet, Nation, SetMembership, UnitClass
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


@pytest.fixture(autouse=True)
def _every_request_misses(no_shared_response_cache):
    """Every list request here misses the shared response cache (tests/cards/conftest.py)."""


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


# -------------------------------------------------------------- the body, byte for byte, and other renderers


@pytest.mark.parametrize("url", REQUESTS)
def test_the_joined_body_is_the_one_drf_renders_byte_for_byte(catalog_rows, monkeypatch, url):
    client = APIClient()
    bodies = []
    for _ in range(2):  # the first builds the page's forms, the second joins the forms it kept
        local_bodies.clear()
        bodies.append(client.get(url).content)
    monkeypatch.setattr(CatalogViewSet, "list", viewsets.ReadOnlyModelViewSet.list)  # DRF's own list
    local_bodies.clear()
    response = client.get(url)
    assert bodies[0] == bodies[1] == response.content and response["Content-Type"] == "application/json"


def test_an_indented_or_browsable_answer_has_the_same_data(catalog_rows):
    client = APIClient()
    url = "/api/arsenal-cards/?q=class:artillery&page_size=5&page=2"
    plain = _miss(client, url)
    local_bodies.clear()
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    assert b'\n    "count"' in indented.content and indented.json() == plain
    local_bodies.clear()
    browsable = client.get(url, HTTP_ACCEPT="text/html")
    assert browsable.status_code == 200 and browsable["Content-Type"].startswith("text/html")
    assert plain["results"][0]["name"] in browsable.content.decode()


def test_a_page_past_the_end_and_an_invalid_page_are_the_same_404s(catalog_rows, monkeypatch):
    client = APIClient()
    urls = ["/api/arsenal-cards/?page=99", "/api/arsenal-cards/?page=0", "/api/arsenal-cards/?page=x",
            "/api/arsenal-cards/?page=last&page_size=7", "/api/arsenal-cards/?nation=ZZ"]
    ours = [(r.status_code, r.content) for r in map(client.get, urls)]
    monkeypatch.setattr(CatalogViewSet, "list", viewsets.ReadOnlyModelViewSet.list)
    local_bodies.clear()
    assert ours == [(r.status_code, r.content) for r in map(client.get, urls)]
    assert [status for status, _ in ours] == [404, 404, 404, 200, 400]


# ---------------------------------------------------------------------------- forms keyed by their content

PAGE = "/api/arsenal-cards/?page_size=500"


def _cards(client: APIClient) -> dict[str, dict]:
    return {card["code"]: card for card in _miss(client, PAGE)["results"]}


def test_a_catalog_change_keeps_the_forms_of_the_cards_that_did_not_change(catalog_rows):
    client = APIClient()
    before = _cards(client)
    built = tables.forms_built
    catalog_cache_clear()  # a new version token, no row changed: every form checked, none built
    assert _cards(client) == before and tables.forms_built == built
    ArsenalCard.objects.filter(code="gb-montgomery").update(points=F("points") + 1)
    catalog_cache_clear()
    after = _cards(client)
    assert tables.forms_built == built + 1  # only the card that changed
    assert after["gb-montgomery"]["points"] == before["gb-montgomery"]["points"] + 1
    del after["gb-montgomery"], before["gb-montgomery"]
    assert after == before


def _side(code):
    nation = Nation.objects.get(arsenal_cards__code=code)
    Nation.objects.filter(pk=nation.pk).update(side="axis" if nation.side == "allies" else "allies")


def _set_count(code):
    SetMembership.objects.filter(card__code=code).update(count=99)


def _set_code(code):
    CardSet.objects.filter(memberships__card__code=code).update(code="renamed-set")


def _class_code(code):
    UnitClass.objects.filter(card_links__card__code=code).update(code="renamed-class")


def _new_membership(code):
    card = ArsenalCard.objects.get(code=code)
    other_set = CardSet.objects.exclude(arsenal_cards=card).first()
    SetMembership.objects.create(card_set=other_set, card=card, count=7)


def _no_membership(code):
    SetMembership.objects.filter(card__code=code).delete()


def _new_variant(code):
    ArsenalCard.objects.filter(code="de-bismarck").update(variant_of=code)


def _variant_leaves(code):
    ArsenalCard.objects.filter(variant_of=code).update(variant_of=None)


@pytest.mark.parametrize(
    ("code", "edit"),
    [
        ("gb-montgomery", _side),  # the card's nation row
        ("gb-montgomery", _set_count),  # one of its set memberships
        ("gb-montgomery", _set_code),  # the set a membership points at
        ("gb-montgomery", _class_code),  # the unit class a class link points at
        ("gb-montgomery", _new_membership),  # a related row added
        ("de-bismarck", _no_membership),  # related rows deleted
        ("gb-montgomery", _new_variant),  # another card naming it as its variant
        ("ru-bt7", _variant_leaves),
    ],
)
def test_an_edit_of_a_related_row_shows_at_once(catalog_rows, settings, code, edit):
    settings.CATALOG_TOKEN_SECONDS = 0
    client = APIClient()
    before = _cards(client)
    edit(code)
    catalog_cache_clear()  # what an admin edit or load_catalog does
    after = _cards(client)
    assert after[code] != before[code]
    tables.clear()  # the same rows serialized now, without any kept form
    assert _cards(client) == after


VIEWS_WITH_SOURCES = [
    "/api/arsenal-cards/",
    "/api/conflict-cards/",
    "/api/battlecards/",
    "/api/battlefront/cards/",
    "/api/battlefront/special-uses/",
    "/api/the-war/cards/",
    "/api/the-war/starters/",
]
_TABLE = re.compile(r'(?:FROM|JOIN) "(\w+)"')


@pytest.mark.parametrize("url", VIEWS_WITH_SOURCES)
def test_the_fingerprint_covers_every_table_a_form_is_read_from(catalog_rows, url):
    view = resolve(url).func.cls
    assert view.form_sources is not None
    model = view().get_queryset().model
    sql = fingerprint_sql(model, view.form_sources, connection.vendor)
    covered = {model._meta.db_table, *_TABLE.findall(sql)}
    with CaptureQueriesContext(connection) as ctx:
        _miss(APIClient(), url + "?page_size=500")
    read = {table for query in ctx.captured_queries for table in _TABLE.findall(query["sql"])}
    assert read - {"cards_catalogversion"} <= covered, read - covered


def test_a_fingerprint_differs_when_any_value_of_the_row_differs(catalog_rows):
    """NULL, an empty string and values that run into each other are all told apart."""
    sql = fingerprint_sql(ArsenalCard, (), connection.vendor)
    card = ArsenalCard.objects.get(code="gb-montgomery")

    def print_():
        row = ArsenalCard.objects.filter(pk=card.pk).annotate(fp=RawSQL(sql, ()))  # noqa: S611 - no input
        return row.values_list("fp", flat=True)[0]

    seen = {print_()}
    for changes in ({"max_per_deck": None}, {"max_per_deck": 12345}, {"name": ""}, {"name": "Monty"},
                    {"name": "Mont", "kind": "yground"}, {"abilities": []}):
        ArsenalCard.objects.filter(pk=card.pk).update(**changes)
        seen.add(print_())
    assert len(seen) == 7


# -------------------------------------------------------------- a page past the end, however large (issue 34)

# (the compiled path: only filters it binds; the queryset path: ?q= and ?search= take it)
PAGED_LISTS = ["/api/arsenal-cards/?page_size=7", "/api/arsenal-cards/?kind=ground&page_size=7",
               "/api/arsenal-cards/?q=kind:ground&page_size=7", "/api/nations/?search=a&page_size=2",
               "/api/the-war/cards/?page_size=7", "/api/battlefront/cards/?page_size=7"]


@pytest.mark.parametrize("url", PAGED_LISTS)
def test_the_last_page_answers_and_every_page_past_it_is_the_404_of_an_invalid_page(catalog_rows, url):
    """The largest valid page, one past it, the pages at and past the last row offset a database addresses
    (2**63 - 1: PostgreSQL's bigint, SQLite's INTEGER) and 10**30: never a 500 (it was one on both)."""
    client = APIClient()
    first = client.get(url).json()
    size = 2 if "nations" in url else 7
    last = max(1, -(-first["count"] // size))
    answer = client.get(f"{url}&page={last}")
    assert answer.status_code == 200
    assert len(answer.json()["results"]) == first["count"] - (last - 1) * size
    assert answer.json()["next"] is None
    max_offset = 2**63 - 1
    for page in (last + 1, max_offset // size, max_offset // size + 1, max_offset + 1, 10**30):
        local_bodies.clear()
        answer = client.get(f"{url}&page={page}")
        assert (answer.status_code, answer.json()) == (404, {"status": 404, "code": "not_found",
                                                             "detail": "Invalid page."}), page
