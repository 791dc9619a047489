"""Issue 38 §2: the leaderboard, player and watch-list pages (each with its typed API endpoint and drawing
what that endpoint gives the user), the waiting creator's join notice, replay positions in the URL and
Tide of Iron's bot refused in words."""

from __future__ import annotations

import re

import pytest

from tests.decks.factories import DeckFactory
from tests.games.conftest import GB, HiddenInfoOracle, every_seat_acts, game_body
from tests.web.test_play import _tokens

pytestmark = pytest.mark.django_db


def _rated_game_won_by(api, winner, loser, *, create_game) -> str:
    """A rated game between the two, `loser` resigned once both had acted."""
    gid = create_game(winner, rated=True)["id"]
    assert api(loser).post(f"/api/games/{gid}/join/").status_code == 200
    every_seat_acts(api, gid, {"allies": winner, "axis": loser})
    assert api(loser).post(f"/api/games/{gid}/resign/").status_code == 200
    return gid


def test_the_leaderboard_page_draws_the_apis_board(client, api, create_game, alice, bob):
    _rated_game_won_by(api, alice, bob, create_game=create_game)
    board = api(None).get("/api/leaderboards/battlecards/").json()["results"]
    assert [row["player"] for row in board] == ["alice", "bob"]
    page = client.get("/leaderboards/battlecards/").content.decode()
    row = r'<tr><td>(\d+)</td><td><a href="/players/(\w+)/">\w+</a></td>\s*<td>(\d+)\??</td>'
    drawn = re.findall(row, page)
    assert drawn == [(str(r["rank"]), r["player"], str(round(r["rating"]))) for r in board]
    assert client.get("/leaderboards/").status_code == 302
    missing = client.get("/leaderboards/chess/")
    assert missing.status_code == 404 and "Unknown game type" in missing.content.decode()


def test_the_player_page_shows_ratings_and_recent_games_and_redacts_a_private_deck(
    client, api, create_game, catalog, alice, bob, carol
):
    _rated_game_won_by(api, alice, bob, create_game=create_game)
    deck = DeckFactory(owner=alice, name="Operation Secret", nation="GB", is_public=False,
                       entries=catalog.sets[GB].arsenal_counts())
    created = api(alice).post("/api/games/", game_body(my_deck={"deck_id": deck.pk}), format="json").json()
    assert api(bob).post(f"/api/games/{created['id']}/join/").status_code == 200
    assert api(bob).post(f"/api/games/{created['id']}/resign/").status_code == 200

    listed = api(carol).get("/api/users/alice/games/").json()
    assert listed["count"] == 2 and "Operation Secret" not in str(listed)
    assert "Operation Secret" in str(api(alice).get("/api/users/alice/games/").json())
    ratings = {r["game_type"]: r for r in api(None).get("/api/users/alice/ratings/").json()["ratings"]}

    client.force_login(carol)
    page = client.get("/players/alice/").content.decode()
    shown = round(ratings["battlecards"]["rating"])
    assert re.search(rf"Battlecards.*</a></th><td>{shown}\??</td><td>1</td><td>1</td>", page, re.I)
    assert page.count('/replay/">Replay</a>') == 2
    assert "a private deck" in page and "Operation Secret" not in page
    assert re.search(r"bob resigned: alice won", page)
    client.force_login(alice)
    assert "Operation Secret" in client.get("/players/alice/").content.decode()
    assert client.get("/players/nobody-here/").status_code == 404
    assert api(None).get("/api/users/nobody-here/games/").json()["code"] == "unknown_user"


def test_the_watch_list_shows_the_live_games_one_may_watch_with_their_delay(
    client, api, create_game, alice, bob, carol
):
    watched = create_game(alice, spectators={"allowed": True, "delay": 3})["id"]
    private = create_game(alice)["id"]
    waiting = create_game(alice, spectators={"allowed": True})["id"]
    for gid in (watched, private):
        assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    live = api(carol).get("/api/games/live/").json()
    assert [g["id"] for g in live["results"]] == [watched]
    assert live["results"][0]["spectators"]["delay"] == 3
    assert api(None).get("/api/games/live/").json()["code"] == "not_authenticated"
    assert api(bob).get("/api/games/live/").json()["count"] == 0  # his own games are his to play
    client.force_login(carol)
    page = client.get("/watch/").content.decode()
    assert f"/play/{watched}/watch/" in page and "3 plies behind" in page
    assert HiddenInfoOracle(watched).check(sorted(_tokens(page)), None) > 0
    assert private not in page and waiting not in page
    client.logout()
    assert client.get("/watch/")["Location"].startswith("/accounts/login/")


def test_the_new_endpoints_are_typed_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/games/live/", "/api/users/{username}/games/"):
        answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert answer["$ref"].startswith("#/components/schemas/Paginated")


def test_the_waiting_creator_is_brought_into_the_game_when_someone_joins(
    client, api, create_game, alice, bob
):
    gid = create_game(alice)["id"]
    client.force_login(alice)
    page = client.get(f"/play/{gid}/").content.decode()
    assert f'hx-get="/play/{gid}/?waiting=1"' in page and 'hx-trigger="every 2s"' in page
    assert client.get(f"/play/{gid}/?waiting=1", HTTP_HX_REQUEST="true").status_code == 204
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    joined = client.get(f"/play/{gid}/?waiting=1", HTTP_HX_REQUEST="true")
    assert joined.status_code == 200 and joined["HX-Redirect"] == f"/play/{gid}/"
    game_page = client.get(f"/play/{gid}/").content.decode()
    assert "bob joined: the game is on." in game_page and 'class="board"' in game_page


def test_the_replay_position_is_in_the_url(client, api, two_player_game, alice):
    gid = two_player_game["id"]
    assert api(alice).post(f"/api/games/{gid}/resign/").status_code == 200
    client.force_login(alice)
    assert "ply 0 of 0" in client.get(f"/play/{gid}/replay/?ply=0").content.decode()
    page = client.get(f"/play/{gid}/replay/?ply=5").content.decode()  # clamped to the game's length
    assert re.search(r"ply (\d+) of \1", page) and f'href="/play/{gid}/replay/?ply=0" rel="first"' in page
    assert 'aria-keyshortcuts="Home"' in page and "replay.js" in page
