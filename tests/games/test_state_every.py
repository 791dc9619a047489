"""The stored state is rewritten every GAMES_STATE_EVERY log entries (issue 42): an action POST in between
leaves the state column as it is, and every read applies the engine actions logged after it
(Game.state_lag). Whatever was stored, what anyone reads is the state the log replays to: the seats'
views, the next action, a resignation, a takeback, verify_games, a process that has not seen the game.

On SQLite and PostgreSQL, through the fast path and the reference path."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from django.core.management import call_command

from games import clocks, services
from games.fastpath import hot_state
from games.models import Game, GameStatus, LogKind
from games.selectors import game_state, state_digest
from games.services import game_rebuild_state
from tests.games.conftest import OTHER
from tests.games.test_clocks import REALTIME, FakeTime, act, body_1v1, create, mover

EVERY = 4


@pytest.fixture
def every(settings):
    settings.GAMES_STATE_EVERY = EVERY
    return EVERY


def _current(gid: str) -> tuple[Game, dict[str, Any]]:
    game = Game.objects.get(pk=gid)
    return game, game_state(game=game).to_json()


def _play(client: Any, gid: str, actions: int, *, forget: bool = False) -> list[tuple[int, int, bool]]:
    """Post the first legal action `actions` times (the bot answers); after each, the stored state with
    the actions logged after it is the log's replay. Returns (state_lag, written) per action."""
    steps = []
    for _ in range(actions):
        if forget:
            hot_state.clear()  # as a process that has not seen this game: the row is read and decoded
        view = client.get(f"/api/games/{gid}/view/").json()
        if view["status"] != "active":
            break
        before = Game.objects.get(pk=gid).state
        action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        answer = client.post(f"/api/games/{gid}/actions/", action, format="json")
        assert answer.status_code == 200, answer.json()
        game, current = _current(gid)
        assert current == game_rebuild_state(game=game).to_json()
        assert answer.json()["state"]["version"] == game.version
        if game.status == GameStatus.ACTIVE:
            assert game.state_lag < EVERY  # never more entries after it than that
        steps.append((game.state_lag, game.state != before))
    return steps


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "reference-path"])
@pytest.mark.parametrize("forget", [False, True], ids=["kept-state", "state-read-anew"])
def test_the_state_column_is_written_every_few_entries_and_reads_replay_the_rest(
    every, fast, forget, settings, create_game, api, alice
):
    settings.GAMES_FAST_PATH = fast
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    client = api(alice)
    steps = _play(client, gid, 14, forget=forget)
    assert len(steps) >= 10
    lagging = [s for s in steps if s[0] > 0]
    written = [s for s in steps if s[1]]
    assert lagging, "some actions leave the stored state as it is"
    assert written and len(written) < len(steps), "and some write it"
    for lag, was_written in steps:
        if was_written:
            assert lag == 0  # a written state is the state after the newest entry


@pytest.mark.django_db(transaction=True)
def test_every_seat_sees_the_same_game_whether_its_state_was_stored_or_replayed(
    every, create_game, api, alice, bob
):
    game = create_game(alice)
    assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    gid, clients = game["id"], {"allies": api(alice), "axis": api(bob)}
    for _ in range(10):
        game_row = Game.objects.get(pk=gid)
        seat = game_row.current_seat
        view = clients[seat].get(f"/api/games/{gid}/view/").json()
        action = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
        answer = clients[seat].post(f"/api/games/{gid}/actions/", action, format="json")
        assert answer.status_code == 200, answer.json()
        other = OTHER[seat]
        kept = clients[other].get(f"/api/games/{gid}/view/").json()
        hot_state.clear()
        anew = clients[other].get(f"/api/games/{gid}/view/").json()
        assert kept == anew
        assert answer.json()["state"] == clients[seat].get(f"/api/games/{gid}/view/").json()
    game_row = Game.objects.get(pk=gid)
    assert game_state(game=game_row).to_json() == game_rebuild_state(game=game_row).to_json()


