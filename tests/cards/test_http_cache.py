"""Catalog responses are cached per catalog version and normalised query: ETag, 304, Cache-Control, and a
change of the catalog (load_catalog, an admin edit) gives new answers at once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from cards.models import ArsenalCard
from cards.services import catalog_after_admin_edit
from config.http_cache import VersionedCacheMixin, local_bodies

URLS = [
    "/api/nations/",
    "/api/theaters/",
    "/api/sets/",
    "/api/sets/gb-we-starter/",
    "/api/arsenal-cards/?page_size=50",
    "/api/arsenal-cards/gb-montgomery/",
    "/api/conflict-cards/",
    "/api/battlecards/",
]


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@pytest.mark.parametrize("url", URLS)
def test_every_catalog_response_has_an_etag_and_answers_304_to_it(catalog_rows, client, url):
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"')
    assert "max-age=" in first["Cache-Control"] and "public" in first["Cache-Control"]
    assert "Accept" in first["Vary"]
    again = client.get(url)
    assert again.json() == first.json() and again["ETag"] == etag
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_a_cached_answer_costs_no_catalog_query(catalog_rows, client, django_assert_max_num_queries):
    url = "/api/arsenal-cards/?nation=GB&page_size=20"
    body = client.get(url).json()
    with django_assert_max_num_queries(1):  # the version token only (re-read every request in the tests)
        assert client.get(url).json() == body


def test_a_body_is_shared_when_it_is_asked_again(catalog_rows, client, django_assert_max_num_queries):
    """A one-off query (a filter nobody asks twice) never pays for writing its body to the shared cache; an
    answer asked again in a process is given to it, and another process then answers it from there."""
    from django.core.cache import cache

    url = "/api/arsenal-cards/?nation=DE&page_size=20"
    body = client.get(url).content
    (key,) = local_bodies._items
    assert cache.get(key) is None
    assert client.get(url).content == body and cache.get(key) == body
    local_bodies.clear()  # another worker
    with django_assert_max_num_queries(1):  # the version token only
        assert client.get(url).content == body


def test_the_same_query_in_another_order_is_the_same_entry(catalog_rows, client):
    one = client.get("/api/arsenal-cards/?nation=GB&kind=ground&page_size=5")
    two = client.get("/api/arsenal-cards/?page_size=5&kind=ground&nation=GB")
    three = client.get("/api/arsenal-cards/?page_size=5&kind=air&nation=GB")
    assert one["ETag"] == two["ETag"] != three["ETag"]
    assert one.json() == two.json() != three.json()


def test_an_admin_edit_drops_the_cached_answers(catalog_rows, client, django_capture_on_commit_callbacks):
    url = "/api/arsenal-cards/gb-montgomery/"
    before = client.get(url)
    listed = client.get("/api/arsenal-cards/?search=montgomery")
    with django_capture_on_commit_callbacks(execute=True):
        ArsenalCard.objects.filter(code="gb-montgomery").update(name="Monty")
        catalog_after_admin_edit(source="test")
    after = client.get(url)
    assert after.json()["name"] == "Monty" != before.json()["name"]
    assert after["ETag"] != before["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200
    assert client.get("/api/arsenal-cards/?search=montgomery")["ETag"] != listed["ETag"]


def test_load_catalog_drops_the_cached_answers(catalog_rows, client, django_capture_on_commit_callbacks):
    url = "/api/arsenal-cards/gb-montgomery/"
    before = client.get(url)
    ArsenalCard.objects.filter(code="gb-montgomery").update(points=99)  # the rows drift from the files
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_catalog", "--reset", stdout=io.StringIO())  # ... and a reset restores them
    after = client.get(url)
    assert after.json() == before.json()
    assert after["ETag"] != before["ETag"]


def test_errors_and_the_browsable_api_are_not_cached(catalog_rows, client):
    bad = client.get("/api/arsenal-cards/?points_min=lots")
    assert bad.status_code == 400 and "ETag" not in bad
    assert client.get("/api/arsenal-cards/no-such-card/").status_code == 404
    html = client.get("/api/nations/", HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html") and "ETag" not in html
    assert client.get("/api/nations/")["Content-Type"].startswith("application/json")


# ------------------------------------------------------------------------------- unknown parameters, bytes


@pytest.mark.parametrize(
    "url",
    [
        "/api/arsenal-cards/?nation=GB&page_size=20",
        "/api/arsenal-cards/?q=nation:gb%20kind:air",
        "/api/arsenal-cards/gb-montgomery/",
        "/api/sets/?kind=starter&ordering=-code",
        "/api/battlecards/?search=a",
        "/api/nations/",
        "/api/catalog/changes/?since={version}",
    ],
)
def test_an_unknown_query_parameter_is_ignored_and_hits_the_same_entry(
    catalog_rows, client, url, django_assert_max_num_queries
):
    url = url.format(version=catalog_rows[:12])
    first = client.get(url)
    assert first.status_code == 200
    stored = len(local_bodies)
    joiner = "&" if "?" in url else "?"
    with django_assert_max_num_queries(1):  # the version token only: the answer came from the cache
        again = client.get(f"{url}{joiner}x123=1&utm_source=mail&page_sizes=3")
    assert again.status_code == 200
    assert again["ETag"] == first["ETag"] and again.content == first.content
    assert len(local_bodies) == stored
    assert "x123" not in again.content.decode()  # page links carry only what the view understood


def test_every_documented_parameter_of_a_cached_operation_is_understood(catalog_rows):
    """A parameter the schema documents must reach the view (and the cache key): none may be dropped."""
    from django.urls import Resolver404, resolve
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    checked = 0
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        try:  # the cached views' only path parameter is {code}
            match = resolve(path.replace("{code}", "gb-montgomery"))
        except Resolver404:
            continue
        view_class = getattr(match.func, "cls", None) or getattr(match.func, "view_class", None)
        if get is None or view_class is None or not issubclass(view_class, VersionedCacheMixin):
            continue
        view = view_class(**getattr(match.func, "initkwargs", {}) or {})
        view.action_map = getattr(match.func, "actions", None) or {}
        documented = {p["name"] for p in get.get("parameters", []) if p["in"] == "query"}
        assert documented <= view.cache_query_params(), path
        checked += 1
    assert checked >= 15


@override_settings(HTTP_CACHE_LOCAL_BYTES=100_000)
def test_the_local_response_cache_never_holds_more_than_its_byte_bound(catalog_rows, client):
    sizes = []
    for size in range(1, 21):
        response = client.get(f"/api/arsenal-cards/?page_size={size}")
        assert response.status_code == 200
        sizes.append(len(response.content))
        assert local_bodies.size <= 100_000
        assert local_bodies.size == sum(len(v) for v in local_bodies._items.values())
    assert sum(sizes) > 3 * 100_000  # far more was served than is held
    assert 1 < len(local_bodies) < len(sizes)
    # the most recent answer is still held, the oldest went first
    assert client.get("/api/arsenal-cards/?page_size=20").content == local_bodies.get(
        next(reversed(local_bodies._items))
    )


@override_settings(HTTP_CACHE_LOCAL_BYTES=1000)
def test_a_body_larger_than_the_whole_bound_is_served_but_not_held(catalog_rows, client):
    response = client.get("/api/arsenal-cards/?page_size=50")
    assert response.status_code == 200 and len(response.content) > 1000
    assert len(local_bodies) == 0 and local_bodies.size == 0
