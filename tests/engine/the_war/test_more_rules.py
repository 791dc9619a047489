"""More rule sentences through `apply` (see README.md, the sentence table)."""
from __future__ import annotations

import pytest

from games.engine import the_war as tw
from games.engine.the_war.rules import destroy

from .helpers import act, catalog, keys, kinds, position, uid, zone


def general_wave(st, seat, units):
    act(st, seat, "wave")
    act(st, seat, "done")
    for u in units:
        act(st, seat, "attack", unit=u)
    act(st, seat, "done")


def test_two_seats():
    assert tw.SEATS == ("p1", "p2")


def test_field_exercises_same_army():
    cat = catalog()
    setup = tw.starter_setup(cat, 4, "tw-starter-red-army", "tw-starter-red-army")
    st = tw.play_game(cat, setup, {"p1": tw.RandomBot("a"), "p2": tw.RandomBot("b")})
    assert st.status == "finished"


def test_views_show_each_zone():
    p1 = {"line1": ["tw-guardsmen"], "reserve": ["tw-ba-10"], "conditions": ["tw-city-fighting"],
          "resources": ["tw-depot"]}
    st = position(seat="p1", stage="build", p1=p1)
    v = tw.view(st, "p2")["players"]["p1"]
    zones = {"line1", "line2", "reserve", "conditions", "resources", "losses", "deck_size", "hand_size"}
    assert zones <= set(v)
    assert v["line1"][0]["code"] == "tw-guardsmen" and v["reserve"][0]["code"] == "tw-ba-10"


def test_losses_pile_is_face_up():
    st = position(seat="p1", stage="end", p1={"conditions": ["tw-city-fighting"]})
    act(st, "p1", "discard_condition", card=uid(st, "p1", "city-fighting"))
    assert tw.view(st, "p2")["players"]["p1"]["losses"] == ["tw-city-fighting"]


def test_special_resource_yields_a_pack():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-ba-10"],
                                                "resources": ["tw-synthetic-fuel", "tw-depot", "tw-plant"] * 1
                                                + ["tw-plant"]})
    act(st, "p1", "build", card=uid(st, "p1", "ba-10"))
    act(st, "p1", "tap", card=uid(st, "p1", "synthetic-fuel"))
    assert st.pool["p1"][:3] == [0, 0, 2]


def test_conversions_two_of_the_other_types():
    res = ["tw-plant"] * 4 + ["tw-fuel"] * 4 + ["tw-depot"]
    st = position(seat="p1", stage="build", p1={"hand": ["tw-guardsmen"], "resources": res})
    act(st, "p1", "build", card=uid(st, "p1", "guardsmen"))
    for r in list(st.zones["p1"]["resources"]):
        if kinds(st) == "pay" and ("tap", "p1", r) in keys(st):
            act(st, "p1", "tap", card=r)
    # a depot from two plants, two fuels or a plant and a fuel (R3), never from a depot
    assert {k[3:] for k in keys(st) if k[0] == "convert" and k[2] == "depot"} <= {
        ("plant", "plant"), ("plant", "fuel"), ("fuel", "fuel")}
    assert any(k[0] == "convert" for k in keys(st))


def test_improvements_only_in_the_build_phase():
    st = position(seat="p1", stage="resources", p1={"hand": ["tw-awarded-infantryman"],
                                                    "line1": ["tw-guardsmen"], "resources": ["tw-plant"] * 3})
    assert not any(k[0] == "improve" for k in keys(st))


def test_improvements_affect_only_their_owners_units():
    st = position(seat="p1", stage="build",
                  p1={"hand": ["tw-awarded-infantryman"], "resources": ["tw-plant"] * 3},
                  p2={"line1": ["tw-grenadiere"]})
    assert not any(k[0] == "improve" for k in keys(st))


def test_units_in_reserve_may_be_improved():
    st = position(seat="p1", stage="build",
                  p1={"hand": ["tw-awarded-infantryman"], "reserve": ["tw-guardsmen"],
                                                "resources": ["tw-plant"] * 3})
    assert ("improve", "p1", uid(st, "p1", "awarded-infantryman"), uid(st, "p1", "guardsmen")) in keys(st)


def test_a_unit_may_have_several_improvements():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-awarded-infantryman"] * 2,
                                                "line1": ["tw-guardsmen"], "resources": ["tw-plant"] * 6})
    g = uid(st, "p1", "guardsmen")
    for n in range(2):
        act(st, "p1", "improve", card=uid(st, "p1", "awarded-infantryman", n), unit=g)
        for r in list(st.zones["p1"]["resources"]):
            if kinds(st) == "pay" and ("tap", "p1", r) in keys(st):
                act(st, "p1", "tap", card=r)
    assert sorted(st.attached.values()) == [g, g]



