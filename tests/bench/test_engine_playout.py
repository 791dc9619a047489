"""engine_playout.py (compare_engine.py's measuring script) plays every game of this checkout: finished
random playouts of the three games with bots, Tide of Iron's golden matches played and replayed to the
same number of plies as the golden file records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.tide_of_iron.golden import GOLDEN_FILE

ROOT = Path(__file__).resolve().parents[2]
PLAYOUT = ROOT / "tests" / "bench" / "engine_playout.py"


def playout(game: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, str(PLAYOUT), game, "--root", str(ROOT), *args], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("game", ["battlecards", "battlefront", "the-war"])
def test_random_and_heuristic_playouts_of_this_checkouts_engine_finish(game):
    out = playout(game, "--games", "2", "--heuristic")
    assert out["engine"].startswith(str(ROOT / "games" / "engine"))
    for part, games in (("random", 2), ("heuristic", 1)):
        assert out[part]["games"] == games and out[part]["finished"] == games
        assert out[part]["actions_per_game"] > 10 and out[part]["actions_s_cpu"] > 0


def test_tide_of_iron_golden_matches_are_played_and_replayed():
    out = playout("tide-of-iron")["golden"]
    stored = json.loads(GOLDEN_FILE.read_text())
    assert out["matches"] == len(stored)
    assert out["plies"] == sum(m["plies"] for m in stored.values())
    assert out["replay_cpu_s"] > 0 and out["play_cpu_s"] > 0
