"""The analysis of a finished game (issue 41, games.engine.core.analysis), for every registered game whose
engine offers a determinizer (Battlecards, Battlefront, The War):

- the estimate at a ply is unchanged when the hidden cards the deciding seat could not see are dealt again
  (the conformance suite's re-deal, tests/engine/conformance/adapters.py): only the seat's view is searched;
- SearchBot.evaluate runs the same search as SearchBot.choose (its preferred move is the one choose plays);
- a flagged move follows the documented threshold, and each ply's estimate covers both sides.
"""
from __future__ import annotations

import json
import random

import pytest

from games.engine.core import analysis
from games.engine.core.search import SearchBot
from games.engine.registry import games
from tests.engine.conformance.adapters import ADAPTERS
from tests.engine.conformance.driver import shown

ITERATIONS = 24  # small: the properties hold at any budget
CHECKED_PLIES = 8  # re-dealt plies a game: a whole long game (every fourth ply) cost 13 s of the suite


def _analysable() -> list[str]:
    out = []
    for spec in games():
        engine = spec.engine
        if spec.id in ADAPTERS and getattr(engine, "has_bots", False) and engine.determinizer(
            ADAPTERS[spec.id].catalog()
        ) is not None:
            out.append(spec.id)
    return out


GAMES = _analysable()


def _game(name: str, seed: int) -> tuple[object, object, object, list[dict]]:
    """A finished game of two heuristic bots: (engine, catalog, setup, its actions' JSON)."""
    adapter = ADAPTERS[name]
    engine = adapter.game_type.engine
    catalog = adapter.catalog()
    setup = adapter.setup(catalog, seed)
    state = engine.new_game(catalog, setup)
    bots = {s: engine.bot("heuristic", catalog=catalog, salt=f"a{seed}{s}") for s in engine.seats}
    actions = []
    while state.decision is not None and len(actions) < 400:
        seat = state.decision.seat
        action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state), seat)
        actions.append(action.to_json())
        engine.apply(state, action)
    return engine, catalog, setup, actions


def test_there_is_a_game_to_analyse():
    assert {"battlecards", "battlefront", "the-war"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_estimate_at_a_ply_ignores_the_hidden_cards_the_seat_could_not_see(name, seed):
    engine, catalog, setup, actions = _game(name, seed)
    adapter = ADAPTERS[name]
    determinizer = engine.determinizer(catalog)
    bot = SearchBot(determinizer, salt="analysis", iterations=ITERATIONS)
    rnd = random.Random(seed)
    state = engine.new_game(catalog, setup)
    checked = 0
    for ply, data in enumerate(actions):
        if ply % 4 == 1:
            seat = determinizer.to_move(state)
            view = engine.view(state, seat)
            legal = engine.legal_actions(state)
            played = engine.parse_action(data)
            here = analysis.analyse_ply(bot, view=view, legal=legal, seat=seat, played=played,
                                        seats=engine.seats, ply=ply)
            before = state.to_json()
            dealt = adapter.redeal(before, seat, catalog, rnd, shown(view))
            other = engine.state_from_json(dealt, catalog)
            assert json.dumps(engine.view(other, seat)) == json.dumps(view)  # the seat cannot tell them apart
            if dealt != before:
                there = analysis.analyse_ply(bot, view=engine.view(other, seat), seat=seat, played=played,
                                             legal=engine.legal_actions(other), seats=engine.seats, ply=ply)
                assert there == here, f"ply {ply}: the estimate moved with cards {seat} could not see"
                checked += 1
                if checked == CHECKED_PLIES:
                    break
        engine.apply(state, engine.parse_action(data))
    assert checked >= 2


@pytest.mark.parametrize("name", GAMES)
def test_evaluate_prefers_what_choose_plays_and_flags_follow_the_threshold(name):
    engine, catalog, setup, actions = _game(name, 5)
    determinizer = engine.determinizer(catalog)
    results = analysis.analyse_game(engine=engine, determinizer=determinizer,
                                    state=engine.new_game(catalog, setup), actions=actions[:16],
                                    iterations=ITERATIONS)
    assert [r.ply for r in results] == list(range(len(results))) and results
    bot = SearchBot(determinizer, salt="analysis", iterations=ITERATIONS)
    state = engine.new_game(catalog, setup)
    for r, data in zip(results, actions, strict=False):
        assert set(r.wins) == set(engine.seats) and abs(sum(r.wins.values()) - 1) < 1e-6
        assert r.played == data
        if r.flagged:
            assert r.best != r.played and r.best_value - r.played_value >= analysis.FLAG_MARGIN
        legal = engine.legal_actions(state)
        if len(legal) > 1:
            chosen = bot.choose(engine.view(state, r.seat), legal, r.seat)
            assert chosen.to_json() == r.best
        engine.apply(state, engine.parse_action(data))


def test_an_army_seat_is_estimated_for_its_side():
    assert analysis.side_of("axis-2", ("axis", "allies")) == "axis"
    assert analysis.side_of("east", ("west", "east")) == "east"
    assert analysis.side_of("p1", ("p1", "p2")) == "p1"


@pytest.mark.parametrize("name", GAMES)
def test_the_budget_keeps_a_ply_within_its_seconds(name):
    engine, catalog, setup, _ = _game(name, 5)
    determinizer = engine.determinizer(catalog)

    def budget(**kw):
        start = engine.new_game(catalog, setup)
        return analysis.budget(engine=engine, determinizer=determinizer, state=start, **kw)

    assert budget(max_iterations=200, ply_seconds=1e-9) == analysis.MIN_ITERATIONS  # never fewer
    assert budget(max_iterations=6, ply_seconds=1e-9) == 6
    assert budget(max_iterations=50, ply_seconds=1000) == 50  # never more than asked
