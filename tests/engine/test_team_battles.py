"""Team and combined games (FAQ Optional Rules 3 and 4): homeland battles ("Invasion of Britain", "Battle for
Germany" ...) are fought by every alive army of both sides (engine README, estimated rulings, "Team play and
combined sets: homeland battles"). Real catalog, no database."""

from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st_

from games.engine import (
    GameState,
    HeuristicBot,
    Options,
    RandomBot,
    apply,
    events_for,
    legal_actions,
    load_catalog_dir,
    new_game,
    replay,
    team_setup,
    view,
)
from games.engine.battlecards.actions import Autokill, Choose, EmergencyDeploy, Fire, Pass
from games.engine.battlecards.battle_frames import join_armies, new_battle
from games.engine.battlecards.combat.casualties import destroy_unit
from games.engine.battlecards.frames import BATTLE
from games.engine.battlecards.inspect import armies_in_battle, battle_frame, current_values, fresh_values
from games.engine.battlecards.machine import advance
from tests.engine.helpers import card_zones as zones
from tests.engine.helpers import json_strings
from vocabulary.battlecards import KINDS

CAT = load_catalog_dir()
SETTINGS = settings(max_examples=int(os.environ.get("ENGINE_EXAMPLES", "10")), deadline=None)


# ---- building a game by hand -----------------------------------------------------------------------------
def ready(axis: list[str], allies: list[str], seed: int = 5, options: Options | None = None) -> GameState:
    """A team game past the set-up deployment (each army deploys its first options), at axis-1's turn 1."""
    st = new_game(CAT, team_setup(CAT, seed, axis=axis, allies=allies, options=options or Options()))
    while st.decision.kind == "initial_deploy":
        apply(st, legal_actions(st)[0])
    assert st.decision.kind == "turn_start" and st.decision.seat == "axis-1"
    return st


def top_of_conflict_deck(st: GameState, code: str) -> str:
    cid = next(c for c in st.conflict_deck + st.conflict_discard if st.code[c] == code)
    (st.conflict_deck if cid in st.conflict_deck else st.conflict_discard).remove(cid)
    st.conflict_deck.append(cid)  # drawn next (pop)
    st.drop_caches()
    return cid


def deploy_from_pool(st: GameState, army: str, code: str, stack: int = 0) -> str:
    """Move a card of `code` from the army's arsenal (deck, discard) or hand into its stack kind:`stack`."""
    pool = st.arsenal(army)
    zones = (pool["deck"], pool["discard"], st.players[army]["hand"])
    cid = next(c for z in zones for c in z if st.code[c] == code)
    next(z for z in zones if cid in z).remove(cid)
    st.players[army]["stacks"][st.defs[cid].kind][stack].append(cid)
    st.drop_caches()
    return cid


def undeploy(st: GameState, army: str) -> None:
    """Every deployed card and the reserve hand of `army` back to its arsenal deck (no forces, no hand)."""
    p = st.players[army]
    for k in KINDS:
        for s in p["stacks"][k]:
            st.arsenal(army)["deck"].extend(s)
        p["stacks"][k] = [[]]
    st.arsenal(army)["deck"].extend(p["hand"])
    p["hand"] = []
    st.drop_caches()


def deployed(st: GameState, army: str) -> set[str]:
    p = st.players[army]
    return {c for k in KINDS for s in p["stacks"][k] for c in s} | {
        c for s in p["occupied"].values() for c in s}


def fighter(st: GameState):
    """A simple policy: fire whenever possible, never withdraw, otherwise the first legal action."""
    legal = legal_actions(st)
    if st.decision.kind == "fire":
        for a in legal:
            if isinstance(a, (Fire, Autokill)):
                return a
    return legal[0]


