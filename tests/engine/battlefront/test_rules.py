"""One test per sentence of the Battlefront rules (../shared/seeds/battlefront-rules.txt), each quoting it."""
from __future__ import annotations

from collections import Counter

import pytest

from games.engine import battlefront as bf

from .helpers import E, W, end_deployment, event, keys, plays, scenario


# ---- THE DECK ------------------------------------------------------------------------------------
def test_players_share_a_common_deck(catalog):
    """ "Players share a common deck." """
    st = bf.new_game(catalog, bf.GameSetup(1, bf.Options()))
    west, east = set(st.hands[W]), set(st.hands[E])
    assert not west & east and not (west | east) & set(st.deck)
    assert len(st.deck) + len(west) + len(east) == 70


def test_the_deck_contains_one_copy_of_every_card(catalog):
    """ "The deck contains 1 copy of every card in the card list." """
    st = bf.new_game(catalog, bf.GameSetup(2, bf.Options()))
    assert Counter(st.all_cards()) == Counter(list(catalog.cards))
    assert len(catalog.cards) == 70


# ---- VICTORY / THE FRONTS / SETUP ------------------------------------------------------------------
def test_victory_capture_3_of_the_5_fronts(catalog):
    """ "VICTORY Capture 3 of the 5 Fronts." """
    st = scenario(catalog, captured={"R": W, "C": W}, markers={"L": {W: 2}},
                  fronts={"L": {W: ["bf-major"]}})
    end_deployment(st)
    assert st.status == "finished" and st.winner == W
    assert st.result["kind"] == "three_fronts" and st.result["captured"][W] == ["R", "C", "L"]


def test_there_are_5_fronts_between_the_players(catalog):
    """ "There are 5 Fronts between the players: R = Right Flank CR = Center Right C = Center CL = Center Left
    L = Left Flank" and SETUP "Use markers to designate the 5 Fronts." """
    assert bf.FRONTS == ("R", "CR", "C", "CL", "L")
    v = bf.view(bf.new_game(catalog, bf.GameSetup(3, bf.Options())), W)
    assert [(f["front"], f["name"]) for f in v["fronts"]] == [
        ("R", "Right Flank"), ("CR", "Center Right"), ("C", "Center"), ("CL", "Center Left"),
        ("L", "Left Flank")]


# ---- TURN SEQUENCE -----------------------------------------------------------------------------------
def test_each_turn_has_3_phases_logistics_deployment_battle(catalog):
    """ "Each turn has 3 phases: Logistics Phase Deployment Phase Battle Phase" """
    st = bf.new_game(catalog, bf.GameSetup(4, bf.Options()))
    events = end_deployment(st)  # turn 1 ends, turn 2 begins
    types = [e.type for e in events]
    order = [types.index(t) for t in ("battle", "turn_started", "dealt", "coin_flip")]
    assert order == sorted(order)
    assert st.turn == 2 and st.decision.kind == "deploy"


# ---- LOGISTICS PHASE -------------------------------------------------------------------------------------
def test_each_player_is_dealt_7_cards_from_the_deck(catalog):
    """ "Each player is dealt 7 cards from the deck." """
    st = bf.new_game(catalog, bf.GameSetup(5, bf.Options()))
    assert len(st.hands[W]) == len(st.hands[E]) == 7 and len(st.deck) == 56
    end_deployment(st)
    assert len(st.hands[W]) == len(st.hands[E]) == 14 and len(st.deck) == 42


# ---- DEPLOYMENT PHASE --------------------------------------------------------------------------------------
def test_players_take_turns_playing_one_card_to_one_of_the_five_fronts(catalog):
    """ "Players take turns." / "Players take turns playing one card from their hand to one of the five
    Fronts." """
    st = scenario(catalog, hands={W: ["bf-major", "bf-mortars"], E: ["bf-captain"]})
    assert st.decision.seat == W
    assert {k[3] for k in keys(st) if k[0] == "play"} == set(bf.FRONTS)
    bf.apply(st, bf.Play(W, "bf-major", "C"))
    assert st.hands[W] == ["bf-mortars"] and st.fronts["C"][W] == ["bf-major"]
    assert st.decision.seat == E
    with pytest.raises(bf.IllegalAction) as exc:
        bf.apply(st, bf.Play(W, "bf-mortars", "C"))
    assert exc.value.code == "not_your_turn"


