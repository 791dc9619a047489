"""One test per decided reading (games/engine/battlefront/README.md, "Rulings"), numbered as there."""
from __future__ import annotations

import pytest

from games.engine import battlefront as bf

from .helpers import E, W, end_deployment, event, plays, scenario


def test_r1_deployment_ends_when_both_players_pass_in_a_row(catalog):
    """R1: a pass is not final; the deployment phase ends after two passes in a row."""
    st = scenario(catalog, hands={W: ["bf-major", "bf-mortars"], E: ["bf-captain", "bf-howitzers"]})
    bf.apply(st, bf.Pass(W))
    assert st.decision.seat == E and st.decision.prompt["opponent_passed"] is True
    bf.apply(st, bf.Play(E, "bf-captain", "C"))
    assert st.decision.seat == W and st.decision.kind == "deploy"  # west passed, but may play again
    bf.apply(st, bf.Play(W, "bf-major", "C"))
    bf.apply(st, bf.Pass(E))
    events = bf.apply(st, bf.Pass(W))
    assert any(e.type == "battle" for e in events)
    assert "bf-mortars" in st.hands[W]  # a card need not be played


def test_r2_an_empty_hand_passes_without_being_asked(catalog):
    """R2: a player with no card passes at once (his hand size is public)."""
    st = scenario(catalog, hands={W: ["bf-major", "bf-mortars"], E: []})
    bf.apply(st, bf.Play(W, "bf-major", "C"))
    assert st.decision.seat == W  # east had nothing: passed
    events = bf.apply(st, bf.Pass(W))
    assert any(e.type == "battle" for e in events)


def test_r3_cards_stay_on_the_fronts_between_turns(catalog):
    """R3: the cards assigned to a front stay there for the rest of the game and fight every battle phase."""
    st = scenario(catalog, fronts={"C": {W: ["bf-major"]}})
    end_deployment(st)
    assert st.turn == 2 and st.fronts["C"][W] == ["bf-major"] and st.markers["C"][W] == 1
    end_deployment(st)
    assert st.markers["C"][W] == 2


def test_r4_an_exhausted_deck_deals_what_is_left_and_is_not_reshuffled(catalog):
    """R4: dealing goes one card at a time, west first, as far as the deck goes; discards never return."""
    st = scenario(catalog, hands={W: ["bf-major"], E: ["bf-captain"]},
                  deck=["bf-mortars", "bf-howitzers", "bf-colonel"])
    st.discards[W] = ["bf-heavy-tanks"]
    events = end_deployment(st)
    assert st.hands[W] == ["bf-major", "bf-colonel", "bf-mortars"]
    assert st.hands[E] == ["bf-captain", "bf-howitzers"]
    assert st.deck == [] and event(events, "dealt") == {"counts": {W: 2, E: 1}, "deck_size": 0}
    assert st.discards[W] == ["bf-heavy-tanks"]
    end_deployment(st)
    assert st.turn == 3 and len(st.hands[W]) == 3  # nothing more to deal


def test_r5_a_tie_at_a_front_gives_no_marker(catalog):
    """R5: "If you have a higher Force": equal Force (0 v 0 included) gives nobody a marker."""
    st = scenario(catalog, fronts={"C": {W: ["bf-major"], E: ["bf-medium-artillery"]}})
    events = end_deployment(st)
    assert event(events, "battle")["fronts"]["C"]["marker"] is None
    assert st.markers["C"] == {W: 0, E: 0}


def test_r6_both_negation_wordings_have_the_same_effect(catalog):
    """R6: "Negate Opposing Tank" (Tank Obstacles) and "Opposing Tank Negated" (Anti-Tank Guns) are alike."""
    for negator in ("bf-tank-obstacles", "bf-anti-tank-guns"):
        st = scenario(catalog, fronts={"C": {W: [negator], E: ["bf-heavy-tanks"]}})
        forces, negated = bf.front_forces(st, "C")
        assert forces[E] == 0 and negated[E] == [0]
    st = scenario(catalog, fronts={"C": {W: ["bf-replacement-officer"], E: ["bf-colonel"]}})
    assert bf.front_forces(st, "C")[0] == {W: 2, E: 0}  # "Negate Opposing Leader"


def test_r7_a_negating_card_hits_the_strongest_opposing_card_of_its_type_at_its_front(catalog):
    """R7: one opposing card each, the strongest not yet negated, only at the negating card's front."""
    fronts = {"C": {W: ["bf-anti-tank-guns"], E: ["bf-light-tanks", "bf-tank-brigade", "bf-major"]},
              "R": {E: ["bf-heavy-tanks"]}}
    st = scenario(catalog, fronts=fronts)
    forces, negated = bf.front_forces(st, "C")
    assert negated[E] == [1] and forces[E] == 2 + 5      # the Tank Brigade (10), not the Light Tanks (2)
    assert bf.front_forces(st, "R")[0][E] == 9          # another front is not touched
    fronts["C"][W].append("bf-tank-buster")             # a second negating card hits the next one
    st = scenario(catalog, fronts=fronts)
    forces, negated = bf.front_forces(st, "C")
    assert sorted(negated[E]) == [0, 1] and forces[E] == 5
    view_c = bf.view(st, W)["fronts"][2]
    assert [c["negated"] for c in view_c["cards"][E]] == [True, True, False]


