"""An action answered by the bot costs three statements on PostgreSQL (issue 26): the token with its user, the
game row locked with its seats, and one write (the log rows, the game row and the bus's pg_notify); both
reads are compiled once per process (config.prepared) and return the same rows as the ORM."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameAction


def _statements(queries) -> list[str]:
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


@pytest.mark.postgresql_only(reason="the one-statement write (a data-modifying CTE) is PostgreSQL's")
def test_an_action_answered_by_the_bot_is_three_statements(create_game, api, alice):
    client = api(alice)
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    view = client.get(f"/api/games/{game['id']}/view/").json()
    before = GameAction.objects.filter(game_id=game["id"]).count()
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    with CaptureQueriesContext(connection) as acted:
        response = client.post(f"/api/games/{game['id']}/actions/", body, format="json")
    assert response.status_code == 200, response.json()
    statements = _statements(acted.captured_queries)
    assert len(statements) == 3, statements
    assert "authtoken_token" in statements[0] and "FOR UPDATE" in statements[1]
    assert "INSERT INTO" in statements[2] and "UPDATE" in statements[2] and "pg_notify" in statements[2]
    entries = response.json()["entries"]
    stored = Game.objects.get(pk=game["id"])
    assert stored.version == response.json()["state"]["version"] == entries[-1]["version"]
    assert stored.last_seq == entries[-1]["seq"]
    assert GameAction.objects.filter(game_id=game["id"]).count() == before + len(entries)
    assert client.get(f"/api/games/{game['id']}/view/").json()["version"] == stored.version


def test_an_unknown_token_and_an_inactive_user_are_refused(api, alice):
    from rest_framework.test import APIClient

    unknown = APIClient()
    unknown.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert unknown.get("/api/games/").status_code == 401
    client = api(alice)
    assert client.get("/api/games/").status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get("/api/games/").status_code == 401