def draw_homeland(st: GameState, code: str, *, emergency: bool = True) -> list:
    """axis-1 draws the battlecard `code` and fights it; the invaded armies' emergency deployments are
    answered by `emergency`. Returns the events up to the first decision of the battle proper."""
    top_of_conflict_deck(st, code)
    events = list(apply(st, legal_actions(st)[0]))  # draw
    assert st.decision.kind == "fight_or_decline"
    events += apply(st, Choose(st.decision.seat, "fight"))
    if st.decision.kind == "battlecard_response":  # the defender holds kept cards: plays none
        events += apply(st, Pass(st.decision.seat))
    while st.decision.kind == "emergency_deploy":
        seat = st.decision.seat
        events += apply(st, EmergencyDeploy(seat) if emergency else Pass(seat))
        while st.decision.kind == "deploy" and st.decision.prompt["reason"] == "emergency":
            events += apply(st, legal_actions(st)[0])
    return events


def finish_battle(st: GameState) -> list:
    events = []
    while st.decision is not None and battle_frame(st) is not None:
        events += apply(st, fighter(st))
    return events


# ---- a 2v2 Western Europe homeland battle ----------------------------------------------------------------
def test_invasion_of_britain_2v2_every_army_of_both_sides_fights_and_casualties_leave_the_right_army():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=5)
    events = draw_homeland(st, "we-invasion-of-britain")
    fr = battle_frame(st)
    assert fr.aggressor == "axis-1" and fr.defender == "allies-1"
    assert fr.joined == {"axis-1": ["axis-2"], "allies-1": ["allies-2"]}
    origin = armies_in_battle(st, fr)
    # every army's deployed ground, air and sea stacks (the card calls all three) fight in its side
    for commander, armies in (("axis-1", ("axis-1", "axis-2")), ("allies-1", ("allies-1", "allies-2"))):
        assert set(fr.present[commander]) == set().union(*(deployed(st, a) for a in armies))
        assert {origin[c] for c in fr.units[commander]} == set(armies)
    revealed = next(e for e in events if e.type == "battle_revealed").data
    assert revealed["joined"] == {"axis-1": ["axis-2"], "allies-1": ["allies-2"]}
    assert revealed["armies"] == {c: origin[c] for s in fr.units for c in fr.present[s]}
    # the battle view names each unit's army, for every seat (a joined army follows the battle too)
    for seat in st.armies:
        b = view(st, seat)["battle"]
        assert b["armies"] == {"axis-1": ["axis-1", "axis-2"], "allies-1": ["allies-1", "allies-2"]}
        assert {u["id"]: u["army"] for s in b["sides"].values() for u in s["units"]} == {
            c: origin[c] for s in fr.units for c in fr.present[s]}
    # the commanders make every decision of the fight
    asked = set()
    events = []
    while battle_frame(st) is not None:
        if st.decision.kind in ("fire", "withdraw", "defend", "retarget", "battle_window"):
            asked.add(st.decision.seat)
        events += apply(st, fighter(st))
    assert asked <= {"axis-1", "allies-1"}
    destroyed = [e.data for e in events if e.type == "destroyed"]
    assert {d["army"] for d in destroyed} == {"axis-1", "axis-2", "allies-1", "allies-2"}
    for d in destroyed:
        assert d["army"] == origin[d["card"]]
        assert d["seat"] == ("axis-1" if d["army"].startswith("axis") else "allies-1")
        assert all(d["card"] not in deployed(st, a) for a in st.armies)  # left its army's stacks
        assert d["card"] in st.pool_of(d["card"])["discard"]  # C5: its owner's discard
    gone = {d["card"] for d in destroyed}
    for c, army in origin.items():  # the survivors stay in their own army's stacks
        if c not in gone:
            assert c in deployed(st, army)
    z = zones(st)
    assert max(z.values()) == 1 and set(z) == set(st.code)


def test_a_battle_that_is_no_homeland_is_fought_by_two_armies_only():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=5)
    top_of_conflict_deck(st, "we-invasion-of-france-belgium")
    apply(st, legal_actions(st)[0])
    apply(st, Choose("axis-1", "fight"))
    assert st.decision.kind == "choose_enemy_army"
    apply(st, Choose("axis-1", "allies-2"))
    fr = battle_frame(st)
    assert fr.joined is None and not fr.all_armies
    assert set(fr.units) == {"axis-1", "allies-2"}
    origin = armies_in_battle(st, fr)
    assert set(origin.values()) == {"axis-1", "allies-2"}
    assert set(fr.present["axis-1"]) <= deployed(st, "axis-1")