def test_a_units_improvements_are_in_id_order_whatever_order_they_were_attached_or_stored_in():
    """Issue 35: WarState.attached followed the order improvements were attached in, and after a JSON column
    (jsonb) reordered its keys, the order they were stored in: views and moves listed them, and a destroyed
    unit's improvements went to the losses, in another order after a reload. Now always in id order."""
    st = position(seat="p1", stage="build", p1={"hand": ["tw-awarded-infantryman"],
                                                "line1": ["tw-guardsmen", "tw-guardsmen"],
                                                "resources": ["tw-plant"] * 6})
    g = uid(st, "p1", "guardsmen")
    first, second = uid(st, "p1", "awarded-infantryman"), "p1.99"
    st.codes[second] = "tw-awarded-infantryman"
    st.attached[second] = g  # the higher id attached first
    act(st, "p1", "improve", card=first, unit=g)
    for r in list(st.zones["p1"]["resources"]):
        if kinds(st) == "pay" and ("tap", "p1", r) in keys(st):
            act(st, "p1", "tap", card=r)
    assert list(st.attached) == [first, second]
    shown = [i["id"] for u in tw.public_view(st)["players"]["p1"]["line1"] if u["id"] == g
             for i in u["improvements"]]
    assert shown == [first, second]
    data = st.to_json()
    data["attached"] = dict(reversed(list(data["attached"].items())))  # as an old state stored it
    back = tw.WarState.from_json(data, catalog())
    assert list(back.attached) == [first, second]
    assert tw.public_view(back) == tw.public_view(st) and keys(back) == keys(st)
    moves = [k for k in keys(st) if k[0] == "move_improvement"]
    assert [k[2] for k in moves] == sorted((k[2] for k in moves), key=lambda c: (len(c), c))
    destroy(back, g)
    assert back.zones["p1"]["losses"][-2:] == [first, second]


def test_improvements_do_not_count_against_aircraft():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-guardsmen"]}, p2={"line2": ["tw-il-2"]})
    g, il2 = uid(st, "p1", "guardsmen"), uid(st, "p2", "il-2")
    st.codes["p1.99"] = "tw-awarded-infantryman"
    st.attached["p1.99"] = g
    general_wave(st, "p1", [g])
    act(st, "p2", "block", unit=il2, attacker=g)
    act(st, "p2", "done")
    # against an aircraft the Guardsmen are 3/2, not 4/3: the Il-2's bombing power 3 destroys them
    assert zone(st, g) == "losses" and zone(st, il2) == "line2"


def test_battlefield_condition_played_in_build_phase():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-city-fighting"], "resources": ["tw-depot"] * 3})
    c = uid(st, "p1", "city-fighting")
    act(st, "p1", "build", card=c)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert zone(st, c) == "conditions"


def test_river_affects_both_sides():
    st = position(seat="p2", stage="attack", p2={"conditions": ["tw-river"], "line1": ["tw-t-34-76"]},
                  p1={"line1": ["tw-guardsmen"]})
    act(st, "p2", "wave")
    assert keys(st) == [("done", "p2")]


def test_breakthrough_power_accumulates_across_waves():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-su-76i", "tw-guardsmen"]},
                  p2={"conditions": ["tw-river"]})
    su, g, river = uid(st, "p1", "su-76i"), uid(st, "p1", "guardsmen"), uid(st, "p2", "river")
    general_wave(st, "p1", [su])
    act(st, "p1", "done")  # power 3 - 2 = 1
    assert zone(st, river) == "conditions" and st.power[river] == 1
    general_wave(st, "p1", [g])
    act(st, "p1", "done")  # 1 + (3 - 2) = 2: not yet
    assert zone(st, river) == "conditions" and st.power[river] == 2


def test_hero_modes_improvement_special_unit():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-vasily-zaitsev"], "resources": ["tw-depot"] * 5
                                                + ["tw-plant"]})
    z = uid(st, "p1", "vasily-zaitsev")
    assert ("build", "p1", z, None) in keys(st)
    st = position(seat="p2", stage="build",
                  p2={"hand": ["tw-hans-ulrich-rudel"], "resources": ["tw-depot"] * 3},
                  p1={"line1": ["tw-guardsmen"]})
    rudel, g = uid(st, "p2", "hans-ulrich-rudel"), uid(st, "p1", "guardsmen")
    act(st, "p2", "build", card=rudel, target=g)
    for i in range(3):
        act(st, "p2", "tap", card=uid(st, "p2", "depot", i))
    assert zone(st, g) == "losses" and "Hans-Ulrich Rudel" in " ".join(st.heroes_played["p2"]) or zone(
        st, g) == "losses"


