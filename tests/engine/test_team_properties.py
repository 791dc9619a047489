"""Properties of whole team / uneven / combined games between random bots (every OR3 option included):
no card is lost or duplicated, the JSON round trip mid-game loses nothing, and no army sees more than the
README's "Team play" section allows (a teammate's hand and face-down stacks are as hidden as an enemy's)."""
from __future__ import annotations

import json
import os
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st_

from games.engine import (
    GameState,
    Options,
    RandomBot,
    apply,
    events_for,
    legal_actions,
    load_catalog_dir,
    new_game,
    team_setup,
    view,
)
from games.engine.battlecards.inspect import battle_frame
from games.engine.battlecards.state import OTHER
from tests.engine.helpers import card_zones as zones
from tests.engine.helpers import json_strings

CATALOG = load_catalog_dir()
# ENGINE_EXAMPLES=40 for a deeper run (about 3 minutes); the default keeps these three near 20 seconds.
SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "6")), deadline=None)
seeds = st_.integers(min_value=0, max_value=2**31 - 1)
SHAPES = [
    (("DE", "DE"), ("GB", "GB")),
    (("DE",), ("GB", "GB")),
    (("DE", "DE"), ("GB",)),
    (("DE", "DE", "DE"), ("GB", "GB", "GB", "GB")),
    (("DE", "JP"), ("GB", "US", "RU")),
    (("JP", "JP"), ("US", "US")),
]
shapes = st_.sampled_from(SHAPES)


def _game(seed, shape, occupying=False):
    axis, allies = shape
    return new_game(CATALOG, team_setup(CATALOG, seed, axis=list(axis), allies=list(allies),
                                        options=Options(occupying_force=occupying)))


def hidden_from(s: GameState, army: str) -> set[str]:
    """Ids `army` may not see: every arsenal deck's order, the enemy side's kept cards, and every other army's
    (teammates' too) reserve hand and face-down deployed cards."""
    hidden: set[str] = set()
    for pool in s.pools.values():
        hidden.update(pool["deck"])
    hidden.update(s.sides[OTHER[s.side(army)]]["kept"])
    fr = battle_frame(s)
    revealed: set[str] = set()
    if fr is not None:
        for a in fr.present:
            revealed.update(fr.present[a])
            revealed.update(fr.withdrawn[a])
    for other, p in s.players.items():
        if other == army:
            continue
        hidden.update(p["hand"])
        for stacks in p["stacks"].values():
            for st in stacks:
                hidden.update(c for c in st if c not in revealed)
        for st in p["occupied"].values():
            hidden.update(c for c in st if c not in revealed)
    d = s.decision
    if d is not None and d.seat == army:
        if d.kind == "capture_pick":
            hidden -= {c["id"] for c in d.prompt["cards"]}  # the browsed stack
        if d.kind == "reserve_trade":
            hidden.discard(d.prompt["card"]["id"])  # the card a friendly army offers him (README)
    return hidden


def drive(s: GameState, bots: dict, on_step, every: int = 3) -> None:
    while s.decision is not None and s.ply < 30_000:
        seat = s.decision.seat
        action = bots[seat].choose({"ply": s.ply}, legal_actions(s), seat)
        checking = (s.ply + 1) % every == 0
        before = {a: hidden_from(s, a) for a in s.armies} if checking else None
        events = apply(s, action)
        if checking:
            on_step(s, events, before)


@SETTINGS
@given(seed=seeds, shape=shapes, occupying=st_.booleans())
def test_every_random_team_game_ends_and_no_card_is_lost_or_duplicated(seed, shape, occupying):
    s = _game(seed, shape, occupying)
    total = Counter(s.code)

    def check(s, _events, _before=None):
        z = zones(s)
        assert max(z.values()) == 1, [c for c, n in z.items() if n > 1]
        assert set(z) == set(total), set(total) ^ set(z)
        for key, pool in s.pools.items():  # C5: a card only ever returns to its own nation's arsenal
            assert all(s.owner[c] == key for c in pool["deck"] + pool["discard"]), key

    bots = {a: RandomBot(seed + i) for i, a in enumerate(s.armies)}
    drive(s, bots, check)
    check(s, [])
    assert s.status == "finished" and s.decision is None


@SETTINGS
@given(seed=seeds, shape=shapes, cut=st_.integers(min_value=0, max_value=600))
def test_team_json_round_trip_mid_game_loses_nothing(seed, shape, cut):
    s = _game(seed, shape)
    bot = RandomBot(seed)
    while s.decision is not None and s.ply < cut:
        apply(s, bot.choose({"ply": s.ply}, legal_actions(s), s.decision.seat))
    copy = GameState.from_json(json.loads(json.dumps(s.to_json())), CATALOG)
    assert copy.to_json() == s.to_json() and copy.decision == s.decision
    assert legal_actions(copy) == legal_actions(s)
    for _ in range(40):
        if s.decision is None:
            break
        action = bot.choose({"ply": s.ply}, legal_actions(s), s.decision.seat)
        apply(s, action)
        apply(copy, action)
    assert copy.to_json() == s.to_json()


@SETTINGS
@given(seed=seeds, shape=shapes)
def test_no_army_sees_a_teammates_or_an_enemys_hidden_cards(seed, shape):
    s = _game(seed, shape)

    def check(s, events, before):
        for army in s.armies:
            hidden = hidden_from(s, army)
            leaked = hidden & json_strings(view(s, army))
            assert not leaked, (army, [(c, s.code[c]) for c in leaked])
            for e in events_for(events, army):
                if e.type in ("card_played", "hand_discarded"):
                    continue  # turned face up (as in the classic property test)
                assert not hidden & before[army] & json_strings(e.data), (army, e)

    bots = {a: RandomBot(seed + 3 * i) for i, a in enumerate(s.armies)}
    drive(s, bots, check, every=4)
