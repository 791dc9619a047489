"""Stored games keep working (issue 34): games a server of commit f2fae7c stored, one per game type
(tests/games/stored/, made once: see its README.md), load into the database as that server left them,
pass `manage.py verify_games`, are watched at a delay and go on with legal actions through the API, pass
verify_games again, and once over their replay (`/api/games/<id>/replay/`) re-runs to the final state and
the site's replay page steps through them. Later code must keep every one of them working."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command

from games.catalog_snapshot import catalog_from_snapshot
from games.game_types import get_game_type
from games.models import Game, GameAction, LogKind
from games.selectors import state_digest
from tests.games.conftest import token_client
from tests.games.stored import STORED_GAMES, load_stored_game, stored_data

pytestmark = pytest.mark.django_db
MORE_ACTIONS = 12  # actions of the human seats after loading


def _verify(game: Game) -> None:
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()


def _legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The deciding seat's legal actions, wherever its game's view puts them."""
    return view.get("legal_actions") or (view.get("decision") or {}).get("legal_actions") or []


def _go_on(game: Game, clients: dict[str, Any], rng: random.Random) -> int:
    """Random legal actions of the human seats (never end_match: the match goes on), through the API."""
    done = 0
    for _ in range(4 * MORE_ACTIONS):
        if done == MORE_ACTIONS:
            break
        views = {seat: c.get(f"/api/games/{game.pk}/view/") for seat, c in clients.items()}
        assert all(v.status_code == 200 for v in views.values()), {s: v.json() for s, v in views.items()}
        views = {seat: v.json() for seat, v in views.items()}
        if next(iter(views.values()))["status"] == "finished":
            break
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1, {s: v["view"].get("decision") for s, v in views.items()}
        seat = movers[0]
        legal = [a for a in _legal(views[seat]["view"]) if a.get("type") != "end_match"]
        assert legal, views[seat]["view"]
        body = {"version": views[seat]["version"], "action": rng.choice(legal)}
        response = clients[seat].post(f"/api/games/{game.pk}/actions/", body, format="json")
        assert response.status_code == 200, response.json()
        done += 1
    return done


@pytest.mark.parametrize("name", STORED_GAMES)
def test_a_stored_game_loads_goes_on_verifies_and_replays(client, catalog_rows, carol, name):
    data = stored_data(name)
    assert data["made_with_commit"] and data["game"]["status"] == "active"
    game = load_stored_game(name)
    assert game.game_type == data["game_type"] and game.state == data["game"]["state"]
    _verify(game)  # the stored state is still what its log replays to

    kind = get_game_type(data["game_type"])
    humans = {s.seat: token_client(s.user) for s in game.seats.all() if s.user_id}
    before = GameAction.objects.filter(game=game, kind=LogKind.ACTION).count()
    watched = token_client(carol).get(f"/api/games/{game.pk}/spectate/?delay=3")  # a delayed public view
    assert watched.status_code == 200 and watched.json()["seq"] < game.last_seq, watched.json()

    done = _go_on(game, humans, random.Random(name))
    game.refresh_from_db()
    assert done == MORE_ACTIONS or (done and game.status == "finished")
    assert GameAction.objects.filter(game=game, kind=LogKind.ACTION).count() > before
    _verify(game)

    if game.status != "finished":
        creator = next(iter(humans.values()))
        assert creator.post(f"/api/games/{game.pk}/resign/").status_code == 200
    replay = token_client(carol).get(f"/api/games/{game.pk}/replay/")
    assert replay.status_code == 200, replay.json()
    replay = replay.json()
    assert replay["game_type"] == data["game_type"] and replay["actions"]
    catalog = catalog_from_snapshot(replay["catalog"], None, build=kind.catalog_from_dicts)
    rerun = kind.replay(catalog, replay["setup"], replay["actions"])
    assert state_digest(rerun.to_json()) == replay["final_state_sha256"]  # a client re-runs it exactly

    client.force_login(carol)
    middle = len(replay["actions"]) // 2
    page = client.get(f"/play/{game.pk}/replay/?step={middle}")
    assert page.status_code == 200 and f'data-step="{middle}"' in page.content.decode()
