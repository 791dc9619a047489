"""Issue 36, item 5 (its first part), through `apply`:

* "owner of this unit may use its AA attack voluntarily to shoot down enemy aircraft" (S145): from rules
  revision 3 a unit with AA-attack facing aircraft announces `aa_mode` air or, facing aircraft only, `none`
  (with ground units too, `ground` declines it as before); "Bomber or GA aircraft don't receive damage while
  attacking ... a unit that doesn't bear AA-attack parameter or doesn't use it" (S425).
* the airfield: "Parameters of an airfield (attack/defense) are 0/0. They are used against ground units
  attacking it if attacked air unit isn't rotated." From revision 3 an aircraft rotated before ground units
  strike it on its airfield fights as any rotated unit attacked: its own defense, no attack ("Rotated units
  retain their defense parameter ... their attack power is considered to be zero"); before, 0/0 in any case.
* GA aircraft and fuel: "Rules for using GA aircrafts are the same as for using bombers (fuel spending, ...)",
  and the bombers' fuel is for attacks ("Note that bomber attacks require fuel spending"); the card text
  "For attacks: {F} (when defense (block) {F} do not need)" and Air Example 2 (the Il-2 blocks, no fuel
  spent) read the same way: a GA aircraft spends its fuel to attack, never to block or support.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import the_war as tw

from .helpers import act, catalog, keys, kinds, position, uid, zone


def run(st, *actions):
    """Apply (seat, type, fields) actions through `apply`, no window passed for us."""
    for seat, type_, fields in actions:
        tw.apply(st, {"type": type_, "seat": seat, **fields})


def pe2_bombs_an_aa_gun(cat=None):
    st = position(seat="p1", stage="attack", cat=cat, p1={"line2": ["tw-pe-2"], "resources": ["tw-fuel"]},
                  p2={"line1": ["tw-37mm-aa-gun-61-k"]})
    pe2, aa = uid(st, "p1", "pe-2"), uid(st, "p2", "37mm-aa-gun-61-k")
    run(st, ("p1", "wave", {}), ("p1", "target", {"unit": pe2, "target": aa}),
        ("p1", "tap", {"card": uid(st, "p1", "fuel")}), ("p1", "done", {}), ("p1", "done", {}))
    return st, pe2, aa


@pytest.mark.parametrize("mode", ["air", "none"])
def test_an_aa_gun_attacked_by_a_bomber_may_decline_its_aa_attack(mode):
    st, pe2, aa = pe2_bombs_an_aa_gun()
    run(st, ("p1", "done", {}), ("p2", "done", {}))  # the attacker's abilities, the defender's specials
    assert kinds(st) == "aa_mode" and st.decision.seat == "p2"
    assert keys(st) == [("aa_mode", "p2", aa, "air"), ("aa_mode", "p2", aa, "none")]
    tw.apply(st, {"type": "aa_mode", "seat": "p2", "unit": aa, "mode": mode})
    # the Pe-2's bombing power 3 destroys the gun (defense 2); its AA-attack 3 destroys the Pe-2 (2) if used
    assert zone(st, aa) == "losses"
    assert zone(st, pe2) == ("losses" if mode == "air" else "line2")


def test_before_revision_3_the_aa_attack_against_aircraft_only_was_not_a_choice():
    st, pe2, aa = pe2_bombs_an_aa_gun(replace(catalog(), rules_revision=2))
    assert kinds(st) != "aa_mode"  # nothing asked: the gun shot and the Pe-2 fell
    assert zone(st, pe2) == "losses" and zone(st, aa) == "losses"


def platoon_strikes_the_fighter(rotated: bool, cat=None):
    st = position(seat="p1", stage="attack", cat=cat, p1={"line1": ["tw-reconnaissance-platoon"]},
                  p2={"line2": ["tw-bf-109e"]}, rotated=("p2:bf-109e",) if rotated else ())
    platoon, fighter = uid(st, "p1", "reconnaissance-platoon"), uid(st, "p2", "bf-109e")
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=platoon)
    act(st, "p1", "done")  # no 1st line: it reaches the 2nd line
    act(st, "p1", "strike", unit=platoon, target=fighter)
    act(st, "p1", "done")
    return st, platoon, fighter


@pytest.mark.parametrize(("rotated", "fighter_ends"), [(False, "losses"), (True, "line2")])
def test_an_aircraft_on_its_airfield_fights_with_0_0_only_when_it_is_not_rotated(rotated, fighter_ends):
    """The reconnaissance platoon (1/1) strikes the Bf-109E (3/3) on its airfield: upright, the airfield's
    0/0 fight (destroyed by 1, dealing nothing); rotated before the strike, the fighter keeps its defense 3
    and deals nothing (attack zero): both stay."""
    st, platoon, fighter = platoon_strikes_the_fighter(rotated)
    assert zone(st, fighter) == fighter_ends and zone(st, platoon) == "line1"


def test_the_readings_differ_a_game_under_revision_2_loses_the_rotated_fighter():
    st, platoon, fighter = platoon_strikes_the_fighter(True, replace(catalog(), rules_revision=2))
    assert zone(st, fighter) == "losses" and zone(st, platoon) == "line1"


def test_a_ground_attack_aircraft_blocks_and_supports_without_fuel_but_attacks_with_it():
    # no resource at all: the Il-2 still blocks the Grenadiere with its bombing power (3 against 2)
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"]}, p1={"line2": ["tw-il-2"]})
    g, il2 = uid(st, "p2", "grenadiere"), uid(st, "p1", "il-2")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=g)
    act(st, "p2", "done")
    assert ("block", "p1", il2, g) in keys(st)
    act(st, "p1", "block", unit=il2, attacker=g)
    act(st, "p1", "done")
    assert zone(st, g) == "losses" and zone(st, il2) == "line2"  # no AA on the Grenadiere: no damage
    # supporting a unit under targeted attack by ground units, no resource either
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-t-34-76"]},
                  p1={"line1": ["tw-guardsmen"], "line2": ["tw-il-2"]})
    t, gd, il2 = uid(st, "p2", "t-34-76"), uid(st, "p1", "guardsmen"), uid(st, "p1", "il-2")
    act(st, "p2", "wave")
    act(st, "p2", "target", unit=t, target=gd)
    act(st, "p2", "done")
    act(st, "p2", "done")
    assert ("support", "p1", il2, gd) in keys(st)
    act(st, "p1", "support", unit=il2, target=gd)
    act(st, "p1", "done")
    assert zone(st, t) == "losses"  # the Guardsmen's 3 and the Il-2's 3 against the T-34's 3
    # attacking needs its fuel: not offered without one, paid with one
    for fuel, offered in (([], False), (["tw-fuel"], True)):
        st = position(seat="p1", stage="attack", p1={"line2": ["tw-il-2"], "resources": fuel},
                      p2={"line1": ["tw-grenadiere"]})
        il2, g = uid(st, "p1", "il-2"), uid(st, "p2", "grenadiere")
        if not offered:
            assert ("wave", "p1") not in keys(st)
            continue
        act(st, "p1", "wave")
        act(st, "p1", "target", unit=il2, target=g)
        assert kinds(st) == "pay" and st.decision.prompt["cost"] == {"depot": 0, "plant": 0, "fuel": 1}
