"""The documented bounds of catalog queries hold the same way on every catalog endpoint.

* `?q=` nests at most 12 levels (a parenthesised group or a negation; `-( ... )` counts once): 12 is
  answered, 13 is a 400 `query_too_complex`, whatever the shape.
* A number beyond MAX_QUERY_NUMBER (2^31-1) is refused everywhere: a 400 `invalid` in a filter, an unusable
  term in `?q=` (alone: a 400 `query_unusable`); up to it, it is an ordinary number.
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config.filters import MAX_QUERY_NUMBER

pytestmark = pytest.mark.django_db

# each catalog with ?q= and one of its numeric search keys
SEARCHABLE = {
    "/api/arsenal-cards/": "points",
    "/api/conflict-cards/": "action",
    "/api/battlecards/": "vp",
    "/api/battlefront/cards/": "force",
}
SHAPES = ["({})", "tiger ({})", "-({})", "tiger or ({})", "(tiger {})", "-{}", "tiger -(panzer {})"]
HUGE = "9" * 300


def _nest(levels: int, shape: str) -> str:
    query = "x"
    for _ in range(levels):
        query = shape.format(query)
    return query


@pytest.fixture
def client(catalog_rows) -> APIClient:
    return APIClient()


@pytest.mark.parametrize("url", sorted(SEARCHABLE))
@pytest.mark.parametrize("shape", SHAPES)
def test_q_nests_twelve_levels_and_refuses_thirteen(client, url, shape):
    answered = client.get(url, {"q": _nest(12, shape)})
    assert answered.status_code == 200, answered.json()
    refused = client.get(url, {"q": _nest(13, shape)})
    assert refused.status_code == 400
    assert refused.json()["code"] == "query_too_complex" and "12 levels" in refused.json()["detail"]


def _numeric_parameters() -> dict[str, list[str]]:
    """Every catalog list endpoint's number-valued query parameters, from the schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found: dict[str, list[str]] = {}
    for path, operations in schema["paths"].items():
        if "{" in path or "get" not in operations or path not in {*SEARCHABLE, "/api/nations/", "/api/sets/",
                                                                   "/api/theaters/",
                                                                   "/api/battlefront/special-uses/"}:
            continue
        found[path] = [
            p["name"]
            for p in operations["get"].get("parameters", [])
            if p["in"] == "query"
            and p["name"] not in ("page", "page_size")
            and (p.get("schema", {}).get("type") in ("integer", "number") or p["name"] == "max_per_deck")
        ]
    return found


NUMERIC = _numeric_parameters()


def test_the_numeric_parameters_are_found_on_every_catalog():
    assert len(NUMERIC) == 8
    assert "points_min" in NUMERIC["/api/arsenal-cards/"] and "max_per_deck" in NUMERIC["/api/arsenal-cards/"]
    assert NUMERIC["/api/conflict-cards/"] == ["action_number"]
    assert {"victory_points_min", "victory_points_max"} <= set(NUMERIC["/api/battlecards/"])


@pytest.mark.parametrize(
    ("url", "parameter"), [(url, name) for url, names in sorted(NUMERIC.items()) for name in names]
)
def test_a_300_digit_number_in_a_filter_is_a_400_on_every_catalog(client, url, parameter):
    response = client.get(url, {parameter: HUGE})
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "invalid" and parameter in response.json()["errors"]
    assert client.get(url, {parameter: str(MAX_QUERY_NUMBER + 1)}).status_code == 400
    assert client.get(url, {parameter: str(MAX_QUERY_NUMBER)}).status_code == 200


@pytest.mark.parametrize(("url", "key"), sorted(SEARCHABLE.items()))
def test_a_300_digit_number_in_q_is_unusable_on_every_catalog(client, url, key):
    alone = client.get(url, {"q": f"{key}>={HUGE}"})
    assert alone.status_code == 400 and alone.json()["code"] == "query_unusable"
    with_another = client.get(url, {"q": f"{key}<={HUGE} {key}>=1"})
    assert with_another.status_code == 200
    (warning,) = with_another.json()["warnings"]
    assert str(MAX_QUERY_NUMBER) in warning
    assert client.get(url, {"q": f"{key}<={MAX_QUERY_NUMBER + 1}"}).status_code == 400
    in_range = client.get(url, {"q": f"{key}<={MAX_QUERY_NUMBER}"})
    assert in_range.status_code == 200 and in_range.json()["warnings"] == []
