"""The Tide of Iron referee, one test per rule sentence of tide-of-iron-strategy-cards.txt (through apply)."""

from __future__ import annotations

import json

import pytest

from games.engine import tide_of_iron as toi
from tests.engine.helpers import json_strings
from tests.engine.tide_of_iron.conftest import ScriptedDice, act, catalog, give, types


def test_at_the_beginning_each_player_draws_from_each_of_his_shuffled_decks(new_match):
    """ "At the beginning of the game [...] players will draw Strategy cards from their Strategy decks and
    place them faceup in their HQ area" (estimated: 1 card from each deck)."""
    st = new_match(scenario="toi-scenario-artillery-duel")
    assert set(st.decks["allies"]) == {"toi-artillery-ii", "toi-air-support"}
    assert len(st.hq["allies"]) == 2 and len(st.hq["axis"]) == 1
    assert sum(map(len, st.decks["allies"].values())) == 12 - 2
    orders = {tuple(new_match(seed=s).decks["axis"]["toi-artillery-i"]) for s in range(8)}
    assert len(orders) > 1  # shuffled by the seed


def test_views_show_deck_sizes_never_their_order_or_contents(new_match):
    st = new_match()
    for seat in toi.SEATS:
        v = toi.view(st, seat)
        text = json.dumps(v)
        for deck in st.decks["axis"].values():
            assert json.dumps(deck) not in text
        assert v["opponent"]["decks"][0].keys() == {"code", "title", "size"}
        assert "rng" not in text
    hidden = {c for s in toi.SEATS for cards in st.decks[s].values() for c in cards}
    public = set(st.hq["axis"] + st.hq["allies"])
    for seat in (*toi.SEATS, "spectator"):
        assert not (hidden - public) & json_strings(toi.view(st, seat))
    watcher = toi.view(st, "spectator")  # a spectator: both sides' public areas, no choices
    assert set(watcher["sides"]) == set(toi.SEATS) and watcher["seat"] is None
    assert watcher["decision"] == {"seat": "allies", "kind": "act"}
    assert toi.view(st, "allies")["decision"]["legal_actions"]


def test_activation_pays_the_command_cost_and_refuses_a_card_one_cannot_afford(new_match):
    """ "he must first pay the command cost [...] If a player cannot afford the command cost of a Strategy
    card, he may not activate that card.\""""
    st = new_match()
    give(st, "allies", "toi-strafing-run")  # cost 2
    act(st, "allies", "report_command", points="1")
    assert ("activate", "allies", "toi-strafing-run") not in toi.legal_keys(st)
    before = st.to_json()
    with pytest.raises(toi.IllegalAction) as err:
        act(st, "allies", "activate", card="toi-strafing-run")
    assert err.value.code == "cannot_afford" and st.to_json() == before
    act(st, "allies", "report_command", points="2")
    st.rng = ScriptedDice(6, 1, 1, 1, 1, 1)  # accurate drift (black, red), 4 attack dice
    act(st, "allies", "activate", card="toi-strafing-run")
    assert st.command["allies"] == 0
    act(st, "allies", "target", hex="5,5")
    act(st, "allies", "los", los="normal")
    assert "toi-strafing-run" in st.box


def test_action_phase_cards_only_in_the_action_phase_command_phase_cards_only_in_the_command_phase(new_match):
    """Cards with "Action Phase" topmost are activated as an action; "Command Phase" cards only during the
    Spend Command step of the Command Phase; none in the Status Phase."""
    st = new_match()
    give(st, "allies", "toi-registered-fire")  # Command Phase
    give(st, "allies", "toi-strafing-run")  # Action Phase
    act(st, "allies", "report_command", points="9")
    with pytest.raises(toi.IllegalAction) as err:
        act(st, "allies", "activate", card="toi-registered-fire")
    assert err.value.code == "wrong_phase"
    act(st, "allies", "next_phase")
    assert st.phase == "command" and st.decision.seat == "allies"
    keys = toi.legal_keys(st)
    assert ("activate", "allies", "toi-registered-fire") in keys
    assert ("activate", "allies", "toi-strafing-run") not in keys
    st.rng = ScriptedDice(1, 1, 1)
    act(st, "allies", "activate", card="toi-registered-fire")
    act(st, "allies", "target", hex="2,2")  # no drift keyword: strikes the target hex
    assert st.decision.seat == "allies"  # a Command Phase activation is not the player's action
    st.rng = ScriptedDice()
    act(st, "allies", "next_phase")
    assert st.phase == "status"
    assert not [k for k in toi.legal_keys(st) if k[0] == "activate"]