def test_units_that_survive_stay_rotated():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-sturmgrenadiere"]},
                  p1={"line1": ["tw-reinforced-rifle-company"]})
    sg, r = uid(st, "p2", "sturmgrenadiere"), uid(st, "p1", "reinforced-rifle-company")
    general_wave(st, "p2", [sg])
    act(st, "p1", "block", unit=r, attacker=sg)
    act(st, "p1", "done")
    assert zone(st, sg) == "line1" and zone(st, r) == "line1" and {sg, r} <= st.rotated


def test_blockers_and_supporters_rotate():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-34-76", "tw-grenadiere"]},
                  p2={"line1": ["tw-pillbox-dot", "tw-bunker", "tw-reinforced-rifle-company"]})
    t, g = uid(st, "p1", "t-34-76"), uid(st, "p1", "grenadiere")
    pill, bunker = uid(st, "p2", "pillbox-dot"), uid(st, "p2", "bunker")
    rr = uid(st, "p2", "reinforced-rifle-company")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=t, target=pill)
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=g)
    act(st, "p1", "done")
    act(st, "p2", "support", unit=bunker, target=pill)
    act(st, "p2", "block", unit=rr, attacker=g)
    act(st, "p2", "done")
    assert {pill, bunker, rr} <= st.rotated


def test_targeted_unit_may_attack_the_line_as_a_whole():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-34-76"]}, p2={"line1": ["tw-guardsmen"]})
    t = uid(st, "p1", "t-34-76")
    act(st, "p1", "wave")
    act(st, "p1", "done")  # no targeted attack: the tank attacks the line as a whole
    act(st, "p1", "attack", unit=t)
    act(st, "p1", "done")
    assert kinds(st) == "block"


def test_tanks_and_spg_have_targeted_attack_heavy_tanks_not():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-34-76", "tw-su-76i", "tw-kv-1-1940"],
                                                 "resources": ["tw-fuel"]}, p2={"line1": ["tw-guardsmen"]})
    act(st, "p1", "wave")
    assert {k[2] for k in keys(st) if k[0] == "target"} == {uid(st, "p1", "t-34-76"), uid(st, "p1", "su-76i")}


def test_cavalry_and_motorized_infantry_count_as_infantry():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-kv-1-1940"], "resources": ["tw-fuel"]},
                  p2={"line1": ["tw-kavallerie-schwadron", "tw-schutzen-kompanie", "tw-pak-35"]})
    kv = uid(st, "p1", "kv-1-1940")
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=kv)
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "done")
    assert {k[2] for k in keys(st) if k[0] == "block"} == {uid(st, "p2", "pak-35")}


def test_supported_zero_defense_unit_needs_one_point():
    # under the River the Partisans attack at 0/0; fighting jointly with a bomber against a resource
    # (which deals no damage) they survive: a zero-defense unit not alone needs a point
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-partisans"], "line2": ["tw-pe-2"],
                                                 "resources": ["tw-fuel"]},
                  p2={"conditions": ["tw-river"], "resources": ["tw-depot"]})
    p, pe2, d = uid(st, "p1", "partisans"), uid(st, "p1", "pe-2"), uid(st, "p2", "depot")
    general_wave(st, "p1", [p])
    act(st, "p1", "strike", unit=p, target=d)
    act(st, "p1", "strike", unit=pe2, target=d)
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "done")
    assert zone(st, d) == "losses" and zone(st, p) == "line1"


def test_breakthrough_may_be_declined():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-pzkpfw-vi-tiger"], "resources": ["tw-fuel"]},
                  p1={"line1": ["tw-45mm-at-gun"]})
    tiger = uid(st, "p2", "pzkpfw-vi-tiger")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=tiger)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    act(st, "p1", "block", unit=uid(st, "p1", "45mm-at-gun"), attacker=tiger)
    act(st, "p1", "done")
    deck = len(st.zones["p1"]["deck"])
    act(st, "p2", "done")
    assert len(st.zones["p1"]["deck"]) == deck and kinds(st) == "attack_phase"


def test_a_wave_resolves_before_the_next():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere", "tw-sturmgrenadiere"]},
                  p2={"line1": ["tw-guardsmen"]})
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "attack", unit=uid(st, "p1", "grenadiere"))
    act(st, "p1", "done")
    assert not any(k[0] == "wave" for k in keys(st))
    assert sum(1 for f in st.frames if f.kind == "wave") == 1


def test_abilities_only_in_the_owners_attack_phase():
    st = position(seat="p1", stage="build", p1={"line2": ["tw-203mm-howitzer-b-4"]})
    assert not any(k[0] == "deck_hit" for k in keys(st))
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"]},
                  p1={"line2": ["tw-203mm-howitzer-b-4"]})
    general_wave(st, "p2", [uid(st, "p2", "grenadiere")])
    assert not any(k[0] == "deck_hit" for k in keys(st))


