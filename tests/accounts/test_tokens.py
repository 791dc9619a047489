"""Issue 11: API tokens expire (AUTH_TOKEN_TTL_HOURS) and can be revoked (POST /api/auth/logout/)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.decks.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "El-Alamein-1942"


def _login() -> tuple[APIClient, str]:
    user = UserFactory(username="monty")
    user.set_password(PASSWORD)
    user.save()
    anon = APIClient()
    token = anon.post("/api/auth/token/", {"username": "monty", "password": PASSWORD}, format="json").json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    return client, token["token"]


def test_logout_revokes_the_token():
    client, key = _login()
    assert client.get("/api/decks/?mine=true").status_code == 200
    assert client.post("/api/auth/logout/").status_code == 204
    response = client.get("/api/games/")
    assert response.status_code == 401
    assert response.json()["status"] == 401 and response.json()["code"] == "authentication_failed"
    assert not Token.objects.filter(key=key).exists()


def test_logout_needs_a_login():
    response = APIClient().post("/api/auth/logout/")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


@override_settings(AUTH_TOKEN_TTL_HOURS=2)
def test_an_expired_token_gets_401_token_expired_and_a_new_one_is_issued():
    client, key = _login()
    assert client.get("/api/games/").status_code == 200
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(hours=3))
    response = client.get("/api/games/")
    assert response.status_code == 401
    body = response.json()
    assert body["status"] == 401 and body["code"] == "token_expired" and body["detail"]
    fresh = APIClient().post("/api/auth/token/", {"username": "monty", "password": PASSWORD}, format="json")
    assert fresh.status_code == 200 and fresh.json()["token"] != key
    renewed = APIClient()
    renewed.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert renewed.get("/api/games/").status_code == 200


@override_settings(AUTH_TOKEN_TTL_HOURS=0)
def test_a_zero_ttl_means_tokens_do_not_expire():
    client, key = _login()
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(days=3650))
    assert client.get("/api/games/").status_code == 200
