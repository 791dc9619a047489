"""The search bot on The War (issue 40): it plays only from its seat's view.

- a determinized state shows its seat exactly the view it was built from (same view, same legal actions),
  for starter games both ways round and for decks with special cards the starters lack;
- for positions from self-play, re-dealing the other seat's hidden cards (his hand exchanged with his deck,
  every deck's order, the game RNG; every public fact kept) gives the seat the same view, and the bot the
  same choice for the same salt;
- the engine offers the search levels for The War.
"""
from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import the_war as tw
from games.engine.core.search import LEVELS, SearchBot
from games.engine.registry import get
from tests.engine.conformance.adapters import the_war_redeal
from tests.engine.search_bot_checks import (
    assert_determinized_views,
    assert_the_salt_decides,
    assert_the_same_choice,
    redealt,
)
from vocabulary.the_war import Category, load_catalog

CATALOG = load_catalog()
RED, WEHRMACHT = "tw-starter-red-army", "tw-starter-wehrmacht"


def with_specials(setup: tw.GameSetup) -> tw.GameSetup:
    """Each deck plus two of every special card its army may play (the starters lack some)."""
    decks = {}
    for seat in tw.SEATS:
        armies = {CATALOG.cards[c].army for c in setup.decks[seat]} - {None}
        specials = [c.code for c in CATALOG.cards.values()
                    if c.category == Category.SPECIAL and (c.army is None or c.army in armies)]
        decks[seat] = tuple(sorted(setup.decks[seat] + tuple(specials) * 2))
    return tw.GameSetup(setup.seed, decks)


def positions(seed: int, *, every: int, specials: bool = False, heuristic: bool = False) -> list[tw.WarState]:
    first, second = (RED, WEHRMACHT) if seed % 2 else (WEHRMACHT, RED)
    setup = tw.starter_setup(CATALOG, seed, first, second)
    if specials:
        setup = with_specials(setup)
    state = tw.new_game(CATALOG, setup)
    bots = {s: tw.HeuristicBot(CATALOG, salt=f"h{seed}{s}") if heuristic else tw.RandomBot(salt=f"r{seed}{s}")
            for s in tw.SEATS}
    out = []
    while state.decision is not None and state.ply < 4000:
        seat = state.decision.seat
        legal = tw.legal_actions(state)
        if state.ply % every == 0 and len(legal) > 1:
            out.append(tw.WarState.from_json(state.to_json(), CATALOG))
        tw.apply(state, bots[seat].choose(tw.view(state, seat), legal, seat))
    return out


@lru_cache(maxsize=1)
def all_positions() -> list[tw.WarState]:
    return (positions(1, every=17) + positions(2, every=23, heuristic=True)
            + positions(5, every=19, specials=True))


def redeal(state: tw.WarState, seat: str, rnd: random.Random) -> tw.WarState:
    """The same position with the other seat's hidden cards dealt again (tests.engine.conformance.adapters.
    the_war_redeal: his hand exchanged with his deck, a card a pending frame names staying; every deck's
    order), the game RNG reseeded. Every public fact (and everything the seat knows) is kept."""
    return redealt(tw, state, seat, rnd, redeal=the_war_redeal, catalog=CATALOG)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_a_determinized_state_shows_the_seat_the_view_it_was_built_from():
    assert_determinized_views(tw, all_positions(), catalog=CATALOG, samples=2, at_least=60,  # as many cards
                              same=lambda sample, state: len(sample.codes) == len(state.codes))


def test_the_table_names_no_card_still_in_an_opponents_hand():
    """The view's `table` (the public facts the search rebuilds from) names no hidden card of the other
    seat: no id in his hand or deck appears in it."""
    for state in all_positions():
        for seat in tw.SEATS:
            z = state.zones[tw.OTHER[seat]]
            hidden = set(z["hand"]) | set(z["deck"])
            assert not hidden & set(_strings(tw.view(state, seat)["table"]))


@settings(max_examples=20, deadline=None)
@given(index=st.integers(min_value=0, max_value=10_000), deal=st.integers(0, 2**32 - 1))
def test_re_dealing_the_other_seats_hidden_cards_leaves_the_choice_identical(index, deal):
    pos = all_positions()
    state = pos[index % len(pos)]
    seat = state.decision.seat
    other = redeal(state, seat, random.Random(deal))
    opp = tw.OTHER[seat]
    if len(state.zones[opp]["hand"]) and len(state.zones[opp]["deck"]) > 1:
        assert (other.zones[opp] != state.zones[opp]) or other.rng.getstate() != state.rng.getstate()
    assert_the_same_choice(tw, state, other, seat, catalog=CATALOG, iterations=6)


def test_the_same_salt_and_view_give_the_same_choice_and_the_games_rng_is_untouched():
    state = next(p for p in all_positions() if len(tw.legal_actions(p)) > 4)
    assert_the_salt_decides(tw, state, catalog=CATALOG, iterations=6)


def test_the_engine_offers_the_search_levels_for_the_war():
    engine = get("the-war").engine
    assert engine.bot_kinds == ("random", "heuristic", *LEVELS)
    bot = engine.bot("search-1", catalog=CATALOG, salt="s")
    assert isinstance(bot, SearchBot) and bot.iterations == LEVELS["search-1"].iterations


def test_the_search_policy_is_the_heuristic_bots_choice_from_the_seats_view():
    """The playouts' policy and the tree's prior (issue 40, strength): on a state sampled from a seat's
    view, the seat's heuristic choice is the heuristic bot's choice from that view."""
    det = tw.Determinizer(CATALOG)
    rng = random.Random(7)
    checked = 0
    for state in all_positions():
        seat = state.decision.seat
        view = tw.view(state, seat)
        legal = tw.legal_actions(state)
        sample = det.determinize(view, rng)
        assert det.policy(sample, rng) == tw.HeuristicBot(CATALOG).choose(view, legal, seat)
        checked += 1
    assert checked >= 30
