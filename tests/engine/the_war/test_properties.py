"""Properties over whole bot games: games end, every legal action applies, illegal ones change nothing,
views and events never show the opponent's hand or any deck order, replay and JSON reproduce the game."""
from __future__ import annotations

import json

import pytest

from games.engine import the_war as tw
from tests.engine.helpers import json_strings

from .helpers import catalog


def hidden_ids(st, seat):
    other = tw.OTHER[seat]
    return set(st.zones[other]["hand"]) | set(st.zones[other]["deck"]) | set(st.zones[seat]["deck"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_games_keep_every_secret_and_reject_illegal_actions(seed):
    cat = catalog()
    st = tw.new_game(cat, tw.starter_setup(cat, seed))
    bots = {"p1": tw.RandomBot(seed), "p2": tw.RandomBot(seed + 7)}
    while st.decision is not None and st.ply < 3000:
        seat = st.decision.seat
        if st.ply % 40 == 0:
            for s in tw.SEATS:
                assert not set(hidden_ids(st, s)) & json_strings(tw.view(st, s)), (seed, st.ply, s)
            before = json.dumps(st.to_json(), sort_keys=True)
            with pytest.raises(tw.IllegalAction):
                tw.apply(st, {"type": "done", "seat": tw.OTHER[seat]})
            with pytest.raises(tw.IllegalAction):
                tw.apply(st, {"type": "hit", "seat": seat, "target": "p9.99"})
            assert json.dumps(st.to_json(), sort_keys=True) == before
        legal = tw.legal_actions(st)
        action = bots[seat].choose({"ply": st.ply}, legal, seat)
        events = tw.apply(st, action)
        for s in tw.SEATS:
            for e in tw.events_for(events, s):
                if e.type in ("drew_cards", "scouted_hand"):
                    assert e.visible_to == s
    assert st.status == "finished"


def test_state_json_round_trip_mid_game():
    cat = catalog()
    setup = tw.starter_setup(cat, 9)
    log: list = []
    st = tw.play_game(cat, setup, {"p1": tw.RandomBot(1), "p2": tw.RandomBot(2)}, log=log, max_plies=500)
    again = tw.WarState.from_json(json.loads(json.dumps(st.to_json())), cat)
    assert again == st and again.decision == st.decision
    assert tw.legal_keys(again) == tw.legal_keys(st)
    with pytest.raises(tw.StateError):
        tw.WarState.from_json({"game": "chess"}, cat)


def test_heuristic_bot_from_the_view_chooses_as_in_self_play():
    cat = catalog()
    st = tw.new_game(cat, tw.starter_setup(cat, 5))
    bound, seen = tw.HeuristicBot(state=st), tw.HeuristicBot(catalog=cat)
    rnd = tw.RandomBot("r")
    while st.decision is not None and st.ply < 600:
        seat = st.decision.seat
        legal = tw.legal_actions(st)
        if seat == "p1":
            action = bound.choose({"ply": st.ply}, legal, seat)
            assert seen.choose(tw.view(st, seat), legal, seat) is action
        else:
            action = rnd.choose({"ply": st.ply}, legal, seat)
        tw.apply(st, action)