def test_flip_a_coin_to_see_who_goes_first(catalog):
    """ "Flip a coin to see who goes first." (the game's seeded RNG, every turn) """
    firsts = Counter()
    for seed in range(40):
        st = bf.new_game(catalog, bf.GameSetup(seed, bf.Options()))
        assert st.decision.seat == st.first_seat
        assert bf.new_game(catalog, bf.GameSetup(seed, bf.Options())).first_seat == st.first_seat
        firsts[st.first_seat] += 1
    assert firsts[W] > 5 and firsts[E] > 5
    changes = 0
    for seed in range(6):
        st = bf.new_game(catalog, bf.GameSetup(seed, bf.Options()))
        first = st.first_seat
        end_deployment(st)
        assert st.turn == 2
        changes += st.first_seat != first
    assert changes > 0  # flipped again each turn


def test_in_a_turn_at_most_2_cards_to_a_single_front(catalog):
    """ "In a turn you can assign a maximum of 2 cards to a single Front." """
    st = scenario(catalog, hands={W: ["bf-major", "bf-mortars", "bf-light-tanks"],
                                  E: ["bf-captain", "bf-howitzers"]})
    bf.apply(st, bf.Play(W, "bf-major", "C"))
    bf.apply(st, bf.Play(E, "bf-captain", "R"))
    bf.apply(st, bf.Play(W, "bf-mortars", "C"))
    bf.apply(st, bf.Play(E, "bf-howitzers", "R"))
    assert "C" not in plays(st, "bf-light-tanks") and "R" in plays(st, "bf-light-tanks")
    before = st.to_json()
    with pytest.raises(bf.IllegalAction):
        bf.apply(st, bf.Play(W, "bf-light-tanks", "C"))
    assert st.to_json() == before
    # the limit is per turn: next turn the front takes 2 more
    st = scenario(catalog, hands={W: ["bf-light-tanks"]}, fronts={"C": {W: ["bf-major", "bf-mortars"]}},
                  turn=2)
    assert "C" in plays(st, "bf-light-tanks")


@pytest.mark.parametrize("there,same_type", [
    ("bf-major", "bf-captain"),                # 1 Leader
    ("bf-army-corps", "bf-guard-units"),       # 1 Infantry
    ("bf-level-bombers", "bf-fighter-bombers"),  # 1 Plane
    ("bf-light-tanks", "bf-heavy-tanks"),      # 1 Tank
    ("bf-mortars", "bf-howitzers"),            # 1 Artillery
    ("bf-outflank", "bf-hook-maneuver"),       # 1 Strategy
    ("bf-minefields", "bf-strongpoint"),       # 1 Fortification
])
def test_at_a_single_front_at_most_one_card_of_each_type(catalog, there, same_type):
    """ "At a single front, you may assign a maximum of: 1 Leader 1 Infantry 1 Plane 1 Tank 1 Artillery
    1 Strategy 1 Fortification" (the cards stay, so this holds across turns) """
    other_type = "bf-encirclement" if catalog.cards[there].type != "S" else "bf-colonel"
    st = scenario(catalog, hands={W: [same_type, other_type]},
                  fronts={"C": {W: [there], E: ["bf-commander"]}})
    assert "C" not in plays(st, same_type) and "R" in plays(st, same_type)
    assert "C" in plays(st, other_type)
    # the opponent's card of that type does not count against you
    st = scenario(catalog, hands={W: [same_type]}, fronts={"C": {E: [there]}})
    assert "C" in plays(st, same_type)


def test_some_cards_allow_an_extra_card_of_a_type_at_that_front(catalog):
    """ "Some cards allow you to play an extra card of a certain type at that Front." """
    st = scenario(catalog, hands={W: ["bf-heavy-tanks"]}, fronts={"C": {W: ["bf-tank-brigade"]},
                                                                 "R": {W: ["bf-light-tanks"]}})
    assert "C" in plays(st, "bf-heavy-tanks")      # Tank Brigade: "Play an Extra Tank" at C
    assert "R" not in plays(st, "bf-heavy-tanks")  # ... and only at that Front
    # a card of another type can allow it too: Mechanized Infantry (I) "Play an Extra Tank"
    st = scenario(catalog, hands={W: ["bf-heavy-tanks"]},
                  fronts={"CL": {W: ["bf-light-tanks", "bf-mechanized-infantry"]}})
    assert "CL" in plays(st, "bf-heavy-tanks")


