"""core.determinize: the unseen codes of a prior deck, drawn and dealt from the search bot's RNG."""
import random

from games.engine.core.determinize import deal, take_known, unseen_codes


def test_unseen_codes_take_one_copy_per_shown_code_and_refill_to_size():
    pool = unseen_codes(["a", "a", "b", "c"], ["a", "c", "x"], random.Random(1))
    assert sorted(pool) == ["a", "b"]
    again = unseen_codes(["a", "a", "b", "c"], ["a", "c", "x"], random.Random(1))
    assert again == pool  # the same RNG, the same draw
    topped = unseen_codes(["a", "b"], ["a", "b"], random.Random(2), size=3, refill=["z"])
    assert topped == ["z", "z", "z"]


def test_known_codes_first_then_zones_dealt_in_order():
    pool = ["a", "b", "c", "d", "e"]
    assert take_known(pool, ["d", "q", "a", "b"], 2) == ["d", "a"]
    assert pool == ["b", "c", "e"]
    assert deal(pool, {"hand": 1, "discards": 1, "deck": None}) == {
        "hand": ["b"], "discards": ["c"], "deck": ["e"]}
