"""The fast path's write encodes its JSON columns with orjson (games.fastpath.write.json_dumps): the values
stored are those json.dumps would have stored, integers past 64 bits included (json.dumps takes those)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from games.fastpath.write import json_dumps, write_in_one_statement
from games.models import Game

KEYS = st.text(max_size=6) | st.integers(min_value=-(2**40), max_value=2**40)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_the_bytes_decode_to_what_json_dumps_writes(value):
    assert json.loads(json_dumps(value)) == json.loads(json.dumps(value))


@pytest.mark.django_db
def test_a_state_written_in_one_statement_reads_back_as_json_would_store_it(two_player_game):
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement write is PostgreSQL's (SQLite takes the ORM's save)")
    game = Game.objects.get(pk=two_player_game["id"])
    state = {**game.state, "probe": {"big": 2**70, "text": "Église \u2028 戦", 7: [1.5, None, True]}}
    game.state = state
    write_in_one_statement(game, [], None, changing=["state"])
    stored = Game.objects.get(pk=game.pk).state
    assert stored == json.loads(json.dumps(state))
    assert stored["probe"] == {"big": 2**70, "text": "Église \u2028 戦", "7": [1.5, None, True]}
