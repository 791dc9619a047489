"""Audit of the engine against the rulebook, the FAQ v1.6 rulings, the rules updates and the optional rules.

The first tests pin the documented behaviour the audit found missing (defects D1-D7, all fixed since; they
were strict xfails until then); the others add coverage for rulings no other test exercised.
"""

from __future__ import annotations

import pytest

from games.engine import EngineError, GameSetup, GameState, IllegalAction, load_scenario, new_game, view
from vocabulary.battlecards import Catalog

from .helpers import (
    battle,
    battlecard_defs,
    conflict_defs,
    do,
    event_types,
    fight,
    ids,
    kinds,
    legal_json,
    load,
    nation_units,
    numbers,
    one,
    scenario,
    unit_def,
)
from .test_faq import has, hold_until


# ---- defects (documented behaviour the engine did not implement at the audit) ---------------------
def test_faq_ground_units_1_infantry_defense_may_be_assigned_to_the_new_target_after_a_switch():
    # GU1: "Infantry support can be assigned AT ANY TIME before the infantry has fired ... until a card is
    # actually pulled to get an action number, a target can always be switched."
    st = load(
        axis={"stacks": {"ground": ["de-art"]}},
        allies={"stacks": {"ground": ["gb-art", "gb-tank", "gb-inf", "gb-inf"]}},
        drawn="t-ground",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    art, gb_art, tank = one(st, "de-art"), one(st, "gb-art"), one(st, "gb-tank")
    inf1, inf2 = ids(st, "gb-inf")
    do(st, "fire", unit=art, target=gb_art)
    do(st, "support", unit=inf1, recipient=gb_art, mode="defense")
    do(st, "pass")
    assert kinds(st) == "retarget"
    discard_before = len(st.conflict_discard)
    do(st, "fire", unit=art, target=tank)
    # the second infantry has not fired: the British may still shore up the new target before the card
    assert kinds(st) == "defend" and st.decision.seat == "allies"
    assert has(st, "support", unit=inf2, recipient=tank, mode="defense")
    assert len(st.conflict_discard) == discard_before  # no action number pulled yet


def test_setup_rejects_a_second_copy_of_a_general_or_leader():
    # TO SET UP THE GAME: "Make sure only one representation of each LEADER or GENERAL is in the
    # respective arsenal decks." (also Optional Rule 2/3: remove them from all but one set)
    from .helpers import CAT

    setup = GameSetup(
        seed=1,
        decks={
            "axis": ("de-general", "de-general") + ("de-inf",) * 10,
            "allies": ("gb-leader", "gb-leader") + ("gb-inf",) * 10,
        },
        nations={"axis": "DE", "allies": "GB"},
        conflict_deck=tuple(numbers(*range(1, 21))) + ("t-ground",),
    )
    with pytest.raises(EngineError) as exc:
        new_game(CAT, setup)
    assert exc.value.code == "bad_setup"


def test_faq_ground_units_5_only_cards_that_say_infantry_enable_armour_autokills():
    # GU5: "Anything that says 'Infantry' on it can be considered infantry for the armor Autokill specials."
    # The OSS saboteurs (class special-forces only, "Saboteurs OSS Agents") do not say Infantry.
    st = load(
        axis={"stacks": {"ground": ["de-inf", "de-tank"]}},
        allies={"stacks": {"ground": ["gb-tiger", "gb-oss"]}},
        drawn="t-land-gb",
        seat="allies",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 3, "allies")
    assert not has(st, "autokill", unit=one(st, "gb-tiger"))


def test_stalemate_when_the_only_target_is_a_hidden_submarine_that_cannot_fire():
    # STALEMATE: "If none of the units remaining on either side in a battle can hit the enemy regardless of
    # what action number is pulled ... the aggressor MUST withdraw". The battleship may not target the
    # submarine before it fires (S6) and the submarine (sea attack 12 vs defense 14) can never fire.
    st = load(
        axis={"stacks": {"sea": ["de-battleship"]}},
        allies={"stacks": {"sea": ["gb-sub"]}},
        drawn="t-naval",
        deck=numbers(*([1] * 20)),
    )
    events = fight(st)
    assert "stalemate" in event_types(events)
    assert [st.code[c] for c in st.team("allies")["won"]] == ["t-naval"]


def test_faq_cards_5_a_captured_card_never_joins_the_captors_arsenal():
    # C5: "Captured units go back in the deck they belong in ... the arsenal deck consists of troops your
    # country can produce itself, not stuff you captured."
    st = load(
        axis={"stacks": {"ground": ["gb-tank"]}, "hand": ["de-inf"]},
        deck=["t-reorganize-forces", "t-n10", "t-reorganize-forces"],
    )
    captured = one(st, "gb-tank")
    assert st.pool_of(captured) is st.arsenal("allies")  # still the owner's card (C5)
    do(st, "draw")
    do(st, "choose", option="swap")
    do(st, "retrieve", card=captured)
    do(st, "deploy", card=one(st, "de-inf", "axis"), stack="ground:0")
    do(st, "pass")
    assert st.players["axis"]["hand"] == [captured]
    do(st, "draw")  # the allies' turn: a build-up, deployed at once
    assert kinds(st) == "turn_start" and st.decision.seat == "axis"
    do(st, "draw")
    do(st, "choose", option="discard_draw")
    assert captured not in st.arsenal("axis")["discard"]
    assert captured in st.arsenal("allies")["discard"]


def test_optional_rule_5_4_transfer_between_any_two_stacks():
    # Optional Rule 5.4: "Before drawing a Conflict Card on any turn, you may sacrifice your draw of the
    # conflict card to transfer up to 3 cards from one stack to another".
    st = load(
        axis={"stacks": {"ground": [["de-tank", "de-tank"], ["de-inf"]]}},
        options={"occupying_force": True},
    )
    assert kinds(st) == "turn_start"
    assert has(st, "choose", option="transfer")


def test_faq_cards_8_the_defender_may_drop_the_a_bomb_before_the_aggressors_phase_2_shots():
    # C8: "The card can be played any time during phase 2 of a battle so long as you have the prerequisites"
    st = load(
        axis={"stacks": {"air": ["de-fighter"], "ground": ["de-tank"]}},
        allies={"stacks": {"air": ["gb-bomber"]}, "kept": ["t-a-bomb", "t-military-intelligence"]},
        drawn="t-air",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    while kinds(st) == "battle_window":
        do(st, "pass")
    assert battle(st).phase == 2
    # the first phase-2 decision: the German fighter has not fired yet, the British may already bomb
    assert st.decision.seat == "allies" and kinds(st) == "a_bomb_window"
    assert has(st, "play_card", card=one(st, "t-a-bomb"), target="air:0")
    do(st, "pass")  # the window closes for this phase 2: the German fighter's turn
    assert kinds(st) == "fire" and st.decision.seat == "axis" and battle(st).phase == 2
    assert not has(st, "play_card")


def test_faq_cards_8_the_aggressor_may_drop_the_a_bomb_after_the_defenders_phase_2_shots():
    st = load(
        axis={"stacks": {"air": ["de-fighter", "de-bomber"]}, "kept": ["t-a-bomb"]},
        allies={"stacks": {"air": ["gb-fighter"], "ground": ["gb-tank"]}},
        drawn="t-air",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 2, "allies")  # the Germans held both planes and passed their own phase-2 window
    do(st, "hold", unit=one(st, "gb-fighter"))
    # its own decision (issue 22): only pass or the bomb, never a shot
    assert kinds(st) == "a_bomb_window" and st.decision.seat == "axis" and battle(st).phase == 2
    assert st.decision.prompt == {"round": 1}
    legal = legal_json(st)
    assert legal[0] == {"type": "pass", "seat": "axis"}
    assert {(a["type"], a["card"], a["target"]) for a in legal[1:]} == {
        ("play_card", one(st, "t-a-bomb"), "ground:0"), ("play_card", one(st, "t-a-bomb"), "air:0")}
    with pytest.raises(IllegalAction):
        do(st, "fire", unit=one(st, "de-fighter"), target=one(st, "gb-tank"))
    do(st, "play_card", card=one(st, "t-a-bomb"), target="ground:0")
    assert one(st, "gb-tank") in st.arsenal("allies")["discard"]
    assert battle(st).phase > 2  # no kept card left: the window closed, phase 2 is over


# ---- coverage for rulings no other test exercised -------------------------------------------------
def _catalog_with_spg() -> Catalog:
    spg = unit_def(
        "de-spg",
        "DE",
        "ground",
        ["self-propelled-gun"],
        {"ground": 9, "air": None, "sea": None},
        {"ground": 6, "air": 4, "sea": 6},
        3,
    )
    return Catalog.from_dicts(
        nations=[
            {"code": "GB", "name": "British", "side": "allies"},
            {"code": "DE", "name": "German", "side": "axis"},
        ],
        theaters=[{"code": "TT", "name": "Test theater"}],
        sets=[],
        arsenal=nation_units("de", "DE") + nation_units("gb", "GB") + [spg],
        conflict_cards=conflict_defs(),
        battlecards=battlecard_defs(),
    )


def test_faq_ground_units_3_a_self_propelled_gun_is_a_non_artillery_ground_unit():
    st = load_scenario(
        _catalog_with_spg(),
        scenario(
            axis={"stacks": {"ground": ["de-spg", "de-art"]}},
            allies={"stacks": {"ground": ["gb-tank"]}},
            drawn="t-invasion",
        ),
    )
    events = fight(st)
    assert "battle_uncontested" not in event_types(events)
    assert kinds(st) == "fire" and battle(st).aggressor == "axis"


def test_faq_ground_units_3_the_attacker_need_not_keep_a_non_artillery_unit_to_win():
    # "just because a battle requires a non-artillery ground unit to begin, the attacker does not have to
    # have one left to win it"
    st = load(
        axis={"stacks": {"ground": ["de-art", "de-tank"]}},
        allies={"stacks": {"ground": ["gb-art"]}},
        drawn="t-invasion",
        deck=numbers(7, 1, 1, 1),
    )
    fight(st)
    do(st, "hold", unit=one(st, "de-art"))
    do(st, "fire", unit=one(st, "gb-art"), target=one(st, "de-tank"))  # 7: 6 < 7 <= 12, the tank is gone
    assert one(st, "de-tank") in st.arsenal("axis")["discard"]
    assert st.status == "active" and battle(st).units["axis"] == [one(st, "de-art")]
    assert st.team("allies")["won"] == []


def test_faq_cards_12_aa_guns_in_the_battle_of_britain_are_optional_and_only_aa_joins():
    st = load(
        axis={"stacks": {"air": ["de-fighter"]}},
        allies={"stacks": {"ground": ["gb-flak", "gb-tank"], "air": ["gb-fighter"]}},
        drawn="t-britain",
    )
    do(st, "choose", option="fight")
    assert kinds(st) == "commit_optional" and st.decision.seat == "allies"
    do(st, "choose", option="include")
    assert sorted(st.code[c] for c in battle(st).units["allies"]) == ["gb-fighter", "gb-flak"]
    st = load(
        axis={"stacks": {"air": ["de-fighter"]}},
        allies={"stacks": {"ground": ["gb-flak", "gb-tank"], "air": ["gb-fighter"]}},
        drawn="t-britain",
    )
    do(st, "choose", option="fight")
    do(st, "choose", option="exclude")
    assert [st.code[c] for c in battle(st).units["allies"]] == ["gb-fighter"]


def test_faq_counterattacks_1_misinformation_cannot_stop_a_counterattack():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}, "kept": ["t-counterattack"]},
        allies={"stacks": {"ground": ["gb-tank"]}, "won": ["t-ground"], "kept": ["t-misinformation"]},
    )
    do(st, "play_card", card=one(st, "t-counterattack"), target=one(st, "t-ground"))
    # no battlecard_response window: the battle is on, and Misinformation is not among the playable cards
    assert kinds(st) == "battle_window" and battle(st).counter is True
    assert not has(st, "play_card", card=one(st, "t-misinformation"))


