"""The pure clock arithmetic (games.clocks): no database, no Django."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.clocks import Clock, TimeControl, TimeControlError, clock_view

T0 = datetime(2030, 1, 1, tzinfo=UTC)
SIDES = ("axis", "allies")


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_realtime_clock_charges_the_running_side_and_adds_the_increment():
    control = TimeControl.from_json({"kind": "realtime", "minutes": 2, "increment_seconds": 5})
    clock = Clock.new(control, SIDES)
    clock.settle(control, "axis", at(0))
    assert clock.deadline() == at(120) and not clock.expired(at(119.999)) and clock.expired(at(120))
    clock.stop(at(30), bonus_ms=control.increment_ms)
    assert clock.remaining == {"axis": 95_000, "allies": 120_000} and clock.deadline() is None
    clock.settle(control, "allies", at(30))
    assert clock.remaining_at("allies", at(40)) == 110_000 and clock.remaining_at("axis", at(40)) == 95_000
    assert clock.remaining_at("allies", at(1000)) == 0  # never below zero


def test_settling_on_the_side_that_runs_keeps_its_clock_running():
    control = TimeControl.from_json({"kind": "realtime", "minutes": 1})
    clock = Clock.new(control, SIDES)
    clock.settle(control, "axis", at(0))
    clock.settle(control, "axis", at(10))  # another decision of the same side, no action in between
    assert clock.started_at == at(0) and clock.deadline() == at(60)
    clock.settle(control, "", at(20))  # nobody human decides (a bot, or the end): every clock stands
    assert clock.running == "" and clock.remaining["axis"] == 40_000


def test_correspondence_gives_the_full_days_again_for_each_decision():
    control = TimeControl.from_json({"kind": "correspondence", "days": 2})
    clock = Clock.new(control, SIDES)
    clock.settle(control, "axis", at(0))
    clock.settle(control, "allies", at(3600 * 40))
    assert clock.remaining["axis"] == 8 * 3600_000
    clock.settle(control, "axis", at(3600 * 41))
    assert clock.deadline() == at(3600 * 41 + 2 * 86400)


def test_the_stored_json_reads_back_to_the_same_clock():
    control = TimeControl.from_json({"kind": "realtime", "minutes": 0.5, "increment_seconds": 1})
    clock = Clock.new(control, SIDES)
    clock.settle(control, "allies", at(7.25))
    again = Clock.from_json(clock.to_json(), control, SIDES)
    assert again == clock and again.deadline() == at(37.25)
    assert control.to_json() == {"kind": "realtime", "minutes": 0.5, "increment_seconds": 1}


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "realtime", "minutes": 0.1},
        {"kind": "realtime", "minutes": True},
        {"kind": "realtime", "minutes": float("nan")},
        {"kind": "realtime", "minutes": 5, "increment_seconds": 1.5},
        {"kind": "correspondence", "days": 15},
        {"kind": "none", "days": 1},
        {"minutes": 5},
    ],
)
def test_time_controls_outside_the_three_shapes_are_refused(bad):
    with pytest.raises(TimeControlError):
        TimeControl.from_json(bad)


def test_no_time_control_shows_no_clock():
    assert TimeControl.from_json({"kind": "none"}).to_json() == {}
    assert clock_view(control_json={}, clock_json={}, sides=SIDES, at=T0) is None