def test_r8_a_negated_card_still_negates(catalog):
    """R8: negation takes away Force only: two Tank Destroyers ("Opposing Tank Negated") negate each other."""
    st = scenario(catalog, fronts={"C": {W: ["bf-tank-destroyers"], E: ["bf-tank-buster", "bf-heavy-tanks"]}})
    forces, negated = bf.front_forces(st, "C")
    # west's Tank Destroyers (negated by the Tank Buster) still negates east's strongest tank
    assert negated == {W: [0], E: [1]} and forces == {W: 0, E: 5}


def test_r9_markers_are_the_victory_points_and_count_all_game(catalog):
    """R9: "3 more VP" means 3 more Victory Markers at that front, counted over the whole game."""
    st = scenario(catalog, fronts={"C": {W: ["bf-major"], E: ["bf-captain"]}}, markers={"C": {W: 4, E: 2}})
    end_deployment(st)
    assert st.markers["C"] == {W: 4, E: 3} and st.captured["C"] is None
    st = scenario(catalog, fronts={"C": {W: ["bf-major"]}}, markers={"C": {W: 4, E: 2}})
    end_deployment(st)
    assert st.captured["C"] == W  # 5 v 2


def test_r10_extra_allowances_per_front_stack_count_toward_two_and_not_for_themselves(catalog):
    """R10: an extra is per front, from your own cards already there (any turn), allowances add up, the extra
    card counts toward the 2 cards a turn, and a card's own note does not let itself in."""
    # 2 Infantry at C and two "Play an Extra Infantry" cards (Reserve Units, Bunkers): 3 Infantry allowed
    st = scenario(catalog, hands={W: ["bf-army-corps", "bf-guard-units"], E: []},
                  fronts={"C": {W: ["bf-rifle-brigade", "bf-reserve-units", "bf-bunkers"]}})
    assert "C" in plays(st, "bf-army-corps")
    bf.apply(st, bf.Play(W, "bf-army-corps", "C"))
    assert st.decision.seat == W and "C" not in plays(st, "bf-guard-units")  # a 4th is not
    # the extra card is one of the 2 cards a turn
    st = scenario(catalog, hands={W: ["bf-heavy-tanks"]}, fronts={"C": {W: ["bf-tank-brigade", "bf-major"]}},
                  placed={W: {"C": 2}})
    assert "C" not in plays(st, "bf-heavy-tanks")
    # a card's own note does not count for itself: Tank Brigade cannot join a front that has a tank
    st = scenario(catalog, hands={W: ["bf-tank-brigade"]}, fronts={"C": {W: ["bf-light-tanks"]}})
    assert "C" not in plays(st, "bf-tank-brigade")
    # an opponent's card gives you no extra
    st = scenario(catalog, hands={W: ["bf-heavy-tanks"]},
                  fronts={"C": {W: ["bf-light-tanks"], E: ["bf-tank-brigade"]}})
    assert "C" not in plays(st, "bf-heavy-tanks")


def test_r11_a_captured_front_fights_no_more_and_keeps_its_cards(catalog):
    """R11: a captured front's cards stay (shown) and it gets no more markers."""
    st = scenario(catalog, fronts={"C": {W: ["bf-major"], E: ["bf-colonel"]}}, markers={"C": {W: 3, E: 0}},
                  captured={"C": W})
    events = end_deployment(st)
    assert "C" not in event(events, "battle")["fronts"] and st.markers["C"] == {W: 3, E: 0}
    assert st.fronts["C"] == {W: ["bf-major"], E: ["bf-colonel"]}
    assert bf.view(st, E)["fronts"][2]["captured_by"] == W


def test_r12_a_turn_that_changes_nothing_ends_the_game(catalog):
    """R12: no card dealt, none played, no marker won: the game ends; more captured fronts, then more markers
    on open fronts wins, else a draw. Every game therefore ends."""
    hands = {W: ["bf-major"], E: ["bf-captain"]}
    st = scenario(catalog, hands=hands, deck=[], changed=False, captured={"R": W}, markers={"C": {E: 2}},
                  fronts={"CL": {W: ["bf-heavy-bombers"], E: ["bf-colonel"]}})  # 9 v 9 at CL
    end_deployment(st)
    assert st.status == "finished" and st.result["kind"] == "stalled" and st.winner == W  # 1 capture v 0
    st = scenario(catalog, hands=hands, deck=[], changed=False, markers={"C": {E: 2}})
    end_deployment(st)
    assert st.status == "finished" and st.winner == E  # no captures: 0 v 2 markers
    st = scenario(catalog, hands=hands, deck=[], changed=False)
    end_deployment(st)
    assert st.status == "finished" and st.winner is None and st.result["kind"] == "stalled"
    # a turn with a card played (or dealt, or a marker won) goes on
    st = scenario(catalog, hands=hands, deck=[], changed=False)
    bf.apply(st, bf.Play(W, "bf-major", "C"))
    end_deployment(st)
    assert st.status == "active" and st.turn == 2


