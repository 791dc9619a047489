"""Who may see and do what: players, strangers, invitees and anonymous clients."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameAction

pytestmark = pytest.mark.django_db

SEAT_ENDPOINTS = ["view/", "events/", "events/stream/?timeout=0"]


def _urls(gid: str) -> dict[str, str]:
    return {name: f"/api/games/{gid}/{name}" for name in SEAT_ENDPOINTS}


def test_a_stranger_cannot_see_read_a_seat_or_act_in_a_running_game(two_player_game, api, carol):
    gid = two_player_game["id"]
    stranger = api(carol)
    before = Game.objects.get(pk=gid).version
    assert stranger.get(f"/api/games/{gid}/").status_code == 404
    for url in _urls(gid).values():
        response = stranger.get(url)
        assert response.status_code == 404, url
    for verb in ("actions/", "join/", "resign/"):
        response = stranger.post(
            f"/api/games/{gid}/{verb}", {"version": before, "action": {"type": "draw"}}, format="json"
        )
        if verb == "join/":  # the answer of a join race's losers (issue 11): the seat is no longer free
            assert (response.status_code, response.json()["code"]) == (409, "game_not_open"), verb
            continue
        assert response.status_code == 404, verb
        assert response.json()["code"] == "game_not_found"
    assert stranger.get("/api/games/").json()["count"] == 0
    assert Game.objects.get(pk=gid).version == before


def test_anonymous_clients_get_401_and_never_a_seat(two_player_game, api):
    gid = two_player_game["id"]
    anonymous = api(None)
    assert anonymous.get("/api/games/").status_code == 401
    assert anonymous.post("/api/games/", {}, format="json").status_code == 401
    for url in _urls(gid).values():
        assert anonymous.get(url).status_code == 401, url
    for verb in ("actions/", "join/", "resign/"):
        assert anonymous.post(f"/api/games/{gid}/{verb}", {}, format="json").status_code == 401
    assert anonymous.get(f"/api/games/{gid}/").status_code == 404  # not public while running
    assert anonymous.get(f"/api/games/{gid}/replay/").status_code == 404


def test_a_finished_game_is_public_but_its_seats_stay_private(two_player_game, api, alice, carol):
    gid = two_player_game["id"]
    api(alice).post(f"/api/games/{gid}/resign/")
    for client in (api(carol), api(None)):
        assert client.get(f"/api/games/{gid}/").status_code == 200
        assert client.get(f"/api/games/{gid}/replay/").status_code == 200
    response = api(carol).get(f"/api/games/{gid}/view/")
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"
    assert api(carol).get(f"/api/games/{gid}/events/").status_code == 403


def test_an_open_game_can_be_joined_once_and_players_cannot_join_twice(create_game, api, alice, bob, carol):
    game = create_game(alice)
    gid = game["id"]
    assert api(alice).post(f"/api/games/{gid}/join/").json()["code"] == "already_joined"
    joinable = api(bob).get("/api/games/?joinable=true").json()
    assert [g["id"] for g in joinable["results"]] == [gid]
    view = api(bob).get(f"/api/games/{gid}/view/")  # visible (joinable) but not a seat yet
    assert view.status_code == 403 and view.json()["code"] == "not_a_player"
    joined = api(bob).post(f"/api/games/{gid}/join/")
    assert joined.status_code == 200
    assert joined.json()["status"] == "active" and joined.json()["my_seat"] == "axis"
    late = api(carol).post(f"/api/games/{gid}/join/")  # too late: 409, and the game stays private
    assert (late.status_code, late.json()["code"]) == (409, "game_not_open")
    assert api(carol).get(f"/api/games/{gid}/").status_code == 404
    entry = GameAction.objects.get(game_id=gid, kind="join")
    assert entry.seat == "axis" and entry.events[0]["type"] == "player_joined"


def test_an_invitation_reserves_the_seat(create_game, api, alice, bob, carol):
    game = create_game(alice, opponent={"kind": "human", "username": "bob"})
    gid = game["id"]
    assert api(carol).get(f"/api/games/{gid}/").status_code == 404
    assert api(carol).post(f"/api/games/{gid}/join/").status_code == 404
    assert api(bob).get("/api/games/?joinable=true").json()["count"] == 1
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200


def test_inviting_an_unknown_user_is_400(catalog_rows, api, alice):
    response = api(alice).post(
        "/api/games/",
        {
            "my_deck": {"starter": "gb-we-starter"},
            "opponent_deck": {"starter": "de-we-starter"},
            "opponent": {"kind": "human", "username": "nobody"},
        },
        format="json",
    )
    assert response.status_code == 400 and response.json()["code"] == "unknown_user"


def test_my_games_list_filters_by_status_in_constant_queries(create_game, api, alice, bob, carol):
    games = [create_game(alice) for _ in range(3)]
    api(bob).post(f"/api/games/{games[0]['id']}/join/")
    client = api(alice)
    with CaptureQueriesContext(connection) as few:
        first = client.get("/api/games/")
    for _ in range(5):
        create_game(alice, opponent={"kind": "bot", "bot": "random"})
    with CaptureQueriesContext(connection) as many:
        second = client.get("/api/games/")
    assert first.json()["count"] == 3 and second.json()["count"] == 8
    assert len(many.captured_queries) == len(few.captured_queries)
    open_games = client.get("/api/games/?status=open").json()
    assert open_games["count"] == 2 and {g["status"] for g in open_games["results"]} == {"open"}
    assert client.get("/api/games/?status=bogus").status_code == 400
    bobs = api(bob).get("/api/games/").json()
    assert [g["id"] for g in bobs["results"]] == [games[0]["id"]]
    assert bobs["results"][0]["my_seat"] == "axis"
    assert api(carol).get("/api/games/").json()["count"] == 0


def test_unknown_game_ids_are_404(api, alice):
    client = api(alice)
    assert client.get("/api/games/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert client.get("/api/games/not-a-uuid/").status_code == 404
