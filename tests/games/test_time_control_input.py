"""A game's `time_control` is checked as sent, never coerced (issue 34, finding 13): a boolean or a string is
no number, an unknown key is refused rather than dropped, a value out of range is refused, and every refusal
is the 400 `invalid_time_control` the client guide promises, naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import ValidationFailed
from games import clocks
from games.models import Game
from games.options import time_control_option
from games.serializers import GameCreateSerializer
from tests.games.conftest import game_body

pytestmark = pytest.mark.django_db


def refusal(api: Any, user: Any, time_control: Any) -> dict[str, Any]:
    response = api(user).post("/api/games/", game_body(time_control=time_control), format="json")
    assert response.status_code == 400, (time_control, response.json())
    return response.json()


@pytest.mark.parametrize(
    ("time_control", "field"),
    [
        # a boolean is no number (true made a 1-minute game)
        ({"kind": "realtime", "minutes": True}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment_seconds": False}, "time_control.increment_seconds"),
        ({"kind": "correspondence", "days": True}, "time_control.days"),
        # a string is no number ("5" was read as 5)
        ({"kind": "realtime", "minutes": "5"}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment_seconds": "3"}, "time_control.increment_seconds"),
        ({"kind": "correspondence", "days": "3"}, "time_control.days"),
        # an unknown key is refused (it was dropped)
        ({"kind": "realtime", "minutes": 5, "increment": 3}, "time_control.increment"),
        ({"kind": "correspondence", "days": 3, "hours": 4}, "time_control.hours"),
        ({"kind": "none", "minutes": 5}, "time_control.minutes"),
        # zero or negative
        ({"kind": "realtime", "minutes": 0}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": -5}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment_seconds": -1}, "time_control.increment_seconds"),
        ({"kind": "correspondence", "days": 0}, "time_control.days"),
        ({"kind": "correspondence", "days": -2}, "time_control.days"),
        # too large
        ({"kind": "realtime", "minutes": clocks.MAX_MINUTES + 1}, "time_control.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment_seconds": 181}, "time_control.increment_seconds"),
        ({"kind": "correspondence", "days": clocks.MAX_DAYS + 1}, "time_control.days"),
        ({"kind": "realtime", "minutes": 10**30}, "time_control.minutes"),
        # no object at all
        ("realtime", "time_control"),
        ([{"kind": "realtime", "minutes": 5}], "time_control"),
        (5, "time_control"),
        (None, "time_control"),
        ({"kind": "blitz"}, "time_control.kind"),
        ({"minutes": 5}, "time_control.kind"),
    ],
)
def test_a_time_control_that_is_not_exactly_one_of_the_shapes_is_refused(
    catalog_rows, api, alice, time_control, field
):
    body = refusal(api, alice, time_control)
    assert (body["status"], body["code"], body["field"]) == (400, "invalid_time_control", field)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("time_control", "stored"),
    [
        (
            {"kind": "realtime", "minutes": 0.25},
            {"kind": "realtime", "minutes": 0.25, "increment_seconds": 0},
        ),
        (
            {"kind": "realtime", "minutes": 180, "increment_seconds": 180},
            {"kind": "realtime", "minutes": 180, "increment_seconds": 180},
        ),
        ({"kind": "correspondence", "days": 14}, {"kind": "correspondence", "days": 14}),
        ({"kind": "none"}, {"kind": "none"}),
        ({}, {"kind": "none"}),
    ],
)
def test_the_shapes_at_their_limits_are_accepted_as_sent(catalog_rows, api, alice, time_control, stored):
    response = api(alice).post("/api/games/", game_body(time_control=time_control), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["time_control"] == stored


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
    st.text(max_size=4),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from([*clocks.KINDS, "blitz"]),
    values=st.dictionaries(
        st.sampled_from(["minutes", "increment_seconds", "days", "delay"]), JSON_SCALARS, max_size=3
    ),
)
def test_what_the_api_accepts_is_stored_exactly_as_sent(kind, values):
    """The create endpoint's parse path (its serializer, then the service's check): any time control is
    either refused with invalid_time_control or taken with every value exactly as sent, of JSON's number
    type (never a boolean or a string read as a number, never a key dropped)."""
    sent = {"kind": kind, **values}
    body = game_body(time_control=sent)
    serializer = GameCreateSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    try:
        stored = time_control_option(serializer.validated_data["time_control"])
    except ValidationFailed as exc:
        assert exc.code == "invalid_time_control" and exc.extra["field"].startswith("time_control")
        return
    if kind == clocks.NONE:
        assert values == {} and stored == {}
        return
    assert set(values) <= set(stored) - {"kind"}
    for name, value in values.items():
        assert type(value) in (int, float) and stored[name] == value
