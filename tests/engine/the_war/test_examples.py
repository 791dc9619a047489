"""Every worked example of the rulebook, played through `apply` with the example's choices made explicit."""
from __future__ import annotations

from .helpers import act, keys, kinds, position, uid, zone


def soviet_vs_german(**kw):
    """Combat Example 1: Soviet 1st line T-34/76, 45 mm ATG, 2 reinforced rifle companies; German
    Sturmgeschutz III and 3 companies of Sturmgrenadiere, German (p2) to attack."""
    return position(seat="p2", stage="attack", p1={"line1": [
        "tw-t-34-76", "tw-45mm-at-gun", "tw-reinforced-rifle-company", "tw-reinforced-rifle-company"]},
        p2={"line1": ["tw-sturmgeschutz-iii"] + ["tw-sturmgrenadiere"] * 3}, **kw)


def declare_general_wave(st, units):
    act(st, "p2", "wave")
    act(st, "p2", "done")  # no targeted attack
    for u in units:
        act(st, "p2", "attack", unit=u)
    act(st, "p2", "done")


def test_example1_option1_each_attacker_blocked_by_one_unit():
    st = soviet_vs_german()
    sg = [uid(st, "p2", "sturmgrenadiere", i) for i in range(3)]
    t34, atg = uid(st, "p1", "t-34-76"), uid(st, "p1", "45mm-at-gun")
    rifles = [uid(st, "p1", "reinforced-rifle-company", i) for i in range(2)]
    declare_general_wave(st, sg)
    assert kinds(st) == "block" and st.decision.seat == "p1"
    act(st, "p1", "block", unit=rifles[0], attacker=sg[0])
    act(st, "p1", "block", unit=rifles[1], attacker=sg[1])
    act(st, "p1", "block", unit=t34, attacker=sg[2])
    act(st, "p1", "done")
    # "As a result of these combat engagements we have 1 German infantry destroyed by tank."
    assert [zone(st, u) for u in sg] == ["line1", "line1", "losses"]
    assert all(zone(st, u) == "line1" for u in rifles + [t34])
    # "Note that Soviet ATG is still ready to block an attack of enemy SPG."
    assert atg not in st.rotated
    assert kinds(st) == "attack_phase"


def test_example1_option2_tank_two_rifles_and_one_through():
    st = soviet_vs_german()
    sg = [uid(st, "p2", "sturmgrenadiere", i) for i in range(3)]
    t34 = uid(st, "p1", "t-34-76")
    rifles = [uid(st, "p1", "reinforced-rifle-company", i) for i in range(2)]
    declare_general_wave(st, sg)
    act(st, "p1", "block", unit=t34, attacker=sg[0])
    act(st, "p1", "block", unit=rifles[0], attacker=sg[1])
    act(st, "p1", "block", unit=rifles[1], attacker=sg[1])
    act(st, "p1", "done")
    # the blocked Sturmgrenadiere's 2 damage: the German player distributes it over the two companies
    assert kinds(st) == "damage" and st.decision.seat == "p2"
    act(st, "p2", "hit", target=rifles[0])
    act(st, "p2", "hit", target=rifles[1])
    # "In this case we have 2 German units destroyed" and the 3rd reaches the 2nd line
    assert [zone(st, u) for u in sg[:2]] == ["losses", "losses"]
    assert kinds(st) == "strike" and st.decision.prompt["through"] == [sg[2]]
    deck = len(st.zones["p1"]["deck"])
    act(st, "p2", "strike", unit=sg[2], target="deck")
    act(st, "p2", "done")
    assert len(st.zones["p1"]["deck"]) == deck - 2  # Sturmgrenadiere attack power 2


