"""Issue 11: whatever a client puts in any input field of any endpoint (query parameters, JSON body fields,
path parameters), the server answers without a server error, in the common error shape when it refuses.

The endpoints and their input fields come from the live OpenAPI schema, so a new endpoint or field is
covered without touching this test. Runs on the test database in use (SQLite or PostgreSQL).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.decks.factories import DeckFactory, UserFactory

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
NUMBERISH = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "0", "-1", "1e5", "1.5", "NaN", "²", "٣", "true", "null", "9" * 23, "1" + "0" * 40]),
)
SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), TEXT, NUMBERISH
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=8,
)
QUERY_VALUE = st.one_of(TEXT, NUMBERISH, st.just("x" * 2000), st.just("%_" * 25_001))
DEEP = st.sampled_from(['{"a":' * 950 + "1" + "}" * 950, "[" * 950 + "]" * 950])


def _schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema["components"]["schemas"][name]
    return node


def _operations() -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    schema = _schema()
    found = []
    for path, item in sorted(schema["paths"].items()):
        for method, op in sorted(item.items()):
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            query = tuple(p["name"] for p in op.get("parameters", []) if p.get("in") == "query")
            body: tuple[str, ...] = ()
            content = (op.get("requestBody") or {}).get("content", {})
            if "application/json" in content:
                node = _resolve(schema, content["application/json"].get("schema", {}))
                body = tuple(sorted(node.get("properties", {})))
            found.append((method, path, query, body))
    return found


OPERATIONS = _operations()


@pytest.fixture
def world(catalog_rows, django_user_model):
    from games.models import Game

    user = UserFactory(username="fuzzer")
    other = UserFactory(username="host")
    entries = {"gb-british-infantry": 6}
    deck = DeckFactory(owner=user, name="mine", nation="GB", entries=entries)
    client = APIClient()
    host = APIClient()
    host.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=other)[0].key}")
    body = {"my_deck": {"starter": "de-we-starter"}, "opponent": {"kind": "human"}}
    created = host.post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    bot = host.post(
        "/api/games/",
        {**body, "opponent_deck": {"starter": "gb-we-starter"}, "opponent": {"kind": "bot", "bot": "random"}},
        format="json",
    )
    assert bot.status_code == 201, bot.json()
    token = Token.objects.get_or_create(user=user)[0].key
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert Game.objects.count() == 2
    return {
        "client": client,
        "anon": APIClient(),
        "params": {
            "game_id": [created.json()["id"], bot.json()["id"]],
            "pk": [str(deck.pk)],
            "id": [str(deck.pk)],
            "number": ["1"],
            "code": ["gb-we-starter", "gb-british-infantry", "we-battlecard-list"],
        },
    }


def _path_value(name: str, world: dict[str, Any]) -> st.SearchStrategy[str]:
    known = world["params"].get(name, ["1"])
    junk = st.one_of(NUMBERISH, st.text(alphabet="abcdef0123456789-", max_size=40))
    return st.one_of(st.sampled_from(known), junk.filter(lambda s: s and "/" not in s))


def _request(world, method, path, query, body, data):
    values = {}
    for name in re.findall(r"{(\w+)}", path):
        values[name] = data.draw(_path_value(name, world), label=name)
    url = re.sub(r"{(\w+)}", lambda m: values[m.group(1)], path)
    params = {}
    if query:
        params = data.draw(st.dictionaries(st.sampled_from(query), QUERY_VALUE, max_size=4), label="query")
    client = world["anon"] if data.draw(st.integers(0, 4), label="anon") == 0 else world["client"]
    if method == "get" or method == "delete":
        return getattr(client, method)(url, params)
    if body:
        payload = data.draw(
            st.one_of(
                st.fixed_dictionaries({}, optional=dict.fromkeys(body, JSON)),
                JSON,
                DEEP,
            ),
            label="body",
        )
    else:
        payload = data.draw(st.one_of(JSON, DEEP), label="body")
    if params:
        url = f"{url}?{urlencode(params)}"
    if isinstance(payload, str) and payload[:1] in "[{":  # a raw JSON text (the deeply nested bodies)
        return getattr(client, method)(url, payload, content_type="application/json")
    return getattr(client, method)(url, payload, format="json")


@pytest.mark.parametrize(
    ("method", "path", "query", "body"), OPERATIONS, ids=[f"{m} {p}" for m, p, _, _ in OPERATIONS]
)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_no_input_field_of_any_endpoint_causes_a_server_error(world, method, path, query, body, data):
    response = _request(world, method, path, query, body, data)
    content = b"" if response.streaming else response.content[:300]
    assert response.status_code < 500, (method, path, response.status_code, content)
    if response.status_code >= 400 and response["Content-Type"].startswith("application/json"):
        shape = response.json()
        assert {"status", "code", "detail"} <= set(shape), shape


def test_the_property_test_covers_every_endpoint_and_its_fields():
    paths = {p for _, p, _, _ in OPERATIONS}
    assert {"/api/decks/import/", "/api/games/{game_id}/actions/", "/api/auth/register/"} <= paths
    fields = {(m, p): (q, b) for m, p, q, b in OPERATIONS}
    assert "search" in fields[("get", "/api/arsenal-cards/")][0]
    assert {"my_deck", "opponent_deck", "opponent"} <= set(fields[("post", "/api/games/")][1])
