"""The breakthrough feature (S455-S462), through `apply`: "Attack and defense of a unit that continue its
attack this way will be reduced by total defense and attack respectively of blockers destroyed"; the blockers'
attack is in the reduced defense, so it does not count a second time behind the line (issue 36, item 1: rules
revision 2), and a game recorded under revision 1 still plays the old way."""
from __future__ import annotations

import os
from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as hs

from games.engine import the_war as tw

from .helpers import act, catalog, keys, kinds, position, uid, zone

SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "40")), deadline=None)
# Red Army units that may block a heavy tank (no infantry: "cannot be blocked by infantry")
BLOCKERS = ("tw-45mm-at-gun", "tw-t-60", "tw-ba-10", "tw-t-90", "tw-valentine-mk-iii", "tw-37mm-aa-gun-61-k",
            "tw-85mm-aa-gun-52-k", "tw-t-34-76", "tw-76mm-regimental-gun", "tw-pillbox-dot")


def legacy_catalog():
    """The catalog of a game stored before rules revisions were recorded (its snapshot records none)."""
    return replace(catalog(), rules_revision=tw.LEGACY_RULES_REVISION)


def tiger_blocked(blockers: list[str], p1_line2: list[str] = (), cat=None):
    """The Tiger (5/4, breakthrough) attacks alone; p1 blocks it with every unit of `blockers`."""
    st = position(seat="p2", stage="attack", cat=cat,
                  p2={"line1": ["tw-pzkpfw-vi-tiger"], "resources": ["tw-fuel"]},
                  p1={"line1": list(blockers), "line2": list(p1_line2)})
    tiger = uid(st, "p2", "pzkpfw-vi-tiger")
    act(st, "p2", "wave")
    act(st, "p2", "done")
    act(st, "p2", "attack", unit=tiger)
    act(st, "p2", "tap", card=uid(st, "p2", "fuel"))
    act(st, "p2", "done")
    ids = list(st.zones["p1"]["line1"])
    for b in ids:
        act(st, "p1", "block", unit=b, attacker=tiger)
    act(st, "p1", "done")
    return st, tiger, ids


def test_the_tiger_goes_on_and_is_destroyed_behind_the_line_only_at_its_reduced_defense():
    # a T-60 (1/2) on the 2nd line deals 1: the Tiger, 2/2 after the ATG (2/3 against armor), survives
    st, tiger, (atg,) = tiger_blocked(["tw-45mm-at-gun"], ["tw-t-60"])
    t60 = uid(st, "p1", "t-60")
    act(st, "p2", "breakthrough", unit=tiger)
    act(st, "p2", "strike", unit=tiger, target=t60)
    act(st, "p2", "done")
    assert zone(st, atg) == "losses" and zone(st, t60) == "losses" and zone(st, tiger) == "line1"
    # a second ATG on the 2nd line deals 2 (its bonus against armor): that reaches the reduced defense 2
    st, tiger, _ = tiger_blocked(["tw-45mm-at-gun"], ["tw-45mm-at-gun"])
    atg2 = uid(st, "p1", "45mm-at-gun", 1)
    act(st, "p2", "breakthrough", unit=tiger)
    act(st, "p2", "strike", unit=tiger, target=atg2)
    act(st, "p2", "done")
    assert zone(st, tiger) == "losses" and zone(st, atg2) == "line2"  # 2 < 3: the ATG holds


def test_a_game_recorded_under_the_legacy_revision_plays_the_tiger_example_the_old_way():
    st, tiger, _ = tiger_blocked(["tw-45mm-at-gun"], cat=legacy_catalog())
    assert st.frames[-1].reduced[tiger] == [2, 2]  # its stored form is unchanged
    act(st, "p2", "breakthrough", unit=tiger)
    act(st, "p2", "strike", unit=tiger, target="deck")
    act(st, "p2", "done")
    assert zone(st, tiger) == "losses"  # as before issue 36: the ATG's 2 counted again against 2/2


def defense_against_the_tiger(code: str) -> int:
    c = catalog().cards[code]
    return (c.defense or 0) + sum(b.defense for b in c.bonuses if "armored" in b.against)


@SETTINGS
@given(blockers=hs.lists(hs.sampled_from(BLOCKERS), min_size=1, max_size=3), data=hs.data())
def test_a_unit_that_broke_through_and_strikes_the_deck_survives_with_its_reduced_attack(blockers, data):
    """Whatever blocks the Tiger and however it distributes its 5 points: it is offered the breakthrough
    exactly when it is alive, every blocker is destroyed and 5 > their total defense; going on against the
    deck (nothing fights it there) it survives and the deck loses its reduced attack."""
    st, tiger, ids = tiger_blocked(blockers)
    while kinds(st) == "damage":
        seat = st.decision.seat
        target = data.draw(hs.sampled_from(sorted({k[2] for k in keys(st) if k[0] == "hit"})))
        act(st, seat, "hit", target=target)
    alive = zone(st, tiger) == "line1"
    all_destroyed = all(zone(st, b) == "losses" for b in ids)
    offered = kinds(st) == "strike" and tiger in st.decision.prompt["breakthrough"]
    total_defense = sum(defense_against_the_tiger(st.codes[b]) for b in ids)
    assert offered == (alive and all_destroyed and total_defense < 5)
    event(f"offered: {offered}")
    if not offered:
        return
    attack = 5 - total_defense
    act(st, "p2", "breakthrough", unit=tiger)
    deck = len(st.zones["p1"]["deck"])
    act(st, "p2", "strike", unit=tiger, target="deck")
    act(st, "p2", "done")
    assert zone(st, tiger) == "line1" and len(st.zones["p1"]["deck"]) == deck - attack


def test_a_stored_games_log_replays_its_breakthrough_under_the_revision_it_records():
    """Random v random, seed 85 (the starters since issue 36's balance; seed 38 before): a Tiger breaks
    through at 1/1 and strikes behind the line. Replayed under the legacy revision (a game stored before
    issue 36) it is destroyed as it was when played; under revision 2 (the breakthrough fix) it is kept."""
    legacy = legacy_catalog()
    setup = tw.starter_setup(legacy, 85)
    log: list = []
    tw.play_game(legacy, setup, {"p1": tw.RandomBot(85), "p2": tw.RandomBot(86)}, log=log)
    at = next(i for i, a in enumerate(log) if a["type"] == "breakthrough")
    tiger = log[at]["unit"]
    ends = {}
    revision2 = replace(catalog(), rules_revision=2)  # the breakthrough fix (revision 3 asks more windows)
    for name, cat in (("legacy", legacy), ("current", revision2)):
        st = tw.new_game(cat, setup)
        for action in log[:at]:
            tw.apply(st, action)
        assert st.codes[tiger] == "tw-pzkpfw-vi-tiger" and st.frames[-1].reduced[tiger][:2] == [1, 1]
        for action in log[at:]:
            if any(e.type == "wave_ended" for e in tw.apply(st, action)):
                break
        ends[name] = zone(st, tiger)
    assert ends == {"legacy": "losses", "current": "line1"}