def test_example1_targeted_attack_on_t34_supported_by_atg():
    st = soviet_vs_german()
    stug, t34 = uid(st, "p2", "sturmgeschutz-iii"), uid(st, "p1", "t-34-76")
    atg = uid(st, "p1", "45mm-at-gun")
    act(st, "p2", "wave")
    act(st, "p2", "target", unit=stug, target=t34)
    act(st, "p2", "done")
    act(st, "p2", "done")  # no general attack in this wave
    act(st, "p1", "support", unit=atg, target=t34)
    act(st, "p1", "done")
    # the German player puts the Sturmgeschutz's 3 damage on the tank: "The tank will destroyed anyway"
    for _ in range(3):
        act(st, "p2", "hit", target=t34)
    # Soviet: T-34 (3) + ATG (2, its bonus applies: the only enemy is armored) = 5 on the Sturmgeschutz
    assert zone(st, t34) == "losses" and zone(st, stug) == "losses"
    assert zone(st, atg) == "line1"


def test_example1_one_wave_targeted_and_general_together():
    st = soviet_vs_german()
    stug, t34 = uid(st, "p2", "sturmgeschutz-iii"), uid(st, "p1", "t-34-76")
    sg = [uid(st, "p2", "sturmgrenadiere", i) for i in range(3)]
    act(st, "p2", "wave")
    act(st, "p2", "target", unit=stug, target=t34)
    act(st, "p2", "done")
    # "Sturmgrenadiere (infantry) still attack 1st line as a whole": no target for them
    assert not any(k[0] == "target" for k in keys(st))
    for u in sg:
        act(st, "p2", "attack", unit=u)
    act(st, "p2", "done")
    assert kinds(st) == "block"


def test_example2_su76i_against_tiger_supported_by_pak():
    st = position(seat="p1", stage="attack",
                  p1={"line1": ["tw-su-76i"]}, p2={"line1": ["tw-pzkpfw-vi-tiger", "tw-pak-35"]})
    su, tiger, pak = uid(st, "p1", "su-76i"), uid(st, "p2", "pzkpfw-vi-tiger"), uid(st, "p2", "pak-35")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=su, target=tiger)
    act(st, "p1", "done")
    act(st, "p1", "done")
    act(st, "p2", "support", unit=pak, target=tiger)
    act(st, "p2", "done")
    # different types (armored and artillery): the SU-76i "can't use its bonuses being only 3/3"
    eng = st.frames[-1].engagements[0]
    assert eng.values[su] == [3, 3]
    # "may distribute 3 damage from SU-76i on German ATG to destroy it instead"
    for _ in range(3):
        act(st, "p1", "hit", target=pak)
    assert zone(st, pak) == "losses" and zone(st, tiger) == "line1"
    assert zone(st, su) == "losses"  # "His unit is destroyed anyway."


def test_example2_without_support_both_destroyed():
    st = position(seat="p1", stage="attack",
                  p1={"line1": ["tw-su-76i"]}, p2={"line1": ["tw-pzkpfw-vi-tiger", "tw-pak-35"]})
    su, tiger = uid(st, "p1", "su-76i"), uid(st, "p2", "pzkpfw-vi-tiger")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=su, target=tiger)
    act(st, "p1", "done")
    act(st, "p1", "done")
    act(st, "p2", "done")
    # "SU-76i has parameters 4/4 in such combat so that both units would be destroyed."
    assert zone(st, su) == "losses" and zone(st, tiger) == "losses"


def example3(mode: str):
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-90", "tw-t-34-76"]},
                  p2={"line1": ["tw-kv-1-1940"], "line2": ["tw-il-2"]})
    t90, t34 = uid(st, "p1", "t-90"), uid(st, "p1", "t-34-76")
    kv, il2 = uid(st, "p2", "kv-1-1940"), uid(st, "p2", "il-2")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=t90, target=kv)
    act(st, "p1", "target", unit=t34, target=kv)
    act(st, "p1", "done")
    act(st, "p1", "done")
    act(st, "p2", "support", unit=il2, target=kv)
    act(st, "p2", "done")
    # "Now attacking player must announce whether his AA-gun fights an aircraft or a tank."
    assert kinds(st) == "aa_mode" and st.decision.seat == "p1"
    act(st, "p1", "aa_mode", unit=t90, mode=mode)
    return st, t90, t34, kv, il2


