"""The War golden games (golden/games.json) replay byte-identically: plies, winner, final state, event log.

A commit that changes a rule regenerates the file (`python -m tests.engine.the_war.golden_games --write`)
and says which rule in its message; a refactoring keeps it unchanged.
"""
from __future__ import annotations

import pytest

from tests.engine.the_war.golden_games import BOTS, DECKS, SEEDS, golden_key, load, play_one

from .helpers import catalog

GOLDEN = load()


def test_the_golden_file_covers_every_seed_bot_and_deck_pairing():
    assert len(GOLDEN) == len(BOTS) * len(DECKS) * len(SEEDS)
    assert all(GOLDEN[golden_key(b, d, s)]["plies"] > 0 for b in BOTS for d in DECKS for s in SEEDS)


@pytest.mark.parametrize("decks", list(DECKS))
@pytest.mark.parametrize("bots", BOTS)
def test_golden_games_are_unchanged(bots, decks):
    diffs = []
    for seed in SEEDS:
        key = golden_key(bots, decks, seed)
        got = play_one(catalog(), bots, decks, seed)
        if got != GOLDEN[key]:
            diffs.append(f"{key}: expected {GOLDEN[key]}, got {got}")
    assert not diffs, "\n".join(diffs[:10])