def test_artillery_support_from_several_units():
    st = position(seat="p1", stage="attack",
                  p1={"line1": ["tw-grenadiere"], "line2": ["tw-lefh-18", "tw-wespe"]},
                  p2={"line1": ["tw-pillbox-dot"]})
    g = uid(st, "p1", "grenadiere")
    general_wave(st, "p1", [g])
    act(st, "p1", "fire_support", unit=uid(st, "p1", "lefh-18"), to=g)
    act(st, "p1", "fire_support", unit=uid(st, "p1", "wespe"), to=g)
    act(st, "p1", "done")
    act(st, "p2", "block", unit=uid(st, "p2", "pillbox-dot"), attacker=g)
    act(st, "p2", "done")
    assert zone(st, uid(st, "p2", "pillbox-dot")) == "losses"  # 3 + 1 + 2 = 6 >= 4


def test_defender_artillery_support():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-pzkpfw-iii"]},
                  p2={"line1": ["tw-reinforced-rifle-company"], "line2": ["tw-m-30-howitzer"]})
    a, r = uid(st, "p1", "pzkpfw-iii"), uid(st, "p2", "reinforced-rifle-company")
    general_wave(st, "p1", [a])
    act(st, "p2", "block", unit=r, attacker=a)
    act(st, "p2", "done")
    assert kinds(st) == "defender_artillery"
    act(st, "p2", "fire_support", unit=uid(st, "p2", "m-30-howitzer"), to=r)
    act(st, "p2", "done")
    assert zone(st, a) == "losses"  # 2 + 1 = 3 >= 3


def test_second_line_units_cannot_attack_or_block():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere"], "line2": ["tw-ba-10"]},
                  p2={"line1": ["tw-guardsmen"], "line2": ["tw-m-30-howitzer"]})
    act(st, "p1", "wave")
    act(st, "p1", "done")
    assert ("attack", "p1", uid(st, "p1", "ba-10")) not in keys(st)
    act(st, "p1", "attack", unit=uid(st, "p1", "grenadiere"))
    act(st, "p1", "done")
    assert {k[2] for k in keys(st) if k[0] == "block"} == {uid(st, "p2", "guardsmen")}


def test_moved_first_line_unit_supports_on_the_second_line_but_cannot_attack():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere"]},
                  p2={"line2": ["tw-reinforced-rifle-company", "tw-m-30-howitzer"]})
    g, h = uid(st, "p1", "grenadiere"), uid(st, "p2", "m-30-howitzer")
    rr = uid(st, "p2", "reinforced-rifle-company")
    general_wave(st, "p1", [g])
    act(st, "p1", "strike", unit=g, target=h)
    act(st, "p1", "done")
    assert ("support", "p2", rr, h) in keys(st)


def test_second_line_unit_moved_to_the_first_blocks_but_cannot_attack():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-37mm-aa-gun-61-k"]},
                  p2={"line1": ["tw-grenadiere"]})
    assert ("wave", "p1") not in keys(st)  # the AA gun moved forward cannot attack
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"]},
                  p1={"line1": ["tw-37mm-aa-gun-61-k"]})
    general_wave(st, "p2", [uid(st, "p2", "grenadiere")])
    assert ("block", "p1", uid(st, "p1", "37mm-aa-gun-61-k"), uid(st, "p2", "grenadiere")) in keys(st)


def test_aa_unit_fights_ground_units_with_its_attack():
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-sturmgrenadiere"]},
                  p1={"line1": ["tw-37mm-aa-gun-61-k"]})
    sg, aa = uid(st, "p2", "sturmgrenadiere"), uid(st, "p1", "37mm-aa-gun-61-k")
    general_wave(st, "p2", [sg])
    act(st, "p1", "block", unit=aa, attacker=sg)
    act(st, "p1", "done")
    assert zone(st, aa) == "losses" and st.damage == {}  # 2 >= 2; the gun's attack 1 < 3


def test_first_line_units_support_only_the_same_line():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere"]},
                  p2={"line1": ["tw-guardsmen"], "line2": ["tw-m-30-howitzer"]}, rotated=("p2:guardsmen",))
    g, h = uid(st, "p1", "grenadiere"), uid(st, "p2", "m-30-howitzer")
    general_wave(st, "p1", [g])
    act(st, "p1", "strike", unit=g, target=h)
    act(st, "p1", "done")
    assert zone(st, h) == "losses"  # nobody could support it: the Guardsmen are on the 1st line


