"""What the OpenAPI schema declares matches what the server does: security of public operations, input
bounds, and examples that name real cards."""

from __future__ import annotations

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