def test_playing_a_scout_lets_you_look_at_your_opponents_hand(catalog):
    """ "If you play a Scout card, you may look at your opponent's hand." (only its owner sees it) """
    st = scenario(catalog, hands={W: ["bf-armored-cars", "bf-major"], E: ["bf-captain", "bf-mortars"]})
    events = bf.apply(st, bf.Play(W, "bf-armored-cars", "C"))
    shown = event(events, "scouted_hand")
    assert shown == {"seat": W, "cards": ["bf-captain", "bf-mortars"]}
    assert any(e.type == "scouted_hand" for e in bf.events_for(events, W))
    assert not any(e.type == "scouted_hand" for e in bf.events_for(events, E))
    assert bf.view(st, W)["me"]["scouted"] == ["bf-captain", "bf-mortars"]
    assert "bf-mortars" not in repr(bf.view(st, W)["opponent"])
    assert bf.view(st, E)["me"]["scouted"] is None
    # a card without the note shows nothing
    st = scenario(catalog, hands={W: ["bf-major"], E: ["bf-captain"]})
    assert not any(e.type.startswith("scouted") for e in bf.apply(st, bf.Play(W, "bf-major", "C")))


# ---- BATTLE PHASE ----------------------------------------------------------------------------------------
def test_each_card_has_a_force_value(catalog):
    """ "Each card has a Force value." """
    assert all(isinstance(c.force, int) and 1 <= c.force <= 10 for c in catalog.cards.values())


def test_add_up_your_force_value_for_each_front(catalog):
    """ "Add up your force value for each Front." """
    st = scenario(catalog, fronts={"C": {W: ["bf-major", "bf-mortars", "bf-light-tanks"], E: ["bf-captain"]},
                                   "R": {E: ["bf-colonel", "bf-howitzers"]}})
    events = end_deployment(st)
    battle = event(events, "battle")["fronts"]
    assert battle["C"]["force"] == {W: 5 + 1 + 2, E: 7}
    assert battle["R"]["force"] == {W: 0, E: 17}
    assert [f["force"] for f in bf.view(st, W)["fronts"] if f["front"] == "C"] == [{W: 8, E: 7}]


def test_higher_force_at_a_front_gains_a_victory_marker(catalog):
    """ "If you have a higher Force than your opponent at a Front you gain a Victory Marker (VM) for that
    Front. (Use coins for VM)" """
    st = scenario(catalog, fronts={"C": {W: ["bf-major"], E: ["bf-captain"]}, "R": {W: ["bf-colonel"]}})
    end_deployment(st)
    assert st.markers["C"] == {W: 0, E: 1}
    assert st.markers["R"] == {W: 1, E: 0}
    assert all(st.markers[f] == {W: 0, E: 0} for f in ("CR", "CL", "L"))  # 0 v 0: nobody is higher
    assert {f["front"]: f["markers"] for f in bf.view(st, E)["fronts"]}["C"] == {W: 0, E: 1}


def test_three_more_markers_than_the_opponent_at_a_front_captures_it(catalog):
    """ "If you ever have 3 more VP than your opponent at a Front, you Capture that Front." (markers count
    over the whole game) """
    st = scenario(catalog, fronts={"C": {W: ["bf-major"]}, "R": {W: ["bf-colonel"]},
                                   "CL": {E: ["bf-colonel"]}},
                  markers={"C": {W: 2, E: 0}, "R": {W: 3, E: 1}, "CL": {W: 3, E: 1}})
    events = end_deployment(st)
    assert st.captured["C"] == W          # 3 v 0
    assert st.captured["R"] == W          # 4 v 1
    assert st.captured["CL"] is None and st.markers["CL"] == {W: 3, E: 2}
    assert [e.data for e in events if e.type == "captured"] == [{"front": "R", "seat": W},
                                                                 {"front": "C", "seat": W}]
    assert bf.view(st, E)["opponent"]["captured"] == ["R", "C"]


