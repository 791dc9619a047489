"""A team game's state survives a JSON round trip whose objects come back in another key order.

PostgreSQL's jsonb (the games service's state column) returns an object's keys sorted by length, then
bytes, not in the order they were written: "air" and "sea" before "ground", "axis-1" before "allies-1". The
engine must never let that order decide a list's order, or a game played through the server (state
loaded from the database before each action) diverges from its replay (seed + log).
"""

from __future__ import annotations

import pytest

from games import engine
from games.engine import team_setup


def _jsonb(value):
    if isinstance(value, dict):
        return {k: _jsonb(value[k]) for k in sorted(value, key=lambda k: (len(k.encode()), k.encode()))}
    if isinstance(value, list):
        return [_jsonb(v) for v in value]
    return value


@pytest.mark.parametrize(("axis", "allies"), [(["DE"], ["GB", "GB"]), (["DE", "DE"], ["GB", "GB"])])
def test_a_team_game_reloaded_from_reordered_json_at_every_ply_equals_the_live_game(catalog, axis, allies):
    setup = team_setup(catalog, 0, axis=axis, allies=allies)
    live = engine.new_game(catalog, setup)
    stored = _jsonb(live.to_json())
    bots = {army: engine.HeuristicBot(catalog=catalog, salt="0") for army in setup.armies}
    plies = 0
    while live.status == "active" and plies < 3000:
        state = engine.GameState.from_json(stored, catalog)
        seat = state.decision.seat
        action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state), seat)
        engine.apply(state, action)
        stored = _jsonb(state.to_json())
        engine.apply(live, engine.Action.from_json(action.to_json()))
        plies += 1
        assert live.to_json() == stored, f"diverged at ply {plies} after {action.to_json()}"
    assert live.status == "finished"