def test_increased_priority_reduces_another_artillery_card_by_one_to_a_minimum_of_0(new_match):
    """ "When you activate another Artillery card, its cost is reduced by 1 (to a minimum of 0)." affects the
    Artillery I and Artillery II decks, not Air Support."""
    st = new_match(scenario="toi-scenario-all-decks")
    cat = st.catalog
    give(st, "allies", "toi-increased-priority")
    act(st, "allies", "report_command", points="1")
    events = act(st, "allies", "activate", card="toi-increased-priority")
    assert "placed_in_play_area" in types(events) and st.play["allies"][0]["card"] == "toi-increased-priority"
    assert toi.effective_cost(st, "allies", cat.card("toi-sustained-blanket")) == 2
    assert toi.effective_cost(st, "allies", cat.card("toi-harassing-fire")) == 1
    assert toi.effective_cost(st, "allies", cat.card("toi-strafing-run")) == 2  # Air Support: unchanged
    assert toi.effective_cost(st, "axis", cat.card("toi-sustained-blanket")) == 3  # only its owner's
    # a card costing 1 reduced by 1: 0 (the minimum), with a second copy in play too
    st.play["allies"].append({"card": "toi-increased-priority", "round": 1, "tried": 1, "pending": False})
    assert toi.effective_cost(st, "allies", cat.card("toi-sustained-blanket")) == 1
    assert toi.effective_cost(st, "allies", cat.card("toi-increased-priority")) == 0


def test_a_failed_contact_waits_in_the_play_area_and_retries_once_in_every_later_round(new_match):
    """ "If contact is not established [...] places it in his play area. Once during every subsequent round,
    as an action, the player may again seek to establish contact [...] a player does not pay the command
    cost again"."""
    st = new_match()
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="3")
    st.rng = ScriptedDice(3)
    events = act(st, "allies", "activate", card="toi-sustained-blanket")
    assert types(events) == ["card_activated", "contact_roll", "placed_in_play_area"]
    assert not events[1].data["established"]
    assert st.play["allies"][0]["pending"] and st.decision.seat == "axis"  # the action is over
    act(st, "axis", "pass_turn")
    assert ("retry_contact", "allies", "toi-sustained-blanket") not in toi.legal_keys(st)  # same round
    with pytest.raises(toi.IllegalAction) as err:
        act(st, "allies", "retry_contact", card="toi-sustained-blanket")
    assert err.value.code == "no_retry"
    for seat in ("allies", "allies", "allies"):  # action -> command -> status -> round 2
        act(st, seat, "next_phase")
    assert st.round == 2 and st.phase == "action"
    st.rng = ScriptedDice(2)
    events = act(st, "allies", "retry_contact", card="toi-sustained-blanket")
    assert types(events) == ["contact_retried", "contact_roll"] and st.command["allies"] == 0
    assert st.play["allies"][0]["pending"] and st.play["allies"][0]["tried"] == 2
    act(st, "axis", "pass_turn")
    assert ("retry_contact", "allies", "toi-sustained-blanket") not in toi.legal_keys(st)  # once a round
    for _ in range(3):
        act(st, "allies", "next_phase")
    st.rng = ScriptedDice(4, 6, 1, 1, 1, 1, 1)  # contact, accurate drift (black 6, red ignored), attack
    act(st, "allies", "retry_contact", card="toi-sustained-blanket")
    act(st, "allies", "target", hex="8,8")
    act(st, "allies", "los", los="none")
    assert st.play["allies"] == [] and st.box[-1] == "toi-sustained-blanket"  # resolved, then discarded


def test_drift_numbers_by_los_officer_and_friendly_units(new_match):
    """No LOS 6, normal LOS 4, enhanced 3 (a squad with an officer; a hex containing or adjacent to any
    friendly unit)."""

    def drift_number(los: str, units=()) -> int:
        st = new_match()
        give(st, "allies", "toi-strafing-run")
        act(st, "allies", "report_command", points="2")
        for label, where, side in units:
            act(st, "allies", "place_unit", unit=label, hex=where, side=side, kind="squad")
        st.rng = ScriptedDice(6, 1, 1, 1, 1, 1)
        act(st, "allies", "activate", card="toi-strafing-run")
        act(st, "allies", "target", hex="5,5")
        events = act(st, "allies", "los", los=los)
        return next(e.data["drift_number"] for e in events if e.type == "drift_roll")

    assert drift_number("none") == 6
    assert drift_number("normal") == 4
    assert drift_number("officer") == 3
    assert drift_number("none", [("E", "6,5", "allies")]) == 3  # adjacent friendly unit
    assert drift_number("none", [("E", "5,5", "allies")]) == 3  # in the hex
    assert drift_number("none", [("X", "6,5", "axis")]) == 6  # an enemy unit does not help
    assert drift_number("normal", [("E", "8,5", "allies")]) == 4  # two hexes away