def test_the_first_player_to_capture_3_fronts_wins(catalog):
    """ "The first player to capture 3 of the 5 Fronts wins the game." """
    st = scenario(catalog, hands={W: ["bf-mortars"], E: ["bf-light-tanks"]}, captured={"R": E, "CR": E},
                  markers={"C": {E: 2}}, fronts={"C": {E: ["bf-major"]}})
    end_deployment(st)
    assert st.status == "finished" and st.winner == E and st.decision is None
    with pytest.raises(bf.IllegalAction) as exc:
        bf.apply(st, bf.Pass(W))
    assert exc.value.code == "game_over"


def test_negated_cards_do_not_contribute_their_force(catalog):
    """ "Negated cards do not contribute their Force." (Tank Destroyers: "Opposing Tank Negated") """
    st = scenario(catalog, fronts={"C": {W: ["bf-tank-destroyers"], E: ["bf-heavy-tanks", "bf-major"]}})
    events = end_deployment(st)
    c = event(events, "battle")["fronts"]["C"]
    assert c["force"] == {W: 7, E: 5} and c["negated"] == {W: [], E: ["bf-heavy-tanks"]}
    assert st.markers["C"] == {W: 1, E: 0}


def test_no_more_cards_may_be_assigned_to_a_captured_front(catalog):
    """ "Once a Front is captured, no more cards may be assigned to it." """
    st = scenario(catalog, hands={W: ["bf-major"], E: ["bf-captain"]}, captured={"C": E})
    assert "C" not in plays(st, "bf-major") and len(plays(st, "bf-major")) == 4
    with pytest.raises(bf.IllegalAction):
        bf.apply(st, bf.Play(W, "bf-major", "C"))


def test_maximum_hand_size_8_discard_excess_at_end_of_turn(catalog):
    """ "Maximum hand size is 8 cards. Discard excess cards at end of turn." """
    hand = ["bf-mortars", "bf-major", "bf-captain", "bf-sergeant", "bf-colonel", "bf-commander",
            "bf-lieutenant", "bf-light-tanks", "bf-heavy-tanks", "bf-outflank"]
    st = scenario(catalog, hands={W: hand, E: ["bf-army-corps"]}, deck=["bf-minefields"])
    end_deployment(st)  # passes keep the 10 cards: at the end of the turn, discard 2
    assert st.turn == 1 and st.decision.kind == "discard" and st.decision.seat == W
    assert st.decision.prompt["excess"] == 2
    assert {a.card for a in bf.legal_actions(st)} == set(hand)
    bf.apply(st, bf.Discard(W, "bf-mortars"))
    assert st.decision.prompt["excess"] == 1
    events = bf.apply(st, bf.Discard(W, "bf-outflank"))
    assert st.turn == 2 and st.discards[W] == ["bf-mortars", "bf-outflank"]
    assert st.hands[W] == [c for c in hand if c not in ("bf-mortars", "bf-outflank")] + ["bf-minefields"]
    assert not any("bf-outflank" in repr(e.data) for e in bf.events_for(events, E))


# ---- CARD LIST NOTATION ---------------------------------------------------------------------------------
def test_card_list_notation(catalog):
    """ "CARD LIST NOTATION L = Leader I = Infantry P = Plane T = Tank A = Artillery S = Strategy
    F = Fortification" """
    assert bf.TYPES == ("L", "I", "P", "T", "A", "S", "F")
    assert Counter(c.type for c in catalog.cards.values()) == dict.fromkeys(bf.TYPES, 10)


# ---- OPTIONAL 2 FRONT VICTORY CONDITIONS ------------------------------------------------------------------
@pytest.mark.parametrize("held,last,kind", [
    ("C", "CR", "breakthrough"), ("C", "CL", "breakthrough"),   # "Center and CR or CL (Breakthrough Victory)"
    ("L", "CL", "outflank"), ("R", "CR", "outflank"),           # "L & CL or R & CR: (Outflank Victory)"
    ("L", "R", "envelopment"),                                  # "L & R: (Envelopment Victory)"
])
def test_optional_two_front_victory_conditions(catalog, held, last, kind):
    """ "OPTIONAL 2 FRONT VICTORY CONDITIONS You win if you Capture: ..." """
    def game(opts):
        st = scenario(catalog, options=opts, captured={held: W}, markers={last: {W: 2}},
                      fronts={last: {W: ["bf-major"]}})
        end_deployment(st)
        return st

    st = game(bf.Options(two_front_victory=True))
    assert st.status == "finished" and st.winner == W and st.result["kind"] == kind
    assert game(bf.Options()).status == "active"  # without the optional rule 2 fronts do not win


