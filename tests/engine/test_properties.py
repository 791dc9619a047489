"""Properties of whole games between bots, with the real catalog and the Western Europe starter decks."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from games.engine import (
    Action,
    GameState,
    HeuristicBot,
    IllegalAction,
    Options,
    RandomBot,
    apply,
    events_for,
    legal_actions,
    load_catalog_dir,
    new_game,
    play_game,
    replay,
    view,
)
from games.engine.battlecards.inspect import battle_frame, current_values, fresh_values
from games.engine.battlecards.setup import SEATS, starter_setup
from games.engine.battlecards.state import OTHER
from tests.engine.helpers import card_zones as zones
from tests.engine.helpers import json_strings

CATALOG = load_catalog_dir()
# ENGINE_EXAMPLES=200 for a deeper run; the default keeps the engine suite well under a minute.
SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "12")), deadline=None)
seeds = st_.integers(min_value=0, max_value=2**31 - 1)
options = st_.builds(Options, larger_standing_armies=st_.booleans(), occupying_force=st_.booleans())


def hidden_from(state: GameState, seat: str) -> set[str]:
    """Ids `seat` may not see: its own deck order, the enemy deck, hand, kept cards and face-down cards."""
    foe = OTHER[seat]
    enemy = state.players[foe]
    hidden = set(state.arsenal(seat)["deck"]) | set(state.arsenal(foe)["deck"]) | set(enemy["hand"])
    hidden |= set(state.team(foe)["kept"])
    fr = battle_frame(state)
    revealed = set(fr.present[OTHER[seat]]) | set(fr.withdrawn[OTHER[seat]]) if fr else set()
    for stacks in enemy["stacks"].values():
        for s in stacks:
            hidden.update(c for c in s if c not in revealed)
    for s in enemy["occupied"].values():
        hidden.update(c for c in s if c not in revealed)
    if state.decision and state.decision.kind == "capture_pick" and state.decision.seat == seat:
        hidden -= {c["id"] for c in state.decision.prompt["cards"]}  # the browsed stack
    return hidden


def drive(state: GameState, bots: dict, check_every: int = 1, on_step=None) -> list[dict]:
    log = []
    while state.decision is not None and state.ply < 20_000:
        seat = state.decision.seat
        legal = legal_actions(state)
        action = bots[seat].choose(view(state, seat), legal, seat)
        log.append(action.to_json())
        checking = on_step and (state.ply + 1) % check_every == 0
        before = {s: hidden_from(state, s) for s in SEATS} if checking else None
        events = apply(state, action)
        if checking:
            on_step(state, events, before)
    return log


@SETTINGS
@given(seed=seeds, opts=options)
def test_every_random_game_ends_and_no_card_is_lost_or_duplicated(seed, opts):
    setup = starter_setup(CATALOG, seed, options=opts)
    state = new_game(CATALOG, setup)
    total = Counter(state.code)

    def check(s, _events, _before=None):
        fr = battle_frame(s)
        if fr is not None and fr.stage in ("window", "phase0", "phase", "withdraw"):
            # the incrementally kept values are exact
            cached, fresh = current_values(s, fr), fresh_values(s, fr)
            assert (cached.A, cached.D) == (fresh.A, fresh.D)
        z = zones(s)
        assert max(z.values()) == 1, [c for c, n in z.items() if n > 1]
        assert set(z) == set(total), set(total) ^ set(z)
        for seat in SEATS:  # C5: captured cards never join the captor's arsenal deck or discard
            p = s.arsenal(seat)
            assert all(s.pool_of(c) is p for c in p["deck"] + p["discard"]), seat

    drive(state, {"axis": RandomBot(seed), "allies": RandomBot(seed + 1)}, check_every=3, on_step=check)
    check(state, [])
    assert state.status == "finished" and state.decision is None
    assert state.result["kind"] in ("total", "standard", "all-battles-decided", "turn-limit")


@SETTINGS
@given(seed=seeds)
def test_replay_from_seed_and_log_reproduces_the_final_state(seed):
    setup = starter_setup(CATALOG, seed)
    log: list = []
    final = play_game(CATALOG, setup, {"axis": RandomBot(), "allies": RandomBot("b")}, log=log)
    again = replay(CATALOG, setup, log)
    assert again.to_json() == final.to_json()
    assert again.winner == final.winner and again.ply == len(log)


@SETTINGS
@given(seed=seeds, cut=st_.integers(min_value=0, max_value=400))
def test_json_round_trip_mid_game_loses_nothing(seed, cut):
    setup = starter_setup(CATALOG, seed)
    state = new_game(CATALOG, setup)
    bot = RandomBot()
    while state.decision is not None and state.ply < cut:
        apply(state, bot.choose({"ply": state.ply}, legal_actions(state), state.decision.seat))
    data = json.loads(json.dumps(state.to_json()))
    copy = GameState.from_json(data, CATALOG)
    assert copy.to_json() == state.to_json()
    assert copy.decision == state.decision
    assert legal_actions(copy) == legal_actions(state)
    # both continue identically (the RNG state travelled too)
    for _ in range(30):
        if state.decision is None:
            break
        action = bot.choose({"ply": state.ply}, legal_actions(state), state.decision.seat)
        apply(state, action)
        apply(copy, action)
    assert copy.to_json() == state.to_json()


@SETTINGS
@given(seed=seeds)
def test_views_and_public_events_never_show_hidden_cards_or_the_rng(seed):
    state = new_game(CATALOG, starter_setup(CATALOG, seed))

    def check(s, events, before):
        for seat in SEATS:
            hidden = hidden_from(s, seat)
            seen = view(s, seat)
            text = json.dumps(seen)
            assert "rng" not in text and '"seed"' not in text
            leaked = hidden & json_strings(seen)
            assert not leaked, (seat, [(c, s.code[c]) for c in leaked])
            # an event may name a card the seat could see before or after the action, nothing else; a
            # battle's reveal makes its forces public for that battle, even when the battle ends (an air
            # raid's one round) and they go face down again within the same actions
            shown = {c for e in events if e.type == "battle_revealed" and e.visible_to == "all"
                     for forces in e.data["forces"].values() for c, _code in forces}
            for e in events_for(events, seat):
                if e.type in ("card_played", "hand_discarded"):
                    # a kept card is turned face up when played; a discarded hand goes face up onto the
                    # arsenal discard (which the same action may reshuffle into the deck when it draws)
                    continue
                assert not ((hidden & before[seat]) - shown) & json_strings(e.data), (seat, e)

    drive(state, {"axis": RandomBot(seed), "allies": RandomBot(seed + 7)}, check_every=3, on_step=check)


@SETTINGS
@given(
    seed=seeds, cut=st_.integers(min_value=0, max_value=300), pick=st_.integers(min_value=0, max_value=10**6)
)
def test_illegal_actions_leave_the_state_unchanged(seed, cut, pick):
    state = new_game(CATALOG, starter_setup(CATALOG, seed))
    bot = RandomBot()
    while state.decision is not None and state.ply < cut:
        apply(state, bot.choose({"ply": state.ply}, legal_actions(state), state.decision.seat))
    if state.decision is None:
        return
    before = state.to_json()
    seat = state.decision.seat
    legal = legal_actions(state)
    base = legal[pick % len(legal)].to_json()
    attempts = [
        {**base, "seat": OTHER[seat]},  # not your turn
        {**{k: ("c0" if k in ("card", "unit", "target", "recipient") else v) for k, v in base.items()}},
        {"type": "fire", "seat": seat, "unit": "c1", "target": "c2"},
        {"type": "choose", "seat": seat, "option": "no-such-option"},
    ]
    for data in attempts:
        action = Action.from_json(data)
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            apply(state, action)
        assert state.to_json() == before


def test_heuristic_bot_beats_random_bot_in_most_games():
    wins = 0
    games = 12
    for seed in range(games):
        h = "axis" if seed % 2 == 0 else "allies"
        bots = {h: HeuristicBot(CATALOG), OTHER[h]: RandomBot(seed)}
        state = play_game(CATALOG, starter_setup(CATALOG, 1000 + seed), bots)
        assert state.status == "finished"
        wins += state.winner == h
    assert wins >= games * 3 // 4


def test_heuristic_games_end():
    state = play_game(
        CATALOG, starter_setup(CATALOG, 77), {"axis": HeuristicBot(CATALOG), "allies": HeuristicBot(CATALOG)}
    )
    assert state.status == "finished"


@pytest.mark.parametrize(
    "options",
    [
        {"occupying_force": True},
        {"larger_standing_armies": True},
        {"occupying_force": True, "larger_standing_armies": True},
    ],
)
def test_heuristic_games_end_under_every_optional_rule(options):
    """HeuristicBot once crashed browsing an occupied-battlecard stack ("bc:<id>") with Capture (seed 2)."""
    import dataclasses

    for seed in (2, 5, 9):
        setup = starter_setup(CATALOG, seed)
        setup = dataclasses.replace(setup, options=dataclasses.replace(setup.options, **options))
        state = play_game(CATALOG, setup, {"axis": HeuristicBot(CATALOG), "allies": HeuristicBot(CATALOG)})
        assert state.status == "finished"
