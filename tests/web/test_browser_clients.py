"""Browser clients of other sites: CORS on /api/ by CORS_ALLOWED_ORIGINS (none by default), and the event
stream opened with a single-use stream ticket instead of a header."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.games.conftest import token_client

ORIGIN = "https://client.example.org"


def test_no_origin_is_allowed_by_default(db, settings):
    assert settings.CORS_ALLOWED_ORIGINS == []
    response = Client().get("/api/", HTTP_ORIGIN=ORIGIN)
    assert "Access-Control-Allow-Origin" not in response


@override_settings(CORS_ALLOWED_ORIGINS=[ORIGIN])
def test_an_allowed_origin_reads_the_api_and_preflights_a_token_request(db):
    response = Client().get("/api/", HTTP_ORIGIN=ORIGIN)
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    assert "Access-Control-Allow-Credentials" not in response  # tokens, never cookies, across origins
    preflight = Client().options(
        "/api/games/",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )
    assert preflight.status_code == 200
    assert "authorization" in preflight["Access-Control-Allow-Headers"]
    other = Client().get("/api/", HTTP_ORIGIN="https://evil.example")
    assert "Access-Control-Allow-Origin" not in other


@override_settings(CORS_ALLOWED_ORIGINS=[ORIGIN])
def test_the_site_pages_get_no_cors_headers(db):
    assert "Access-Control-Allow-Origin" not in Client().get("/", HTTP_ORIGIN=ORIGIN)


def _stream(game_id: str, ticket: str):
    return Client().get(f"/api/games/{game_id}/events/stream/?timeout=0.1&ticket={ticket}")


def _ticket(user, game_id: str) -> dict:
    response = token_client(user).post(f"/api/games/{game_id}/events/stream-ticket/")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_ticket_opens_the_stream_once_without_a_header(two_player_game, alice):
    game_id = two_player_game["id"]
    ticket = _ticket(alice, game_id)
    assert ticket["expires_in"] == 60 and ticket["game"] == game_id
    response = _stream(game_id, ticket["ticket"])
    assert response.status_code == 200 and response["Content-Type"].startswith("text/event-stream")
    body = b"".join(response.streaming_content).decode()
    assert "event: timeout" in body
    again = _stream(game_id, ticket["ticket"])
    assert again.status_code in (401, 403) and again.json()["code"] == "invalid_ticket"


def test_a_ticket_is_for_one_game_only(two_player_game, create_game, alice):
    other = create_game(alice)
    ticket = _ticket(alice, two_player_game["id"])
    assert _stream(other["id"], ticket["ticket"]).status_code in (401, 403)
    assert _stream(two_player_game["id"], ticket["ticket"]).status_code in (401, 403)  # used up all the same


def test_a_made_up_or_expired_ticket_is_refused(two_player_game, alice, settings):
    assert _stream(two_player_game["id"], "made-up").json()["code"] == "invalid_ticket"
    from django.core.cache import cache

    ticket = _ticket(alice, two_player_game["id"])
    cache.delete(f"stream_ticket:{ticket['ticket']}")  # what its expiry does
    assert _stream(two_player_game["id"], ticket["ticket"]).json()["code"] == "invalid_ticket"


def test_only_a_player_gets_a_ticket(two_player_game, make_user):
    stranger = make_user("mallory")
    response = token_client(stranger).post(f"/api/games/{two_player_game['id']}/events/stream-ticket/")
    assert response.status_code in (403, 404)
    assert (
        token_client(None).post(f"/api/games/{two_player_game['id']}/events/stream-ticket/").status_code
        == 401
    )


def test_the_ticket_stream_carries_only_the_tickets_seat(two_player_game, alice, bob):
    """What the ticket opens is the stream of the seat of the user it was issued to, as with a header."""
    game_id = two_player_game["id"]
    by_header = b"".join(
        token_client(bob).get(f"/api/games/{game_id}/events/stream/?timeout=0.1").streaming_content
    )
    by_ticket = b"".join(_stream(game_id, _ticket(bob, game_id)["ticket"]).streaming_content)
    assert by_ticket == by_header


pytestmark = pytest.mark.django_db


def test_a_token_beside_a_ticket_authenticates_and_leaves_the_ticket_unused(two_player_game, alice):
    game_id = two_player_game["id"]
    ticket = _ticket(alice, game_id)["ticket"]
    with_token = token_client(alice).get(f"/api/games/{game_id}/events/stream/?timeout=0.1&ticket={ticket}")
    assert with_token.status_code == 200
    b"".join(with_token.streaming_content)
    assert _stream(game_id, ticket).status_code == 200  # still good for the page that asked for it
