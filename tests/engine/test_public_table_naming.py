"""The Battlecards public table's one-pass naming (games.engine.battlecards.table.TableNaming, issue 42)
against its definition: canonical(frames), then each card id the seat cannot see renamed "hidden-N",
numbered in the order walk() meets them over the canonical frames (keys included), every other card id's
code collected. Hypothesis draws the frames (nested dicts and lists of strings, numbers, booleans and None,
card ids among the keys and values), the catalog's ids and which of them are face down."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.battlecards.table import TableNaming, canonical, rename, walk

IDS = [f"c{n}" for n in range(1, 9)]
WORDS = st.sampled_from([*IDS, "hidden-1", "unit", "stacks", "ab", "b", "axis", "allies", "c10", ""])
SCALARS = st.one_of(WORDS, st.integers(-3, 3), st.booleans(), st.none())
FRAMES = st.lists(
    st.recursive(
        SCALARS,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(WORDS, inner, max_size=4)),
        max_leaves=25,
    ),
    max_size=4,
)


def _by_definition(frames, code, down):
    framed = canonical(frames)
    names: dict[str, str] = {}
    cards: dict[str, str] = {}
    for cid in (s for s in walk(framed) if s in code):
        if cid in down:
            names.setdefault(cid, f"hidden-{len(names) + 1}")
        else:
            cards[cid] = code[cid]
    return (rename(framed, names) if names else framed), cards


@settings(max_examples=400, deadline=None)
@given(frames=FRAMES, known=st.sets(st.sampled_from(IDS)), down=st.sets(st.sampled_from(IDS)))
def test_one_pass_naming_is_its_definition(frames, known, down):
    code = {cid: f"code-{cid}" for cid in known}
    asked = []
    naming = TableNaming(code, lambda: asked.append(1) or set(down))
    got = naming.canonical(frames)
    want, cards = _by_definition(frames, code, down)
    assert json.dumps(got) == json.dumps(want)  # the same values and the same key order
    assert naming.cards == cards
    assert len(asked) <= 1  # the face-down set is worked out once, and only when a card id is met
    assert bool(asked) == any(s in code for s in walk(canonical(frames)))