def test_r13_both_reaching_victory_in_one_battle_phase(catalog):
    """R13: if both players reach a victory condition in the same battle phase (possible with the 2-front
    victories), more captured fronts wins; equal is a draw."""
    opts = bf.Options(two_front_victory=True)
    fronts = {"C": {W: ["bf-major"]}, "CL": {E: ["bf-colonel"]}}
    markers = {"C": {W: 2}, "CL": {E: 2}}
    st = scenario(catalog, fronts=fronts, markers=markers, captured={"CR": W, "L": E}, options=opts)
    end_deployment(st)  # west: C & CR (Breakthrough), east: L & CL (Outflank), 2 fronts each
    assert st.status == "finished" and st.winner is None and st.result["kind"] == "simultaneous"
    st = scenario(catalog, fronts=fronts, markers=markers, captured={"CR": W, "R": W, "L": E}, options=opts)
    end_deployment(st)
    assert st.winner == W and st.result["kind"] == "breakthrough"  # 3 fronts v 2


def test_r14_hand_limit_discards_are_chosen_face_down_and_out_of_the_game(catalog):
    """R14: at the end of the turn (after the battle) each player over 8 chooses his discards, west first;
    the discards are seen only by their owner and never come back."""
    hand = list(catalog.cards)[:9]
    st = scenario(catalog, hands={W: hand, E: list(catalog.cards)[20:30]}, deck=[])
    end_deployment(st)
    assert st.decision.kind == "discard" and st.decision.seat == W
    bf.apply(st, bf.Discard(W, hand[0]))
    assert st.decision.seat == E and st.decision.prompt["excess"] == 2
    assert bf.view(st, W)["opponent"]["discard_size"] == 0 and bf.view(st, E)["opponent"]["discard_size"] == 1
    assert hand[0] not in repr(bf.view(st, E))
    assert bf.view(st, W)["me"]["discards"] == [hand[0]]


def test_r15_a_scout_shows_the_hand_as_it_is_then_for_the_rest_of_the_turn(catalog):
    """R15: the snapshot of the opponent's hand at the moment the Scout is played, kept in its owner's view
    until the next Logistics Phase."""
    st = scenario(catalog, hands={W: ["bf-ranger-units", "bf-major"], E: ["bf-captain", "bf-howitzers"]})
    bf.apply(st, bf.Play(W, "bf-ranger-units", "C"))
    bf.apply(st, bf.Play(E, "bf-captain", "R"))
    assert bf.view(st, W)["me"]["scouted"] == ["bf-captain", "bf-howitzers"]  # as it was then
    end_deployment(st)
    assert st.turn == 2 and bf.view(st, W)["me"]["scouted"] is None


def test_r16_a_special_card_is_its_use(catalog):
    """R16: a Special card is played as one use of its owner's nationality (public), and is that type for
    the limits, negation and Blitzkrieg."""
    opts = bf.Options(special_cards={W: "JP", E: "DE"}, blitzkrieg_attacker=W)
    st = scenario(catalog, hands={W: ["bf-special-1"]}, options=opts)
    assert {k[-1] for k in bf.legal_keys(st) if k[0] == "play"} == {"bonzai-charge"}  # no F for the attacker
    st = scenario(catalog, hands={W: ["bf-special-1"]}, fronts={"C": {E: ["bf-tank-destroyers"]},
                                                               "R": {W: ["bf-light-tanks"]}},
                  options=bf.Options(special_cards={W: "DE", E: "DE"}))
    assert plays(st, "bf-special-1") == {"C", "CR", "CL", "L"}  # Panzer Tanks is the Tank at R
    events = bf.apply(st, bf.Play(W, "bf-special-1", "C", "panzer-tanks"))
    assert event(events, "played") == {"seat": W, "card": "bf-special-1", "front": "C", "use": "panzer-tanks"}
    assert bf.front_forces(st, "C")[0] == {W: 0, E: 7}  # Tank Destroyers: "Opposing Tank Negated"
    st = scenario(catalog, hands={W: ["bf-special-1"]}, options=bf.Options(special_cards={W: "DE", E: "RU"}))
    with pytest.raises(bf.IllegalAction):  # another nationality's use is not legal
        bf.apply(st, bf.Play(W, "bf-special-1", "C", "manpower"))


def test_r17_industrial_giant_is_a_play_without_a_front(catalog):
    """R17: "Discard & draw 2 cards": the Special card itself is discarded and 2 cards are drawn (as many as
    the deck holds); it is the player's play for that alternation and counts toward no front."""
    st = scenario(catalog, hands={W: ["bf-special-1"], E: ["bf-major"]}, deck=["bf-mortars"],
                  options=bf.Options(special_cards={W: "US", E: "DE"}))
    bf.apply(st, bf.PlaySpecial(W, "bf-special-1", "industrial-giant"))
    assert st.hands[W] == ["bf-mortars"] and st.deck == [] and st.discards[W] == ["bf-special-1"]
    assert st.decision.seat == E
