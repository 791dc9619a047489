"""Whatever JSON a client sends as an action, the server answers 400/403/409 and the game does not change."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameAction

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
ACTION_TYPES = [
    "draw",
    "emergency_deploy",
    "deploy",
    "play_card",
    "choose",
    "pass",
    "fire",
    "autokill",
    "support",
    "hold",
    "withdraw",
    "split",
    "retrieve",
    "take",
]
FIELDS = ["seat", "card", "stack", "target", "option", "unit", "recipient", "mode"]
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES)},
    optional={
        name: st.one_of(st.sampled_from(["axis", "allies", "c1", "c50", "ground:0", "attack"]), json_values)
        for name in FIELDS
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.one_of(json_values, action_like))
def test_arbitrary_actions_never_break_or_change_the_game(two_player_game, api, alice, bob, action: Any):
    gid = two_player_game["id"]
    game = Game.objects.get(pk=gid)
    client = api(alice) if game.current_seat == "allies" else api(bob)
    legal = client.get(f"/api/games/{gid}/view/").json()["view"]["decision"]["legal_actions"]
    if isinstance(action, dict) and {**action, "seat": game.current_seat} in legal:
        return  # a legal action would rightly apply
    before = (game.version, game.state, GameAction.objects.filter(game=game).count())
    response = client.post(
        f"/api/games/{gid}/actions/", {"version": game.version, "action": action}, format="json"
    )
    assert response.status_code in (400, 403), response.content
    assert set(response.json()) >= {"status", "code", "detail"}
    game.refresh_from_db()
    assert (game.version, game.state, GameAction.objects.filter(game=game).count()) == before


deck_refs = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "deck_id": json_values,
            "starter": st.sampled_from(["gb-we-starter", "de-we-starter", "x"]),
        },
    ),
)
create_bodies = st.fixed_dictionaries(
    {},
    optional={
        "my_deck": deck_refs,
        "opponent_deck": deck_refs,
        "opponent": st.one_of(
            json_values,
            st.fixed_dictionaries(
                {"kind": st.sampled_from(["bot", "human", "x"])},
                optional={"bot": json_values, "username": json_values},
            ),
        ),
        "options": st.one_of(
            json_values,
            st.dictionaries(
                st.sampled_from(["larger_standing_armies", "occupying_force", "max_turns", "x"]), json_values
            ),
        ),
        "seed": json_values,
        "conflict": st.one_of(
            json_values,
            st.fixed_dictionaries(
                {}, optional={"theater": json_values, "mode": json_values, "packs": json_values}
            ),
        ),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(json_values, create_bodies))
def test_arbitrary_game_requests_are_answered_without_a_server_error(catalog_rows, api, alice, body: Any):
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code in (201, 400, 404), response.content
    if response.status_code != 201:
        assert set(response.json()) >= {"status", "code", "detail"}
