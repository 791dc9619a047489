"""The game view and the action path read no bulky column they do not need (the catalog snapshot is about
54 KB): the game's Catalog is cached per snapshot hash once this process has built it."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext


def _game_selects(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_game"."id"' in q["sql"]]


def test_the_view_and_an_action_never_read_the_catalog_snapshot(two_player_game, api, alice, bob):
    gid = two_player_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    for client in clients.values():
        assert client.get(f"/api/games/{gid}/view/").status_code == 200  # the Catalog is built now
    for seat, client in clients.items():
        with CaptureQueriesContext(connection) as viewed:
            view = client.get(f"/api/games/{gid}/view/").json()
        assert view["seat"] == seat
        selects = _game_selects(viewed.captured_queries)
        assert selects and not any("catalog_snapshot" in sql or '"setup"' in sql for sql in selects)
        if view["your_turn"]:
            action = view["view"]["decision"]["legal_actions"][0]
            with CaptureQueriesContext(connection) as acted:
                body = {"version": view["version"], "action": action}
                response = client.post(f"/api/games/{gid}/actions/", body, format="json")
            assert response.status_code == 200, response.json()
            selects = _game_selects(acted.captured_queries)
            assert selects and not any("catalog_snapshot" in sql for sql in selects)
    with CaptureQueriesContext(connection) as detail:
        assert api(alice).get(f"/api/games/{gid}/").status_code == 200
    assert not any(
        "catalog_snapshot" in sql or '"state"' in sql for sql in _game_selects(detail.captured_queries)
    )
