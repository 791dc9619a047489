"""Watch and replay pages: a spectator's live table (the public view, following the spectator stream) and a
finished game's public replay stepped forward and back, both under the hidden-information oracle."""

from __future__ import annotations

import re

import pytest

from tests.games.conftest import HiddenInfoOracle, token_client
from tests.web.test_play import _decision_buttons, _tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def watched_game(create_game, api, alice, bob):
    """alice (allies) and bob (axis), a game its creator opened to spectators."""
    game = create_game(alice, spectators={"allowed": True})
    assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    return game


def _play(client, game_id, users, moves):
    for _ in range(moves):
        for user in users:
            client.force_login(user)
            buttons = _decision_buttons(client.get(f"/play/{game_id}/").content.decode())
            if buttons:
                client.post(f"/play/{game_id}/act/", {"version": buttons[0][0], "action": buttons[0][1]})


def test_oracle_a_spectator_watches_live_and_sees_no_hidden_card(client, watched_game, alice, bob, carol):
    gid = watched_game["id"]
    oracle = HiddenInfoOracle(gid)
    checked = 0
    for _ in range(4):
        client.force_login(carol)
        page = client.get(f"/play/{gid}/watch/").content.decode()
        assert 'class="board board-watch"' in page and f"/api/games/{gid}/spectate/stream/" in page
        checked += oracle.check(sorted(_tokens(page)), None)
        fragment = client.get(f"/play/{gid}/watch/", HTTP_HX_REQUEST="true").content.decode()
        assert fragment.startswith('<div class="board board-watch"')
        checked += oracle.check(sorted(_tokens(fragment)), None)
        _play(client, gid, (bob, alice), 1)
    assert checked > 0


def test_oracle_a_finished_game_replays_forward_and_back(client, watched_game, alice, bob, carol):
    gid = watched_game["id"]
    _play(client, gid, (bob, alice), 3)
    client.force_login(alice)
    assert "/replay/" not in client.get(f"/play/{gid}/").content.decode()
    assert client.get(f"/play/{gid}/replay/").status_code == 409  # published when the game ends
    assert token_client(alice).post(f"/api/games/{gid}/resign/").status_code == 200
    assert f"/play/{gid}/replay/" in client.get(f"/play/{gid}/").content.decode()  # linked once finished
    oracle = HiddenInfoOracle(gid)
    for user in (carol, alice):
        client.force_login(user)
        page = client.get(f"/play/{gid}/replay/").content.decode()
        steps = int(re.search(r"ply 0 of (\d+)", page).group(1))
        assert steps >= 3
        seen = []
        for step in [*range(steps + 1), steps - 1, 1]:  # forward to the end, then back
            fragment = client.get(f"/play/{gid}/replay/?ply={step}", HTTP_HX_REQUEST="true").content.decode()
            assert f'data-step="{step}"' in fragment
            oracle.check(sorted(_tokens(fragment)), None)
            seen.append(fragment)
        assert "Game over" in seen[steps] and seen[1] == seen[-1]  # back at step 1: the same table


def _site_answer(client, user, gid: str) -> int:
    """The watch page's answer as the API's status: the login page for an anonymous visitor is a 401."""
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/play/{gid}/watch/")
    if response.status_code == 302:
        assert response["Location"] == f"/accounts/login/?next=/play/{gid}/watch/"
        return 401
    return response.status_code


def test_who_may_watch_is_one_rule_for_the_site_and_the_api(client, create_game, api, alice, bob, carol):
    """Issue 34 (7): watching needs a signed-in user (anonymous: 401, the site's login page); a player may
    always watch; another user when the creator allowed spectators (bot games by default), else 403 once
    the game is public (finished), 404 while it is played. The API's spectate endpoints and the site's watch
    page answer alike for every case."""
    bot = create_game(alice, opponent={"kind": "bot", "bot": "random"}, seed=3)
    human = create_game(alice, seed=4)
    assert api(bob).post(f"/api/games/{human['id']}/join/").status_code == 200
    expected = {  # (game, viewer) -> status, while active and once finished
        ("bot", None): (401, 401), ("bot", "carol"): (200, 200), ("bot", "alice"): (200, 200),
        ("human", None): (401, 401), ("human", "carol"): (404, 403), ("human", "alice"): (200, 200),
    }
    users = {None: None, "carol": carol, "alice": alice}
    seen = {}
    for phase in (0, 1):
        if phase == 1:
            for game in (bot, human):
                assert api(alice).post(f"/api/games/{game['id']}/resign/").status_code == 200
        for name, game in (("bot", bot), ("human", human)):
            gid = game["id"]
            for viewer, user in users.items():
                answers = {
                    "api view": api(user).get(f"/api/games/{gid}/spectate/").status_code,
                    "api log": api(user).get(f"/api/games/{gid}/spectate/events/").status_code,
                    "site": _site_answer(client, user, gid),
                }
                if answers["api view"] != 200:  # a refused stream opens nothing
                    answers["api stream"] = api(user).get(f"/api/games/{gid}/spectate/stream/").status_code
                seen[name, viewer, phase] = answers
                want = expected[name, viewer][phase]
                assert set(answers.values()) == {want}, (name, viewer, phase, answers)
    anonymous = api(None).get(f"/api/games/{bot['id']}/spectate/")
    assert anonymous.json()["code"] == "not_authenticated" and anonymous["WWW-Authenticate"] == "Token"
    assert len(seen) == 12
