"""The search bot on Battlecards (issue 40): it plays only from its seat's view (classic two-army games).

- a determinized state shows its seat exactly the view it was built from (same view, same legal actions),
  in each theater, with and without the optional rules that change set-up and battlecards;
- for positions from self-play, re-dealing the cards the seat cannot see (the conformance suite's re-deal:
  both decks' order, the enemy hand and face-down stacks card for card of the stack's kind, his kept cards,
  the conflict deck; the game RNG reseeded) gives the seat the same view, and the bot the same choice for
  the same salt;
- the engine offers the search levels for Battlecards.
"""
from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as g
from games.engine.core.search import LEVELS, SearchBot
from games.engine.registry import get
from tests.engine.conformance.adapters import battlecards_redeal, strings_in
from tests.engine.search_bot_checks import (
    assert_determinized_views,
    assert_the_salt_decides,
    assert_the_same_choice,
    redealt,
)

CATALOG = g.load_catalog_dir()


def positions(seed: int, *, every: int, theater: str = "WE", heuristic: bool = False,
              options: g.Options | None = None) -> list[g.GameState]:
    setup = g.starter_setup(CATALOG, seed, theater=theater, options=options or g.Options())
    state = g.new_game(CATALOG, setup)
    bots = {s: g.HeuristicBot(catalog=CATALOG, salt=f"h{seed}{s}") if heuristic
            else g.RandomBot(salt=f"r{seed}{s}") for s in g.SEATS}
    out = []
    while state.decision is not None and state.ply < 3000:
        seat = state.decision.seat
        legal = g.legal_actions(state)
        if state.ply % every == 0 and len(legal) > 1:
            out.append(g.GameState.from_json(state.to_json(), CATALOG))
        g.apply(state, bots[seat].choose(g.view(state, seat), legal, seat))
    return out


@lru_cache(maxsize=1)
def all_positions() -> list[g.GameState]:
    return (positions(1, every=13) + positions(2, every=11, heuristic=True)
            + positions(3, every=17, theater="EF", options=g.Options(occupying_force=True))
            + positions(4, every=17, theater="PAC", options=g.Options(larger_standing_armies=True)))


def redeal(state: g.GameState, seat: str, rnd: random.Random) -> g.GameState:
    """What the seat cannot see dealt again (tests.engine.conformance.adapters.battlecards_redeal: what the
    seat's decision shows it stays), and the game RNG reseeded."""
    return redealt(g, state, seat, rnd, redeal=battlecards_redeal, catalog=CATALOG)


def test_a_determinized_state_shows_the_seat_the_view_it_was_built_from():
    assert_determinized_views(g, all_positions(), catalog=CATALOG, samples=2, at_least=100)


def test_the_table_names_no_face_down_card():
    """The view's `table` (the public facts the search rebuilds from) names no card of a deck, of the enemy
    hand, of his face-down stacks or of his kept cards, unless the rest of the view shows it; nor any code
    of a card the rest of the view does not show (the conflict deck's list is not in it: a kept card)."""
    for state in all_positions():
        for seat in g.SEATS:
            view = g.view(state, seat)
            enemy = "allies" if seat == "axis" else "axis"
            foe = state.players[enemy]
            down = set(state.conflict_deck) | {c for p in state.pools.values() for c in p["deck"]}
            down |= set(foe["hand"]) | {c for k in foe["stacks"] for s in foe["stacks"][k] for c in s}
            down |= set(state.team(enemy)["kept"])
            rest = set(strings_in({k: v for k, v in view.items() if k != "table"}))
            table = set(strings_in(view["table"]))
            assert not (down - rest) & table
            assert not {state.code[c] for c in down if state.code[c] not in rest} & table - rest


def _without_table(view):
    return {k: v for k, v in view.items() if k != "table"}


@lru_cache(maxsize=1)
def choice_pairs() -> list[tuple[str, list[tuple[g.GameState, list]]]]:
    """From self-play: a seat's decisions with several legal actions, each action applied to a copy (the
    state after it, and the events the other seat was told)."""
    out = []
    for seed, theater, heuristic in ((5, "WE", False), (6, "WE", True), (7, "EF", True)):
        setup = g.starter_setup(CATALOG, seed, theater=theater)
        state = g.new_game(CATALOG, setup)
        bots = {s: g.HeuristicBot(catalog=CATALOG, salt=f"h{seed}{s}") if heuristic
                else g.RandomBot(salt=f"r{seed}{s}") for s in g.SEATS}
        while state.decision is not None and state.ply < 1500:
            seat = state.decision.seat
            legal = g.legal_actions(state)
            if len(legal) > 1:
                after = []
                for action in legal[:8]:
                    other = g.GameState.from_json(state.to_json(), CATALOG)
                    told = g.events_for(g.apply(other, action), "allies" if seat == "axis" else "axis")
                    after.append((other, [(e.type, e.data) for e in told]))
                out.append((seat, after))
            g.apply(state, bots[seat].choose(g.view(state, seat), legal, seat))
    return out


