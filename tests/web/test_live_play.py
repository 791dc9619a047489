"""The game page's live-play controls (issue 38 §1): both clocks as the server counts them, takeback request
and answer, the seats' ratings and a rated game's change, the end in words; and a non-player's way to the
spectator view. Every page and fragment read here also goes through the hidden-information oracle."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from games import clocks
from games.models import Game
from tests.games.conftest import HiddenInfoOracle, token_client
from tests.web.test_play import _decision_buttons, _tokens

pytestmark = pytest.mark.django_db


class FakeTime:
    def __init__(self) -> None:
        self.at = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def fake_time(monkeypatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(clocks, "now", fake)
    return fake


def _clocks(page: str) -> dict[str, tuple[int, bool, str]]:
    """side -> (remaining ms, running, the time drawn) of the page's clocks."""
    found = re.findall(
        r'<p class="clock[^"]*" data-side="(\w+)" data-remaining-ms="(\d+)" data-running="([01])">'
        r'.*?<span class="time"[^>]*>([^<]+)</span>',
        page,
    )
    return {side: (int(ms), running == "1", text) for side, ms, running, text in found}


def _page(client, user, gid: str, **headers) -> str:
    client.force_login(user)
    response = client.get(f"/play/{gid}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def clocked_game(create_game, api, alice, bob, fake_time):
    game = create_game(alice, time_control={"kind": "realtime", "minutes": 5, "increment_seconds": 2})
    assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    return game["id"]


def test_both_clocks_show_the_servers_times_and_the_running_one_counts_down(client, clocked_game, alice, bob,
                                                                             fake_time):
    gid = clocked_game
    oracle = HiddenInfoOracle(gid)
    page = _page(client, bob, gid)
    shown = _clocks(page)
    assert set(shown) == {"axis", "allies"}
    assert shown["axis"] == (300_000, True, "5:00") and shown["allies"] == (300_000, False, "5:00")
    fake_time.at += timedelta(seconds=61.5)  # a redraw takes the server's time again
    fragment = _page(client, bob, gid, HTTP_HX_REQUEST="true")
    assert _clocks(fragment)["axis"] == (238_500, True, "3:58")
    api = token_client(bob).get(f"/api/games/{gid}/view/").json()["clock"]
    assert {s["side"]: s["remaining_ms"] for s in api["sides"]} == {"axis": 238_500, "allies": 300_000}
    assert oracle.check(sorted(_tokens(page)), "axis") + oracle.check(sorted(_tokens(fragment)), "axis") > 0
    # the flag falls: the next redraw is the end, on time, in words
    fake_time.at += timedelta(minutes=5)
    ended = _page(client, alice, gid)
    assert "Game over. bob ran out of time: you won." in ended, re.findall(r"Game over[^<]*", ended)
    assert "(timeout)" not in ended


def test_a_takeback_asked_on_the_page_is_answered_on_the_other_players_page(client, two_player_game, alice,
                                                                            bob):
    gid = two_player_game["id"]
    users = {"axis": bob, "allies": alice}
    oracle = HiddenInfoOracle(gid)
    for _ in range(40):  # act until an action may be taken back (one that showed no hidden card)
        mover = next(seat for seat in users if _decision_buttons(_page(client, users[seat], gid)))
        version, action = _decision_buttons(_page(client, users[mover], gid))[0]
        client.post(f"/play/{gid}/act/", {"version": version, "action": action})
        page = _page(client, users[mover], gid)
        assert "Ask to take back my last action" in page
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        asked = client.post(f"/play/{gid}/takeback/", {"version": version}, HTTP_HX_REQUEST="true")
        assert asked.status_code == 200
        if "waiting for the answer" in asked.content.decode():
            break
        assert 'role="alert"' in asked.content.decode()  # refused in words (it showed a hidden card...)
    else:
        raise AssertionError("no action could be taken back")
    other = "allies" if mover == "axis" else "axis"
    answer_page = _page(client, users[other], gid)
    who = users[mover].username
    assert f"{who} asks to take back 1 action." in answer_page
    assert oracle.check(sorted(_tokens(answer_page)), other) > 0
    before = Game.objects.get(pk=gid).last_seq
    version = re.search(r'name="version" value="(\d+)"', answer_page).group(1)
    answered = client.post(
        f"/play/{gid}/takeback/answer/", {"version": version, "accept": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert answered.status_code == 200 and "asks to take back" not in answered.content.decode()
    status = token_client(users[other]).get(f"/api/games/{gid}/takeback/").json()
    assert status["pending"] is None
    entries = token_client(users[other]).get(f"/api/games/{gid}/events/?since={before}").json()["entries"]
    assert any(e["type"] == "takeback" for entry in entries for e in entry["events"])


def test_a_stale_takeback_answer_is_refused_in_words_on_the_board(client, two_player_game, bob):
    gid = two_player_game["id"]
    client.force_login(bob)
    answered = client.post(f"/play/{gid}/takeback/", {"version": "0"}, HTTP_HX_REQUEST="true")
    assert answered.status_code == 200
    assert re.search(r'<p class="error" role="alert">[^<]+</p>', answered.content.decode())


def test_the_seats_ratings_and_a_rated_games_change_and_the_end_in_words(
    client, create_game, api, alice, bob
):
    from tests.games.conftest import every_seat_acts

    game = create_game(alice, rated=True)
    gid = game["id"]
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    page = _page(client, alice, gid)
    assert re.search(r'data-seat="axis"><span class="who">bob</span>.*rating 1500\?', page)
    assert re.search(r'data-seat="allies"><span class="who">you</span>.*rating 1500\?', page)
    every_seat_acts(api, gid, {"allies": alice, "axis": bob})
    assert api(bob).post(f"/api/games/{gid}/resign/").status_code == 200
    seats = {s["seat"]: s for s in api(alice).get(f"/api/games/{gid}/").json()["seats"]}
    page = _page(client, alice, gid)
    for seat, user in (("allies", "you"), ("axis", "bob")):
        change = seats[seat]["rating_change"]
        delta = round(change["rating_after"] - change["rating_before"])
        words = f"{delta:+d} ({round(change['rating_before'])} → {round(change['rating_after'])})"
        shown = rf'<span class="who">{user}</span>.*<span class="rating-change">{re.escape(words)}'
        assert re.search(shown, page)
    assert seats["allies"]["rating_change"]["rating_after"] > 1500
    assert "Game over. bob resigned: you won." in page and "(resignation)" not in page
    assert "Game over. You resigned: alice won." in _page(client, bob, gid)


def test_a_game_without_a_time_control_draws_no_clock(client, two_player_game, bob):
    assert 'class="clocks"' not in _page(client, bob, two_player_game["id"])


def test_a_non_player_gets_the_spectator_view_where_watching_is_allowed(client, create_game, api, alice, bob,
                                                                        carol):
    watched = create_game(alice, spectators={"allowed": True})
    closed = create_game(alice)
    for game in (watched, closed):
        assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    client.force_login(carol)
    response = client.get(f"/play/{watched['id']}/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/play/{watched['id']}/watch/"
    assert 'class="board board-watch"' in response.content.decode()
    assert client.get(f"/play/{closed['id']}/").status_code == 404  # a game between others, not watchable
    client.logout()
    assert client.get(f"/play/{watched['id']}/")["Location"].startswith("/accounts/login/")