def test_two_fronts_that_are_no_printed_pair_do_not_win(catalog):
    """ the OPTIONAL 2 FRONT VICTORY CONDITIONS list only those pairs: CR & CL is none of them """
    st = scenario(catalog, options=bf.Options(two_front_victory=True), captured={"CR": W},
                  markers={"CL": {W: 2}}, fronts={"CL": {W: ["bf-major"]}})
    end_deployment(st)
    assert st.captured["CL"] == W and st.status == "active"


# ---- OPTIONAL BLITZKRIEG RULES -------------------------------------------------------------------------
def test_blitzkrieg_designates_attacker_and_defender(catalog):
    """ "Designate one player as the Attacker & the other as the Defender." """
    assert bf.Options(blitzkrieg_attacker=E).blitzkrieg_defender == W
    assert bf.Options().blitzkrieg_defender is None


def test_blitzkrieg_attacker_cannot_use_fortification_cards(catalog):
    """ "The Attacker cannot use Fortification cards." """
    hands = {W: ["bf-minefields", "bf-level-bombers"], E: ["bf-strongpoint", "bf-dive-bombers"]}
    st = scenario(catalog, hands=hands, options=bf.Options(blitzkrieg_attacker=W))
    assert plays(st, "bf-minefields") == set() and plays(st, "bf-level-bombers") == set(bf.FRONTS)
    with pytest.raises(bf.IllegalAction):
        bf.apply(st, bf.Play(W, "bf-minefields", "C"))


def test_blitzkrieg_defender_cannot_use_plane_cards(catalog):
    """ "The Defender cannot use Plane cards." """
    hands = {W: ["bf-minefields"], E: ["bf-strongpoint", "bf-dive-bombers"]}
    st = scenario(catalog, hands=hands, options=bf.Options(blitzkrieg_attacker=W), seat=E)
    assert plays(st, "bf-dive-bombers") == set() and plays(st, "bf-strongpoint") == set(bf.FRONTS)
    # without the optional rule both are playable
    st = scenario(catalog, hands=hands, seat=E)
    assert plays(st, "bf-dive-bombers") == set(bf.FRONTS)


# ---- OPTIONAL SPECIAL CARDS RULES ----------------------------------------------------------------------
SPECIALS = bf.Options(special_cards={W: "DE", E: "US"})


def test_special_cards_include_5_special_cards_in_the_deck(catalog):
    """ "Include 5 "Special" cards in the deck (Type = X)" """
    st = bf.new_game(catalog, bf.GameSetup(1, SPECIALS))
    assert len(st.all_cards()) == 75
    assert {c for c in st.all_cards() if catalog.card(c).type == "X"} == set(catalog.special_cards)
    assert len(catalog.special_cards) == 5


def test_each_player_chooses_a_nationality(catalog):
    """ "Each player choses a Nationality:" (both seats, one of the five printed) """
    v = bf.view(bf.new_game(catalog, bf.GameSetup(1, SPECIALS)), W)
    assert v["me"]["nationality"] == "DE" and v["opponent"]["nationality"] == "US"
    with pytest.raises(bf.SetupError):
        bf.Options(special_cards={W: "DE"})


def _special_plays(catalog, nat, seat=W):
    opts = bf.Options(special_cards={W: nat, E: nat})
    st = scenario(catalog, hands={W: ["bf-special-1"], E: ["bf-special-2"]}, options=opts, seat=seat)
    return st, {(k[0], k[3] if k[0] == "play" else None, k[-1]) for k in bf.legal_keys(st) if k[0] != "pass"}