def test_a_destroyed_teammate_unit_leaves_its_own_army_and_goes_to_its_nations_discard():
    st = ready(["DE", "JP"], ["GB", "US"], seed=3)
    draw_homeland(st, "we-invasion-of-britain", emergency=False)
    fr = battle_frame(st)
    jp = next(c for c in fr.units["axis-1"] if c in deployed(st, "axis-2"))
    before = {a: deployed(st, a) for a in st.armies}
    destroy_unit(st, "axis-1", jp, "shot")  # the side's seat in the battle is its commander
    assert jp not in fr.units["axis-1"] and jp not in fr.present["axis-1"]
    assert deployed(st, "axis-2") == before["axis-2"] - {jp}
    assert all(deployed(st, a) == before[a] for a in st.armies if a != "axis-2")
    assert jp in st.pools["axis:JP"]["discard"] and jp not in st.pools["axis:DE"]["discard"]
    cached, fresh = current_values(st, fr), fresh_values(st, fr)
    assert (cached.A, cached.D) == (fresh.A, fresh.D)


def test_the_leaders_of_every_army_draw_from_their_own_arsenal_and_deploy_into_their_own_stacks():
    st = ready(["DE", "JP"], ["GB", "US"], seed=3)
    leaders = {"axis-1": "de-hitler", "axis-2": "jp-hirohito", "allies-1": "gb-churchill-leader",
               "allies-2": "us-roosevelt"}
    for army, code in leaders.items():
        if not any(st.code[c] == code for c in deployed(st, army)):
            deploy_from_pool(st, army, code)
    decks = {a: list(st.arsenal(a)["deck"]) for a in st.armies}
    events = draw_homeland(st, "we-invasion-of-britain", emergency=False)
    draws = [e.data["seat"] for e in events if e.type == "leader_draw"]
    assert sorted(draws) == sorted(leaders)
    # one card each, into a single stack of its kind: deployed at once (forced), by its own army
    placed = [(e.data["seat"], e.data["card"]) for e in events if e.type == "deployed_card"
              and e.data["card"] in {d[-1] for d in decks.values()}]
    assert placed == [(a, decks[a][-1]) for a in ("axis-1", "axis-2", "allies-1", "allies-2")]
    fr = battle_frame(st)
    origin = armies_in_battle(st, fr)
    for army in leaders:  # each drawn card, called for by the battle, joins it under its own army
        drawn = decks[army][-1]
        assert origin[drawn] == army
        assert drawn in fr.present["axis-1" if army.startswith("axis") else "allies-1"]


def test_a_joined_army_chooses_which_of_its_divided_stacks_fights():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=5)
    p = st.players["axis-2"]
    extra = deploy_from_pool(st, "axis-2", "de-infantry")
    p["stacks"]["ground"][0].remove(extra)
    p["stacks"]["ground"].append([extra])  # C1: axis-2's ground forces are divided
    assert all(p["stacks"]["ground"])
    top_of_conflict_deck(st, "we-invasion-of-britain")
    apply(st, legal_actions(st)[0])
    apply(st, Choose("axis-1", "fight"))
    while st.decision.kind == "emergency_deploy":
        apply(st, Pass(st.decision.seat))
    assert st.decision.kind == "battle_stack" and st.decision.seat == "axis-2"
    assert st.decision.prompt == {"kind": "ground"}
    assert legal_actions(st) == [Choose("axis-2", "stack", stack="ground:0"),
                                 Choose("axis-2", "stack", stack="ground:1")]
    apply(st, Choose("axis-2", "stack", stack="ground:1"))
    fr = battle_frame(st)
    assert extra in fr.present["axis-1"]
    assert not set(p["stacks"]["ground"][0]) & set(fr.present["axis-1"])


