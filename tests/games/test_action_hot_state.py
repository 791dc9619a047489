"""An action POST hands its engine state on to the next action POST on the same game in the same process
(games.fastpath.hot_state, issue 26): the next one neither reads nor decodes the stored state, yet stores
exactly what a replay of the log gives; a state kept for an older row (another process wrote since), or
taken by an action the engine refused, is never used."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.fastpath import hot_state
from games.game_type_base import GameType
from games.models import Game
from games.services import game_rebuild_state

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the hand-on waits for a real commit
    pytest.mark.postgresql_only(
        reason="counts the statements of PostgreSQL's one-statement write (UPDATE ... RETURNING in a CTE)"
    ),
]


def _statements(queries) -> list[str]:
    skipped = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")
    return [q["sql"] for q in queries if not q["sql"].startswith(skipped)]


HELD_LOCK = 'CASE WHEN "games_game"."version" = '  # the lock that reads the state only if the row moved on


@pytest.fixture
def decodes(monkeypatch) -> list[int]:
    """Each decoding of a stored state (GameType.state_from_json), as it happens."""
    calls: list[int] = []
    original = GameType.state_from_json

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(GameType, "state_from_json", counted)
    return calls


def _act(client, game_id, view, captured=None):
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    if captured is None:
        response = client.post(f"/api/games/{game_id}/actions/", body, format="json")
    else:
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/api/games/{game_id}/actions/", body, format="json")
        captured.extend(_statements(queries.captured_queries))
    assert response.status_code == 200, response.json()
    return response.json()["state"]


def _stored_equals_replay(game_id) -> Game:
    stored = Game.objects.get(pk=game_id)
    assert stored.state == game_rebuild_state(game=stored).to_json()
    return stored


def test_the_next_action_takes_the_state_left_by_the_last_one_and_stores_the_replayed_state(
    create_game, api, alice, decodes
):
    hot_state.clear()
    client = api(alice)
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    view = client.get(f"/api/games/{game['id']}/view/").json()
    view = _act(client, game["id"], view)  # decodes the stored state, then keeps its own for the next one
    assert hot_state.held_version(Game.objects.get(pk=game["id"]).pk) is not None
    for _ in range(6):
        if view["status"] != "active":
            break
        statements: list[str] = []
        decodes.clear()
        after = _act(client, game["id"], view, statements)
        assert len(statements) == 3, statements  # token, row lock, write
        assert HELD_LOCK in statements[1] and "FOR UPDATE" in statements[1]
        assert decodes == []  # the state column came back NULL (the row is the one written): nothing decoded
        stored = _stored_equals_replay(game["id"])
        assert after["version"] == stored.version
        # the answer is the one a fresh process (decoding the stored state) gives for this row
        assert client.get(f"/api/games/{game['id']}/view/").json()["view"] == after["view"]
        view = after


def test_a_state_kept_for_an_older_row_is_not_used(create_game, api, alice, decodes):
    """Another process wrote the game since this one kept its state: the row's version differs, so the
    state column comes with the row lock (no more statements) and is decoded, and the stored state is still
    the replay's."""
    hot_state.clear()
    client = api(alice)
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    pk = Game.objects.get(pk=game["id"]).pk
    view = _act(client, game["id"], client.get(f"/api/games/{game['id']}/view/").json())
    older = hot_state._WRITERS[pk]
    hot_state.clear()  # the next write is "another process's": this one's kept state stays the older one
    view = _act(client, game["id"], view)
    hot_state._WRITERS[pk] = older
    statements: list[str] = []
    decodes.clear()
    view = _act(client, game["id"], view, statements)
    assert len(statements) == 3 and HELD_LOCK in statements[1], statements
    assert decodes == [1]
    _stored_equals_replay(game["id"])


def test_a_refused_action_consumes_the_kept_state_and_a_stale_version_leaves_it(create_game, api, alice):
    hot_state.clear()
    client = api(alice)
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    pk = Game.objects.get(pk=game["id"]).pk
    view = _act(client, game["id"], client.get(f"/api/games/{game['id']}/view/").json())

    stale = {"version": view["version"] - 1, "action": view["view"]["decision"]["legal_actions"][0]}
    response = client.post(f"/api/games/{game['id']}/actions/", stale, format="json")
    assert response.status_code == 409 and hot_state.held_version(pk) is not None

    refused = {"version": view["version"], "action": {"type": "no_such_action"}}
    response = client.post(f"/api/games/{game['id']}/actions/", refused, format="json")
    assert response.status_code == 400 and not hot_state.held_version(pk) is not None  # taken, then dropped

    statements: list[str] = []
    _act(client, game["id"], view, statements)
    assert len(statements) == 3 and '"games_game"."state"' in statements[1]  # read again from the row
    _stored_equals_replay(game["id"])
