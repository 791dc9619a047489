"""Throttles: scoped rates from settings, 429 in the common error shape with Retry-After, keyed on the real
client address (X-Forwarded-For only through trusted proxies), the log-in forms, and open streams per user."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.decks.factories import UserFactory
from tests.games.conftest import game_body, token_client

PASSWORD = "El-Alamein-1942"


def rates(**scopes: str) -> dict[str, Any]:
    rest = copy.deepcopy(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"].update(scopes)
    return rest


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["status"] == 429 and body["code"] == "throttled" and body["detail"]
    assert int(response["Retry-After"]) >= 1
    assert body["retry_after"] == int(response["Retry-After"])


@pytest.fixture
def player(db):
    return UserFactory(username="player", password=PASSWORD)


def _create(client: APIClient):
    return client.post("/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json")


@pytest.mark.parametrize(
    ("scope", "call"),
    [
        ("game_create", lambda c, _u: _create(c)),
        ("deck_validate", lambda c, _u: c.post("/api/decks/validate/", {"entries": []}, format="json")),
        ("deck_import", lambda c, _u: c.post("/api/decks/import/", {"text": "1 nothing"}, format="json")),
        (
            "register",
            lambda _c, u: APIClient().post(
                "/api/auth/register/", {"username": f"new{u}", "password": PASSWORD}, format="json"
            ),
        ),
        (
            "token",
            lambda _c, _u: APIClient().post(
                "/api/auth/token/", {"username": "player", "password": "wrong"}, format="json"
            ),
        ),
    ],
)
def test_each_scope_has_its_own_rate_from_settings(catalog_rows, player, scope, call):
    client = token_client(player)
    with override_settings(REST_FRAMEWORK=rates(**{scope: "2/min"})):
        first, second = call(client, 1), call(client, 2)
        assert first.status_code != 429 and second.status_code != 429
        assert_throttled(call(client, 3))
        # Another scope is not affected.
        assert client.get("/api/games/").status_code == 200


def test_actions_are_throttled_per_user(catalog_rows, player):
    client = token_client(player)
    game = _create(client).json()
    with override_settings(REST_FRAMEWORK=rates(game_action="2/min")):
        for _ in range(2):
            response = client.post(f"/api/games/{game['id']}/actions/", {"version": -1, "action": {}},
                                   format="json")
            assert response.status_code != 429
        assert_throttled(
            client.post(f"/api/games/{game['id']}/actions/", {"version": -1, "action": {}}, format="json")
        )
        other = token_client(UserFactory(username="other"))
        assert other.post(f"/api/games/{game['id']}/actions/", {"version": -1, "action": {}},
                          format="json").status_code != 429
        # Reading the game list is no game creation.
        assert client.get("/api/games/").status_code == 200


def _token(forwarded_for: str | None = None, remote: str = "10.0.0.1"):
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return APIClient().post("/api/auth/token/", {"username": "x", "password": "y"}, format="json", **extra)


def test_a_client_cannot_escape_the_throttle_with_a_forged_forwarded_for(db):
    with override_settings(REST_FRAMEWORK=rates(token="2/min")):
        assert _token("1.1.1.1").status_code == 400
        assert _token("2.2.2.2").status_code == 400
        assert_throttled(_token("3.3.3.3"))  # the same REMOTE_ADDR: the same client
        assert _token("3.3.3.3", remote="10.0.0.2").status_code == 400  # another client


def test_behind_trusted_proxies_the_client_is_read_from_the_right_of_forwarded_for(db):
    rest = rates(token="2/min")
    rest["NUM_PROXIES"] = 1
    with override_settings(REST_FRAMEWORK=rest):
        # The proxy (REMOTE_ADDR) appends the address it saw; whatever the client wrote stays on the left.
        assert _token("6.6.6.6, 1.1.1.1").status_code == 400
        assert _token("7.7.7.7, 1.1.1.1").status_code == 400
        assert_throttled(_token("8.8.8.8, 1.1.1.1"))
        assert _token("8.8.8.8, 2.2.2.2").status_code == 400


@pytest.mark.parametrize("path", ["/api/auth/session/login/", "/admin/login/"])
def test_the_log_in_forms_are_throttled(db, path):
    with override_settings(REST_FRAMEWORK=rates(login="2/min")):
        client = Client(enforce_csrf_checks=False)
        for _ in range(2):
            response = client.post(path, {"username": "nobody", "password": "wrong"})
            assert response.status_code == 200  # the form again, with its error
        assert_throttled(client.post(path, {"username": "nobody", "password": "wrong"}))
        assert client.get(path).status_code == 200  # showing the form is not throttled


@pytest.fixture
def active_game(catalog_rows, player) -> dict[str, Any]:
    return _create(token_client(player)).json()


def test_a_user_may_hold_only_so_many_event_streams_open(active_game, player, settings):
    settings.GAMES_SSE_MAX_STREAMS_PER_USER = 2
    client = token_client(player)
    url = f"/api/games/{active_game['id']}/events/stream/?timeout=0.1"
    first, second = client.get(url), client.get(url)
    assert first.status_code == 200 and second.status_code == 200
    third = client.get(url)
    assert third.status_code == 429 and third.json()["code"] == "too_many_streams"
    assert int(third["Retry-After"]) >= 1
    other = token_client(UserFactory(username="other"))
    assert other.get(url).status_code in (403, 404)  # not a player; no slot of player's is used
    _close(first)  # the client went away: its slot is given back
    fourth = client.get(url)
    assert fourth.status_code == 200
    for response in (second, fourth):
        _close(response)


def _close(response) -> None:
    """What the server does when a stream ends, without closing the test's database connection."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "1\u00b2", "-1", "1.5"])
def test_a_last_event_id_that_is_not_ascii_digits_is_a_400(active_game, player, value):
    response = token_client(player).get(
        f"/api/games/{active_game['id']}/events/stream/?timeout=0.1", HTTP_LAST_EVENT_ID=value
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