def test_every_army_of_the_invaded_nation_may_emergency_deploy_its_own_hand():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=5)
    top_of_conflict_deck(st, "we-invasion-of-britain")
    apply(st, legal_actions(st)[0])
    apply(st, Choose("axis-1", "fight"))
    asked = []
    while st.decision.kind == "emergency_deploy":
        asked.append(st.decision.seat)
        assert legal_actions(st) == [EmergencyDeploy(st.decision.seat), Pass(st.decision.seat)]
        hand = list(st.players[st.decision.seat]["hand"])
        seat = st.decision.seat
        apply(st, EmergencyDeploy(seat) if seat == "allies-2" else Pass(seat))
        while st.decision.kind == "deploy" and st.decision.prompt["reason"] == "emergency":
            assert st.decision.seat == seat
            apply(st, legal_actions(st)[0])
        if seat == "allies-2":
            assert not st.players[seat]["hand"] and set(hand) <= deployed(st, seat)
        else:
            assert st.players[seat]["hand"] == hand
    assert asked == ["allies-1", "allies-2"]
    assert battle_frame(st) is not None

    # a combined game: only the invaded nation's armies (the British, not the Americans)
    st = ready(["DE", "JP"], ["GB", "US"], seed=3)
    assert st.players["allies-2"]["hand"]
    top_of_conflict_deck(st, "we-invasion-of-britain")
    apply(st, legal_actions(st)[0])
    apply(st, Choose("axis-1", "fight"))
    asked = []
    while st.decision.kind == "emergency_deploy":
        asked.append(st.decision.seat)
        apply(st, Pass(st.decision.seat))
    assert asked == ["allies-1"]
    assert battle_frame(st).joined == {"axis-1": ["axis-2"], "allies-1": ["allies-2"]}


def test_combined_game_invasion_of_britain_eliminates_only_the_british_then_total_victory():
    st = ready(["DE", "JP"], ["GB", "US"], seed=3)
    undeploy(st, "allies-1")
    undeploy(st, "allies-2")  # the Americans would fight for Britain too: no allied forces at all
    events = draw_homeland(st, "we-invasion-of-britain")
    events += finish_battle(st)
    assert [e.data for e in events if e.type == "battle_uncontested"][0]["winner"] == "axis-1"
    out = [e.data for e in events if e.type == "army_eliminated"]
    assert [(d["seat"], d["nation"]) for d in out] == [("allies-1", "GB")]
    assert st.status == "active" and st.players["allies-1"]["out"] and not st.players["allies-2"]["out"]
    assert st.armies_of("allies") == ["allies-2"]
    # the game goes on without the British army: turns skip it
    seen = []
    while len(seen) < 4:
        if st.decision.kind == "turn_start":
            seen.append(st.decision.seat)
        apply(st, fighter(st))
    assert seen == ["axis-2", "allies-2", "axis-1", "axis-2"]
    assert st.status == "active"
    # the Invasion of the United States: the last allied army is eliminated, total victory
    while not (st.decision.kind == "turn_start" and st.decision.seat == "axis-1"):
        apply(st, fighter(st))
    undeploy(st, "allies-2")
    events = draw_homeland(st, "pac-invasion-of-the-united-states")
    events += finish_battle(st)
    assert [(e.data["seat"], e.data["nation"]) for e in events if e.type == "army_eliminated"] == [
        ("allies-2", "US")]
    assert st.status == "finished" and st.winner == "axis" and st.result["kind"] == "total"
    z = zones(st)
    assert max(z.values()) == 1 and set(z) == set(st.code)


def test_occupying_force_of_a_homeland_win_is_the_commanders_own_survivors():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=22, options=Options(occupying_force=True))
    draw_homeland(st, "we-invasion-of-britain")
    fr = battle_frame(st)
    origin = armies_in_battle(st, fr)
    card = fr.card
    finish_battle(st)
    assert st.winner == "axis"
    occupied = st.players["axis-1"]["occupied"][card]
    assert occupied and {origin[c] for c in occupied} == {"axis-1"}
    assert not st.players["axis-2"]["occupied"]
    assert any(origin[c] == "axis-2" for c in fr.units["axis-1"])
    for c in fr.units["axis-1"]:  # the teammate's survivors stay in its own stacks
        assert c in (set(occupied) if origin[c] == "axis-1" else deployed(st, "axis-2"))


