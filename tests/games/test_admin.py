"""The admin shows games and their log read-only."""

from __future__ import annotations

import pytest

from tests.decks.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_staff_browse_games_and_log_but_cannot_change_them(client, two_player_game):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    gid = two_player_game["id"]
    assert client.get("/admin/games/game/").status_code == 200
    page = client.get(f"/admin/games/game/{gid}/change/")
    assert page.status_code == 200
    assert b"seed_hash" in page.content or two_player_game["seed_hash"].encode() in page.content
    assert client.get("/admin/games/gameaction/").status_code == 200
    assert client.get("/admin/games/game/add/").status_code == 403
    assert client.post(f"/admin/games/game/{gid}/delete/").status_code == 403