@pytest.mark.django_db(transaction=True)
def test_a_resignation_while_the_state_lags_stores_the_final_state(every, create_game, api, alice):
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    client = api(alice)
    for _ in range(EVERY * 3):  # until the stored state lags the log
        _play(client, gid, 1)
        game = Game.objects.get(pk=gid)
        if game.state_lag:
            break
    assert game.state_lag > 0
    assert client.post(f"/api/games/{gid}/resign/").status_code == 200
    game = Game.objects.get(pk=gid)
    assert game.status == GameStatus.FINISHED and game.state_lag == 0
    assert game.state == game_rebuild_state(game=game).to_json()
    export = client.get(f"/api/games/{gid}/replay/").json()
    assert export["final_state_sha256"] == state_digest(game_rebuild_state(game=game).to_json())
    assert game.actions.order_by("-seq").first().kind == LogKind.RESIGN
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_a_takeback_while_the_state_lags_rewinds_to_the_replay(every, create_game, api, alice):
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"},
                      options={"bots_accept_takebacks": True})["id"]
    client = api(alice)
    for _ in range(EVERY * 3):
        _play(client, gid, 1)
        game = Game.objects.get(pk=gid)
        if game.state_lag:
            asked = client.post(f"/api/games/{gid}/takeback/", {"version": game.version, "count": 1},
                                format="json")
            if asked.status_code == 200:
                break
    assert asked.status_code == 200, asked.json()
    game = Game.objects.get(pk=gid)
    assert game.state_lag == 0  # a takeback rewrites the state
    assert game.state == game_rebuild_state(game=game).to_json()
    view = client.get(f"/api/games/{gid}/view/").json()
    assert view["version"] == game.version and view["your_turn"] is True
    _play(client, gid, EVERY)  # and play goes on from it


@pytest.mark.django_db(transaction=True)
def test_verify_games_checks_a_going_game_whose_state_lags(every, create_game, api, alice):
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    client = api(alice)
    for _ in range(EVERY * 3):
        _play(client, gid, 1)
        game = Game.objects.get(pk=gid)
        if game.state_lag:
            break
    assert game.state_lag > 0
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    # a stored state that is not what the log says is caught, lagging or not
    state = dict(game.state)
    state["ply"] = state["ply"] + 1
    Game.objects.filter(pk=gid).update(state=state)
    with pytest.raises(SystemExit):
        call_command("verify_games", gid, stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.parametrize("value, accepted", [("1", True), ("8", True), ("0", False), ("-3", False)])
def test_games_state_every_must_be_at_least_one(value, accepted):
    code = "from django.conf import settings; print(settings.GAMES_STATE_EVERY)"
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.base",
           "GAMES_STATE_EVERY": value}
    command = [sys.executable, "-c", f"import django; django.setup(); {code}"]
    run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if accepted:
        assert run.returncode == 0 and run.stdout.strip() == value, run.stderr
    else:
        assert run.returncode != 0 and "GAMES_STATE_EVERY must be 1 or more" in run.stderr


@pytest.mark.django_db(transaction=True)
def test_a_timeout_while_the_state_lags_stores_the_final_state(
    every, catalog_rows, api, alice, bob, monkeypatch
):
    fake_time = FakeTime()
    monkeypatch.setattr(clocks, "now", fake_time)
    game = create(api(alice), body_1v1(time_control=REALTIME))
    assert api(bob).post(f"/api/games/{game['id']}/join/").status_code == 200
    gid, clients = game["id"], {"allies": api(alice), "axis": api(bob)}
    for _ in range(EVERY * 3):  # until the stored state lags the log
        _seat, view = mover(gid, clients)
        act(clients[_seat], view)
        row = Game.objects.get(pk=gid)
        if row.state_lag:
            break
    assert row.state_lag > 0
    fake_time.advance(24 * 3600)
    assert services.games_clocks_expire_due() == 1
    row = Game.objects.get(pk=gid)
    assert row.status == GameStatus.FINISHED and row.end_reason == "timeout" and row.state_lag == 0
    assert row.state == game_rebuild_state(game=row).to_json()
    call_command("verify_games", gid, stdout=io.StringIO())
