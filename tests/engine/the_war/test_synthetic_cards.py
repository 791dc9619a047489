"""Rule sentences no card of the stored pool triggers, on synthetic cards (helpers.with_cards): each test
copies a stored card under a new code with the one feature the sentence needs, then plays through `apply`."""
from __future__ import annotations

from vocabulary.the_war import Effect, EffectKind, Feature, Side, Target

from .helpers import act, keys, position, uid, with_cards, zone


def fighter_bomber_catalog():
    # a fighter (not a bomber subtype) that possesses a bombing power parameter and attacks with it
    return with_cards(fighter_bomber={"base": "tw-bf-109e", "bombing_power": 4,
                                      "features": (Feature.TARGETED_ATTACK,)})


def fighter_bomber_targets(p1_line1: list[str], p1_line2: list[str]):
    st = position(seat="p2", stage="attack", cat=fighter_bomber_catalog(),
                  p2={"line2": ["tw-fighter-bomber"]}, p1={"line1": p1_line1, "line2": p1_line2})
    fb = uid(st, "p2", "fighter-bomber")
    act(st, "p2", "wave")
    return st, fb


def test_non_bomber_aircraft_with_bombing_power_bombs_a_unit_and_takes_no_damage_from_it():
    st, fb = fighter_bomber_targets(["tw-guardsmen"], [])
    g = uid(st, "p1", "guardsmen")
    assert ("target", "p2", fb, g) in keys(st)  # the fighter uses its bombing power in a targeted attack
    act(st, "p2", "target", unit=fb, target=g)
    while st.decision and st.turn == 3 and zone(st, g) == "line1":
        act(st, st.decision.seat, "done")
    # bombing power 4 >= the Guardsmen's defense 2; "same rules as for bomber attack": infantry without
    # AA-attack neither blocks it nor damages it
    assert zone(st, g) == "losses" and zone(st, fb) == "line2"


def test_non_bomber_aircraft_bombing_is_intercepted_by_fighters_like_a_bomber():
    st, fb = fighter_bomber_targets(["tw-guardsmen"], ["tw-yak-1"])
    g, yak = uid(st, "p1", "guardsmen"), uid(st, "p1", "yak-1")
    act(st, "p2", "target", unit=fb, target=g)
    while st.decision and ("intercept", "p1", yak, fb) not in keys(st):
        act(st, st.decision.seat, "done")
    act(st, "p1", "intercept", unit=yak, aircraft=fb)
    while st.decision and st.turn == 3:
        act(st, st.decision.seat, "done")
    # the interception cancels the bombing: the Guardsmen stay, the two fighters fought each other
    assert zone(st, g) == "line1"


def test_non_bomber_aircraft_attacking_the_deck_is_a_strategic_bomber():
    st, fb = fighter_bomber_targets([], ["tw-37mm-aa-gun-61-k", "tw-85mm-aa-gun-52-k"])
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=fb, target="deck")
    if st.decision and st.decision.seat == "p2":
        act(st, "p2", "done")
    supporters = {k[2] for k in keys(st) if k[0] == "support"}
    # strategic bomber: only heavy AA supports the deck, light AA may not
    assert supporters == {uid(st, "p1", "85mm-aa-gun-52-k")}
    deck = len(st.zones["p1"]["deck"])
    act(st, "p1", "done")
    assert len(st.zones["p1"]["deck"]) == deck - 4  # its whole bombing power on the deck


def test_non_bomber_aircraft_attacking_a_resource_is_a_tactical_bomber():
    st = position(seat="p2", stage="attack", cat=fighter_bomber_catalog(),
                  p2={"line2": ["tw-fighter-bomber"]},
                  p1={"line2": ["tw-37mm-aa-gun-61-k", "tw-85mm-aa-gun-52-k"], "resources": ["tw-depot"]})
    fb = uid(st, "p2", "fighter-bomber")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=fb, target=uid(st, "p1", "depot"))
    if st.decision and st.decision.seat == "p2":
        act(st, "p2", "done")
    # tactical bomber: light AA supports the resource, heavy AA only against strategic bombers
    assert {k[2] for k in keys(st) if k[0] == "support"} == {uid(st, "p1", "37mm-aa-gun-61-k")}


def test_special_card_requiring_a_scouts_rotation_rotates_the_scout_and_needs_one():
    cat = with_cards(scouted_raid={"base": "tw-long-range-raid", "rotate_to_play": (Feature.SCOUT_PARTY,)})
    hand = {"hand": ["tw-scouted-raid"], "resources": ["tw-depot"] * 3}
    st = position(seat="p1", stage="build", cat=cat, p1={**hand, "line1": ["tw-reconnaissance-platoon"]})
    scout, raid = uid(st, "p1", "reconnaissance-platoon"), uid(st, "p1", "scouted-raid")
    deck = len(st.zones["p2"]["deck"])
    act(st, "p1", "build", card=raid)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert scout in st.rotated and zone(st, raid) == "losses"
    assert len(st.zones["p2"]["deck"]) == deck - 2
    # without a non-rotated scout party unit the card cannot be played
    st = position(seat="p1", stage="build", cat=cat, p1={**hand, "line1": ["tw-reconnaissance-platoon"]},
                  rotated=("p1:tw-reconnaissance-platoon",))
    assert not any(k[0] == "build" and k[2] == uid(st, "p1", "scouted-raid") for k in keys(st))


def test_fortification_moved_by_an_opponents_special_card_goes_to_losses():
    move = [{"kind": EffectKind.MOVE_LINE, "target": Target(side=Side.ENEMY)}]
    cat = with_cards(dislodge={"base": "tw-panic", "effects": tuple(Effect(**e) for e in move)})
    st = position(seat="p1", stage="build", cat=cat,
                  p1={"hand": ["tw-dislodge", "tw-dislodge"], "resources": ["tw-depot"] * 6},
                  p2={"line1": ["tw-pillbox-dot", "tw-grenadiere"]})
    pill, gr = uid(st, "p2", "pillbox-dot"), uid(st, "p2", "grenadiere")
    act(st, "p1", "build", card=uid(st, "p1", "dislodge", 0), target=gr)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert zone(st, gr) == "line2"  # any other unit just changes lines
    act(st, "p1", "build", card=uid(st, "p1", "dislodge", 1), target=pill)
    for i in range(3, 6):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert zone(st, pill) == "losses"  # a fortification moved by the opponent is lost
