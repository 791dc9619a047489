"""Issue 12: the five places where the engine departed from the FAQ rulings, and the readings decided.

Each test quotes the ruling it enforces (the rulebook and FAQ v1.6 are the law); the estimated readings are
listed in games/engine/README.md's ruling table.
"""

from __future__ import annotations

from games.engine import (
    GameState,
    HeuristicBot,
    Options,
    apply,
    events_for,
    legal_actions,
    load_scenario,
    view,
)
from games.engine.battlecards.actions import Choose
from games.engine.battlecards.combat.stalemate import can_hit
from games.engine.battlecards.inspect import battle_frame

from .helpers import CAT, battle, do, fight, kinds, legal_json, load, numbers, one, scenario
from .test_faq import has, hold_until


def units(st, seat):
    """The codes of a side's units in the battle in progress."""
    return [st.code[c] for c in battle(st).units[seat]]


# ---- FAQ S6 and its NOTE: an aggressor's submarine ------------------------------------------------------
def test_faq_s6_an_aggressors_submarine_cannot_be_targeted_before_it_fires():
    """FAQ S6: "If the submarine is the aggressor, it may fire and retreat from battle without fear of enemy
    reprisal ... NOTE: Some people have misinterpreted the submarine special to mean that enemy subs and
    destroyers can fire at it before it fires even if the submarine in question is the aggressor. This is
    not the case." """
    st = load(
        axis={"stacks": {"sea": ["de-sub", "de-carrier"]}},
        allies={"stacks": {"sea": ["gb-destroyer", "gb-sub"]}},
        drawn="t-naval",  # the Germans are the aggressor
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 2, "allies")  # the German sub held its fire in phase 2: it has not fired
    sub = one(st, "de-sub")
    assert sub not in battle(st).fired
    assert not has(st, "fire", unit=one(st, "gb-destroyer"), target=sub)
    assert not has(st, "fire", unit=one(st, "gb-sub"), target=sub)
    assert has(st, "fire", unit=one(st, "gb-destroyer"), target=one(st, "de-carrier"))


def test_faq_s6_the_defenders_submarine_stays_a_target_for_destroyers_and_subs():
    """FAQ S6: "However, if the enemy is the aggressor, the submarine is vulnerable to sub and destroyer
    attacks." """
    st = load(
        axis={"stacks": {"sea": ["de-destroyer"]}},
        allies={"stacks": {"sea": ["gb-sub"]}},
        drawn="t-naval",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 2, "axis")
    assert has(st, "fire", unit=one(st, "de-destroyer"), target=one(st, "gb-sub"))


