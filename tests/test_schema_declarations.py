"""What the OpenAPI schema declares matches what the server does: security of public operations, input
bounds, and examples that name real cards."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

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
def schema() -> dict:
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

    known = {
        code
        for model in (models.Nation, models.Theater, models.CardSet, models.ArsenalCard, models.ConflictCard,
                      models.Battlecard, models.BattlefrontCard, models.BattlefrontSpecialUse)
        for code in model.objects.values_list("code", flat=True)
    } | set(models.Ruling.objects.values_list("key", flat=True))
    codes = {code for text in _example_strings(schema) for code in CODE_LIKE.findall(text)}
    assert len(codes) >= 10  # the examples do name cards
    assert {"de-tiger-i", "de-infantry", "gb-infantry"} <= codes
    assert sorted(codes - known) == []