def test_attacked_second_line_units_rotate():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere"]},
                  p2={"line2": ["tw-armored-train-kozma-minin"]})
    g, t = uid(st, "p1", "grenadiere"), uid(st, "p2", "armored-train-kozma-minin")
    general_wave(st, "p1", [g])
    act(st, "p1", "strike", unit=g, target=t)
    act(st, "p1", "done")
    assert zone(st, t) == "line2" and t in st.rotated


def test_second_line_unit_fights_with_its_values():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-sturmgrenadiere"]},
                  p2={"line2": ["tw-armored-train-kozma-minin"]})
    g = uid(st, "p1", "sturmgrenadiere")
    general_wave(st, "p1", [g])
    act(st, "p1", "strike", unit=g, target=uid(st, "p2", "armored-train-kozma-minin"))
    act(st, "p1", "done")
    assert zone(st, g) == "losses"  # the train's 3 >= 3


def test_two_units_strike_one_object_jointly():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-sturmgrenadiere"] * 2},
                  p2={"line2": ["tw-armored-train-kozma-minin"]})
    a, b = uid(st, "p1", "sturmgrenadiere", 0), uid(st, "p1", "sturmgrenadiere", 1)
    t = uid(st, "p2", "armored-train-kozma-minin")
    general_wave(st, "p1", [a, b])
    act(st, "p1", "strike", unit=a, target=t)
    act(st, "p1", "strike", unit=b, target=t)
    act(st, "p1", "done")
    act(st, "p2", "hit", target=a)
    act(st, "p2", "hit", target=a)
    act(st, "p2", "hit", target=a)
    assert zone(st, t) == "losses" and zone(st, a) == "losses" and zone(st, b) == "line1"


def test_aircraft_and_ground_units_attack_one_target_jointly():
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-grenadiere"], "line2": ["tw-pe-2"],
                                                 "resources": ["tw-fuel"]},
                  p2={"line2": ["tw-armored-train-kozma-minin"]})
    g, pe2, t = uid(st, "p1", "grenadiere"), uid(st, "p1", "pe-2"), uid(st, "p2", "armored-train-kozma-minin")
    general_wave(st, "p1", [g])
    act(st, "p1", "strike", unit=g, target=t)
    act(st, "p1", "strike", unit=pe2, target=t)
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "done")
    assert zone(st, t) == "losses"  # 3 + bombing 3 >= 4; the train's 3 only on the Grenadiere
    assert zone(st, g) == "losses" and zone(st, pe2) == "line2"


def test_strategic_bomber_hits_the_deck_with_its_bombing_power():
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-he-177-greif"], "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-85mm-aa-gun-52-k"]})
    he, aa = uid(st, "p2", "he-177-greif"), uid(st, "p1", "85mm-aa-gun-52-k")
    deck = len(st.zones["p1"]["deck"])
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=he, target="deck")
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    act(st, "p1", "support", unit=aa, target="deck")
    act(st, "p1", "done")
    # the whole bombing power on the deck (no share on the heavy AA gun); AA 4 >= 3 destroys the bomber
    assert len(st.zones["p1"]["deck"]) == deck - 4
    assert zone(st, he) == "losses" and zone(st, aa) == "line2"


def test_light_aa_cannot_support_against_strategic_bombers():
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-he-177-greif"], "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-37mm-aa-gun-61-k", "tw-85mm-aa-gun-52-k"], "resources": ["tw-depot"]})
    he, d = uid(st, "p2", "he-177-greif"), uid(st, "p1", "depot")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=he, target=d)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    supporters = {k[2] for k in keys(st) if k[0] == "support"}
    assert supporters == {uid(st, "p1", "85mm-aa-gun-52-k")}


def test_light_aa_on_the_second_line_supports_a_first_line_unit_against_aircraft():
    st = position(seat="p1", stage="attack", p1={"line2": ["tw-pe-2"], "resources": ["tw-fuel"]},
                  p2={"line1": ["tw-grenadiere"], "line2": ["tw-2cm-flak-38", "tw-8-8cm-flak-36"]})
    pe2, g = uid(st, "p1", "pe-2"), uid(st, "p2", "grenadiere")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=pe2, target=g)
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "done")
    act(st, "p1", "done")
    assert {k[2] for k in keys(st) if k[0] == "support"} == {uid(st, "p2", "2cm-flak-38")}


def test_ground_attack_aircraft_cannot_support_against_air_attacks():
    st = position(seat="p1", stage="attack", p1={"line2": ["tw-pe-2"], "resources": ["tw-fuel"]},
                  p2={"line1": ["tw-grenadiere"], "line2": ["tw-hs-129", "tw-2cm-flak-38"]})
    pe2, g = uid(st, "p1", "pe-2"), uid(st, "p2", "grenadiere")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=pe2, target=g)
    act(st, "p1", "tap", card=uid(st, "p1", "fuel"))
    act(st, "p1", "done")
    act(st, "p1", "done")
    assert uid(st, "p2", "hs-129") not in {k[2] for k in keys(st) if k[0] == "support"}