def test_example3_aa_gun_fights_the_aircraft():
    st, t90, t34, kv, il2 = example3("air")
    # "In any case Il-2's owner may distribute its bombing power between two attacking units."
    # KV-1 (4) + Il-2 bombing (3) = 7 ground points, the defender splits them
    assert kinds(st) == "damage" and st.decision.seat == "p2"
    assert {k[2] for k in keys(st)} == {t90, t34}
    for target in [t90, t90, t34, t34, t34, t34, t34]:
        act(st, "p2", "hit", target=target)
    assert zone(st, il2) == "losses"  # AA attack 3 >= Il-2 defense 3
    assert zone(st, kv) == "line1"  # T-34's 3 < KV-1's 4
    assert zone(st, t90) == "losses" and zone(st, t34) == "losses"


def test_example3_aa_gun_fights_the_tank():
    st, t90, t34, kv, il2 = example3("ground")
    for target in [t90, t90, t34, t34, t34, t90, t90]:
        act(st, "p2", "hit", target=target)
    assert zone(st, kv) == "losses"  # T-90 1 + T-34 3 = 4 on the KV-1
    assert zone(st, il2) == "line2"  # no AA attack used
    assert zone(st, t90) == "losses" and zone(st, t34) == "losses"


def test_unit_parameters_example_medium_tank():
    """Medium tank 3/3 destroys a 2/2 armored car; a 5/4 heavy tank destroys it; vs 3/2 infantry both go."""
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-34-76"] * 3},
                  p2={"line1": ["tw-ba-10", "tw-pzkpfw-vi-tiger", "tw-grenadiere"]})
    tanks = [uid(st, "p1", "t-34-76", i) for i in range(3)]
    ba, tiger, gren = uid(st, "p2", "ba-10"), uid(st, "p2", "pzkpfw-vi-tiger"), uid(st, "p2", "grenadiere")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=tanks[0], target=ba)
    act(st, "p1", "target", unit=tanks[1], target=tiger)
    act(st, "p1", "target", unit=tanks[2], target=gren)
    act(st, "p1", "done")
    act(st, "p1", "done")
    # every defender is attacked; each could support another (R19): the example fights them one on one
    act(st, "p2", "done")
    assert zone(st, ba) == "losses" and zone(st, tanks[0]) == "line1"
    assert zone(st, tiger) == "line1" and zone(st, tanks[1]) == "losses"
    assert zone(st, gren) == "losses" and zone(st, tanks[2]) == "losses"


def river_position(**kw):
    return position(seat="p1", stage="attack", p1={
        "line1": ["tw-su-76i", "tw-guardsmen", "tw-kv-1-1940"], "resources": ["tw-fuel"]},
        p2={"conditions": ["tw-river"], "line2": ["tw-m-30-howitzer"]}, **kw)


def test_river_no_targeted_attacks_heavy_tanks_cannot_attack():
    st = river_position()
    act(st, "p1", "wave")
    # "all ground units can't perform targeted attacks"
    assert keys(st) == [("done", "p1")]
    act(st, "p1", "done")
    # "heavy tanks can't attack at all"
    kv = uid(st, "p1", "kv-1-1940")
    assert ("attack", "p1", kv) not in keys(st)


def test_river_breakthrough_with_power_three_eliminates_it():
    st = river_position()
    su, guards = uid(st, "p1", "su-76i"), uid(st, "p1", "guardsmen")
    river = uid(st, "p2", "river")
    # the Guardsmen improved with "Awarded infantryman" (+1/+1)
    st.codes["p1.99"] = "tw-awarded-infantryman"
    st.attached["p1.99"] = guards
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=su)
    act(st, "p1", "attack", unit=guards)
    act(st, "p1", "done")
    assert kinds(st) == "strike"  # nobody blocks: the defender has no 1st line
    act(st, "p1", "strike", unit=su, target="deck")
    act(st, "p1", "done")
    # {(3-2)+(3+1-2)=3}: "sufficient to eliminate River"; the SU-76i's bonus does not count
    assert zone(st, river) == "losses"
    assert st.zones["p2"]["losses"][-1] == river


def test_river_power_below_three_does_not_eliminate():
    st = river_position()
    su = uid(st, "p1", "su-76i")
    river = uid(st, "p2", "river")
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=su)
    act(st, "p1", "done")
    act(st, "p1", "done")
    assert zone(st, river) == "conditions" and st.power[river] == 1