def test_faq_cards_17_a_scorched_battlecard_won_back_by_counterattack_is_still_worth_nothing():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}, "kept": ["t-counterattack"]},
        allies={"stacks": {"ground": ["gb-inf"]}, "won": ["t-ground"]},
        scorched=["t-ground"],
        deck=numbers(7),
    )
    card = one(st, "t-ground")
    do(st, "play_card", card=one(st, "t-counterattack"), target=card)
    hold_until(st, 3, "axis")
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-inf"))
    assert card in st.team("axis")["won"] and card in st.scorched
    assert st.vp("axis") == 0


def test_optional_rule_5_1_no_new_stack_for_drawing_player_cards_or_defender_wins():
    # drawing-player aggressor: no stack
    st = load(
        axis={"stacks": {"sea": ["de-battleship"]}},
        allies={"stacks": {"sea": ["gb-destroyer"]}},
        drawn="t-sea",
        deck=numbers(*([10] * 20)),
        options={"occupying_force": True},
    )
    fight(st)
    do(st, "fire", unit=one(st, "de-battleship"), target=one(st, "gb-destroyer"))  # 10: 6 < 10 <= 20
    assert [st.code[c] for c in st.team("axis")["won"]] == ["t-sea"]
    assert st.players["axis"]["occupied"] == {}
    # won by the defender listed on the card: no stack either
    st = load(
        axis={"stacks": {"ground": ["de-inf"]}},
        allies={"stacks": {"ground": ["gb-art"]}},
        drawn="t-ground",
        deck=numbers(*([4] * 20)),
        options={"occupying_force": True},
    )
    fight(st)
    hold_until(st, 1, "allies")
    do(st, "fire", unit=one(st, "gb-art"), target=one(st, "de-inf"))  # 4: 3 < 4 <= 12
    assert [st.code[c] for c in st.team("allies")["won"]] == ["t-ground"]
    assert st.players["allies"]["occupied"] == {}