def test_bomber_destroys_the_airfield_of_a_fighter_forced_to_fight_the_escort():
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-ju-87-stuka", "tw-bf-109e"],
                                                  "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-p-39-airacobra"]})
    stuka, bf, p39 = uid(st, "p2", "ju-87-stuka"), uid(st, "p2", "bf-109e"), uid(st, "p1", "p-39-airacobra")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=stuka, target=p39)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "escort", unit=bf, bomber=stuka)
    act(st, "p2", "done")
    act(st, "p1", "intercept", unit=p39, aircraft=stuka)
    act(st, "p1", "done")
    # the P-39 (3/2) must fight the escort (3/3): both fall; the Stuka, untouched, bombs the airfield
    assert zone(st, p39) == "losses" and zone(st, bf) == "losses" and zone(st, stuka) == "line2"


def refused(st, seat, type_, **fields) -> None:
    """The action is illegal and changes nothing."""
    before = st.to_json()
    with pytest.raises(tw.IllegalAction):
        act(st, seat, type_, **fields)
    assert st.to_json() == before


@pytest.mark.parametrize("rotated", [False, True])
def test_a_rotated_fighter_is_offered_neither_escort_nor_interception(rotated):
    """"Rotated card can't attack, block ... or use its special abilities": a fighter rotated before the wave
    neither escorts its side's bomber nor intercepts the enemy's (the same position with it upright does)."""
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-ju-87-stuka", "tw-bf-109e"],
                                                  "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-m-30-howitzer", "tw-yak-1", "tw-37mm-aa-gun-61-k"]},
                  rotated=("p2:tw-bf-109e", "p1:tw-yak-1") if rotated else ())
    stuka, bf = uid(st, "p2", "ju-87-stuka"), uid(st, "p2", "bf-109e")
    how, yak = uid(st, "p1", "m-30-howitzer"), uid(st, "p1", "yak-1")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=stuka, target=how)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    assert (("escort", "p2", bf, stuka) in keys(st)) is not rotated
    if rotated:
        refused(st, "p2", "escort", unit=bf, bomber=stuka)
    act(st, "p2", "done")
    assert kinds(st) == "second_line_support" and st.decision.seat == "p1"  # the light AA may support
    assert (("intercept", "p1", yak, stuka) in keys(st)) is not rotated
    if rotated:
        refused(st, "p1", "intercept", unit=yak, aircraft=stuka)


@pytest.mark.parametrize("rotated", [False, True])
def test_a_fighter_rotated_before_a_bomber_attacks_it_cannot_intercept_that_bomber(rotated):
    """"Non-rotated fighters may intercept bombers attacking them" (R21: being attacked does not count)."""
    st = position(seat="p2", stage="attack", p2={"line2": ["tw-ju-87-stuka"], "resources": ["tw-fuel"]},
                  p1={"line2": ["tw-yak-1", "tw-37mm-aa-gun-61-k"]},
                  rotated=("p1:tw-yak-1",) if rotated else ())
    stuka, yak = uid(st, "p2", "ju-87-stuka"), uid(st, "p1", "yak-1")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=stuka, target=yak)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    assert kinds(st) == "second_line_support" and st.decision.seat == "p1"
    assert (("intercept", "p1", yak, stuka) in keys(st)) is not rotated
    if rotated:
        refused(st, "p1", "intercept", unit=yak, aircraft=stuka)


def test_a_hero_the_opponent_has_played_is_refused_while_it_is_not_in_his_losses():
    """"Player can't play a hero card if his opponent already has played it earlier in the game or if the same
    card is in opponent's losses pile": p2 builds Vasily Zaitsev (a hero unit, now in his reserve, not in his
    losses); on p1's next turn p1's own copy is neither offered nor accepted."""
    st = position(seat="p2", stage="build", p2={"hand": ["tw-vasily-zaitsev"], "resources": ["tw-depot"] * 5
                                                + ["tw-plant"]},
                  p1={"hand": ["tw-vasily-zaitsev"], "resources": ["tw-depot"] * 5 + ["tw-plant"]})
    mine, theirs = uid(st, "p1", "vasily-zaitsev"), uid(st, "p2", "vasily-zaitsev")
    act(st, "p2", "build", card=theirs)
    for res in st.zones["p2"]["resources"]:
        if st.decision.kind == "pay":
            act(st, "p2", "tap", card=res)
    assert zone(st, theirs) == "reserve" and st.heroes_played["p2"] == ["Vasily Zaitsev"]
    for _ in range(30):  # p2's turn ends; p1's turn comes to its build phase
        if st.decision.seat == "p1" and kinds(st) == "build":
            break
        act(st, st.decision.seat, "done")
    assert kinds(st) == "build" and st.decision.seat == "p1"
    assert zone(st, theirs) == "line1"  # played, in play: not in p2's losses
    assert all(k[2] != mine for k in keys(st) if k[0] == "build")
    refused(st, "p1", "build", card=mine)