def test_river_eliminated_by_four_deck_cards_at_end_of_turn():
    st = position(seat="p1", stage="end", p2={"conditions": ["tw-river"]})
    river = uid(st, "p2", "river")
    deck = len(st.zones["p1"]["deck"])
    act(st, "p1", "eliminate", card=river)
    assert zone(st, river) == "losses" and len(st.zones["p1"]["deck"]) == deck - 4


def test_tiger_breakthrough_example():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-pzkpfw-vi-tiger"], "resources": ["tw-fuel"]},
                  p1={"line1": ["tw-45mm-at-gun"]})
    tiger, atg = uid(st, "p2", "pzkpfw-vi-tiger"), uid(st, "p1", "45mm-at-gun")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=tiger)
    # "Fuel spending is required for attack of heavy tanks"
    assert kinds(st) == "pay"
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    act(st, "p1", "block", unit=atg, attacker=tiger)
    act(st, "p1", "done")
    # "ATG will be destroyed and "Tiger" will be able to attack 2nd line ... having parameters 2/2"
    assert zone(st, atg) == "losses" and zone(st, tiger) == "line1"
    assert kinds(st) == "strike" and st.decision.prompt["breakthrough"] == [tiger]
    broke = [e for e in act(st, "p2", "breakthrough", unit=tiger) if e.type == "broke_through"]
    assert broke[0].data["values"] == [2, 2]
    deck = len(st.zones["p1"]["deck"])
    act(st, "p2", "strike", unit=tiger, target="deck")
    events = act(st, "p2", "done")
    assert len(st.zones["p1"]["deck"]) == deck - 2
    # nothing behind the line dealt the Tiger damage: it ends the wave alive (rotated) on its line
    assert not any(e.type == "destroyed" and e.data["card"] == tiger for e in events)
    assert zone(st, tiger) == "line1" and tiger in st.rotated and kinds(st) == "attack_phase"


def test_armored_car_paid_with_five_depots_and_one_fuel():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-ba-10"],
                                                "resources": ["tw-depot"] * 5 + ["tw-fuel"]})
    ba = uid(st, "p1", "ba-10")
    act(st, "p1", "build", card=ba)
    for i in range(5):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "convert", to="plant", a="depot", b="depot")
    act(st, "p1", "convert", to="plant", a="depot", b="depot")
    assert zone(st, ba) == "reserve" and st.pool["p1"] == [0, 0, 0, 0, 0, 0]


def test_armored_car_paid_with_three_depots_and_two_plants():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-ba-10"],
                                                "resources": ["tw-depot"] * 3 + ["tw-plant"] * 2})
    ba = uid(st, "p1", "ba-10")
    act(st, "p1", "build", card=ba)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    for i in range(2):
        act(st, "p1", "tap", card=uid(st, "p1", "plant", i))
    act(st, "p1", "convert", to="fuel", a="depot", b="depot")
    assert zone(st, ba) == "reserve"