# ---- whole games ------------------------------------------------------------------------------------------
CONFIGS = [
    (["DE", "DE"], ["GB", "GB"]),           # 2v2 Western Europe (OR3)
    (["DE"], ["GB", "GB"]),                 # 1v2 (OR4)
    (["DE", "DE"], ["GB", "GB", "GB"]),     # 2v3 (OR4)
    (["DE", "JP"], ["GB", "US"]),           # combined sets: Western Europe and the Pacific
    (["DE", "JP"], ["GB", "US", "US"]),     # combined, uneven
]


@SETTINGS
@given(seed=st_.integers(min_value=0, max_value=2**31 - 1), config=st_.sampled_from(CONFIGS),
       occupying=st_.booleans())
def test_random_team_games_end_lose_no_card_and_replay_identically(seed, config, occupying):
    axis, allies = config
    setup = team_setup(CAT, seed, axis=axis, allies=allies,
                       options=Options(occupying_force=occupying, max_battle_rounds=40))
    st = new_game(CAT, setup)
    bots = {a: RandomBot(seed + i) for i, a in enumerate(st.armies)}
    total = set(st.code)
    log = []
    while st.decision is not None and st.ply < 20_000:
        seat = st.decision.seat
        action = bots[seat].choose(view(st, seat), legal_actions(st), seat)
        log.append(action.to_json())
        apply(st, action)
        if st.ply % 3 == 0:
            z = zones(st)
            assert max(z.values()) == 1, [c for c, n in z.items() if n > 1]
            assert set(z) == total, set(z) ^ total
            fr = battle_frame(st)
            if fr is not None and fr.stage in ("window", "phase0", "phase", "withdraw"):
                cached, fresh = current_values(st, fr), fresh_values(st, fr)
                assert (cached.A, cached.D) == (fresh.A, fresh.D)
                if fr.joined is not None and st.ply % 9 == 0:  # a homeland battle survives a JSON round trip
                    copy = GameState.from_json(json.loads(json.dumps(st.to_json())), CAT)
                    assert copy.to_json() == st.to_json() and copy.decision == st.decision
                    assert legal_actions(copy) == legal_actions(st)
    assert st.status == "finished" and st.decision is None
    z = zones(st)
    assert max(z.values()) == 1 and set(z) == total
    again = replay(CAT, setup, log)
    assert again.to_json() == st.to_json()


def test_heuristic_team_games_fight_homeland_battles_with_joined_armies_and_replay():
    joined_fights = 0
    for i, (axis, allies) in enumerate(CONFIGS * 2):
        setup = team_setup(CAT, 100 + i, axis=axis, allies=allies, options=Options(max_battle_rounds=40))
        st = new_game(CAT, setup)
        bots = {a: HeuristicBot(salt=i) if n % 2 == 0 else RandomBot(i) for n, a in enumerate(st.armies)}
        log = []
        counted = None
        while st.decision is not None and st.ply < 20_000:
            seat = st.decision.seat
            action = bots[seat].choose(view(st, seat), legal_actions(st), seat)
            log.append(action.to_json())
            apply(st, action)
            fr = battle_frame(st)
            if fr is not None and fr is not counted and fr.joined is not None and fr.stage == "phase":
                counted = fr
                origin = armies_in_battle(st, fr)
                if any(origin[c] != s for s in fr.units for c in fr.units[s]):
                    joined_fights += 1  # a teammate's unit fights under its commander
        assert st.status == "finished"
        assert replay(CAT, setup, log).to_json() == st.to_json()
    assert joined_fights >= 1


