"""The fast path's orjson encodings: the write's JSON columns (games.fastpath.write.json_dumps) store the
values json.dumps would have stored, integers past 64 bits included (json.dumps takes those); an engine view
(games.fastpath.answers.view_json) is the bytes DRF's JSONRenderer makes of it."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from games.fastpath.answers import view_json
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


VIEW_LIKE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from('\u2028\u2029"\\\n\x00é戦')),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


@given(st.dictionaries(st.text(max_size=8), VIEW_LIKE, max_size=6))  # a view is an object
def test_a_view_is_encoded_as_drf_renders_it(view):
    """What an engine view holds (the conformance suite's json_types): byte for byte JSONRenderer's."""
    assert view_json(view) == JSONRenderer().render(view)


def test_what_orjson_refuses_is_rendered_by_drf():
    for odd in ({1: "a", "b": [2**70]}, {"n": 2**64}):
        assert view_json(odd) == JSONRenderer().render(odd)
