"""The Battlefront golden games (golden/games.json) replay byte-identically: plies, final state, event log.

A commit that changes a rule regenerates the file (`python -m tests.engine.battlefront.golden_games --write`)
and says which rule in its message; a refactoring keeps it unchanged.
"""
from __future__ import annotations

import pytest

from games.engine import battlefront as bf
from tests.engine.battlefront.golden_games import BOTS, OPTIONS, SEEDS, golden_key, load, play_one

CATALOG = bf.load_cards()
GOLDEN = load()


def test_the_golden_file_covers_every_seed_bot_and_option_set():
    assert len(GOLDEN) == len(BOTS) * len(OPTIONS) * len(SEEDS) >= 300
    assert all(GOLDEN[golden_key(b, o, s)]["plies"] > 0 for b in BOTS for o in OPTIONS for s in SEEDS)


@pytest.mark.parametrize("options", list(OPTIONS))
@pytest.mark.parametrize("bots", BOTS)
def test_golden_games_are_unchanged(bots, options):
    diffs = []
    for seed in SEEDS:
        key = golden_key(bots, options, seed)
        got = play_one(CATALOG, bots, options, seed)
        if got != GOLDEN[key]:
            diffs.append(f"{key}: expected {GOLDEN[key]}, got {got}")
    assert not diffs, "\n".join(diffs[:10])
