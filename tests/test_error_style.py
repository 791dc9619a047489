"""One error style everywhere: a readable `detail` (never JSON inside it) and, for bad fields, the
messages per field in `errors` ({dotted field path: [messages]}), the same in the games and decks apps."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.decks.factories import UserFactory


@pytest.fixture
def client_of(db):
    user = UserFactory(username="erin")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def assert_field_errors(body: dict, status: int, code: str, fields: set[str]) -> None:
    assert body["status"] == status and body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"].startswith("Invalid input"), body
    assert "{" not in body["detail"] and "[" not in body["detail"], body  # no JSON inside the detail
    assert set(body["errors"]) == fields, body
    for messages in body["errors"].values():
        assert messages and all(isinstance(m, str) and m for m in messages), body


def test_games_app_bad_fields(client_of):
    r = client_of.post("/api/games/", {"my_deck": {}, "opponent": {"kind": "nobody"}}, format="json")
    assert r.status_code == 400
    assert_field_errors(r.json(), 400, "invalid", {"my_deck", "opponent.kind"})


def test_games_action_bad_fields_keep_their_code(client_of):
    r = client_of.post(
        "/api/games/00000000-0000-0000-0000-000000000000/actions/", {"version": -1}, format="json"
    )
    assert r.status_code == 400
    assert_field_errors(r.json(), 400, "malformed_action", {"version", "action"})


def test_decks_app_bad_fields(client_of):
    r = client_of.post("/api/decks/", {"name": "", "nation": "GB", "entries": "x"}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid"
    assert_field_errors(body, 400, "invalid", set(body["errors"]))
    assert {"name", "entries"} <= set(body["errors"])


def test_query_parameter_errors_are_per_field(client_of):
    r = client_of.get("/api/games/?joinable=maybe")
    assert r.status_code == 400
    assert_field_errors(r.json(), 400, "invalid", {"joinable"})
    r = client_of.get("/api/arsenal-cards/?page_size=x")
    assert r.status_code == 400
    assert_field_errors(r.json(), 400, "invalid", {"page_size"})


def test_weak_password_is_a_field_error(db):
    r = APIClient().post("/api/auth/register/", {"username": "zed", "password": "123"}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["errors"].keys() == {"password"} and all(
        isinstance(m, str) for m in body["errors"]["password"]
    )
