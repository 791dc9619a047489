"""Issue 36, item 4: the scout party "may rotate it at any time to look at cards in opponent's hand" (S469).
From rules revision 3 it is offered wherever its owner holds a decision (ruling R13), not only in his own
phases: the hand shown is the one at that moment."""
from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import the_war as tw

from .helpers import act, catalog, keys, kinds, position, uid
from .test_hidden_decisions import as_action

SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "10")), deadline=None)


def test_the_defender_scouts_while_he_decides_his_blocks_and_sees_the_hand_of_that_moment():
    st = position(seat="p2", stage="attack",
                  p2={"line1": ["tw-grenadiere"], "hand": ["tw-long-range-raid", "tw-waffen-ss"],
                      "resources": ["tw-depot"] * 3},
                  p1={"line1": ["tw-reconnaissance-platoon", "tw-reinforced-rifle-company"]})
    g = uid(st, "p2", "grenadiere")
    scout, rr = uid(st, "p1", "reconnaissance-platoon"), uid(st, "p1", "reinforced-rifle-company")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=g)
    act(st, "p2", "done")
    act(st, "p2", "play_special", card=uid(st, "p2", "long-range-raid"))  # leaves the hand
    for i in range(3):
        act(st, "p2", "tap", card=uid(st, "p2", "depot", i))
    act(st, "p2", "done")
    assert kinds(st) == "block" and st.decision.seat == "p1"
    assert ("scout", "p1", scout) in keys(st)
    events = act(st, "p1", "scout", unit=scout)
    shown = [e for e in events if e.type == "scouted_hand"]
    assert shown[0].visible_to == "p1" and shown[0].data["cards"] == ["tw-waffen-ss"]
    assert tw.view(st, "p1")["scouted_hand"] == ["tw-waffen-ss"] and tw.view(st, "p2")["scouted_hand"] is None
    # the decision is still his: the rotated scout no longer blocks, the company does
    assert kinds(st) == "block" and scout in st.rotated
    assert ("block", "p1", rr, g) in keys(st) and not any(k[0] == "block" and k[2] == scout for k in keys(st))
    act(st, "p1", "block", unit=rr, attacker=g)
    act(st, "p1", "done")
    assert tw.view(st, "p1")["scouted_hand"] == ["tw-waffen-ss"]  # kept until his next turn


def test_a_unit_declared_in_the_wave_does_not_scout_and_games_under_revision_2_never_offer_it():
    from dataclasses import replace

    for cat, offered in ((catalog(), True), (replace(catalog(), rules_revision=2), False)):
        st = position(seat="p2", stage="attack", cat=cat, p2={"line1": ["tw-grenadiere"]},
                      p1={"line1": ["tw-reconnaissance-platoon"]})
        g, scout = uid(st, "p2", "grenadiere"), uid(st, "p1", "reconnaissance-platoon")
        act(st, "p2", "wave")
        act(st, "p2", "done")
        act(st, "p2", "attack", unit=g)
        act(st, "p2", "done")
        assert kinds(st) == "block"
        assert (("scout", "p1", scout) in keys(st)) is offered
        if offered:
            act(st, "p1", "block", unit=scout, attacker=g)
            assert not any(k[0] == "scout" for k in keys(st))  # declared as a blocker: not rotated twice


@SETTINGS
@given(seed=hs.integers(0, 2**31 - 1))
def test_a_scout_party_is_offered_at_every_decision_of_its_owner_and_shows_that_moments_hand(seed):
    """Random starter games: wherever the deciding seat has a non-rotated scout party in play that no
    declaration of the wave under way uses, scouting is legal; played on a copy it shows the opponent's hand
    of that moment to that seat and leaves the decision with him."""
    rnd = random.Random(seed)
    cat = catalog()
    st = tw.new_game(cat, tw.starter_setup(cat, seed))
    kinds_seen = set()
    while st.status == "active" and st.ply < 1500:
        seat = st.decision.seat
        ks = tw.legal_keys(st)
        wave = next((f for f in reversed(st.frames) if f.kind == "wave"), None)
        used = set()
        if wave is not None:
            pairs = (wave.targeted + wave.blocks + wave.supports + wave.escorts + wave.intercepts + wave.fire
                     + wave.strikes)
            used = {u for p in pairs for u in p} | set(wave.general)
        scouts = [u for z in ("line1", "line2") for u in st.zones[seat][z] if u not in st.rotated
                  and u not in used and "scout-party" in cat.cards[st.codes[u]].features]
        assert {k[2] for k in ks if k[0] == "scout"} == set(scouts)
        if scouts:
            kinds_seen.add(st.decision.kind)
            copy = tw.WarState.from_json(st.to_json(), cat)
            tw.apply(copy, {"type": "scout", "seat": seat, "unit": scouts[0]})
            hand = sorted(st.codes[c] for c in st.zones[tw.OTHER[seat]]["hand"])
            assert tw.view(copy, seat)["scouted_hand"] == hand and copy.decision.seat == seat
        tw.apply(st, as_action(ks[rnd.randrange(len(ks))]))
