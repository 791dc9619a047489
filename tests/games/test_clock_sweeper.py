"""The in-process clock sweeper (games.clock_timer, GAMES_CLOCK_RUNNER=thread): a real thread on its own
database connection ends a game lost on time while nobody calls the API. Time moves by hand
(games.clocks.now), never by sleeping; the test only waits for the thread's next sweep."""

from __future__ import annotations

import time

import pytest

from games import clock_timer, services
from games.models import Game, GameAction
from tests.games.test_clocks import FakeTime

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the sweeper's connection sees only committed rows
]


def test_the_sweep_thread_ends_a_game_lost_on_time_with_nobody_calling_the_api(
    catalog_rows, alice, bob, monkeypatch, settings
):
    fake = FakeTime()
    monkeypatch.setattr("games.clocks.now", fake)
    settings.GAMES_CLOCK_RUNNER = "thread"
    settings.GAMES_CLOCK_SWEEP_SECONDS = 0.05
    game = services.game_create(
        user=alice,
        my_deck={"starter": "gb-we-starter"},
        opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "human"},
        seed=11,
        time_control={"kind": "realtime", "minutes": 0.5},
    )
    services.game_join(game_id=game.pk, user=bob)
    loser = Game.objects.get(pk=game.pk).current_seat
    assert clock_timer.ensure_started() and clock_timer.ensure_started()  # one thread per process
    try:
        fake.advance(31)
        deadline = time.monotonic() + 10
        while Game.objects.get(pk=game.pk).status != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        clock_timer.stop()
    row = Game.objects.get(pk=game.pk)
    assert row.status == "finished" and row.end_reason == "timeout" and row.result["timed_out"] == loser
    assert GameAction.objects.filter(game=row, kind="timeout").count() == 1