def test_optional_rule_5_2_new_deployments_may_go_under_a_battlecard_calling_for_that_kind():
    st = load(
        axis={
            "hand": ["de-tank", "de-fighter", "de-tank"],
            "won": ["t-ground"],
            "occupied": {"t-ground": []},
            "deck": ["de-tank"],
        },
        deck=["t-n10"],
        options={"occupying_force": True},
    )
    do(st, "draw")
    card = one(st, "t-ground")
    deploys = {(a["card"], a["stack"]) for a in legal_json(st) if a["type"] == "deploy"}
    tank = ids(st, "de-tank", "axis")[0]
    fighter = one(st, "de-fighter", "axis")
    assert (tank, f"bc:{card}") in deploys
    assert (fighter, f"bc:{card}") not in deploys  # the battlecard calls for ground forces only
    do(st, "deploy", card=tank, stack=f"bc:{card}")
    assert st.players["axis"]["occupied"][card] == [tank]



def test_optional_rule_5_occupied_battlecards_are_offered_in_id_order_whatever_the_stored_key_order():
    """Issue 35: the deploy actions onto occupied battlecards followed players[seat]["occupied"]'s key order,
    the order the battlecards were occupied in, and after a JSON column (jsonb) reordered the keys, the order
    they were stored in. Now always in battlecard id order (games.engine.core.order)."""
    st = load(
        axis={"hand": ["de-tank"], "won": ["t-land", "t-ground"], "occupied": {"t-ground": [], "t-land": []},
              "deck": ["de-tank"]},
        deck=["t-n10"],
        options={"occupying_force": True},
    )
    land, ground = one(st, "t-land"), one(st, "t-ground")
    assert list(st.players["axis"]["occupied"]) == [land, ground]  # occupied in the other order
    do(st, "draw")
    tank = one(st, "de-tank", "axis")
    onto = [a["stack"] for a in legal_json(st) if a["type"] == "deploy" and a["card"] == tank]
    assert onto[-2:] == [f"bc:{land}", f"bc:{ground}"]
    data = st.to_json()
    occupied = data["players"]["axis"]["occupied"]
    data["players"]["axis"]["occupied"] = dict(reversed(list(occupied.items())))  # as an old state stored it
    back = GameState.from_json(data, st.catalog)
    assert list(back.players["axis"]["occupied"]) == [land, ground]
    assert legal_json(back) == legal_json(st) and view(back, "axis") == view(st, "axis")