def landing(p1_line2=(), river=False):
    p2 = {"line2": ["tw-m-30-howitzer", *p1_line2]}
    if river:
        p2["conditions"] = ["tw-river"]
    st = position(seat="p1", stage="attack", p1={"line2": ["tw-fallschirmjager", "tw-ju-52"]}, p2=p2)
    para, ju, how = uid(st, "p1", "fallschirmjager"), uid(st, "p1", "ju-52"), uid(st, "p2", "m-30-howitzer")
    act(st, "p1", "wave")
    act(st, "p1", "done")
    act(st, "p1", "done")
    act(st, "p1", "land", unit=para, carrier=ju, target=how)
    act(st, "p1", "done")
    return st, para, ju, how


def test_paratroopers_assault_landing_attacks_behind_the_first_line():
    st, para, ju, how = landing()
    assert zone(st, how) == "losses" and zone(st, para) == "line2" and zone(st, ju) == "line2"
    # "assault landing to the 2nd line doesn't count as breakthrough": no breakthrough power on the River
    st, para, ju, how = landing(river=True)
    assert zone(st, how) == "losses" and st.power == {} and zone(st, uid(st, "p2", "river")) == "conditions"


def test_fighter_blocking_an_assault_landing_cancels_it():
    st, para, ju, how = landing(["tw-yak-1"])
    act(st, "p2", "intercept", unit=uid(st, "p2", "yak-1"), aircraft=ju)
    act(st, "p2", "done")
    # "both "Paratroopers" and "Troop-carrying aircraft" should be placed to losses pile"
    assert zone(st, para) == "losses" and zone(st, ju) == "losses" and zone(st, how) == "line2"


def test_light_aa_destroys_the_carrier_but_not_the_landing():
    st, para, ju, how = landing(["tw-37mm-aa-gun-61-k"])
    act(st, "p2", "support", unit=uid(st, "p2", "37mm-aa-gun-61-k"), target=how)
    act(st, "p2", "done")
    assert zone(st, ju) == "losses" and zone(st, how) == "losses" and zone(st, para) == "line2"


def not_a_step_back(hand=("tw-not-a-step-back",), depots=3):
    st = position(seat="p2", stage="attack", p2={"line1": ["tw-grenadiere"]},
                  p1={"line1": ["tw-reinforced-rifle-company"], "hand": list(hand),
                      "resources": ["tw-depot"] * depots})
    g, rr = uid(st, "p2", "grenadiere"), uid(st, "p1", "reinforced-rifle-company")
    general_wave(st, "p2", [g])
    act(st, "p1", "block", unit=rr, attacker=g)
    act(st, "p1", "done")
    return st, g, rr


def test_the_defender_plays_special_cards_after_his_blocks():
    st, g, rr = not_a_step_back()
    assert kinds(st) == "defender_specials" and st.decision.seat == "p1"
    act(st, "p1", "play_special", card=uid(st, "p1", "not-a-step-back"))
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    act(st, "p1", "done")
    # the blocking company is 2/5 for this wave: the Grenadiere's 3 does not destroy it (its 2 does)
    assert zone(st, rr) == "line1" and zone(st, g) == "losses"
    assert st.active == []  # the change ended with the wave


def test_two_identical_special_cards_never_alter_units_twice_in_a_turn():
    st, g, rr = not_a_step_back(hand=["tw-not-a-step-back"] * 2, depots=6)
    act(st, "p1", "play_special", card=uid(st, "p1", "not-a-step-back", 0))
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert not any(k[0] == "play_special" for k in keys(st))


def test_the_attacker_plays_special_cards_in_the_wave():
    st = position(seat="p1", stage="attack",
                  p1={"line1": ["tw-guardsmen"], "hand": ["tw-massed-artillery-fire"],
                      "resources": ["tw-depot"] * 3},
                  p2={"line1": ["tw-grenadiere"]})
    g, gr = uid(st, "p1", "guardsmen"), uid(st, "p2", "grenadiere")
    general_wave(st, "p1", [g])
    assert kinds(st) == "attacker_abilities"
    act(st, "p1", "play_special", card=uid(st, "p1", "massed-artillery-fire"), target=gr)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert zone(st, gr) == "losses"


