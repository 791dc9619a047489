"""Issue 36, item 3: a decision kind must not tell the other seat what is in a hidden hand. From rules
revision 3 the re-draw, the attacker's abilities and the defender's special cards are asked from public facts
only (always offered, with a pass). Each test re-deals one seat's hidden cards (hand and deck) and plays both
deals through `apply` with the same public choices: the other seat's view, the decision kind included, stays
identical. Before revision 3 the kind differed (`defender_specials` only for a defender holding a playable
special card, `attacker_abilities` only for an attacker holding one, the re-draw only for hands with 0, 1 or
7 resources)."""
from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import the_war as tw

from .helpers import catalog, position, uid

SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "20")), deadline=None)
PASSES = ("done", "keep")


def redeal(st: tw.WarState, seat: str, hidden: list[str]) -> tw.WarState:
    """A copy of `st` whose `seat` holds the hidden cards `hidden` (a permutation of its hand and deck): the
    first as many as the hand holds go to the hand, the rest is the deck, in this order."""
    data = st.to_json()
    n = len(data["zones"][seat]["hand"])
    assert sorted(hidden) == sorted(data["zones"][seat]["hand"] + data["zones"][seat]["deck"])
    data["zones"][seat]["hand"], data["zones"][seat]["deck"] = list(hidden[:n]), list(hidden[n:])
    return tw.WarState.from_json(data, st.catalog)


def public(view: dict[str, Any]) -> dict[str, Any]:
    """The observer's view less the losses piles (a deck hit puts the top of a deck there face up: a re-dealt
    deck shows other cards, as it should)."""
    out = dict(view)
    out["players"] = {s: {k: v for k, v in p.items() if k != "losses"} for s, p in view["players"].items()}
    return out


def as_action(key: tuple) -> dict[str, Any]:
    cls = tw.ACTION_CLASSES[key[0]]
    names = [n for n in cls._names if n != "seat"]
    return {"type": key[0], "seat": key[1], **{n: v for n, v in zip(names, key[2:], strict=False)
                                               if v is not None}}


def play_twins(a: tw.WarState, b: tw.WarState, observer: str, choose, plies: int) -> list[str]:
    """Play the two deals with the same actions (`choose(state, common keys)`, None: stop) and check after
    every action that the observer's view is the same in both. Returns the decision kinds seen."""
    seen = []
    for _ in range(plies):
        assert public(tw.view(a, observer)) == public(tw.view(b, observer))
        if a.status != "active":
            break
        seen.append(a.decision.kind)
        kb = set(tw.legal_keys(b))
        common = [k for k in tw.legal_keys(a) if k in kb]
        key = choose(a, common)
        if key is None:
            break
        tw.apply(a, as_action(key))
        tw.apply(b, as_action(key))
    return seen


def scripted(script: list[dict[str, Any]]):
    """Play the script's actions when legal, else pass (done, keep) or the first common action."""
    todo = [tw.Action.from_json(a).key() for a in script]

    def choose(st: tw.WarState, common: list[tuple]) -> tuple | None:
        if todo and todo[0] in common:
            return todo.pop(0)
        for k in common:
            if k[0] in PASSES:
                return k
        return common[0] if common else None
    return choose


def hand_swapped(st: tw.WarState, seat: str) -> tw.WarState:
    """The deal in which the seat's one hand card and the top card of its deck change places."""
    hand, deck = st.zones[seat]["hand"], st.zones[seat]["deck"]
    return redeal(st, seat, [deck[0], *hand[1:], hand[0], *deck[1:]])


def test_the_attacker_does_not_learn_that_the_defender_holds_not_a_step_back():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"]},
                  p1={"line1": ["tw-reinforced-rifle-company"], "hand": ["tw-not-a-step-back"],
                      "resources": ["tw-depot"] * 3})
    g, rr = uid(st, "p2", "grenadiere"), uid(st, "p1", "reinforced-rifle-company")
    other = hand_swapped(st, "p1")  # the same table; the special card is in the deck, a depot in the hand
    assert [st.codes[c] for c in other.zones["p1"]["hand"]] == ["tw-depot"]
    script = [{"type": "wave", "seat": "p2"}, {"type": "done", "seat": "p2"},
              {"type": "attack", "seat": "p2", "unit": g}, {"type": "done", "seat": "p2"},
              {"type": "block", "seat": "p1", "unit": rr, "attacker": g}, {"type": "done", "seat": "p1"}]
    seen = play_twins(st, other, "p2", scripted(script), 20)
    assert "defender_specials" in seen  # asked in both deals; the card stays playable where it is held
    assert "attack_phase" in seen[seen.index("defender_specials"):]  # and the wave went on to its end


