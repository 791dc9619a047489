"""games.engine.core.plain.plain_copy, the fast deep copy of plain data (issue 42), against the plain path
it replaces, copy.deepcopy: the same value, the same key order, nothing shared with the original."""
from __future__ import annotations

import copy
import enum
import json

from hypothesis import given
from hypothesis import strategies as st

from games.engine.core.plain import plain_copy

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=40,
)


def _lists_and_dicts(value):
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _lists_and_dicts(v)
    elif isinstance(value, list):
        yield value
        for v in value:
            yield from _lists_and_dicts(v)


@given(JSON)
def test_a_plain_copy_is_deepcopys_value_in_the_same_key_order_and_shares_nothing(value):
    copied = plain_copy(value)
    assert copied == copy.deepcopy(value)
    assert json.dumps(copied) == json.dumps(value)  # key order too
    originals = {id(x) for x in _lists_and_dicts(value)}
    assert not originals & {id(x) for x in _lists_and_dicts(copied)}


class Colour(enum.Enum):
    RED = "red"


def test_what_is_not_plain_data_is_copied_by_deepcopy():
    value = {"colour": Colour.RED, "cards": ["a", "b"]}
    copied = plain_copy(value)
    assert copied == value and copied["colour"] is Colour.RED and copied["cards"] is not value["cards"]