def test_capture_takes_a_non_elite_first_line_unit_which_goes_to_its_owners_losses():
    st = position(seat="p1", stage="build", p1={"hand": ["tw-capture"], "resources": ["tw-depot"] * 3},
                  p2={"line1": ["tw-guardsmen", "tw-grenadiere"], "line2": ["tw-m-30-howitzer"]})
    cap, gr = uid(st, "p1", "capture"), uid(st, "p2", "grenadiere")
    # "These units cannot be targeted with cards "Panic" and "Capture"": not the elite Guardsmen, and only
    # the 1st line
    assert {k[3] for k in keys(st) if k[0] == "build" and k[2] == cap} == {gr}
    act(st, "p1", "build", card=cap, target=gr)
    for i in range(3):
        act(st, "p1", "tap", card=uid(st, "p1", "depot", i))
    assert gr in st.zones["p1"]["line1"] and st.control[gr] == "p1"
    assert tw.view(st, "p2")["players"]["p1"]["line1"][0]["code"] == "tw-grenadiere"
    from games.engine.the_war.rules import destroy
    destroy(st, gr)
    assert gr in st.zones["p2"]["losses"] and gr not in st.control


def stuka_strike(p1: dict[str, list[str]], target: str):
    """A Stuka (1/1, bombing power 5) on p2's 2nd line striking p1's `target` behind the 1st line."""
    p2 = {"line2": ["tw-ju-87-stuka"], "resources": ["tw-fuel"]}
    st = position(seat="p2", stage="attack", p2=p2, p1=p1)
    stuka, obj = uid(st, "p2", "ju-87-stuka"), uid(st, "p1", target)
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "done")
    act(st, "p2", "strike", unit=stuka, target=obj)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    events = act(st, "p2", "done")
    return st, stuka, obj, events


def test_a_bomber_striking_a_second_line_unit_keeps_its_own_values_only_the_attacked_airfield_is_0_0():
    # "Parameters of an airfield (attack/defense) are 0/0. They are used against ground units attacking
    # it": the airfield is the attacked aircraft's, never the striking bomber's
    st, stuka, how, events = stuka_strike({"line2": ["tw-m-30-howitzer"]}, "m-30-howitzer")
    damage = [(e.data["target"], e.data["amount"]) for e in events if e.type == "damage"]
    assert damage == [(how, 5)]  # its bombing power on the howitzer, nothing on the Stuka
    assert zone(st, how) == "losses"
    assert zone(st, stuka) == "line2"  # defense 1, not an airfield's 0: not destroyed undamaged
    st, stuka, depot, events = stuka_strike({"resources": ["tw-depot"]}, "depot")
    assert zone(st, depot) == "losses" and zone(st, stuka) == "line2"


def test_a_unit_under_targeted_attack_supports_another_attacked_unit_and_both_fight_jointly():
    # "may be supported by other units, which are not rotated or also subjected to targeted attack" (R19)
    st = position(seat="p1", stage="attack", p1={"line1": ["tw-t-34-76"] * 2},
                  p2={"line1": ["tw-reinforced-rifle-company", "tw-grenadiere", "tw-guardsmen"]},
                  rotated=("p2:tw-reinforced-rifle-company", "p2:tw-guardsmen"))
    t1, t2 = uid(st, "p1", "t-34-76", 0), uid(st, "p1", "t-34-76", 1)
    rr, g = uid(st, "p2", "reinforced-rifle-company"), uid(st, "p2", "grenadiere")
    gu = uid(st, "p2", "guardsmen")
    act(st, "p1", "wave")
    act(st, "p1", "target", unit=t1, target=rr)
    act(st, "p1", "target", unit=t2, target=g)
    act(st, "p1", "done")
    act(st, "p1", "done")
    supports = {(k[2], k[3]) for k in keys(st) if k[0] == "support"}
    # the rotated Rifle Company may support, being attacked itself; the rotated Guardsmen may not
    assert supports == {(rr, g), (g, rr)}
    act(st, "p2", "support", unit=rr, target=g)
    assert not any(k[0] == "support" for k in keys(st))  # the two already fight jointly
    act(st, "p2", "done")
    # one engagement: both tanks (6) against both companies; the attacker splits his points
    assert kinds(st) == "damage" and st.decision.seat == "p1"
    assert st.decision.prompt == {"points": 6, "engagement": 0, "attackers": [t1, t2], "defenders": [rr, g]}
    for target in (rr, rr, rr, g, g, g):
        act(st, "p1", "hit", target=target)
    # the Grenadiere's 3 (the rotated company deals none) may go on the tank that attacked the company
    assert st.decision.seat == "p2" and st.decision.prompt["points"] == 3
    for _ in range(3):
        act(st, "p2", "hit", target=t1)
    assert zone(st, rr) == zone(st, g) == zone(st, t1) == "losses"
    assert zone(st, t2) == "line1" and zone(st, gu) == "line1"
