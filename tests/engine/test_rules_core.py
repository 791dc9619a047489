"""The Western Europe rulebook, one test per rule, on hand-built scenarios."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, MalformedAction, Options, apply, legal_actions, new_game, view
from games.engine.battlecards.actions import Action
from games.engine.battlecards.setup import starter_setup

from .helpers import (
    battle,
    do,
    event_types,
    fight,
    ids,
    kinds,
    legal_json,
    load,
    numbers,
    one,
    pass_until,
)


# ---- set-up -------------------------------------------------------------------------------------
def test_setup_draws_six_deploys_three_by_kind_and_keeps_three_in_reserve(real_catalog):
    st = new_game(real_catalog, starter_setup(real_catalog, 11))
    assert kinds(st) == "initial_deploy" and st.decision.seat == "axis"
    for _ in range(6):
        apply(st, legal_actions(st)[0])
    for seat in ("axis", "allies"):
        p = st.players[seat]
        assert len(p["hand"]) == 3
        deployed = [(k, c) for k in p["stacks"] for s in p["stacks"][k] for c in s]
        assert len(deployed) == 3
        assert all(st.defs[c].kind == k for k, c in deployed)  # units only in their proper stacks
        assert len(st.arsenal(seat)["deck"]) == 47 - 6
    assert kinds(st) == "turn_start" and st.decision.seat == "axis"  # starting with the German player


def test_optional_rule_1_larger_standing_armies_draw_nine_deploy_six(real_catalog):
    setup = starter_setup(real_catalog, 3, options=Options(larger_standing_armies=True))
    st = new_game(real_catalog, setup)
    assert len(st.players["axis"]["hand"]) == 9
    for _ in range(12):
        apply(st, legal_actions(st)[0])
    for seat in ("axis", "allies"):
        assert len(st.players[seat]["hand"]) == 3
        assert sum(len(s) for k in st.players[seat]["stacks"].values() for s in k) == 6


def test_battlecard_list_card_is_set_aside_face_up(real_catalog):
    st = new_game(real_catalog, starter_setup(real_catalog, 5))
    assert [st.code[c] for c in st.aside] == ["we-battlecard-list"]
    assert all(st.code[c] != "we-battlecard-list" for c in st.conflict_deck)
    assert view(st, "allies")["conflict"]["aside"][0]["code"] == "we-battlecard-list"


def test_standard_victory_threshold_is_half_the_deck_battlecard_points(real_catalog):
    st = new_game(real_catalog, starter_setup(real_catalog, 5))
    assert st.vp_threshold == 38  # the rules: "For this set, the number would be 38 to win."


# ---- turns and conflict cards -------------------------------------------------------------------
def test_drawing_player_draws_and_turn_passes():
    st = load(axis={"hand": ["de-tank"] * 3}, deck=numbers(10, 11, 12))
    assert kinds(st) == "turn_start" and st.decision.seat == "axis"
    do(st, "draw")  # t-n10 is a build-up: draw 1 deploy 1
    assert kinds(st) == "deploy" and len(st.players["axis"]["hand"]) == 4
    do(st, "deploy", card=st.players["axis"]["hand"][-1], stack="ground:0")
    assert kinds(st) == "turn_start" and st.decision.seat == "allies"


def test_kept_card_goes_face_down_behind_the_stacks():
    st = load(deck=["t-mine-fields"])
    events = do(st, "draw")
    assert [st.code[c] for c in st.team("axis")["kept"]] == ["t-mine-fields"]
    public = [e for e in events if e.visible_to == "all"]
    assert "card_kept" in event_types(public)
    assert all("t-mine-fields" not in str(e.data) for e in public)
    assert view(st, "allies")["opponent"]["kept_count"] == 1
    assert "t-mine-fields" not in str(view(st, "allies"))
    assert view(st, "axis")["me"]["kept"][0]["code"] == "t-mine-fields"


def test_build_up_draws_into_reserve_then_deploys_as_many():
    st = load(axis={"hand": ["de-tank"] * 3, "deck": ["de-fighter", "de-sub"]}, deck=["t-build-2"])
    do(st, "draw")
    assert len(st.players["axis"]["hand"]) == 5
    do(st, "deploy", card=one(st, "de-fighter"), stack="air:0")
    do(st, "deploy", card=one(st, "de-sub"), stack="sea:0")
    assert len(st.players["axis"]["hand"]) == 3
    assert kinds(st) == "turn_start" and st.decision.seat == "allies"


def test_replenish_with_no_reserve_hand_draws_three():
    st = load(axis={"hand": []}, deck=["t-replenish"])
    do(st, "draw")
    assert len(st.players["axis"]["hand"]) == 3
    assert st.decision.seat == "allies"


def test_replenish_with_a_reserve_hand_draws_one_and_deploys_one():
    st = load(axis={"hand": ["de-tank"] * 3}, deck=["t-replenish"])
    do(st, "draw")
    assert kinds(st) == "deploy"
    do(st, "deploy", card=st.players["axis"]["hand"][0], stack="ground:0")
    assert len(st.players["axis"]["hand"]) == 3


def test_emergency_deployment_instead_of_drawing_empties_the_reserve_hand():
    st = load(axis={"hand": ["de-tank", "de-fighter", "de-sub"]}, deck=numbers(10))
    do(st, "emergency_deploy")
    p = st.players["axis"]
    assert p["hand"] == []
    assert [st.code[c] for c in p["stacks"]["ground"][0]] == ["de-tank"]
    assert [st.code[c] for c in p["stacks"]["sea"][0]] == ["de-sub"]
    assert len(st.conflict_deck) == 1  # no conflict card drawn
    assert st.decision.seat == "allies"


def test_conflict_deck_reshuffles_its_discard_when_exhausted():
    st = load(deck=[], conflict_discard=numbers(10, 11))
    st_discard = list(st.conflict_discard)
    assert st.conflict_deck == [] and len(st_discard) == 2
    do(st, "draw")
    assert len(st.conflict_deck) + len(st.conflict_discard) == 2


def test_arsenal_deck_reshuffles_its_discard_when_exhausted():
    st = load(
        axis={"hand": [], "deck": [], "discard": ["de-tank", "de-tank", "de-tank"]}, deck=["t-replenish"]
    )
    do(st, "draw")
    assert len(st.players["axis"]["hand"]) == 3
    assert st.arsenal("axis")["discard"] == []


def test_game_play_6_fully_deployed_arsenal_ignores_further_deployment():
    st = load(axis={"hand": [], "deck": [], "discard": []}, deck=["t-build-2"])
    do(st, "draw")
    assert st.players["axis"]["hand"] == []
    assert kinds(st) == "turn_start" and st.decision.seat == "allies"


# ---- battlecards ----------------------------------------------------------------------------------
LAND = {"stacks": {"ground": ["de-tank"]}}
GB_LAND = {"stacks": {"ground": ["gb-tank"]}}


def test_rules_update_1_1_aggressor_may_decline_before_forces_are_revealed():
    st = load(axis=LAND, allies=GB_LAND, drawn="t-land")
    assert kinds(st) == "fight_or_decline" and st.decision.seat == "axis"
    events = do(st, "choose", option="decline")
    assert "battle_revealed" not in event_types(events)
    assert st.code[st.conflict_discard[-1]] == "t-land"
    assert st.decision.seat == "allies" and kinds(st) == "turn_start"  # the drawing player lost his turn


def test_stated_aggressor_decides_even_when_the_other_player_drew():
    st = load(axis=LAND, allies=GB_LAND, drawn="t-land", seat="allies")
    assert kinds(st) == "fight_or_decline" and st.decision.seat == "axis"


def test_drawing_player_battlecard_makes_the_drawer_aggressor():
    st = load(
        axis={"stacks": {"sea": ["de-destroyer"]}},
        allies={"stacks": {"sea": ["gb-destroyer"]}},
        drawn="t-sea",
        seat="allies",
    )
    assert st.decision.seat == "allies"
    fight(st)
    assert battle(st).aggressor == "allies"


def test_unmet_prerequisites_discard_the_battlecard_and_lose_the_turn():
    st = load(axis=LAND, allies=GB_LAND, drawn="t-followup")
    assert st.code[st.conflict_discard[-1]] == "t-followup"
    assert kinds(st) == "turn_start" and st.decision.seat == "allies"


def test_prerequisites_met_allow_the_battle():
    st = load(axis={**LAND, "won": ["t-invasion"]}, allies=GB_LAND, drawn="t-followup")
    assert kinds(st) == "fight_or_decline" and st.decision.seat == "allies"


def test_one_side_without_the_indicated_forces_loses_the_battle():
    st = load(axis=LAND, allies={"stacks": {"sea": ["gb-destroyer"]}}, drawn="t-land")
    events = do(st, "choose", option="fight")
    assert "battle_uncontested" in event_types(events)
    assert [st.code[c] for c in st.team("axis")["won"]] == ["t-land"]
    assert st.vp("axis") == 6


def test_neither_side_with_forces_battle_is_ignored():
    st = load(axis={"stacks": {"sea": ["de-sub"]}}, allies={"stacks": {"sea": ["gb-sub"]}}, drawn="t-land")
    do(st, "choose", option="fight")
    assert st.team("axis")["won"] == [] and st.team("allies")["won"] == []
    assert st.code[st.conflict_discard[-1]] == "t-land"
    assert st.decision.seat == "allies"


def test_battle_reveals_only_the_indicated_stacks():
    st = load(axis={"stacks": {"ground": ["de-tank"], "sea": ["de-sub"]}}, allies=GB_LAND, drawn="t-ground")
    events = fight(st)
    revealed = next(e for e in events if e.type == "battle_revealed")
    codes = [c for _, c in revealed.data["forces"]["axis"]]
    assert codes == ["de-tank"]
    assert "de-sub" not in str(view(st, "allies"))


# ---- firing -------------------------------------------------------------------------------------
def _tank_duel(*ns: int):
    st = load(axis=LAND, allies=GB_LAND, drawn="t-ground", deck=numbers(*ns))
    fight(st)
    assert kinds(st) == "fire" and battle(st).phase == 3 and st.decision.seat == "axis"
    return st


@pytest.mark.parametrize(("number", "hit"), [(6, False), (7, True), (8, False), (1, False)])
def test_action_number_hits_when_above_defense_and_not_above_attack(number, hit):
    st = _tank_duel(number, 20)
    target = one(st, "gb-tank")
    events = do(st, "fire", unit=one(st, "de-tank"), target=target)
    shot = next(e for e in events if e.type == "shot")
    assert (shot.data["attack"], shot.data["defense"], shot.data["number"]) == (7, 6, number)
    assert shot.data["hit"] is hit
    assert (target in st.arsenal("allies")["discard"]) is hit


def test_attack_below_defense_or_not_applicable_cannot_target():
    st = load(
        axis={"stacks": {"ground": ["de-inf"]}},
        allies={"stacks": {"ground": ["gb-tiger"]}},
        drawn="t-ground",
        deck=numbers(10),
    )
    fight(st)
    pass_until(st, "fire")
    # infantry (attack 4) against a ground defense of 8: no fire action, only hold (or support)
    assert st.decision.seat == "allies" or all(a["type"] != "fire" for a in legal_json(st))


def test_game_play_3_casualties_are_removed_at_once_and_do_not_fire_back():
    st = _tank_duel(7, 7)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    assert st.team("axis")["won"] and st.code[st.team("axis")["won"][0]] == "t-ground"
    assert one(st, "gb-tank") in st.arsenal("allies")["discard"]


def test_aggressor_fires_first_then_defender_in_each_phase():
    st = _tank_duel(1, 1, 1)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    assert st.decision.seat == "allies" and kinds(st) == "fire" and battle(st).phase == 3


def test_destroyed_units_go_to_their_owners_arsenal_discard():
    st = _tank_duel(7)
    target = one(st, "gb-tank")
    do(st, "fire", unit=one(st, "de-tank"), target=target)
    assert target in st.arsenal("allies")["discard"]
    assert all(target not in s for s in st.players["allies"]["stacks"]["ground"])


def test_withdrawal_phase_then_next_round_until_one_side_is_gone():
    st = _tank_duel(1, 1, 1, 1)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    do(st, "fire", unit=one(st, "gb-tank"), target=one(st, "de-tank"))
    assert kinds(st) == "withdraw" and st.decision.seat == "axis"
    do(st, "pass")
    assert kinds(st) == "withdraw" and st.decision.seat == "allies"
    do(st, "pass")
    assert kinds(st) == "fire" and battle(st).round == 2


def test_game_play_1_withdrawn_units_stay_deployed_and_the_other_side_wins():
    st = _tank_duel(1, 1)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    do(st, "fire", unit=one(st, "gb-tank"), target=one(st, "de-tank"))
    do(st, "pass")
    tank = one(st, "gb-tank")
    do(st, "withdraw", unit=tank)
    assert tank in st.players["allies"]["stacks"]["ground"][0]  # still deployed, not back in the hand
    assert len(st.players["allies"]["hand"]) == 0
    assert st.code[st.team("axis")["won"][0]] == "t-ground"


def test_units_that_can_hit_are_not_a_stalemate():
    # tiger vs tiger: attack 10 above defense 8
    st = load(
        axis={"stacks": {"ground": ["de-tiger"]}},
        allies={"stacks": {"ground": ["gb-tiger"]}},
        drawn="t-ground",
        deck=numbers(10),
    )
    events = fight(st)
    assert "stalemate" not in event_types(events) and kinds(st) == "fire"


def test_stalemate_when_no_unit_on_either_side_can_ever_hit():
    # bombers: air attack 5 against air defense 8 on both sides: nobody can ever hit
    st = load(
        axis={"stacks": {"air": ["de-bomber"]}}, allies={"stacks": {"air": ["gb-bomber"]}}, drawn="t-air"
    )
    events = fight(st)
    assert "stalemate" in event_types(events)
    assert st.code[st.team("allies")["won"][0]] == "t-air"  # the aggressor withdraws, the defender wins
    assert one(st, "de-bomber") in st.players["axis"]["stacks"]["air"][0]


def test_stalemate_counts_support_that_could_be_allocated():
    # infantry attack 4 vs defense 6 is hopeless alone, but two infantry supports (+2 each) make 8 > 6
    st = load(
        axis={"stacks": {"ground": ["de-inf", "de-inf", "de-inf"]}},
        allies={"stacks": {"ground": ["gb-tank"]}, "hand": []},
        drawn="t-ground",
    )
    st.players["allies"]["stacks"]["ground"][0]  # noqa: B018
    events = fight(st)
    assert "stalemate" not in event_types(events)


# ---- victory ------------------------------------------------------------------------------------
def test_standard_victory_with_half_the_victory_points():
    st = load(
        axis={**LAND, "won": ["t-normandy"]},
        allies=GB_LAND,
        drawn="t-ground",
        deck=numbers(7),
        victory_threshold=14,
    )
    fight(st)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    assert st.status == "finished" and st.winner == "axis"
    assert st.result["kind"] == "standard" and st.result["points"]["axis"] == 14


def test_total_victory_when_the_enemy_homeland_battlecard_is_won():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={"stacks": {"ground": ["gb-inf"]}},
        drawn="t-invade-britain",
        deck=numbers(7),
    )
    do(st, "choose", option="fight")
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-inf"))
    assert st.status == "finished" and st.winner == "axis" and st.result["kind"] == "total"


def test_homeland_battlecard_lets_the_defender_emergency_deploy():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={"hand": ["gb-tank", "gb-inf", "gb-fighter"]},
        drawn="t-invade-britain",
    )
    do(st, "choose", option="fight")
    assert kinds(st) == "emergency_deploy" and st.decision.seat == "allies"
    do(st, "emergency_deploy")
    assert st.players["allies"]["hand"] == []
    present = [st.code[c] for c in battle(st).present["allies"]]
    assert sorted(present) == ["gb-fighter", "gb-inf", "gb-tank"]


def test_a_game_ends_when_every_battlecard_is_held():
    st = load(
        axis={**LAND, "won": ["t-land"]},
        allies=GB_LAND,
        drawn="t-ground",
        deck=numbers(7),
        victory_threshold=50,
    )
    # the conflict deck holds only t-ground and t-land: once t-ground is won all battles are decided
    fight(st)
    do(st, "fire", unit=one(st, "de-tank"), target=one(st, "gb-tank"))
    assert st.status == "finished" and st.result["kind"] == "all-battles-decided" and st.winner == "axis"


# ---- the action interface ------------------------------------------------------------------------
def test_illegal_action_leaves_the_state_unchanged():
    st = _tank_duel(7)
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        do(st, "fire", unit=one(st, "de-tank"), target="c999")
    assert err.value.code == "illegal_action"
    with pytest.raises(IllegalAction) as err:
        apply(st, Action.from_json({"type": "hold", "seat": "allies", "unit": one(st, "gb-tank")}))
    assert err.value.code == "not_your_turn"
    assert st.to_json() == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "nope", "seat": "axis"},
        {"type": "fire", "seat": "axis"},
        {"type": "draw", "seat": "neutral"},
        {"type": "fire", "seat": "axis", "unit": 3, "target": "c1"},
        {"type": "draw", "seat": "axis", "extra": "x"},
    ],
)
def test_malformed_actions_are_rejected(data):
    with pytest.raises(MalformedAction) as err:
        Action.from_json(data)
    assert err.value.code == "malformed_action"


def test_actions_round_trip_through_json_and_text():
    st = _tank_duel(7)
    for action in legal_actions(st):
        assert Action.from_json(action.to_json()) == action
        assert str(action).startswith("axis ")


def test_setup_rejects_cards_of_the_wrong_side(real_catalog):
    from games.engine import EngineError, GameSetup

    bad = GameSetup(
        seed=1,
        decks={"axis": ("gb-infantry",), "allies": ()},
        nations={"axis": "DE", "allies": "GB"},
        conflict_deck=(),
    )
    with pytest.raises(EngineError) as err:
        new_game(real_catalog, bad)
    assert err.value.code == "bad_setup"


def test_ids_of_hidden_cards_do_not_reveal_codes(real_catalog):
    st = new_game(real_catalog, starter_setup(real_catalog, 8))
    st2 = new_game(real_catalog, starter_setup(real_catalog, 9))
    first = {c: st.code[c] for c in list(st.code)[:20]}
    assert first != {c: st2.code.get(c) for c in first}  # numbering is shuffled per game
    assert ids(st, "gb-infantry") != ids(st2, "gb-infantry")


# ---- views, events and set-up values -------------------------------------------------------------
def test_view_shows_own_cards_and_only_public_facts_about_the_opponent():
    st = load(
        axis={"hand": ["de-tank", "de-sub"], "stacks": {"ground": ["de-tiger"]}, "kept": ["t-mine-fields"]},
        allies={"hand": ["gb-inf"], "stacks": {"sea": ["gb-sub", "gb-carrier"]}, "kept": ["t-a-bomb"]},
    )
    v = view(st, "axis")
    assert sorted(c["code"] for c in v["me"]["hand"]) == ["de-sub", "de-tank"]
    assert v["me"]["stacks"]["ground"][0][0]["code"] == "de-tiger"
    assert v["opponent"]["hand_size"] == 1 and v["opponent"]["stacks"]["sea"] == [2]
    assert v["opponent"]["kept_count"] == 1
    text = str(v)
    assert "gb-inf" not in text and "gb-sub" not in text and "t-a-bomb" not in text
    assert v["decision"]["kind"] == "turn_start" and v["decision"]["legal_actions"][0] == {
        "type": "draw",
        "seat": "axis",
    }
    assert "legal_actions" not in view(st, "allies")["decision"]


def test_events_for_filters_private_events():
    st = load(axis={"hand": ["de-tank"] * 3, "deck": ["de-sub"]}, deck=["t-n10"])
    events = do(st, "draw")
    drawn = [e for e in events if e.type == "drawn_card"]
    assert drawn and all(e.visible_to == "axis" for e in drawn)
    from games.engine import events_for

    assert not [e for e in events_for(events, "allies") if "de-sub" in str(e.data)]
    assert [e for e in events_for(events, "axis") if "de-sub" in str(e.data)]


def test_setup_and_options_round_trip_through_json(real_catalog):
    from games.engine import GameSetup, SetupError

    setup = starter_setup(real_catalog, 4, options=Options(larger_standing_armies=True, occupying_force=True))
    again = GameSetup.from_json(setup.to_json())
    assert again == setup and again.options.initial_draw == 9
    with pytest.raises(SetupError):
        GameSetup.from_json({"seed": 1})
    with pytest.raises(SetupError):
        Options.from_json({"no_such_option": True})


def test_a_malformed_serialised_state_is_an_engine_error(real_catalog):
    from games.engine import EngineError, GameState

    data = new_game(real_catalog, starter_setup(real_catalog, 2)).to_json()
    del data["players"]
    with pytest.raises(EngineError) as err:
        GameState.from_json(data, real_catalog)
    assert err.value.code == "bad_state"
