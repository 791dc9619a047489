"""Engine invariants over seeded bot games (hypothesis, few examples; ENGINE_EXAMPLES=200 for a deeper run):
every game ends, replay and JSON round trips reproduce it, apply rejects illegal actions and changes nothing,
and no view or event shows a seat the opponent's hand or the deck (except a scout's snapshot, to its owner).
"""
from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import battlefront as bf
from tests.engine.helpers import json_strings

EXAMPLES = int(os.environ.get("ENGINE_EXAMPLES", "8"))

options = hs.builds(
    bf.Options,
    two_front_victory=hs.booleans(),
    blitzkrieg_attacker=hs.sampled_from([None, "west", "east"]),
    special_cards=hs.one_of(hs.none(), hs.fixed_dictionaries({
        "west": hs.sampled_from(bf.NATIONALITIES), "east": hs.sampled_from(bf.NATIONALITIES)})),
)


def _bots(kind: str, salt: int, catalog) -> dict:
    if kind == "random":
        return {"west": bf.RandomBot(f"w{salt}"), "east": bf.RandomBot(f"e{salt}")}
    return {"west": bf.HeuristicBot(catalog, salt=salt), "east": bf.RandomBot(salt)}


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=hs.integers(0, 2**31), opts=options, kind=hs.sampled_from(["random", "heuristic"]))
def test_games_end_and_replay_from_seed_and_log(catalog, seed, opts, kind):
    setup = bf.GameSetup(seed, opts)
    log: list = []
    st = bf.play_game(catalog, setup, _bots(kind, seed, catalog), log=log)
    assert st.status == "finished" and st.ply == len(log) and st.turn <= 40
    assert st.result["kind"] in ("three_fronts", "breakthrough", "outflank", "envelopment", "stalled",
                                 "simultaneous")
    if st.result["kind"] not in ("stalled", "simultaneous"):
        assert st.winner in bf.SEATS
    if st.result["kind"] == "simultaneous":
        assert st.winner is None
    again = bf.replay(catalog, setup, log)
    assert again.to_json() == st.to_json()
    assert bf.BattlefrontState.from_json(json.loads(json.dumps(st.to_json())), catalog) == st


def _illegal_candidates(st: bf.BattlefrontState) -> list:
    seat = st.decision.seat
    other = "east" if seat == "west" else "west"
    out: list = [
        bf.Pass(other),                                                   # not your turn
        {"type": "play", "seat": seat, "card": "bf-major"},               # malformed: no front
        {"type": "teleport", "seat": seat},                               # malformed: unknown type
        {"type": "discard", "seat": seat, "card": 17},                    # malformed: not a string
        "play",                                                           # malformed: not an object
    ]
    for code in st.deck[-3:] + st.hands[other][:3]:                      # not in the hand
        out.append(bf.Play(seat, code, "C"))
        out.append(bf.Discard(seat, code))
    if st.decision.kind == "deploy":
        out.append(bf.Discard(seat, st.hands[seat][0]))                   # not a deploy action
        for f, owner in st.captured.items():
            if owner is not None:
                out.append(bf.Play(seat, st.hands[seat][0], f))           # captured front
    else:
        out.append(bf.Pass(seat))
    legal = set(bf.legal_keys(st))
    return [a for a in out if not (isinstance(a, bf.Action) and a.key() in legal)]


def _codes_in(data) -> set[str]:
    return set(_ALL) & json_strings(data)


_ALL: set[str] = set()


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=hs.integers(0, 2**31), opts=options)
def test_illegal_actions_are_rejected_and_views_hide_what_they_must(catalog, seed, opts):
    _ALL.update(catalog.cards, catalog.special_cards)
    setup = bf.GameSetup(seed, opts)
    st = bf.new_game(catalog, setup)
    bots = _bots("heuristic", seed, catalog)
    events: list = []
    while st.status == "active":
        for seat in bf.SEATS:
            other = "east" if seat == "west" else "west"
            v = bf.view(st, seat)
            seen = dict(v, me={k: x for k, x in v["me"].items() if k != "scouted"})
            hidden = set(st.deck) | set(st.hands[other])
            assert not _codes_in(seen) & hidden, (seat, _codes_in(seen) & hidden)
            if v["me"]["scouted"] is not None:   # a scout's snapshot: cards the opponent held, never the deck
                assert not set(v["me"]["scouted"]) & (set(st.deck) | set(st.hands[seat]))
            for e in bf.events_for(events, seat):
                if e.type != "scouted_hand":
                    assert not _codes_in(e.data) & hidden, (seat, e)
            d = v["decision"]
            if d is not None and d["seat"] != seat:
                assert set(d) == {"seat", "kind"}
        before = st.to_json()
        for bad in _illegal_candidates(st):
            try:
                bf.apply(st, bad)
            except bf.EngineError as exc:
                assert exc.code in ("malformed_action", "illegal_action", "not_your_turn")
            else:
                raise AssertionError(f"{bad} was accepted")
            assert st.to_json() == before
        seat = st.decision.seat
        action = bots[seat].choose(bf.view(st, seat), bf.legal_actions(st), seat)
        events = bf.apply(st, action.to_json())
        assert bf.BattlefrontState.from_json(st.to_json(), catalog).decision == st.decision
    for bad in (bf.Pass("west"), bf.Pass("east")):
        try:
            bf.apply(st, bad)
        except bf.IllegalAction as exc:
            assert exc.code == "game_over"