def test_faq_s6_the_stalemate_check_leaves_an_aggressors_hidden_submarine_out_of_reach():
    """FAQ S6 NOTE: the aggressor's submarine is "immune to enemy fire ... until it fires"; the STALEMATE
    check ("If none of the units remaining on either side in a battle can hit the enemy") must agree."""
    st = load(
        axis={"stacks": {"sea": ["de-sub"]}},
        allies={"stacks": {"sea": ["gb-destroyer"]}},
        drawn="t-naval",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    fr = battle(st)
    assert not can_hit(st, fr, "allies")  # the destroyer cannot reach the German sub before it fires
    assert can_hit(st, fr, "axis")


# ---- FAQ C7: Baltic Sea / Battle of Britain in a counterattack -----------------------------------------
def _counter(axis, allies, seat):
    st = load(axis=axis, allies=allies, seat=seat)
    kept = one(st, "t-counterattack")
    held = st.team("allies" if seat == "axis" else "axis")["won"][0]
    do(st, "play_card", card=kept, target=held)
    while kinds(st) == "commit_optional":
        do(st, "choose", option="include")
    return st


def test_faq_c7_baltic_artillery_belongs_to_the_germans_even_when_they_counterattack():
    """FAQ C7: "it would not be possible for the Allies to get barrage cover into the Baltic Sea, so no, you
    can't use your captured 128 in the Battle of the Baltic sea" -- the right belongs to the nation the
    card names (German artillery), whichever side is the aggressor."""
    st = _counter(
        axis={"stacks": {"ground": ["de-art"], "sea": ["de-destroyer"]}, "kept": ["t-counterattack"]},
        allies={"stacks": {"ground": ["gb-art"], "sea": ["gb-destroyer"]}, "won": ["t-baltic"]},
        seat="axis",
    )
    assert battle(st).aggressor == "axis" and battle(st).counter
    assert sorted(units(st, "axis")) == ["de-art", "de-destroyer"]
    assert units(st, "allies") == ["gb-destroyer"]  # no barrage cover for the Allies in the Baltic


def test_faq_c7_battle_of_britain_aa_belongs_to_the_british_even_when_they_counterattack():
    """FAQ C7: "The Germans can't use captured British AA guns in that battle either, but the British are
    more than welcome to defend their skies with any AA guns in their ground stack." """
    st = _counter(
        axis={"stacks": {"ground": ["de-flak"], "air": ["de-fighter"]}, "won": ["t-britain"]},
        allies={"stacks": {"ground": ["gb-flak"], "air": ["gb-fighter"]}, "kept": ["t-counterattack"]},
        seat="allies",
    )
    assert battle(st).aggressor == "allies" and battle(st).counter
    assert sorted(units(st, "allies")) == ["gb-fighter", "gb-flak"]
    assert units(st, "axis") == ["de-fighter"]


# ---- FAQ C2, C3, C4: Reorganize Forces without a reserve hand --------------------------------------------
def test_faq_c2_c4_reorganize_without_a_reserve_hand_may_pull_cards_and_redeploy_them():
    """FAQ C2: "If you get the reorganize forces card, you may pull cards from the weak stack, into your
    hand, and redeploy them into your strong stack, in effect 'undividing' the forces." C4: "As long as you
    end up with the same number of arsenal cards in your hand as you started you can continually move stuff
    through your hand." An empty hand (0 cards) is such a start: pull, then redeploy."""
    st = load(
        axis={"hand": [], "deck": ["de-sub"] * 5, "stacks": {"ground": [["de-tank"], ["de-tiger"]]}},
        deck=["t-reorganize-forces"],
    )
    do(st, "draw")
    assert {a["option"] for a in legal_json(st)} == {"draw", "swap"}  # C3: either/or, never both
    do(st, "choose", option="swap")
    assert has(st, "pass")  # nothing moved yet: the hand is at its starting size (0)
    tiger = one(st, "de-tiger")
    do(st, "retrieve", card=tiger)
    assert not has(st, "pass")  # the hand must end with as many cards as it started with: none
    do(st, "deploy", card=tiger, stack="ground:0")
    do(st, "pass")
    assert [sorted(st.code[c] for c in s) for s in st.players["axis"]["stacks"]["ground"]] == [
        ["de-tank", "de-tiger"]
    ]
    assert st.players["axis"]["hand"] == [] and len(st.arsenal("axis")["deck"]) == 5  # no card drawn


def test_faq_c3_reorganize_without_a_reserve_hand_may_still_draw_three():
    """FAQ C3: "You may only draw 3 new cards if you have no reserve hand ... you may not draw cards AND swap
    cards with your deployed forces. It is clearly stated as an either/or proposition." """
    st = load(axis={"hand": [], "deck": ["de-sub"] * 5, "stacks": {"ground": ["de-tank"]}},
              deck=["t-reorganize-forces"])
    do(st, "draw")
    do(st, "choose", option="draw")
    assert [st.code[c] for c in st.players["axis"]["hand"]] == ["de-sub"] * 3
    assert kinds(st) == "turn_start" and st.decision.seat == "allies"  # no swap after the draw


# ---- STALEMATE: no round limit ------------------------------------------------------------------------
def _missing_battle(**options):
    """Two tanks that can hit each other (so no stalemate) but every action number misses."""
    sc = scenario(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={"stacks": {"ground": ["gb-tank"]}},
        drawn="t-ground",
        deck=numbers(*([1] * 20)),
    )
    sc["options"] = options
    st = load_scenario(CAT, sc)
    fight(st)
    return st


def _play_rounds(st, rounds):
    while st.status == "active" and battle_frame(st) is not None and battle(st).round <= rounds:
        legal = legal_json(st)
        choice = next((a for a in legal if a["type"] == "fire"), None) or next(
            a for a in legal if a["type"] in ("pass", "hold"))
        do(st, choice["type"], **{k: v for k, v in choice.items() if k not in ("type", "seat")})


def test_stalemate_rule_a_battle_has_no_round_limit():
    """Rulebook: "A battle ends when all of the involved forces on one side have been destroyed or
    withdrawn"; STALEMATE only "If none of the units remaining on either side in a battle can hit the enemy
    regardless of what action number is pulled". Units that can hit keep fighting: 40 rounds and on."""
    assert Options().max_battle_rounds is None
    st = _missing_battle()
    _play_rounds(st, 40)
    fr = battle(st)
    assert fr.round == 41 and fr.winner is None and st.team("axis")["won"] == []


def test_the_round_cap_is_an_explicit_self_play_option_and_counted():
    """Options.max_battle_rounds (self-play and simulations only) settles a battle still running after that
    many rounds as a stalemate, and the result counts how often it did."""
    st = _missing_battle(max_battle_rounds=3)
    events = []
    while battle_frame(st) is not None:
        legal = legal_json(st)
        choice = next((a for a in legal if a["type"] == "fire"), None) or next(
            a for a in legal if a["type"] in ("pass", "hold"))
        events += do(st, choice["type"], **{k: v for k, v in choice.items() if k not in ("type", "seat")})
    stalemate = next(e for e in events if e.type == "stalemate")
    assert stalemate.data == {"round": 4, "round_cap": True}
    assert [st.code[c] for c in st.team("allies")["won"]] == ["t-ground"]  # the defender wins
    assert st.round_cap_battles == 1
    assert GameState.from_json(st.to_json(), CAT).round_cap_battles == 1


def test_heuristic_aggressor_withdraws_from_a_long_battle_so_bot_games_end():
    """Rulebook: "When none of your units in a given battle can hit any of the opponent's units ... it is
    wise to withdraw forces": the heuristic bot pulls out of a battle still running at round 20, which is
    what makes every battle with a heuristic seat end without a round cap."""
    st = _missing_battle()
    _play_rounds(st, 19)
    bot = HeuristicBot(CAT)
    for _ in range(500):
        if battle_frame(st) is None:
            break
        seat = st.decision.seat
        apply(st, bot.choose(view(st, seat), legal_actions(st), seat))
    assert battle_frame(st) is None
    assert [st.code[c] for c in st.team("allies")["won"]] == ["t-ground"]


# ---- Divide & Conquer: which of a side's stacks of a called kind fight (FAQ G5, C1, C2, C4) --------------
def _divided(**kw):
    st = load(
        axis={"stacks": {"ground": [["de-tank"], ["de-tiger", "de-inf"]]}},
        allies={"stacks": {"ground": [["gb-tank"], ["gb-inf", "gb-leader"]]}, "deck": ["gb-art"]},
        drawn="t-ground",
        **kw,
    )
    do(st, "choose", option="fight")
    return st


def test_faq_c2_a_divided_side_fights_with_one_stack_of_each_called_kind_of_its_choice():
    """FAQ C2: "The Divide and Conquer card permanently creates 2 stacks out of 1. These are forevermore
    treated as separate stacks ... you can ignore the 'weak' stack and only deploy to the 'strong' stack".
    Estimated reading: a battle calling a kind is fought by ONE stack of that kind, which its owner chooses
    when the forces are revealed."""
    st = _divided()
    assert kinds(st) == "battle_stack" and st.decision.seat == "axis"
    assert {a["stack"] for a in legal_json(st)} == {"ground:0", "ground:1"}
    do(st, "choose", option="stack", stack="ground:1")
    assert kinds(st) == "battle_stack" and st.decision.seat == "allies"
    do(st, "choose", option="stack", stack="ground:0")
    fr = battle(st)
    assert sorted(st.code[c] for c in fr.present["axis"]) == ["de-inf", "de-tiger"]  # not the weak stack
    assert [st.code[c] for c in fr.present["allies"]] == ["gb-tank"]


def test_faq_c2_the_stack_choice_is_secret_until_both_sides_chose():
    """The choice is made when the forces are revealed, secretly: the defender chooses without seeing the
    aggressor's choice (no event, view or legal action shows it before both chose)."""
    st = _divided()
    other = _divided()
    events = do(st, "choose", option="stack", stack="ground:1")
    do(other, "choose", option="stack", stack="ground:0")
    assert events_for(events, "allies") == []  # the axis choice is private
    # the British see exactly the same whichever stack the Germans chose
    assert view(st, "allies") == view(other, "allies") and legal_json(st) == legal_json(other)
    assert view(st, "allies")["battle"]["stage"] == "stacks" and "sides" not in view(st, "allies")["battle"]
    events = do(st, "choose", option="stack", stack="ground:1")
    shown = [e for e in events_for(events, "allies") if e.type == "battle_stacks"]
    both = {"axis": {"ground": "ground:1"}, "allies": {"ground": "ground:1"}}
    assert shown and shown[0].data["stacks"] == both


def test_faq_g5_a_leader_in_the_stack_left_out_still_draws_for_the_battle():
    """FAQ G5: "A deployed leader ALWAYS affects the battle involving any of his stacks. Since this is the
    case, more often than not, he will be placed in the weaker stack to make room for a more powerful combat
    unit in the strong stack." """
    st = _divided()
    do(st, "choose", option="stack", stack="ground:1")
    events = do(st, "choose", option="stack", stack="ground:0")  # the British leader is in the stack left out
    assert "leader_draw" in [e.type for e in events]
    assert one(st, "gb-leader") not in battle(st).present["allies"]
    art = one(st, "gb-art")
    assert kinds(st) == "deploy" and art in st.players["allies"]["hand"]
    do(st, "deploy", card=art, stack="ground:0")  # into the stack that fights: it joins the battle
    assert art in battle(st).units["allies"]


def test_the_heuristic_bot_fights_with_its_strongest_divided_stack():
    st = _divided()
    bot = HeuristicBot(CAT)
    action = bot.choose(view(st, "axis"), legal_actions(st), "axis")
    assert action == Choose("axis", "stack", stack="ground:1")  # Tiger and infantry, not the lone tank


# ---- Secret initial deployment ("Secretly look at your hands, and Deploy 3") ------------------------------
def _setup_game(first_choices):
    """A real starter game; the Germans deploy their set-up cards by the given rule, then it is the British
    decision."""
    from games.engine import new_game, starter_setup

    cat = _real()
    st = new_game(cat, starter_setup(cat, 12))
    events = []
    while st.decision.seat == "axis":
        legal = legal_actions(st)
        events += apply(st, first_choices(legal))
    return st, events


_CATALOG = []


def _real():
    from games.engine import load_catalog_dir

    if not _CATALOG:
        _CATALOG.append(load_catalog_dir())
    return _CATALOG[0]


def test_setup_deployment_is_secret_until_both_seats_have_deployed():
    """Rulebook, TO SET UP THE GAME: "Secretly look at your hands, and 'Deploy' 3 of your 6 cards."
    Estimated reading: the set-up deployment is simultaneous -- the second seat decides without seeing
    anything of the first seat's choices (views, events and legal actions are the same whatever the first
    seat deployed)."""
    a, a_events = _setup_game(lambda legal: legal[0])
    b, b_events = _setup_game(lambda legal: legal[-1])
    assert a.decision.kind == b.decision.kind == "initial_deploy" and a.decision.seat == "allies"
    assert a.players["axis"]["stacks"] != b.players["axis"]["stacks"]  # the Germans chose differently
    assert view(a, "allies") == view(b, "allies")
    assert legal_actions(a) == legal_actions(b)
    assert events_for(a_events, "allies") == events_for(b_events, "allies") == []
    opponent = view(a, "allies")["opponent"]
    assert opponent["hand_size"] == 6 and opponent["stacks"] == {"ground": [0], "air": [0], "sea": [0]}


def test_setup_stacks_are_revealed_together_once_both_seats_deployed():
    st, _ = _setup_game(lambda legal: legal[0])
    events = []
    while st.decision.kind == "initial_deploy":
        events += apply(st, legal_actions(st)[0])
    revealed = [e for e in events_for(events, "axis") if e.type == "setup_revealed"]
    assert revealed and revealed[0].data["stacks"]["axis"] == {
        k: [len(s) for s in st.players["axis"]["stacks"][k]] for k in ("ground", "air", "sea")}
    assert sum(sum(v) for v in view(st, "allies")["opponent"]["stacks"].values()) == 3
    assert view(st, "allies")["opponent"]["hand_size"] == 3


# ---- FAQ C18: "You may play the appropriate card to destroy the complex at any time" -----------------------
def test_faq_c18_the_industrial_complex_may_be_struck_in_a_battle_of_the_opponents_turn():
    """FAQ C18: "When getting rid of this card (through use of an Industrial Strike, Air Raid, or Sabotage)
    is the card used to destroy the Industrial Complex played in lieu of drawing an event card? A: No. You
    may play the appropriate card to destroy the complex at any time." Estimated reading: at the start of
    the holder's own turn (before drawing) AND in every battle-round window, whoever's turn it is."""
    plays = (("t-industrial-strike", None), ("t-sabotage", "industry"), ("t-air-raid", "industry"))
    for kept, option in plays:
        st = load(
            axis={"stacks": {"ground": ["de-tank"]}, "industry": ["t-industrial-complex"]},
            allies={"stacks": {"ground": ["gb-tank"]}, "kept": [kept]},
            drawn="t-ground",  # the Germans' turn
        )
        fight(st)
        assert kinds(st) == "battle_window" and st.decision.seat == "allies"
        card = one(st, kept)
        assert has(st, "play_card", card=card, option=option)
        do(st, "play_card", card=card, **({"option": option} if option else {}))
        assert st.players["axis"]["industry"] == [] and card in st.conflict_discard


def test_faq_c18_only_the_industry_plays_open_in_a_battle_window():
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={"stacks": {"ground": ["gb-tank"]}, "kept": ["t-sabotage", "t-industrial-strike"]},
        drawn="t-ground",
    )
    fight(st)
    assert kinds(st) == "battle_window"
    assert [a["type"] for a in legal_json(st)] == ["pass"]  # no enemy complex: nothing to strike


