"""The search bot's shared checks (issue 40), for each game's test_search_bot: re-deal what a seat cannot
see (the conformance suite's re-deal, tests.engine.conformance), and check that the bot's choice depends on
its view and salt only. `rules` is a game's engine package (view, legal_actions, Determinizer)."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.core.rng import new_rng, rng_to_json
from games.engine.core.search import SearchBot
from tests.engine.conformance.driver import shown


def redealt(rules: Any, state: Any, seat: str, rnd: random.Random, *, redeal: Callable[..., Any],
            catalog: Any) -> Any:
    """The same position with what `seat` cannot see dealt again by the conformance adapter's `redeal`
    (what the seat's decision shows it stays), and the game RNG reseeded."""
    data = redeal(state.to_json(), seat, catalog, rnd, shown(rules.view(state, seat)))
    data["rng"] = rng_to_json(new_rng(rnd.getrandbits(32)))
    return type(state).from_json(data, catalog)


def assert_the_same_choice(rules: Any, state: Any, other: Any, seat: str, *, catalog: Any,
                           iterations: int) -> None:
    """`other` (a re-deal of `state`) shows the seat the same view, and the bot makes the same legal
    choice on both for the same salt ("a" and "b")."""
    assert rules.view(other, seat) == rules.view(state, seat)  # the seat cannot tell them apart
    for salt in ("a", "b"):
        bot = SearchBot(rules.Determinizer(catalog), level="search-1", salt=salt, iterations=iterations)
        mine = bot.choose(rules.view(state, seat), rules.legal_actions(state), seat)
        again = bot.choose(rules.view(other, seat), rules.legal_actions(other), seat)
        assert mine == again and mine in rules.legal_actions(state)


def assert_the_salt_decides(rules: Any, state: Any, *, catalog: Any, iterations: int) -> None:
    """Two bots of the same salt choose the same from the same view, and never draw from the game's RNG."""
    seat = state.decision.seat
    before = state.rng.getstate()
    picks = {SearchBot(rules.Determinizer(catalog), salt="x", iterations=iterations).choose(
        rules.view(state, seat), rules.legal_actions(state), seat) for _ in range(2)}
    assert len(picks) == 1
    assert state.rng.getstate() == before  # the game's RNG is never drawn from


def assert_determinized_views(rules: Any, positions: list[Any], *, catalog: Any, samples: int,
                              at_least: int, same: Callable[[Any, Any], Any] | None = None) -> None:
    """A determinized state shows its seat exactly the view it was built from (same view, same legal
    actions; and `same(sample, state)` when given), `samples` per position, at least `at_least` in all."""
    det = rules.Determinizer(catalog)
    rng = random.Random(1)
    checked = 0
    for state in positions:
        seat = state.decision.seat
        view = rules.view(state, seat)
        for _ in range(samples):
            sample = det.determinize(view, rng)
            assert rules.view(sample, seat) == view
            assert rules.legal_actions(sample) == rules.legal_actions(state)
            if same is not None:
                assert same(sample, state)
            checked += 1
    assert checked >= at_least
