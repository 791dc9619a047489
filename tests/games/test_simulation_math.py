"""Win-rate statistics of `manage.py simulate`."""

from __future__ import annotations

import pytest

from games.simulation import game_seed, wilson_interval


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),  # textbook values of the 95% Wilson score interval
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1000, 0.0002, 0.0057),
    ],
)
def test_wilson_interval_matches_reference_values(wins, n, low, high):
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_games_is_empty():
    assert wilson_interval(0, 0) == (0.0, 0.0)


def test_game_seeds_are_reproducible_and_distinct():
    seeds = [game_seed(7, i) for i in range(1000)]
    assert seeds == [game_seed(7, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert game_seed(8, 0) != game_seed(7, 0)
    assert all(0 <= s < 2**62 for s in seeds)