def test_a_joined_army_commits_its_own_optional_forces():
    """Every homeland card calls ground forces: a hypothetical air-only one making infantry optional (C7)."""
    st = ready(["DE", "DE"], ["GB", "GB"], seed=5)
    mine = deploy_from_pool(st, "allies-1", "gb-infantry")
    theirs = deploy_from_pool(st, "allies-2", "gb-infantry")
    card = top_of_conflict_deck(st, "we-invasion-of-britain")
    st.conflict_deck.remove(card)
    fr = new_battle(st, card=card, aggressor="axis-1", mode=BATTLE, counter=False, defender="allies-1")
    join_armies(st, fr)
    fr.kinds = {s: ["air"] for s in fr.kinds}
    fr.need_infantry_free = dict.fromkeys(fr.kinds, False)
    fr.opt_classes["allies-1"] = ["infantry"]
    st.frames.append(fr)
    advance(st)
    asked = []
    while st.decision.kind == "commit_optional":
        seat = st.decision.seat
        asked.append((seat, st.decision.prompt.get("commander")))
        apply(st, Choose(seat, "include" if seat == "allies-2" else "exclude"))
    assert asked == [("axis-1", None), ("axis-2", "axis-1"), ("allies-1", None), ("allies-2", "allies-1")]
    assert fr.include == {"axis-1": False, "allies-1": False, "axis-2": False, "allies-2": True}
    assert theirs in fr.present["allies-1"] and mine not in fr.present["allies-1"]
    assert not set(fr.present["allies-1"]) & {
        c for s in st.players["allies-1"]["stacks"]["ground"] for c in s}


def test_a_commander_without_forces_of_its_own_commands_its_teammates_forces():
    st = ready(["DE", "DE"], ["GB", "GB"], seed=3)
    undeploy(st, "allies-1")  # the defending army has no forces nor hand: the 2nd army's forces defend
    draw_homeland(st, "we-invasion-of-britain", emergency=False)
    fr = battle_frame(st)
    assert fr.defender == "allies-1" and fr.units["allies-1"]
    assert set(fr.present["allies-1"]) == deployed(st, "allies-2")
    seats = set()
    while battle_frame(st) is not None:
        if st.decision.kind in ("fire", "withdraw", "defend", "retarget"):
            seats.add(st.decision.seat)
        apply(st, fighter(st))
    assert seats == {"axis-1", "allies-1"}


def _hidden_from(st: GameState, army: str) -> set[str]:
    """Ids `army` may not see: every arsenal deck, the other armies' (teammates' too) hands and face-down
    deployed cards (those not revealed in the battle in progress)."""
    hidden = {c for pool in st.pools.values() for c in pool["deck"]}
    fr = battle_frame(st)
    revealed = {c for s in fr.present for c in fr.present[s] + fr.withdrawn[s]} if fr else set()
    for other, p in st.players.items():
        if other != army:
            hidden.update(p["hand"])
            hidden.update(c for c in deployed(st, other) if c not in revealed)
    if st.decision and st.decision.kind == "capture_pick" and st.decision.seat == army:
        hidden -= {c["id"] for c in st.decision.prompt["cards"]}
    return hidden


def test_team_battle_views_and_events_never_name_a_card_hidden_from_the_viewer():
    """The battle view (with each unit's army) and the battle events (battle_revealed's armies, destroyed)
    name only revealed cards, for every army, teammates included."""
    battle_events = ("battle_revealed", "battle_started", "destroyed", "battle_stacks", "leader_draw")
    checked = 0
    for axis, allies in (CONFIGS[0], CONFIGS[3]):  # 2v2, combined
        setup = team_setup(CAT, 11, axis=axis, allies=allies, options=Options(max_battle_rounds=30))
        st = new_game(CAT, setup)
        bots = {a: RandomBot(11 + i) for i, a in enumerate(st.armies)}
        while st.decision is not None:
            seat = st.decision.seat
            in_battle = battle_frame(st) is not None
            before = {a: _hidden_from(st, a) for a in st.armies} if in_battle else None
            events = apply(st, bots[seat].choose(view(st, seat), legal_actions(st), seat))
            if not in_battle and battle_frame(st) is None:
                continue
            checked += 1
            for army in st.armies:
                hidden = _hidden_from(st, army)
                assert not hidden & json_strings(view(st, army)["battle"]), army
                for e in events_for(events, army):
                    if e.type in battle_events and before is not None and e.data.get("mode") != "air_raid":
                        assert not hidden & before[army] & json_strings(e.data), (army, e)
    assert checked > 100