def test_the_defender_does_not_learn_that_the_attacker_holds_long_range_raid():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"], "hand": ["tw-long-range-raid"],
                                                 "resources": ["tw-depot"] * 3},
                  p1={"line1": ["tw-reinforced-rifle-company"]})
    g, rr = uid(st, "p2", "grenadiere"), uid(st, "p1", "reinforced-rifle-company")
    other = hand_swapped(st, "p2")
    script = [{"type": "wave", "seat": "p2"}, {"type": "done", "seat": "p2"},
              {"type": "attack", "seat": "p2", "unit": g}, {"type": "done", "seat": "p2"},
              {"type": "block", "seat": "p1", "unit": rr, "attacker": g}, {"type": "done", "seat": "p1"}]
    seen = play_twins(st, other, "p1", scripted(script), 20)
    assert "attacker_abilities" in seen and "block" in seen


def test_a_kept_starting_hand_does_not_tell_how_many_resources_it_holds():
    deck = ["tw-depot"] * 30 + ["tw-guardsmen"] * 30
    st = tw.new_game(catalog(), tw.GameSetup(5, {"p1": tuple(deck), "p2": tuple(deck)}))
    first = st.first_seat
    hidden = st.zones[first]["hand"] + st.zones[first]["deck"]
    depots = [c for c in hidden if st.codes[c] == "tw-depot"]
    others = [c for c in hidden if c not in depots]
    seven = redeal(st, first, depots[:7] + [c for c in hidden if c not in depots[:7]])  # may re-draw
    three = redeal(st, first, depots[:3] + others[:4] + depots[3:] + others[4:])  # may not
    assert ("redraw", first) in tw.legal_keys(seven) and ("redraw", first) not in tw.legal_keys(three)
    seen = play_twins(seven, three, tw.OTHER[first], scripted([]), 6)  # both keep
    assert seen[:2] == ["redraw", "redraw"]


@SETTINGS
@given(seed=hs.integers(0, 2**31 - 1), ply=hs.integers(0, 400), seat=hs.sampled_from(tw.SEATS))
def test_a_re_deal_of_one_seats_hidden_cards_never_shows_in_the_other_seats_view(seed, ply, seat):
    """Random starter games: at a random ply one seat's hand and deck are re-dealt at random; for the next
    plies the other seat plays at random (never its scout party, which shows the hand) and the re-dealt
    seat plays only what both deals allow without naming a card of its hand (nor re-draws, which shows
    it). The other seat's view stays the same."""
    rnd = random.Random(seed)
    cat = catalog()
    st = tw.new_game(cat, tw.starter_setup(cat, seed))
    for _ in range(ply):
        if st.status != "active":
            return
        ks = tw.legal_keys(st)
        tw.apply(st, as_action(ks[rnd.randrange(len(ks))]))
    if st.status != "active" or any(f.kind == "payment" for f in st.frames):
        return  # a card being paid for is on its way to the table: not a hidden card any more
    hidden = st.zones[seat]["hand"] + st.zones[seat]["deck"]
    rnd.shuffle(hidden)
    other = redeal(st, seat, hidden)

    def choose(a: tw.WarState, common: list[tuple]) -> tuple | None:
        if a.decision.seat != seat:
            ks = [k for k in common if k[0] != "scout"]
        else:
            hand = set(a.zones[seat]["hand"]) | set(other.zones[seat]["hand"])
            ks = [k for k in common if k[0] != "redraw" and not hand.intersection(k[2:])]
        return ks[rnd.randrange(len(ks))] if ks else None

    play_twins(st, other, tw.OTHER[seat], choose, 120)


def test_a_game_played_under_revision_2_replays_as_it_was_played():
    """A game stored with `"rules_revision": 2` (created before revision 3) is asked only the old windows:
    its log replays to the same state under its revision and is refused under revision 3."""
    from dataclasses import replace

    rev2 = replace(catalog(), rules_revision=2)
    setup = tw.starter_setup(rev2, 11)
    log: list = []
    played = tw.play_game(rev2, setup, {"p1": tw.RandomBot(11), "p2": tw.RandomBot(12)}, log=log)
    assert tw.replay(rev2, setup, log).to_json() == played.to_json()
    try:
        tw.replay(catalog(), setup, log)
    except tw.IllegalAction:
        return
    raise AssertionError("revision 3 replays a revision-2 log unchanged: it asks no new window")