def test_a_target_that_drifts_off_the_board_or_onto_a_half_hex_has_no_effect(new_match):
    """ "If the final target hex drifted off the board (including one of the half-hexes on the side of the
    game board), the Strategy card has no additional effect, and is placed back in the game box.\""""
    st = new_match(marker="nw")
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="3")
    act(st, "allies", "place_unit", unit="X", hex="1,1", side="axis", kind="squad")
    st.rng = ScriptedDice(6, 1, 6)  # contact; black 1 < 6; red 6 = w: onto the half hex 0,1
    act(st, "allies", "activate", card="toi-sustained-blanket")
    act(st, "allies", "target", hex="1,1")
    events = act(st, "allies", "los", los="none")
    drift = next(e.data for e in events if e.type == "drift_roll")
    assert drift["final"] == "0,1" and drift["half_hex"] and not drift["on_board"]
    assert types(events)[-1] == "card_resolved" and "area_attack" not in types(events)
    assert st.box == ["toi-sustained-blanket"] and st.rng.dice == []


def test_the_target_token_goes_on_a_board_hex(new_match):
    st = new_match()
    give(st, "allies", "toi-strafing-run")
    act(st, "allies", "report_command", points="2")
    act(st, "allies", "activate", card="toi-strafing-run")
    for bad in ("0,1", "40,3", "x"):
        with pytest.raises(toi.IllegalAction) as err:
            act(st, "allies", "target", hex=bad)
        assert err.value.code == "not_a_board_hex"
    # revision 2 lists the columns, then the rows of the column (test_target_steps.py)
    assert len(toi.legal_keys(st)) == 12 and st.decision.kind == "target_column"


def test_area_attack_successes_defense_by_cover_and_normal_attacks_hit_vehicles(new_match):
    """Area Attack (X): X attack dice, successes on 5 and 6; each unit rolls its own defense dice (the
    hex's reported cover); a normal attack hits vehicles too."""
    st = new_match()
    give(st, "allies", "toi-strafing-run")  # normal Area Attack (4), no contact
    act(st, "allies", "report_command", points="2")
    act(st, "allies", "place_unit", unit="T", hex="4,4", side="axis", kind="vehicle")
    act(st, "allies", "place_unit", unit="S", hex="4,4", side="axis", kind="squad")
    act(st, "allies", "set_cover", hex="4,4", cover="2")
    st.rng = ScriptedDice(6, 2, 5, 5, 6, 4, 5, 1, 6, 6)
    act(st, "allies", "activate", card="toi-strafing-run")
    act(st, "allies", "target", hex="4,4")
    events = act(st, "allies", "los", los="normal")
    area = next(e.data for e in events if e.type == "area_attack")
    assert area["dice"] == [5, 5, 6, 4] and area["successes"] == 3 and not area["suppressive"]
    hits = {e.data["unit"]: e.data for e in events if e.type == "unit_attacked"}
    assert hits["S"]["defense_dice"] == [5, 1] and hits["S"]["hits"] == 2
    assert hits["T"]["defense_dice"] == [6, 6] and hits["T"]["hits"] == 1


def test_defense_success_number_is_an_option(new_match):
    st = new_match(defense_success_on=4)
    give(st, "allies", "toi-strafing-run")
    act(st, "allies", "report_command", points="2")
    act(st, "allies", "place_unit", unit="S", hex="4,4", side="axis", kind="squad")
    act(st, "allies", "set_cover", hex="4,4", cover="1")
    st.rng = ScriptedDice(6, 1, 6, 6, 6, 1, 4)  # drift; attack [6, 6, 6, 1]: 3 successes; defense [4]
    act(st, "allies", "activate", card="toi-strafing-run")
    act(st, "allies", "target", hex="4,4")
    events = act(st, "allies", "los", los="normal")
    assert next(e.data for e in events if e.type == "unit_attacked")["hits"] == 2  # a 4 saves


def test_status_phase_draws_and_an_empty_deck_is_not_replenished(new_match):
    """ "during the Status Phase, players will draw Strategy cards" / "After the last card of a Strategy card
    deck is drawn, the deck is not replenished.\""""
    st = new_match()
    drawn = []
    for _ in range(7):
        for seat in ("allies", "allies"):
            drawn += act(st, seat, "next_phase")
        drawn += act(st, "allies", "next_phase")
    assert st.round == 8
    axis_draws = [e for e in drawn if e.type == "card_drawn" and e.data["seat"] == "axis"]
    assert len(axis_draws) == 5  # 1 at the start + 5 status phases empty the 6-card deck
    assert [e.data for e in drawn if e.type == "deck_exhausted" and e.data["seat"] == "axis"] == [
        {"seat": "axis", "deck": "toi-artillery-i"}
    ]
    assert len(st.hq["axis"]) == 6 and st.decks["axis"]["toi-artillery-i"] == []