def test_optional_rule_5_reorganize_forces_reaches_the_occupied_stacks():
    st = load(
        axis={"hand": ["de-tank"], "won": ["t-ground"], "occupied": {"t-ground": ["de-tiger"]}},
        deck=["t-reorganize-forces"],
        options={"occupying_force": True},
    )
    do(st, "draw")
    do(st, "choose", option="swap")
    assert has(st, "retrieve", card=one(st, "de-tiger"))


def test_optional_rule_5_5_occupying_forces_do_not_defend_the_homeland():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={
            "stacks": {"ground": ["gb-inf"]},
            "won": ["t-land-gb"],
            "occupied": {"t-land-gb": ["gb-tiger"]},
        },
        drawn="t-invade-britain",
        options={"occupying_force": True},
    )
    fight(st)
    assert [st.code[c] for c in battle(st).units["allies"]] == ["gb-inf"]


def test_capture_browse_shows_the_stack_only_to_the_capturer():
    st = load(
        allies={"stacks": {"ground": ["gb-tank", "gb-inf"]}, "hand": ["gb-sub"] * 3},
        deck=["t-capture"],
    )
    do(st, "draw")
    do(st, "choose", option="stack", stack="ground:0")
    mine, theirs = view(st, "axis"), view(st, "allies")
    assert {c["code"] for c in mine["decision"]["prompt"]["cards"]} == {"gb-tank", "gb-inf"}
    assert theirs["decision"] == {"seat": "axis", "kind": "capture_pick"}
    assert "hand_codes" not in theirs["opponent"] and "hand" not in theirs["opponent"]
    assert "gb-sub" not in str(mine)
