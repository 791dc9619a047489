"""Golden Tide of Iron matches (tests/engine/tide_of_iron/golden.py) stay byte-identical, and each replays."""
from __future__ import annotations

import json

from tests.engine.tide_of_iron.golden import GOLDEN_FILE, golden


def test_golden_matches_are_unchanged():
    stored = json.loads(GOLDEN_FILE.read_text())
    now = golden()
    assert now == stored
    assert all(m["plies"] > 30 for m in now.values())