def test_turns_phases_and_ending_the_match(new_match):
    st = new_match(first_player="axis")
    assert st.decision.seat == "axis" and st.decision.kind == "act"
    with pytest.raises(toi.IllegalAction) as err:
        act(st, "allies", "pass_turn")
    assert err.value.code == "not_your_turn"
    act(st, "axis", "pass_turn")
    assert st.decision.seat == "allies"
    act(st, "allies", "next_phase")
    assert (st.phase, st.decision.seat) == ("command", "axis")  # the first player starts every phase
    events = act(st, "axis", "end_match", result="allies")
    assert st.status == "finished" and st.winner == "allies" and st.decision is None
    # revision 2: the result is the reporting player's, confirmed by the other (act confirms at once)
    assert events[-1].data == {
        "kind": "reported",
        "result": "allies",
        "by": "axis",
        "round": 1,
        "confirmed_by": "allies",
    }
    with pytest.raises(toi.IllegalAction) as err:
        act(st, "axis", "pass_turn")
    assert err.value.code == "game_over"


def test_reports_are_checked_and_a_refused_action_changes_nothing(new_match):
    st = new_match()
    before = st.to_json()
    for fields in (
        {"type": "report_command", "points": "-1"},
        {"type": "report_command", "points": "x"},
        {"type": "place_unit", "unit": "A", "hex": "99,99", "side": "axis", "kind": "squad"},
        {"type": "place_unit", "unit": "A", "hex": "2,2", "side": "axis", "kind": "tank"},
        {
            "type": "place_unit",
            "unit": "A",
            "hex": "2,2",
            "side": "axis",
            "kind": "vehicle",
            "officer": "yes",
        },
        {"type": "remove_unit", "unit": "nobody"},
        {"type": "set_cover", "hex": "2,2", "cover": "10"},
        {"type": "target", "hex": "2,2"},
        {"type": "activate", "card": "toi-nope"},
    ):
        with pytest.raises(toi.EngineError):
            toi.apply(st, {"seat": "allies", **fields})
        assert st.to_json() == before
    with pytest.raises(toi.MalformedAction):
        toi.apply(st, {"type": "fly", "seat": "allies"})


def test_state_round_trips_and_replay_rebuilds_it(new_match):
    cat = catalog()
    setup = toi.GameSetup(seed=99, options=toi.Options(board_width=12, board_height=10))
    st = toi.new_game(cat, setup)
    log = []

    def do(seat, type_, **fields):
        action = {"type": type_, "seat": seat, **fields}
        toi.apply(st, action)
        log.append(action)

    do("allies", "report_command", points="9")
    do("axis", "confirm")  # revision 2: the other player confirms the report
    code = st.hq["allies"][0]
    do("allies", "place_unit", unit="E", hex="3,3", side="allies", kind="squad", officer="yes")
    if ("activate", "allies", code) in toi.legal_keys(st):
        do("allies", "activate", card=code)
        while st.decision.kind != "act":
            key = toi.legal_keys(st)[0]
            do(*key[1:2], key[0], **dict(zip(toi.ACTION_CLASSES[key[0]]._names[1:], key[2:], strict=True)))
    do(st.decision.seat, "next_phase")
    assert st.decision.kind == "confirm" and st.claim["type"] == "phase"
    again = toi.TideOfIronState.from_json(json.loads(json.dumps(st.to_json())), cat)
    assert again == st and again.decision == st.decision
    assert toi.replay(cat, setup, log) == st


def test_an_attack_scores_on_5_and_6_unless_the_card_says_otherwise():
    """ "Off-board area attacks (i.e., those from Strategy cards) score successes on results of "5" and "6"
    unless stated otherwise on the card.\""""
    from vocabulary.tide_of_iron import read_documents

    cards, decks = read_documents()
    for card in cards["cards"]:
        if card["code"] == "toi-strafing-run":
            card["keywords"][-1]["success_on"] = 4  # a card that says otherwise
    cat = toi.TideOfIronCatalog.from_dicts(
        cards=cards["cards"], decks=decks["decks"], scenarios=decks["scenarios"]
    )
    st = toi.new_game(cat, toi.GameSetup(seed=1, options=toi.Options(board_width=12, board_height=10)))
    give(st, "allies", "toi-strafing-run")
    act(st, "allies", "report_command", points="2")
    st.rng = ScriptedDice(6, 1, 4, 4, 3, 6)
    act(st, "allies", "activate", card="toi-strafing-run")
    act(st, "allies", "target", hex="4,4")
    events = act(st, "allies", "los", los="normal")
    area = next(e.data for e in events if e.type == "area_attack")
    assert (area["success_on"], area["successes"]) == (4, 3)