def test_the_table_tells_the_other_side_no_secret_choice():
    """Whatever a seat chose, when the other seat was told the same events and the rest of its view is the
    same (the choice is secret: FAQ C2's divided stack, the optional forces committed, the set-up
    deployment, which card went where), the table is the same too."""
    compared = 0
    for seat, after in choice_pairs():
        other = "allies" if seat == "axis" else "axis"
        groups: dict[str, list[dict]] = {}
        for state, told in after:
            view = g.view(state, other)
            groups.setdefault(repr((_without_table(view), told)), []).append(view["table"])
        for tables in groups.values():
            for table in tables[1:]:
                assert table == tables[0]
                compared += 1
    assert compared >= 100


@settings(max_examples=20, deadline=None)
@given(index=st.integers(min_value=0, max_value=10_000), deal=st.integers(0, 2**32 - 1))
def test_re_dealing_the_other_seats_hidden_cards_leaves_the_choice_identical(index, deal):
    pos = all_positions()
    state = pos[index % len(pos)]
    seat = state.decision.seat
    other = redeal(state, seat, random.Random(deal))
    assert_the_same_choice(g, state, other, seat, catalog=CATALOG, iterations=8)


def test_the_same_salt_and_view_give_the_same_choice_and_the_games_rng_is_untouched():
    state = next(p for p in all_positions() if len(g.legal_actions(p)) > 4)
    assert_the_salt_decides(g, state, catalog=CATALOG, iterations=8)


def test_the_engine_offers_the_search_levels_for_battlecards():
    engine = get("battlecards").engine
    assert engine.bot_kinds == ("random", "heuristic", *LEVELS)
    for level in LEVELS:  # Battlecards' own budgets: its playouts cost more, so each level plays fewer
        bot = engine.bot(level, catalog=CATALOG, salt="s")
        assert isinstance(bot, SearchBot)
        assert bot.iterations == g.Determinizer.budgets[level] < LEVELS[level].iterations
    assert [g.Determinizer.budgets[level] for level in LEVELS] == sorted(g.Determinizer.budgets.values())
    assert bot.game.rollout_plies == 50  # 50-ply playouts scored by the victory points won


def test_the_priors_come_from_the_public_catalog_not_the_games_snapshot():
    """A game's catalog is its snapshot: only the cards of its decks and conflict deck (a kept card among
    them). The determinizer given it draws exactly what it draws given the whole public catalog."""
    from cards.battlecards.snapshot import snapshot_dicts

    checked = 0
    for state in all_positions()[::7]:
        setup = state.setup
        codes = {c for deck in setup.decks.values() for c in deck} | set(setup.conflict_deck)
        snapshot = g.Catalog.from_dicts(**snapshot_dicts(CATALOG, codes))
        seat = state.decision.seat
        view = g.view(state, seat)
        full = g.Determinizer(CATALOG).determinize(view, random.Random(checked))
        game = g.Determinizer(snapshot).determinize(view, random.Random(checked))
        assert game.to_json() == full.to_json()
        checked += 1
    assert checked >= 10


def _reversed_keys(value):
    """A JSON value with every dict's keys in reverse order (as a store that reorders keys gives it back:
    PostgreSQL's jsonb)."""
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


def test_the_table_is_the_same_bytes_whatever_order_the_stored_state_keeps_its_keys_in():
    """The action answer is spliced from the in-memory state and must be byte for byte the view a fresh
    process builds from the stored row (test_action_answer_json), which jsonb hands back reordered."""
    import json

    for state in all_positions():
        again = g.GameState.from_json(_reversed_keys(state.to_json()), CATALOG)
        for seat in g.SEATS:
            assert json.dumps(g.view(again, seat)["table"]) == json.dumps(g.view(state, seat)["table"])


def test_the_playout_policy_plays_the_only_legal_action_as_the_heuristic_bot_would():
    """Determinizer.policy returns the only legal action without asking the heuristic bot (no view built): the
    same action the bot chooses there, at every such position of self-play."""
    from games.engine.battlecards.view import bot_view

    determinizer = g.Determinizer(CATALOG)
    kinds: set[str] = set()
    for seed in (5, 6):
        state = g.new_game(CATALOG, g.starter_setup(CATALOG, seed, theater="WE", options=g.Options()))
        bots = {s: g.HeuristicBot(catalog=CATALOG, salt=f"h{seed}{s}") for s in g.SEATS}
        while state.decision is not None and state.ply < 3000:
            seat, legal = state.decision.seat, g.legal_actions(state)
            if len(legal) == 1:
                assert determinizer.policy(state, random.Random(0)) == legal[0]
                assert determinizer._heuristic.choose(bot_view(state, seat), legal, seat) == legal[0]
                kinds.add(state.decision.kind)
            g.apply(state, bots[seat].choose(g.view(state, seat), legal, seat))
    assert len(kinds) >= 5, kinds