def test_germans_panzer_tanks(catalog):
    """ "*Germans can use Special Cards as: Panzer Tanks (T) Force = 10" """
    st, ks = _special_plays(catalog, "DE")
    assert ks == {("play", f, "panzer-tanks") for f in bf.FRONTS}
    bf.apply(st, bf.Play(W, "bf-special-1", "C", "panzer-tanks"))
    front = next(f for f in bf.view(st, E)["fronts"] if f["front"] == "C")
    assert front["cards"][W] == [{"code": "bf-special-1", "type": "T", "force": 10, "negated": False,
                                  "use": "panzer-tanks"}]
    assert front["force"][W] == 10
    st.hands[W].append("bf-light-tanks")  # it is the Tank at C: no second tank there
    bf.apply(st, bf.Pass(E))
    assert "C" not in plays(st, "bf-light-tanks")


def test_russians_human_wave_or_manpower(catalog):
    """ "*Russians can use Special Cards as: Human Wave (S) Force = 2 & play an extra Infantry or Manpower (I)
    Force = 8" """
    st, ks = _special_plays(catalog, "RU")
    assert {k[2] for k in ks} == {"human-wave", "manpower"} and len(ks) == 10
    st = scenario(catalog, hands={W: ["bf-rifle-brigade"]},
                  fronts={"C": {W: ["bf-special-1", "bf-army-corps"]}},
                  uses={"bf-special-1": "human-wave"}, options=bf.Options(special_cards={W: "RU", E: "DE"}))
    assert "C" in plays(st, "bf-rifle-brigade")  # the extra Infantry
    assert bf.front_forces(st, "C")[0][W] == 2 + 2
    st = scenario(catalog, fronts={"C": {W: ["bf-special-1"]}}, uses={"bf-special-1": "manpower"},
                  options=bf.Options(special_cards={W: "RU", E: "DE"}))
    assert bf.front_forces(st, "C")[0][W] == 8


def test_americans_industrial_giant_discard_and_draw_2(catalog):
    """ "*Americans can use Special Cards as: Industrial Giant: Discard & draw 2 cards" """
    st, ks = _special_plays(catalog, "US")
    assert ks == {("play_special", None, "industrial-giant")}
    st = scenario(catalog, hands={W: ["bf-special-1"], E: ["bf-major"]},
                  deck=["bf-mortars", "bf-howitzers", "bf-colonel"],
                  options=bf.Options(special_cards={W: "US", E: "US"}))
    events = bf.apply(st, bf.PlaySpecial(W, "bf-special-1", "industrial-giant"))
    assert st.discards[W] == ["bf-special-1"] and st.hands[W] == ["bf-colonel", "bf-howitzers"]
    assert st.deck == ["bf-mortars"] and st.decision.seat == E
    assert event(events, "special_used") == {"seat": W, "card": "bf-special-1", "use": "industrial-giant",
                                             "drew": 2}
    assert not any("bf-colonel" in repr(e.data) for e in bf.events_for(events, E))


def test_british_intelligence(catalog):
    """ "*British can use Special Cards as: Intelligence (L) Force = 7 & Scout & play an extra Leader" """
    st, ks = _special_plays(catalog, "GB")
    assert ks == {("play", f, "intelligence") for f in bf.FRONTS}
    st = scenario(catalog, hands={W: ["bf-special-1", "bf-major"], E: ["bf-captain"]},
                  options=bf.Options(special_cards={W: "GB", E: "DE"}))
    events = bf.apply(st, bf.Play(W, "bf-special-1", "C", "intelligence"))
    assert event(events, "scouted_hand")["cards"] == ["bf-captain"]   # Scout
    bf.apply(st, bf.Pass(E))
    assert "C" in plays(st, "bf-major")                               # an extra Leader
    assert bf.front_forces(st, "C")[0][W] == 7


def test_japanese_bonzai_charge_or_underground_complexes(catalog):
    """ "*Japanese can use Special Cards as: Bonzai Charge (S) Force = 2 & play an extra Infantry or
    Underground Complexes (F) Force = 8" """
    st, ks = _special_plays(catalog, "JP")
    assert {k[2] for k in ks} == {"bonzai-charge", "underground-complexes"}
    st = scenario(catalog, fronts={"C": {W: ["bf-special-1"]}, "R": {W: ["bf-special-2"]}},
                  uses={"bf-special-1": "bonzai-charge", "bf-special-2": "underground-complexes"},
                  options=bf.Options(special_cards={W: "JP", E: "DE"}))
    assert bf.front_forces(st, "C")[0][W] == 2 and bf.front_forces(st, "R")[0][W] == 8
