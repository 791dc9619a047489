"""Prepared statements on PostgreSQL (issue 42): the hot path's statements (config.prepared's queries: the
token read, the game row lock with its seats; the fast path's progress write) run on server-binding cursors
with the same SQL text every time, so a connection with a `prepare_threshold` (production settings:
DB_PREPARE_THRESHOLD) prepares them on the server and PostgreSQL stops planning them per request. The answers
and the stored game are the same as without preparing; Django's own (client-binding) queries are never
prepared; and the production setting is read as documented."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.fastpath import hot_state
from games.models import Game
from games.services import game_rebuild_state

ROOT = Path(__file__).resolve().parents[2]
REASON = "prepared statements and server-side binding are PostgreSQL's"


def on_postgresql(test):
    """The database tests (the settings' tests below run on either database)."""
    test = pytest.mark.postgresql_only(reason=REASON)(test)
    return pytest.mark.django_db(transaction=True)(test)


def _prepared() -> list[str]:
    """The statements prepared on this connection (its own session's pg_prepared_statements)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.fixture
def threshold():
    """Set the psycopg connection's prepare_threshold (as production's OPTIONS do), then restore it."""
    connection.ensure_connection()
    raw = connection.connection
    before = raw.prepare_threshold

    def set_to(value):
        raw.prepare_threshold = value
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")  # a clean start for this connection's prepared statements
        raw._prepared.clear()

    yield set_to
    set_to(before)


def _play(client, game_id: str, actions: int) -> dict:
    view = client.get(f"/api/games/{game_id}/view/").json()
    for _ in range(actions):
        if view["status"] != "active":
            break
        body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        response = client.post(f"/api/games/{game_id}/actions/", body, format="json")
        assert response.status_code == 200, response.json()
        view = response.json()["state"]
    return view


def _played(create_game, api, alice, threshold, value) -> tuple[dict, Game]:
    """A new game against the bot, 4 actions played with the connection's prepare_threshold at `value`:
    (the last answer's state, the stored game)."""
    hot_state.clear()
    client = api(alice)
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    threshold(value)
    return _play(client, game["id"], 4), Game.objects.get(pk=game["id"])


@on_postgresql
def test_the_hot_paths_statements_are_prepared_once_run_often_enough(create_game, api, alice, threshold):
    # psycopg prepares a statement at its second run on the connection
    view, stored = _played(create_game, api, alice, threshold, 1)
    prepared = _prepared()
    assert any('"authtoken_token"' in s for s in prepared), prepared  # the token read
    assert any('FOR UPDATE' in s and '"games_game"' in s for s in prepared), prepared  # the game row lock
    assert any(s.startswith("WITH log AS (INSERT INTO") for s in prepared), prepared  # the progress write
    assert all("$1" in s for s in prepared)  # bound on the server, never a value in the text
    assert not any(s.lstrip().upper().startswith("SAVEPOINT") for s in prepared)  # Django's own: client-bound
    assert stored.version == view["version"]
    assert stored.state == game_rebuild_state(game=stored).to_json()  # the log replays to what was stored


@on_postgresql
def test_without_a_threshold_nothing_is_prepared_and_the_game_is_the_same(create_game, api, alice, threshold):
    view, stored = _played(create_game, api, alice, threshold, None)  # None: Django's default
    assert _prepared() == []
    assert stored.version == view["version"]
    assert stored.state == game_rebuild_state(game=stored).to_json()


def _production_threshold(value: str | None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "DB_PREPARE_THRESHOLD"}
    environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "x" * 60,
                    "ALLOWED_HOSTS": "a.example", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x"})
    if value is not None:
        environ["DB_PREPARE_THRESHOLD"] = value
    return subprocess.run(  # noqa: S603
        [sys.executable, "-c", "from django.conf import settings; "
         "print(settings.DATABASES['default']['OPTIONS']['prepare_threshold'])"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize(("given", "read"), [(None, "2"), ("5", "5"), ("0", "0"), ("off", "None")])
def test_production_reads_db_prepare_threshold(given, read):
    done = _production_threshold(given)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == read


def test_production_refuses_a_threshold_that_is_not_a_number():
    done = _production_threshold("sometimes")
    assert done.returncode != 0
    assert "DB_PREPARE_THRESHOLD must be a whole number or 'off'" in done.stderr


@on_postgresql
def test_an_action_never_sends_begin_alone(create_game, api, alice):
    """The action service's transaction opens with its locked read of the game and its seats, BEGIN in the
    same round trip (config.prepared.begun_with_next_statement; libpq's trace of the connection)."""
    from games.services import game_action_submit
    from tests.test_prepared_begin import traced

    game = create_game(alice, opponent={"kind": "bot", "bot": "random"})
    view = api(alice).get(f"/api/games/{game['id']}/view/").json()
    with traced() as trips:
        game_action_submit(
            game_id=game["id"], user=alice, version=view["version"],
            action=view["view"]["decision"]["legal_actions"][0],
        )
    opening = [t for t in trips if any('"BEGIN"' in m for m in t)]
    assert len(opening) == 1, trips
    assert any("games_gameseat" in m for m in opening[0]), "BEGIN travelled alone"
    assert trips[-1] == ['Query\t "COMMIT"']