def test_air_example1_escorted_stuka_against_intercepting_fighter_and_light_aa():
    """Ju-87 STUKA (1/1, bombing 5) escorted by a fighter (3/3) attacks a howitzer (1/1); the defender's
    fighter (3/3) tries to intercept and a light AA gun (1/2, AA 3) supports the howitzer."""
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-ju-87-stuka", "tw-bf-109e"],
                                                  "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-m-30-howitzer", "tw-yak-1", "tw-37mm-aa-gun-61-k"]})
    stuka, bf = uid(st, "p2", "ju-87-stuka"), uid(st, "p2", "bf-109e")
    how, yak, laa = uid(st, "p1", "m-30-howitzer"), uid(st, "p1", "yak-1"), uid(st, "p1", "37mm-aa-gun-61-k")
    act(st, "p2", "wave")
    act(st, "p2", "done")  # no targeted attack on the 1st line
    act(st, "p2", "done")  # no general attack
    assert kinds(st) == "strike"  # aircraft "just fly over" the 1st line
    act(st, "p2", "strike", unit=stuka, target=how)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))  # "bomber attacks require fuel spending"
    act(st, "p2", "escort", unit=bf, bomber=stuka)  # "announced at the same time as bomber attack"
    act(st, "p2", "done")
    assert kinds(st) == "second_line_support" and st.decision.seat == "p1"
    act(st, "p1", "intercept", unit=yak, aircraft=stuka)
    act(st, "p1", "support", unit=laa, target=how)
    act(st, "p1", "done")
    # "Bomber may distribute its bombing power between howitzer and LAA gun and destroy them."
    assert st.decision.seat == "p2" and {k[2] for k in keys(st)} == {how, laa}
    for target in [how, laa, laa, laa, laa]:
        act(st, "p2", "hit", target=target)
    # "LAA gun uses its AA attack parameter and may (if needed) distribute it between bomber and
    # supporting fighter"; the fighters "may fight only each other"
    assert st.decision.seat == "p1" and {k[2] for k in keys(st)} == {stuka, bf}
    for target in [stuka, bf, bf]:
        act(st, "p1", "hit", target=target)
    # "The overall result of this engagement will be destruction of all participating units."
    assert all(zone(st, u) == "losses" for u in (stuka, bf, how, yak, laa))


def test_air_example1_unescorted_bomber_intercepted_does_not_bomb():
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-ju-87-stuka"], "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-m-30-howitzer", "tw-yak-1"]})
    stuka, how, yak = uid(st, "p2", "ju-87-stuka"), uid(st, "p1", "m-30-howitzer"), uid(st, "p1", "yak-1")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=stuka, target=how)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    act(st, "p1", "intercept", unit=yak, aircraft=stuka)
    act(st, "p1", "done")
    # "bomber's targeted attack is cancelled and it should fight an interceptor using general rules"
    assert zone(st, how) == "line2" and zone(st, stuka) == "losses" and zone(st, yak) == "line2"


def air_example2(defender_fighter: bool):
    p1 = {"line2": ["tw-il-2"] + (["tw-yak-1"] if defender_fighter else [])}
    st = position(seat="p2", stage="attack", p1=p1,
                  p2={"line1": ["tw-waffen-ss", "tw-sdkfz-10-4"], "line2": ["tw-bf-109e"]})
    ss, bf, il2 = uid(st, "p2", "waffen-ss"), uid(st, "p2", "bf-109e"), uid(st, "p1", "il-2")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=ss)
    act(st, "p2", "done")
    act(st, "p1", "block", unit=il2, attacker=ss)
    if defender_fighter:  # "He should declare fighter support at the same time as blocking."
        act(st, "p1", "support", unit=uid(st, "p1", "yak-1"), target=il2)
    act(st, "p1", "done")
    # the attacker intercepts after all blocks; his LAA gun cannot support ("attacking units may not be
    # supported")
    assert kinds(st) == "interception"
    assert not any(k[2] == uid(st, "p2", "sdkfz-10-4") for k in keys(st) if len(k) > 2)
    act(st, "p2", "intercept", unit=bf, aircraft=il2)
    act(st, "p2", "done")
    return st, ss, bf, il2


def test_air_example2_intercepted_blocking_aircraft_is_destroyed_and_ss_still_blocked():
    st, ss, bf, il2 = air_example2(False)
    # "The blocking aircraft is now unable to use its bombing power and becomes destroyed as a result of
    # air combat. Waffen SS are still considered as being blocked."
    assert zone(st, il2) == "losses" and zone(st, ss) == "line1" and zone(st, bf) == "line2"
    assert kinds(st) == "attack_phase"  # nothing reached the 2nd line


def test_air_example2_supporting_fighter_takes_the_interceptor():
    st, ss, bf, il2 = air_example2(True)
    # "intercepting fighter would be unable to distribute damage upon bomber and must fight supporting
    # fighter": the Il-2 bombs the Waffen SS (3 >= 2), the fighters destroy each other
    assert zone(st, il2) == "line2" and zone(st, ss) == "losses" and zone(st, bf) == "losses"
    assert zone(st, uid(st, "p1", "yak-1")) == "losses"
