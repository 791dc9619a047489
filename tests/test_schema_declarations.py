"""What the OpenAPI schema declares matches what the server does: security of public operations, input
bounds, and examples that name real cards."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.catalog_snapshot import ensure_catalog

PUBLIC_PREFIXES = (
    "/api/nations/",
    "/api/theaters/",
    "/api/sets/",
    "/api/arsenal-cards/",
    "/api/conflict-cards/",
    "/api/battlecards/",
    "/api/battlefront/",
    "/api/bulk/",
    "/api/catalog/",
    "/api/starters/",
)


@pytest.fixture(scope="module")
def schema(catalog_db, django_db_blocker) -> dict:
    """The schema as served: with the catalog in the database (a code filter lists its codes)."""
    with django_db_blocker.unblock():
        ensure_catalog(catalog_db)  # a flushing test run before on this worker may have emptied it
        return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def test_public_catalog_operations_declare_no_security(schema):
    """Swagger UI draws a padlock on every operation that lists a security scheme; the catalog needs none."""
    public = [
        (path, method, operation)
        for path, method, operation in _operations(schema)
        if path.startswith(PUBLIC_PREFIXES) and method == "get"
    ]
    assert len(public) >= 20
    assert [(p, m) for p, m, op in public if op.get("security") != []] == []
    for path in ("/api/auth/register/", "/api/auth/token/"):  # anyone, no credentials at all
        assert schema["paths"][path]["post"]["security"] == []


def test_operations_that_depend_on_the_caller_keep_their_security(schema):
    paths = schema["paths"]
    # a user's own data, optional credentials: the schemes and the empty requirement
    for path in ("/api/decks/", "/api/decks/{id}/", "/api/decks/{id}/print.pdf"):
        security = paths[path]["get"]["security"]
        assert {} in security and {"tokenAuth": []} in security, path
    # writes need a user
    for path, method in (("/api/decks/", "post"), ("/api/starters/{code}/clone/", "post"),
                         ("/api/auth/logout/", "post"), ("/api/decks/{id}/", "patch")):
        security = paths[path][method]["security"]
        assert {} not in security and {"tokenAuth": []} in security, (path, method)


# ---------------------------------------------------------------------------------------------- examples

CODE_LIKE = re.compile(r"(?<![A-Za-z0-9-])[a-z]{2,3}-[a-z0-9][a-z0-9-]*")


def _example_strings(node, inside: bool = False) -> list[str]:
    """Every string (values and keys, e.g. the {code: n} shorthand) in the schema's examples, but not in an
    example of the unknown_card error, whose point is a code that does not exist."""
    found: list[str] = []
    if isinstance(node, dict):
        if inside and node.get("code") == "unknown_card":
            return found
        for key, value in node.items():
            if inside and isinstance(key, str):
                found.append(key)
            found += _example_strings(value, inside or key in ("example", "examples"))
    elif isinstance(node, list):
        for value in node:
            found += _example_strings(value, inside)
    elif isinstance(node, str) and inside:
        found.append(node)
    return found


@pytest.mark.django_db
def test_every_card_code_in_the_schema_examples_exists(schema, catalog_rows):
    from cards import models
    from vocabulary.the_war import Army

    known = (
        {
            code
            for model in (
                models.Nation, models.Theater, models.CardSet, models.ArsenalCard, models.ConflictCard,
                models.Battlecard, models.BattlefrontCard, models.BattlefrontSpecialUse,
                models.TheWarCard, models.TheWarStarter, models.ToiCard, models.ToiDeck, models.ToiScenario,
            )
            for code in model.objects.values_list("code", flat=True)
        }
        | set(models.Ruling.objects.values_list("key", flat=True))
        | {army.value for army in Army}  # The War's armies (red-army, wehrmacht)
        | {"the-war"}  # the third game's path prefix (/api/the-war/...) in the API root's example
    )
    codes = {code for text in _example_strings(schema) for code in CODE_LIKE.findall(text)}
    assert len(codes) >= 10  # the examples do name cards
    assert {"de-tiger-i", "de-infantry", "gb-infantry"} <= codes
    assert sorted(codes - known) == []


# ---------------------------------------------------------------------------------------------- input bounds


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


@pytest.mark.django_db
def test_page_and_page_size_declare_their_minimum(schema, client):
    paginated = 0
    for _, _, operation in _operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["name"] in ("page", "page_size") and parameter["in"] == "query":
                assert parameter["schema"] == {"type": "integer", "minimum": 1}
                paginated += 1
    assert paginated >= 20
    assert client.get("/api/nations/", {"page_size": 0}).status_code == 400  # what the schema says


def test_deck_entries_declare_both_shapes_and_the_count_range(schema):
    components = schema["components"]["schemas"]
    with_entries = [name for name, c in components.items() if "entries" in c.get("properties", {})
                    and name.endswith("Request")]
    assert {"DeckCreateInputRequest", "DeckValidateInputRequest"} <= set(with_entries)
    for name in with_entries:
        entries = components[name]["properties"]["entries"]
        array, shorthand = entries["oneOf"]
        assert array["type"] == "array" and array["maxItems"] == 500
        entry = _resolve(schema, array["items"])
        assert entry["required"] == ["card", "count"]
        assert entry["properties"]["count"] | shorthand["additionalProperties"] == {
            "type": "integer", "minimum": 1, "maximum": 99, "description": "1 to 99"
        }
        assert shorthand["type"] == "object" and shorthand["maxProperties"] == 500


@pytest.mark.django_db
def test_the_declared_entries_shapes_are_what_the_server_takes(catalog_rows, client):
    for entries, status in (
        ({"gb-infantry": 40}, 200),
        ([{"card": "gb-infantry", "count": 40}], 200),
        ({"gb-infantry": 100}, 400),
        ([{"card": "gb-infantry", "count": 0}], 400),
    ):
        response = client.post("/api/decks/validate/", {"nation": "GB", "entries": entries},
                               content_type="application/json")
        assert response.status_code == status, (entries, response.content[:200])


def test_every_text_query_parameter_declares_the_nul_restriction(schema, client):
    checked = 0
    for path, method, operation in _operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query":
                continue
            node = parameter["schema"]
            node = node.get("items", node) if node.get("type") == "array" else node
            if node.get("type") == "string" and "enum" not in node:
                assert re.search(node["pattern"], "a\x00") is None, (path, method, parameter["name"])
                checked += 1
    assert checked >= 20
    response = client.get("/api/arsenal-cards/?search=a%00b")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_characters")


# ------------------------------------------------- the schema declares what the server takes (issue 34)


def _parameter(schema: dict, path: str, name: str, method: str = "get") -> dict:
    return next(p for p in schema["paths"][path][method]["parameters"] if p["name"] == name)


def test_filters_declare_the_codes_bounds_and_types_their_forms_take(schema, catalog_rows, client):
    from cards.models import Theater

    theater = _parameter(schema, "/api/sets/", "theater")["schema"]
    assert theater["items"]["enum"] == sorted(Theater.objects.values_list("code", flat=True))
    assert client.get("/api/sets/?theater=XX").status_code == 400
    assert client.get(f"/api/sets/?theater={theater['items']['enum'][0]}").status_code == 200
    force = _parameter(schema, "/api/battlefront/cards/", "force_max")["schema"]
    assert force == {"type": "number", "minimum": -(2**31 - 1), "maximum": 2**31 - 1}
    assert client.get("/api/battlefront/cards/?force_max=2147483648").status_code == 400
    assert client.get("/api/battlefront/cards/?force_max=2.5").status_code == 200
    only = _parameter(schema, "/api/the-war/cards/", "resource_cards_only")["schema"]
    assert only == {"type": "boolean"}
    assert client.get("/api/the-war/cards/?resource_cards_only=maybe").status_code == 400


def test_since_and_last_event_id_declare_their_patterns(schema, catalog_rows, client):
    for path in ("/api/catalog/changes/", "/api/the-war/changes/"):
        since = _parameter(schema, path, "since")["schema"]
        assert since == {"type": "string", "pattern": "^[0-9A-Fa-f]{8,}$"}
        assert client.get(f"{path}?since=1").status_code == 400
        assert client.get(f"{path}?since=0123ABCD").json()["code"] == "unknown_version"
    for path in ("/api/games/{game_id}/events/stream/", "/api/games/{game_id}/spectate/stream/",
                 "/api/feed/stream/"):
        header = _parameter(schema, path, "Last-Event-ID")
        assert header["in"] == "header" and header["schema"] == {"type": "string", "pattern": "^[0-9]*$"}


def test_an_empty_value_is_declared_where_the_server_takes_it_as_absent(schema, catalog_rows, client):
    """?game= (one value) and ?ordering= (a comma-separated list) are as if absent; a repeatable parameter
    (?nation=GB&nation=US) takes no empty value, nor an empty item between commas."""
    assert _parameter(schema, "/api/decks/", "game")["allowEmptyValue"] is True
    assert _parameter(schema, "/api/nations/", "ordering")["allowEmptyValue"] is True
    assert _parameter(schema, "/api/starters/{code}/print.pdf", "paper")["allowEmptyValue"] is True
    assert "allowEmptyValue" not in _parameter(schema, "/api/sets/", "theater")
    assert "allowEmptyValue" not in _parameter(schema, "/api/catalog/changes/", "since")  # required
    assert client.get("/api/nations/?ordering=").status_code == 200
    assert client.get("/api/nations/?side=").json()["count"] == client.get("/api/nations/").json()["count"]
    assert client.get("/api/starters/gb-we-starter/print.pdf?paper=").status_code == 200
    assert client.get("/api/sets/?theater=").status_code == 400
    for ordering in ("name,", ",", "name,,code"):
        answer = client.get(f"/api/nations/?ordering={ordering}")
        assert (answer.status_code, list(answer.json()["errors"])) == (400, ["ordering"]), ordering
    from rest_framework.authtoken.models import Token

    from tests.decks.factories import UserFactory

    token = Token.objects.create(user=UserFactory(username="orders"))
    decks = client.get("/api/decks/?ordering=name,", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert (decks.status_code, list(decks.json()["errors"])) == (400, ["ordering"])


def test_body_strings_declare_that_they_take_no_nul(schema, db, client):
    from rest_framework.authtoken.models import Token

    from tests.decks.factories import UserFactory

    text = schema["components"]["schemas"]["DeckImportInputRequest"]["properties"]["text"]
    assert re.search(text["pattern"], "a\x00") is None and re.search(text["pattern"], "3 Tiger I Tank")
    token = Token.objects.create(user=UserFactory(username="nul"))
    answer = client.post("/api/decks/import/", {"text": "3 Tiger\x00 I Tank"},
                         content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert (answer.status_code, list(answer.json()["errors"])) == (400, ["text"])
