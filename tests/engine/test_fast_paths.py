"""Every self-play fast path against its reference path, at every ply of seeded games (OpenSpiel's
test_consistent): the fast legal key equals the listed one, the lazy bot view equals `view`, memoised legal
actions and views equal a fresh computation on a state rebuilt from JSON, and the index play_game picks for
a RandomBot equals RandomBot.choose."""
from __future__ import annotations

import pytest

from games.engine import (
    GameState,
    HeuristicBot,
    Options,
    RandomBot,
    apply,
    bot_view,
    legal_actions,
    legal_key_at,
    legal_keys,
    load_catalog_dir,
    new_game,
    view,
)
from games.engine.battlecards.selfplay import random_pick
from games.engine.battlecards.setup import SEATS, starter_setup, team_setup

CATALOG = load_catalog_dir()
CASES = [(seed, "random", Options()) for seed in range(3)] + [
    (3, "heuristic", Options()),
    (4, "random", Options(occupying_force=True)),
    (5, "heuristic", Options(larger_standing_armies=True, occupying_force=True)),
]


# team, uneven and combined games (FAQ OR3, OR4, COMBINING SETS): seats are armies
TEAMS = [(["DE", "DE"], ["GB", "GB"]), (["DE"], ["GB", "GB"]), (["DE", "JP"], ["GB", "US", "RU"])]


def _walk(seed: int, bots: str, options: Options, check, team: tuple | None = None) -> int:
    setup = (team_setup(CATALOG, seed, axis=team[0], allies=team[1], options=options) if team
             else starter_setup(CATALOG, seed, options=options))
    state = new_game(CATALOG, setup)
    seats = setup.armies
    players = ({s: RandomBot(seed + i) for i, s in enumerate(seats)} if bots == "random"
               else {s: HeuristicBot(CATALOG) for s in seats})
    plies = 0
    while state.decision is not None and plies < 3000:
        check(state, players)
        seat = state.decision.seat
        bot = players[seat]
        seen = view(state, seat) if bot.needs_view else {"ply": state.ply}
        action = bot.choose(seen, legal_actions(state), seat)
        apply(state, action)
        plies += 1
    return plies


def _uncached(state: GameState) -> GameState:
    return GameState.from_json(state.to_json(), CATALOG)


@pytest.mark.parametrize(("seed", "bots", "options"), CASES)
def test_legal_key_at_builds_the_key_legal_keys_lists(seed, bots, options):
    def check(state, _players):
        n_seen = []
        state.drop_caches()
        first = legal_key_at(state, lambda n: n_seen.append(n) or 0)
        keys = legal_keys(state)
        assert n_seen == [len(keys)] and first == keys[0]
        step = max(1, len(keys) // 25)
        for i in list(range(0, len(keys), step)) + [len(keys) - 1]:
            state.drop_caches()
            assert legal_key_at(state, lambda n, i=i: i) == keys[i]

    assert _walk(seed, bots, options, check) > 100


@pytest.mark.parametrize(("seed", "bots", "options"), CASES)
def test_memoised_legal_actions_and_views_equal_a_fresh_computation(seed, bots, options):
    def check(state, _players):
        fresh = _uncached(state)
        assert legal_keys(state) == legal_keys(fresh)
        assert fresh.decision == state.decision
        for seat in SEATS:
            assert view(state, seat) == view(fresh, seat)

    assert _walk(seed, bots, options, check) > 100


@pytest.mark.parametrize(("seed", "bots", "options"), CASES)
def test_the_lazy_bot_view_equals_view(seed, bots, options):
    def check(state, _players):
        for seat in SEATS:
            full = view(state, seat)
            assert bot_view(state, seat) == full
            lazy = bot_view(state, seat)  # read part by part, as a bot does
            for key in ("decision", "battle", "me", "opponent", "conflict", "ply"):
                assert lazy[key] == full[key]
                assert lazy.get(key) == full[key]
            assert list(lazy) == list(full) and len(lazy) == len(full)
            decision = lazy["decision"]
            if decision is not None and decision["seat"] == seat:
                assert decision["legal_actions"] == full["decision"]["legal_actions"]

    assert _walk(seed, bots, options, check) > 100


@pytest.mark.parametrize("seed", range(4))
def test_the_random_pick_equals_random_bot_choose(seed):
    def check(state, players):
        seat = state.decision.seat
        bot = players[seat]
        legal = legal_actions(state)
        pick = random_pick(state, bot._base, seat)
        assert legal[pick(len(legal))] == bot.choose({"ply": state.ply}, legal, seat)

    assert _walk(seed, "random", Options(), check) > 100


@pytest.mark.parametrize("team", TEAMS)
def test_the_fast_paths_hold_in_team_games(team):
    """The random pick (play_game's index fast path) equals RandomBot.choose for every army, and the key
    built at an index equals the listed key, in team, uneven and combined games."""
    def check(state, players):
        seat = state.decision.seat
        bot = players[seat]
        keys = legal_keys(state)
        for i in {0, len(keys) // 2, len(keys) - 1}:
            assert legal_key_at(state, lambda n, i=i: i) == keys[i]
        legal = legal_actions(state)
        pick = random_pick(state, bot._base, seat)
        assert legal[pick(len(legal))] == bot.choose({"ply": state.ply}, legal, seat)

    assert _walk(7, "random", Options(), check, team=team) > 100
