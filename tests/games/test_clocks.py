"""Clocks (issue 25 §2): time controls chosen at creation, the deciding side's clock runs (out-of-turn
decisions too, one clock per side in team games, never a bot's), a side whose time runs out loses on time
(ended by the periodic job with nobody calling the API, and every read agrees), clocks live in the database.

Time is moved with a controllable time source (games.clocks.now), never by sleeping.
"""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command

from games import clock_timer, clocks, engine, services
from games.models import Game, GameAction
from games.selectors import game_state
from tests.games.test_team_games import CheckedClient, Oracles, army, stream_entries, team_body

pytestmark = pytest.mark.django_db

MINUTE = 60_000


class FakeTime:
    """games.clocks.now, moved by hand."""

    def __init__(self) -> None:
        self.at = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def fake_time(monkeypatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(clocks, "now", fake)
    return fake


def create(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def body_1v1(**extra: Any) -> dict[str, Any]:
    return {
        "my_deck": {"starter": "gb-we-starter"},
        "opponent_deck": {"starter": "de-we-starter"},
        "opponent": {"kind": "human"},
        "seed": 20020101,
        **extra,
    }


REALTIME = {"kind": "realtime", "minutes": 1, "increment_seconds": 10}


@pytest.fixture
def clocked_game(catalog_rows, api, alice, bob, fake_time) -> dict[str, Any]:
    """alice (allies) against bob (axis), 1 minute each + 10 s an action; active."""
    game = create(api(alice), body_1v1(time_control=REALTIME))
    joined = api(bob).post(f"/api/games/{game['id']}/join/")
    assert joined.status_code == 200, joined.json()
    return joined.json()


def sides(clock: dict[str, Any]) -> dict[str, int]:
    return {s["side"]: s["remaining_ms"] for s in clock["sides"]}


def mover(game_id: str, clients: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for seat, client in clients.items():
        view = client.get(f"/api/games/{game_id}/view/").json()
        if view["your_turn"]:
            return seat, view
    raise AssertionError("nobody to move")


def act(client: Any, view: dict[str, Any], index: int = 0) -> dict[str, Any]:
    action = view["view"]["decision"]["legal_actions"][index]
    response = client.post(
        f"/api/games/{view['game']}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 200, response.json()
    return response.json()


# ------------------------------------------------------------------------------------------ creation


def test_no_time_control_is_the_default_and_shows_no_clock(catalog_rows, api, alice):
    game = create(api(alice), body_1v1(opponent={"kind": "bot", "bot": "random"}))
    assert game["time_control"] == {"kind": "none"} and game["clock"] is None
    view = api(alice).get(f"/api/games/{game['id']}/view/").json()
    assert view["clock"] is None
    assert Game.objects.get(pk=game["id"]).clock_deadline is None


def test_time_controls_are_chosen_at_creation_and_bad_ones_refused(catalog_rows, api, alice, fake_time):
    game = create(api(alice), body_1v1(time_control={"kind": "realtime", "minutes": 5}))
    assert game["time_control"] == {"kind": "realtime", "minutes": 5, "increment_seconds": 0}
    assert game["clock"]["running"] is None  # open: no clock runs until every seat is taken
    assert sides(game["clock"]) == {"axis": 5 * MINUTE, "allies": 5 * MINUTE}
    corr = create(api(alice), body_1v1(time_control={"kind": "correspondence", "days": 3}))
    assert corr["time_control"] == {"kind": "correspondence", "days": 3}
    for bad, field in [
        ({"kind": "realtime"}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": 5, "days": 2}, "time_control.days"),
        ({"kind": "correspondence", "days": 0}, "time_control.days"),
        ({"kind": "sudden"}, "time_control.kind"),
    ]:
        response = api(alice).post("/api/games/", body_1v1(time_control=bad), format="json")
        assert response.status_code == 400, bad
        assert field.split(".")[-1] in str(response.json()), response.json()


# ------------------------------------------------------------------------------- running and increments


def test_the_deciding_seats_clock_runs_and_an_action_adds_the_increment(
    clocked_game, api, alice, bob, fake_time
):
    gid = clocked_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    seat, view = mover(gid, clients)
    assert view["clock"]["running"] == seat  # 1v1: the side is the seat
    fake_time.advance(20)
    shown = clients[seat].get(f"/api/games/{gid}/").json()["clock"]
    assert sides(shown)[seat] == 40_000
    assert shown["deadline"] == (fake_time.at + timedelta(seconds=40)).isoformat()
    answer = act(clients[seat], view)
    after = answer["state"]["clock"]
    assert sides(after)[seat] == 50_000  # 60 - 20 + 10
    assert after["running"] == answer["state"]["waiting_on"]
    other = "axis" if seat == "allies" else "allies"
    assert sides(after)[other] == MINUTE  # the waiting side's clock did not run


def test_the_clock_that_runs_is_the_deciding_seats_even_out_of_turn(catalog_rows, alice, bob, fake_time):
    """Play until a decision belongs to the seat whose turn it is not (a battlecard response, a defence
    window...): the clock of that seat's side runs, the turn player's stands."""
    game = services.game_create(
        user=alice,
        my_deck={"starter": "gb-we-starter"},
        opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "human"},
        seed=7,
        time_control={"kind": "realtime", "minutes": 180},
    )
    services.game_join(game_id=game.pk, user=bob)
    users = {"allies": alice, "axis": bob}
    rng = random.Random(3)
    for _ in range(400):
        row = Game.objects.get(pk=game.pk)
        state = game_state(game=row)
        decider, turn_player = state.decision.seat, state.active_seat
        if decider != turn_player and state.decision.kind != "initial_deploy":  # e.g. firing back
            assert row.clock["running"] == decider
            before = dict(row.clock["remaining"])
            fake_time.advance(5)
            action = rng.choice(engine.legal_actions(state))
            services.game_action_submit(
                game_id=game.pk, user=users[decider], version=row.version, action=action.to_json()
            )
            after = Game.objects.get(pk=game.pk).clock["remaining"]
            assert after[decider] == before[decider] - 5000  # the out-of-turn decision cost its side
            assert after[turn_player] == before[turn_player]  # and not the turn player
            return
        fake_time.advance(1)
        action = rng.choice(engine.legal_actions(state))
        services.game_action_submit(
            game_id=game.pk, user=users[state.decision.seat], version=row.version, action=action.to_json()
        )
    pytest.fail("no out-of-turn decision came up")


# ------------------------------------------------------------------------------------------- timeouts


def test_a_timeout_ends_the_game_with_nobody_calling_the_api(clocked_game, api, alice, bob, fake_time):
    gid = clocked_game["id"]
    row = Game.objects.get(pk=gid)
    loser = row.current_seat
    winner = "axis" if loser == "allies" else "allies"
    fake_time.advance(59)
    call_command("expire_clocks")  # the periodic job: not yet
    assert Game.objects.get(pk=gid).status == "active"
    fake_time.advance(1)
    # the in-process timer's loop (its thread closes its connection between sweeps: not this test's)
    clock_timer.run_loop(stop=threading.Event(), interval=0, loops=1, close_connection=False)
    row = Game.objects.get(pk=gid)
    assert row.status == "finished" and row.winner == winner and row.end_reason == "timeout"
    assert row.result == {"kind": "timeout", "timed_out": loser, "side": loser}
    assert row.clock["remaining"][loser] == 0 and row.clock_deadline is None
    last = GameAction.objects.filter(game=row).order_by("-seq").first()
    assert last.kind == "timeout" and last.seat == loser
    assert last.events == [
        {"type": "timed_out", "data": {"seat": loser, "side": loser, "winner": winner}, "visible_to": "all"}
    ]
    for user in (alice, bob):  # the players' event pages and streams get the entry like any other
        page = api(user).get(f"/api/games/{gid}/events/?since={row.last_seq - 1}").json()
        assert [e["kind"] for e in page["entries"]] == ["timeout"] and page["status"] == "finished"
        assert stream_entries(api(user), gid, since=row.last_seq - 1)[-1]["events"][0]["type"] == "timed_out"
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["end_reason"] == "timeout" and replay["result"]["kind"] == "timeout"
    assert replay["log"][-1]["kind"] == "timeout" and replay["time_control"] == REALTIME
    call_command("verify_games", gid)  # the replay re-runs to the stored state (exit 0)


def test_every_read_agrees_before_the_job_ran(clocked_game, api, alice, bob, fake_time):
    gid = clocked_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    seat, view = mover(gid, clients)
    fake_time.advance(61)  # nobody swept yet
    assert Game.objects.get(pk=gid).status == "active"
    waiting = clients["axis" if seat == "allies" else "allies"]
    shown = waiting.get(f"/api/games/{gid}/view/").json()
    assert shown["status"] == "finished" and shown["end_reason"] == "timeout"
    assert shown["winner"] != seat and shown["clock"]["running"] is None
    late = clients[seat].post(
        f"/api/games/{gid}/actions/",
        {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]},
        format="json",
    )
    assert late.status_code == 409 and late.json()["code"] == "game_finished"
    assert GameAction.objects.filter(game_id=gid, kind="timeout").count() == 1


def test_an_action_after_the_deadline_is_refused_even_without_the_read_path(
    clocked_game, alice, bob, fake_time
):
    row = Game.objects.get(pk=clocked_game["id"])
    users = {"allies": alice, "axis": bob}
    state = game_state(game=row)
    fake_time.advance(60)
    with pytest.raises(Exception) as refused:
        services.game_action_submit(
            game_id=row.pk,
            user=users[row.current_seat],
            version=row.version,
            action=engine.legal_actions(state)[0].to_json(),
        )
    assert refused.value.code == "game_finished" and refused.value.extra["end_reason"] == "timeout"
    assert Game.objects.get(pk=row.pk).version == row.version  # nothing written
    assert services.games_clocks_expire_due() == 1


def test_the_game_list_shows_a_game_lost_on_time(clocked_game, api, alice, fake_time):
    fake_time.advance(61)
    listed = api(alice).get("/api/games/").json()["results"]
    assert [g["end_reason"] for g in listed if g["id"] == clocked_game["id"]] == ["timeout"]


def test_clocks_survive_a_restart_they_are_stored_not_in_memory(clocked_game, api, alice, bob, fake_time):
    gid = clocked_game["id"]
    fake_time.advance(25)
    stored = Game.objects.values("clock", "clock_deadline", "current_seat").get(pk=gid)
    seat = stored["current_seat"]
    started = datetime.fromisoformat(stored["clock"]["started_at"])
    assert stored["clock"]["running"] == seat and stored["clock"]["remaining"][seat] == MINUTE
    assert stored["clock_deadline"] == started + timedelta(minutes=1)
    # a new process knows only the row: the clock read back from it says the same
    reloaded = Game.objects.get(pk=gid)
    assert sides(services_clock_view(reloaded))[seat] == 35_000
    fake_time.advance(35)
    assert services.games_clocks_expire_due() == 1
    assert Game.objects.get(pk=gid).end_reason == "timeout"


def services_clock_view(game: Game) -> dict[str, Any]:
    from games.selectors import game_clock_view

    return game_clock_view(game)


def test_correspondence_gives_days_for_each_decision(catalog_rows, api, alice, bob, fake_time):
    game = create(api(alice), body_1v1(time_control={"kind": "correspondence", "days": 2}))
    api(bob).post(f"/api/games/{game['id']}/join/")
    gid = game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    for _ in range(3):  # each decision has its 2 days, whatever the last one took
        fake_time.advance(36 * 3600)
        seat, view = mover(gid, clients)
        assert sides(view["clock"])[seat] == 12 * 3600_000
        answer = act(clients[seat], view)
        next_seat = answer["state"]["waiting_on"]
        assert sides(answer["state"]["clock"])[next_seat] == 2 * 24 * 3600_000
    fake_time.advance(48 * 3600)
    assert services.games_clocks_expire_due() == 1
    assert api(alice).get(f"/api/games/{gid}/").json()["end_reason"] == "timeout"


# ------------------------------------------------------------------------------------- bots and teams


def test_bots_never_run_out_of_time(catalog_rows, api, alice, fake_time):
    game = create(
        api(alice),
        body_1v1(
            opponent={"kind": "bot", "bot": "heuristic"}, time_control={"kind": "realtime", "minutes": 1}
        ),
    )
    gid = game["id"]
    for _ in range(5):
        view = api(alice).get(f"/api/games/{gid}/view/").json()
        assert view["clock"]["running"] == "allies"  # only the human's clock ever runs
        fake_time.advance(5)
        act(api(alice), view)
    assert sides(api(alice).get(f"/api/games/{gid}/").json()["clock"])["axis"] == MINUTE
    fake_time.advance(3600)
    services.games_clocks_expire_due()
    row = Game.objects.get(pk=gid)
    assert row.end_reason == "timeout" and row.winner == "axis"  # the human lost on time, not the bot


def test_battlefront_has_a_clock_for_west_and_one_for_east(catalog_rows, api, alice, fake_time):
    game = create(
        api(alice),
        {
            "game_type": "battlefront",
            "opponent": {"kind": "bot", "bot": "random"},
            "seed": 5,
            "time_control": {"kind": "correspondence", "days": 1},
        },
    )
    clock = game["clock"]
    assert [s["side"] for s in clock["sides"]] == ["west", "east"] and clock["running"] == "west"
    fake_time.advance(24 * 3600)
    assert services.games_clocks_expire_due() == 1
    row = Game.objects.get(pk=game["id"])
    assert (row.end_reason, row.winner, row.result["timed_out"]) == ("timeout", "east", "west")


def test_a_team_game_has_one_clock_per_side_shared_by_its_armies(catalog_rows, alice, bob, fake_time):
    oracles = Oracles()  # every answer about the team game goes through the hidden-information oracle
    client = {user.username: CheckedClient(user, oracles) for user in (alice, bob)}
    game = create(
        client["alice"],
        team_body(
            axis=[army("DE", "bot"), army("DE", "bot")],
            allies=[army("GB", "me"), army("GB", "open", invite="bob")],
            time_control={"kind": "realtime", "minutes": 10, "increment_seconds": 2},
        ),
    )
    gid = game["id"]
    joined = client["bob"].post(f"/api/games/{gid}/join/", {"seat": "allies-2"}, format="json")
    assert joined.status_code == 200, joined.json()
    clients = {"allies-1": client["alice"], "allies-2": client["bob"]}
    spent = 0
    for _ in range(12):
        seat, view = mover(gid, clients)
        clock = view["clock"]
        assert [s["side"] for s in clock["sides"]] == ["axis", "allies"]  # sides, not armies
        assert clock["running"] == "allies"
        assert sides(clock)["allies"] == 10 * MINUTE - spent and sides(clock)["axis"] == 10 * MINUTE
        fake_time.advance(3)
        act(clients[seat], view)
        spent += 3000 - 2000  # each action costs its army's side 3 s and gives back 2 s
        if Game.objects.get(pk=gid).status != "active":
            break
    assert spent > 0


# ------------------------------------------------------------------------------------ the periodic job


def test_the_sweeper_runs_on_celery_beat_with_a_broker_else_in_the_server(settings):
    settings.GAMES_CLOCK_RUNNER = "auto"
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/4"
    assert clock_timer.mode() == "celery" and clock_timer.ensure_started() is False
    settings.CELERY_BROKER_URL = ""
    assert clock_timer.mode() == "thread"
    settings.GAMES_CLOCK_RUNNER = "command"
    assert clock_timer.ensure_started() is False


def test_celery_beat_sends_the_sweep_every_few_seconds_to_its_queue(clocked_game, settings, fake_time):
    from games.tasks import expire_clocks_task

    entry = settings.CELERY_BEAT_SCHEDULE["games-expire-clocks"]
    assert entry["task"] == expire_clocks_task.name == "games.expire_clocks"
    assert entry["schedule"] <= 5 and entry["options"]["queue"] == settings.GAMES_CLOCK_QUEUE
    fake_time.advance(61)
    assert expire_clocks_task.apply().get() == 1  # what a worker runs for each beat
    assert Game.objects.get(pk=clocked_game["id"]).end_reason == "timeout"
