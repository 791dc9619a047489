"""The RNG's state in a stored game (games.engine.core.rng, issue 42): one base64 string of its 625 words,
read back to the very same generator; states stored before it (a list of numbers) still load and play on
the same; a damaged RNG entry is refused as a malformed state, not a crash."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState, apply, legal_actions, new_game, starter_setup
from games.engine.core.errors import StateError
from games.engine.core.rng import rng_as_written, rng_from_json, rng_to_json


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), draws=st.integers(min_value=0, max_value=2000),
       gauss=st.booleans())
def test_the_written_rng_reads_back_to_the_same_generator(seed, draws, gauss):
    rng = random.Random(seed)
    for _ in range(draws):
        rng.getrandbits(32)
    if gauss:
        rng.gauss(0, 1)  # a pending gauss_next is part of the state
    data = rng_to_json(rng)
    assert isinstance(data[1], str) and len(data[1]) == 3336  # 625 words of 4 bytes in base64
    again = random.Random()
    rng_from_json(again, data)
    assert again.getstate() == rng.getstate() and again.random() == rng.random()


def test_the_list_of_numbers_stored_before_reads_to_the_same_generator():
    rng = random.Random(1942)
    rng.shuffle(list(range(60)))
    version, words, gauss = rng.getstate()
    old = random.Random()
    rng_from_json(old, [version, list(words), gauss])
    assert old.getstate() == rng.getstate()
    stored = {"rng": [version, list(words), gauss], "ply": 3}
    assert rng_as_written(stored) == {"rng": rng_to_json(rng), "ply": 3}
    assert rng_as_written({"ply": 3}) == {"ply": 3}  # a state without an RNG is left as it is


def test_a_stored_state_with_its_rng_as_numbers_plays_on_as_the_same_game(real_catalog):
    st_new = new_game(real_catalog, starter_setup(real_catalog, 7))
    data = st_new.to_json()
    version, words, gauss = st_new.rng.getstate()  # this game's generator, as states held it before
    old = GameState.from_json({**data, "rng": [version, list(words), gauss]}, real_catalog)
    assert old.to_json() == data  # written back in today's form
    for _ in range(120):  # past the first shuffles of discards into decks
        if st_new.status != "active":
            break
        action = legal_actions(st_new)[st_new.ply % len(legal_actions(st_new))]
        assert [e.to_json() for e in apply(st_new, action)] == [e.to_json() for e in apply(old, action)]
    assert old.to_json() == st_new.to_json()


@pytest.mark.parametrize("words", ["not base64!", "AAAA" * 10 + "AA==", 12, None])
def test_a_damaged_rng_entry_is_a_malformed_state(real_catalog, words):
    data = new_game(real_catalog, starter_setup(real_catalog, 7)).to_json()
    with pytest.raises(StateError):
        GameState.from_json({**data, "rng": [3, words, None]}, real_catalog)