# ---- GU3 unmet: no non-artillery ground unit to begin a ground battle (reading kept) ----------------------
def test_faq_gu3_an_aggressor_without_a_non_artillery_ground_unit_loses_the_battle_he_chose_to_fight():
    """FAQ GU3: "just because a battle requires a non-artillery ground unit to begin, the attacker does not
    have to have one left to win it". Kept reading: the requirement qualifies the forces the battlecard
    calls for, so an aggressor without one "has none of the deployed forces indicated on the BATTLECARD,
    the other player wins that battle" (rulebook, FIGHTING A BATTLE). The "discards the BATTLECARD and loses
    his turn" outcome stays his own choice: Rule 1.1 lets him decline "prior to players exposing their
    deployed forces", and he knows his own stacks."""
    st = load(
        axis={"stacks": {"ground": ["de-art"], "air": ["de-fighter"]}},
        allies={"stacks": {"ground": ["gb-tank"]}},
        drawn="t-invasion",
    )
    assert {a["option"] for a in legal_json(st)} == {"fight", "decline"}
    fight(st)
    assert [st.code[c] for c in st.team("allies")["won"]] == ["t-invasion"]
    assert st.vp("allies") == 6 and st.players["axis"]["stacks"]["ground"][0]  # nothing was destroyed


# ---- The end of the game (reading kept: all battles held, else the turn limit) -----------------------------
def test_the_game_ends_on_points_when_every_battle_has_been_fought():
    """Rulebook: "The BATTLECARD LIST tells each player what battles are contained in the CONFLICT deck, so
    they will know when all of the battles have been fought" and the objective is "the most victory points"
    at the end: once every battlecard is held the game ends on points."""
    st = load(
        axis={"stacks": {"ground": ["de-tank"]}, "won": ["t-land"]},
        allies={"stacks": {"ground": ["gb-inf"]}},
        drawn="t-ground",
        deck=numbers(*([5] * 20)),  # the tank (7) hits the infantry (3) at once
        victory_threshold=38,  # as in the Western Europe deck: 11 points are no standard victory
    )
    fight(st)
    for _ in range(100):
        if st.status != "active" or battle_frame(st) is None:
            break
        legal = legal_json(st)
        choice = next((a for a in legal if a["type"] == "fire"), None) or next(
            a for a in legal if a["type"] in ("pass", "hold"))
        do(st, choice["type"], **{k: v for k, v in choice.items() if k not in ("type", "seat")})
    assert st.status == "finished" and st.result["kind"] == "all-battles-decided"


def test_a_game_whose_last_battle_can_never_be_fought_ends_on_points_at_the_turn_limit():
    """A declined battle or one with unmet prerequisites is discarded ("the Drawing Player discards the
    BATTLECARD and loses his turn") and comes back when the conflict deck is reshuffled, so the rules
    never end such a game; the engine ends it on points at Options.max_turns (400 by default, estimated)."""
    sc = scenario(
        axis={"stacks": {"ground": ["de-tank"]}},
        allies={"stacks": {"ground": ["gb-tank"]}, "won": ["t-invasion"]},
        deck=["t-followup"] + numbers(*([5] * 5)),  # needs the Germans to hold t-invasion: never met
    )
    sc["options"] = {"max_turns": 20}
    st = load_scenario(CAT, sc)
    for _ in range(200):
        if st.status != "active":
            break
        legal = legal_json(st)
        choice = next((a for a in legal if a["type"] == "draw"), None) or legal[0]
        do(st, choice["type"], **{k: v for k, v in choice.items() if k not in ("type", "seat")})
    assert st.status == "finished" and st.result["kind"] == "turn-limit" and st.winner == "allies"
