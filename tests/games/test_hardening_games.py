"""Issue 11 (games): the joiner brings his deck, one null convention, no current seat while open, join-race
losers get 409, a cap on open games and expiry of stale ones."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from games.models import Game, GameSeat
from tests.games.conftest import DE, GB, game_body

pytestmark = pytest.mark.django_db


def test_the_joiner_brings_his_own_deck_checked_by_the_matchup_rule(create_game, api, alice, bob):
    body = game_body()
    del body["opponent_deck"]
    created = api(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    gid = game["id"]
    open_seat = next(s for s in game["seats"] if s["open"])
    assert open_seat["seat"] == "axis" and open_seat["nation"] == ""
    assert Game.objects.get(pk=gid).setup == {}  # nothing dealt before the second deck is known

    missing = api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "deck_required")
    same_side = api(bob).post(f"/api/games/{gid}/join/", {"deck": {"starter": GB}}, format="json")
    assert (same_side.status_code, same_side.json()["code"]) == (400, "illegal_matchup")
    assert GameSeat.objects.get(game_id=gid, seat="axis").user is None  # nothing half-written

    joined = api(bob).post(f"/api/games/{gid}/join/", {"deck": {"starter": DE}}, format="json")
    assert joined.status_code == 200, joined.json()
    seats = {s["seat"]: s for s in joined.json()["seats"]}
    assert seats["axis"]["player"] == "bob" and seats["axis"]["deck_source"] == {"starter": DE}
    stored = Game.objects.get(pk=gid)
    assert stored.setup["nations"] == {"allies": "GB", "axis": "DE"} and stored.snapshot_hash
    view = api(bob).get(f"/api/games/{gid}/view/").json()
    assert view["view"]["me"]["nation"] == "DE"
    assert joined.json()["current_seat"] in ("axis", "allies")


def test_the_joiners_deck_replaces_the_one_the_creator_chose(create_game, api, alice, bob, catalog):
    game = create_game(alice)  # the creator picked the German starter for the open seat
    joined = api(bob).post(f"/api/games/{game['id']}/join/", {"deck": {"starter": DE}}, format="json")
    assert joined.status_code == 200, joined.json()


def test_a_bot_still_needs_an_opponent_deck(api, alice, catalog_rows):
    body = game_body(opponent={"kind": "bot", "bot": "random"})
    del body["opponent_deck"]
    response = api(alice).post("/api/games/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "opponent_deck_required")


def test_an_open_game_shows_no_current_seat_and_no_winner_is_null(create_game, api, alice, bob):
    game = create_game(alice)
    assert game["current_seat"] is None and game["winner"] is None and game["end_reason"] is None
    detail = api(alice).get(f"/api/games/{game['id']}/").json()
    assert detail["current_seat"] is None and detail["winner"] is None
    joined = api(bob).post(f"/api/games/{game['id']}/join/").json()
    assert joined["current_seat"] in ("axis", "allies") and joined["winner"] is None
    view = api(bob).get(f"/api/games/{game['id']}/view/").json()
    assert view["winner"] is None and detail["winner"] is None  # one convention in detail and view


def test_the_losers_of_a_join_race_get_409_game_not_open(create_game, api, alice, bob, carol):
    game = create_game(alice)
    seen_by_carol = api(carol).get("/api/games/?joinable=true").json()["results"]
    assert [g["id"] for g in seen_by_carol] == [game["id"]]
    assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    late = api(carol).post(f"/api/games/{game['id']}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "game_not_open")


@override_settings(GAMES_MAX_OPEN_PER_USER=3)
def test_a_user_may_have_only_so_many_open_games(create_game, api, alice, catalog_rows):
    games = [create_game(alice) for _ in range(3)]
    refused = api(alice).post("/api/games/", game_body(), format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "too_many_open_games")
    assert refused.json()["limit"] == 3 and Game.objects.count() == 3
    bot_body = game_body(opponent={"kind": "bot", "bot": "random"})
    bot_game = api(alice).post("/api/games/", bot_body, format="json")
    assert bot_game.status_code == 201  # bot games start at once: they never wait in the lobby
    assert api(alice).post(f"/api/games/{games[0]['id']}/resign/").status_code == 200  # cancel one
    assert api(alice).post("/api/games/", game_body(), format="json").status_code == 201


@override_settings(GAMES_OPEN_TTL_HOURS=24)
def test_stale_open_games_leave_the_lobby_and_are_cancelled_by_the_command(create_game, api, alice, bob):
    stale = create_game(alice)
    fresh = create_game(alice)
    Game.objects.filter(pk=stale["id"]).update(created_at=timezone.now() - timedelta(hours=25))
    lobby = api(bob).get("/api/games/?joinable=true").json()["results"]
    assert [g["id"] for g in lobby] == [fresh["id"]]
    late = api(bob).post(f"/api/games/{stale['id']}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "game_not_open")

    out = io.StringIO()
    call_command("expire_open_games", stdout=out)
    assert "1 open game(s) expired" in out.getvalue()
    expired = Game.objects.get(pk=stale["id"])
    assert expired.status == "finished" and expired.winner == "" and expired.result == {"kind": "expired"}
    assert Game.objects.get(pk=fresh["id"]).status == "open"
    detail = api(alice).get(f"/api/games/{stale['id']}/").json()
    assert detail["winner"] is None and detail["end_reason"] == "unfinished"


def test_the_session_login_redirects_somewhere_real(client, alice):
    alice.set_password("Sturmgeschutz-44")
    alice.save()
    page = client.get("/api/auth/session/login/")
    response = client.post(
        "/api/auth/session/login/",
        {
            "username": "alice",
            "password": "Sturmgeschutz-44",
            "csrfmiddlewaretoken": page.cookies["csrftoken"].value,
        },
    )
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200


def test_the_view_carries_the_definition_of_every_card_it_shows(two_player_game, api, bob):
    gid = two_player_game["id"]
    view = api(bob).get(f"/api/games/{gid}/view/").json()
    hand = view["view"]["me"]["hand"]
    assert hand
    for card in hand:
        definition = view["cards"][card["code"]]
        assert definition["code"] == card["code"] and definition["name"]
        if definition["type"] == "arsenal":
            assert {"attack", "defense", "points", "kind", "abilities"} <= set(definition)
    shown = {c["code"] for c in hand} | {c["code"] for c in view["view"]["conflict"]["aside"]}
    assert shown <= set(view["cards"])
    stored = Game.objects.get(pk=gid).state
    never_seen = set(stored["players"]["allies"]["deck"]) | set(stored["players"]["allies"]["hand"])
    instance_codes = {c["id"]: c["code"] for c in view["view"]["me"]["hand"]}
    assert not never_seen & set(instance_codes)  # (instances) and only shown codes are described:
    assert set(view["cards"]) <= set(_codes_in(view["view"]))


def _codes_in(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("code"), str):
                yield item["code"]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
