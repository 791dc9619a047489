"""GET /api/games/{id}/view/ answers the JSON its seat's view renders to, spliced from the encoded part this
process keeps per game row and seat (games.fastpath.hot_state) and the fields read per request (the row's
header, the clock at the time of the request): byte for byte what DRF's JSONRenderer makes of the view built
afresh from the stored row, after every action and after the end, never a view of an older row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer

from games import clocks, selectors
from games.fastpath import hot_state
from games.models import GameSeat
from tests.games.conftest import game_body

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixed_time(monkeypatch) -> list[datetime]:
    at = [datetime(2030, 1, 1, 12, 0, tzinfo=UTC)]
    monkeypatch.setattr(clocks, "now", lambda: at[0])
    return at


def afresh(gid: str, seat: str) -> bytes:
    """The seat's view built from the stored row alone (no process memory), rendered by DRF."""
    user = GameSeat.objects.get(game_id=gid, seat=seat).user
    game = selectors.game_get(game_id=gid, user=user, columns=("state",))
    payload = selectors.seat_view_payload(game=game, seat=seat, state=selectors.game_state(game=game))
    return JSONRenderer().render(payload)


def test_each_view_is_the_json_of_the_view_built_afresh_after_every_action_and_the_end(
    create_game, api, alice, bob, fixed_time
):
    game = create_game(alice, time_control={"kind": "realtime", "minutes": 5})
    gid = game["id"]
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    clients = {"allies": api(alice), "axis": api(bob)}
    for _ in range(12):
        views: dict[str, Any] = {}
        for seat, client in clients.items():
            for _ in range(2):  # the first built and kept, the second from the kept entry
                response = client.get(f"/api/games/{gid}/view/")
                assert response.status_code == 200
                assert response["Content-Type"] == "application/json"
                assert response.content == afresh(gid, seat)
            views[seat] = response.json()
        fixed_time[0] += timedelta(seconds=7)  # the clock is read per request, not kept
        mover = next(seat for seat, view in views.items() if view["your_turn"])
        clock = clients[mover].get(f"/api/games/{gid}/view/").json()["clock"]
        assert clock["server_time"] == fixed_time[0].isoformat()
        action = views[mover]["view"]["decision"]["legal_actions"][0]
        body = {"version": views[mover]["version"], "action": action}
        assert clients[mover].post(f"/api/games/{gid}/actions/", body, format="json").status_code == 200
    assert clients["allies"].post(f"/api/games/{gid}/resign/").status_code == 200
    for seat, client in clients.items():
        response = client.get(f"/api/games/{gid}/view/")
        assert response.content == afresh(gid, seat)
        assert response.json()["status"] == "finished"
        assert response.json()["view"]["decision"] is None or not response.json()["view"]["decision"].get(
            "legal_actions"
        )


def test_the_view_of_a_row_this_process_did_not_decode_is_read_with_its_state(two_player_game, api, bob):
    gid = two_player_game["id"]
    hot_state.clear()
    assert api(bob).get(f"/api/games/{gid}/view/").content == afresh(gid, "axis")
    hot_state.clear()
    assert api(bob).get(f"/api/games/{gid}/view/").json() == selectors.game_player_view(game_id=gid, user=bob)


def test_a_kept_view_is_read_with_two_statements_the_token_and_the_game_with_its_seats(
    two_player_game, api, bob
):
    gid = two_player_game["id"]
    client = api(bob)
    assert client.get(f"/api/games/{gid}/view/").status_code == 200
    with CaptureQueriesContext(connection) as viewed:
        assert client.get(f"/api/games/{gid}/view/").status_code == 200
    statements = [q["sql"] for q in viewed.captured_queries]
    assert len(statements) == 2, statements
    assert "authtoken_token" in statements[0] and '"games_gameseat"' in statements[1]
    assert '"state"' not in statements[1] and '"setup"' not in statements[1]


def test_errors_and_the_browsable_api_are_answered_as_before(create_game, two_player_game, api, alice, carol):
    gid = two_player_game["id"]
    response = api(carol).get(f"/api/games/{gid}/view/")  # a stranger: the game is not public
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"
    missing = api(alice).get("/api/games/00000000-0000-4000-8000-000000000000/view/")
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
    open_game = create_game(alice, **game_body())
    response = api(alice).get(f"/api/games/{open_game['id']}/view/")
    assert response.status_code == 409 and response.json()["code"] == "game_not_active"
    html = api(alice).get(f"/api/games/{gid}/view/", HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
    assert api(alice).get(f"/api/games/{gid}/view/?format=json").content == afresh(gid, "allies")
