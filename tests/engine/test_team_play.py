"""FAQ optional rules 3 (team play) and 4 (uneven teams), and the rules' COMBINING SETS: one test per
sentence (quoted in the docstring), on the real catalog; and bot games of every shape to the end.

Positions are built by editing a real game's JSON state (GameState.from_json recomputes the decision)."""
from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    GameState,
    HeuristicBot,
    IllegalAction,
    Options,
    RandomBot,
    SetupError,
    apply,
    events_for,
    legal_actions,
    new_game,
    play_game,
    replay,
    starter_setup,
    team_setup,
    view,
)
from games.engine.battlecards.actions import Choose, Deploy, Pass, PlayCard
from games.engine.battlecards.inspect import innermost_frame
from games.engine.battlecards.machine import initial_counts
from games.engine.battlecards.phases.turn import turn_limit


# ---- helpers ---------------------------------------------------------------------------------------------
def _start(cat, axis, allies, seed=1, **opts):
    """A team game past the set-up deployments (every army deploys its first legal cards)."""
    st = new_game(cat, team_setup(cat, seed, axis=axis, allies=allies, options=Options(**opts)))
    while st.decision.kind != "turn_start":
        apply(st, legal_actions(st)[0])
    return st


def _zones(data):
    """Every card list of a serialised state (to take a card out of wherever it is)."""
    lists = [data["conflict_deck"], data["conflict_discard"]]
    for p in data["players"].values():
        lists += [p["hand"], *(s for k in p["stacks"].values() for s in k), *p["occupied"].values()]
    for pool in data.get("pools", {}).values():
        lists += [pool["deck"], pool["discard"], pool["removed"]]
    for side in data.get("sides", {}).values():
        lists += [side["kept"], side["won"]]
    return lists


def _take(data, code, *, avoid=()):
    """Remove one card of `code` from wherever it is (not from the lists in `avoid`); its id."""
    for lst in _zones(data):
        if any(lst is a for a in avoid):
            continue
        for cid in lst:
            if data["cards"][cid] == code:
                lst.remove(cid)
                return cid
    raise AssertionError(f"no {code} left")


def _edit(cat, st, fn):
    data = st.to_json()
    fn(data)
    return GameState.from_json(data, cat)


def _at_turn(cat, st, army, fn=None):
    """The same game at the start of `army`'s turn (its turn frame replacing the current one)."""
    def edit(data):
        order = list(st.armies)
        data["frames"] = [{"kind": "game", "next": order[(order.index(army) + 1) % len(order)]},
                          {"kind": "turn", "seat": army, "stage": "start"}]
        data["active_seat"] = army
        if fn is not None:
            fn(data)
    return _edit(cat, st, edit)


def _hand(data, army, codes):
    """Give `army` a reserve hand of these codes (its old hand back to its arsenal deck)."""
    p = data["players"][army]
    pool = data["pools"][f"{army.split('-')[0]}:{p['nation']}"]
    pool["deck"].extend(p["hand"])
    p["hand"] = []
    for code in codes:
        p["hand"].append(_take(data, code, avoid=[p["hand"]]))


def _deploy(data, army, kind, codes):
    p = data["players"][army]
    for code in codes:
        p["stacks"][kind][0].append(_take(data, code, avoid=[p["stacks"][kind][0]]))


def _strip(data, army):
    """`army` loses every card of its hand and stacks (back to its arsenal deck)."""
    p = data["players"][army]
    pool = data["pools"][f"{army.split('-')[0]}:{p['nation']}"]
    pool["deck"].extend(p["hand"] + [c for k in p["stacks"].values() for s in k for c in s])
    p["hand"], p["stacks"] = [], {k: [[]] for k in p["stacks"]}


def _top(data, code):
    """Put a card of `code` on top of the conflict deck (drawn next)."""
    data["conflict_deck"].append(_take(data, code))


def _keys(st):
    return [a.to_json() for a in legal_actions(st)]


def _options(st, option):
    """The typed fields (army, card) of the legal `choose` actions of `option` ("give", "trade", "seats")."""
    return sorted((a.army, a.card) for a in legal_actions(st)
                  if isinstance(a, Choose) and a.option == option)


def _named(st, prefix):
    """The legal `choose` options starting with `prefix` (e.g. the enemy armies of choose_enemy_army)."""
    return sorted(a.option for a in legal_actions(st)
                  if isinstance(a, Choose) and a.option.startswith(prefix))


def _drive(st, until, seat=None, prefer=("fight", "pass")):
    """Apply legal actions (a preferred choose/pass first, else the first) until decision `until` (of
    `seat`)."""
    for _ in range(500):
        d = st.decision
        if d is None:
            raise AssertionError("game over before " + until)
        if d.kind == until and (seat is None or d.seat == seat):
            return st
        acts = legal_actions(st)
        pick = next((a for p in prefer for a in acts
                     if (isinstance(a, Choose) and a.option == p) or (p == "pass" and isinstance(a, Pass))),
                    acts[0])
        apply(st, pick)
    raise AssertionError("never reached " + until)


def _deployed(st, army):
    return sum(len(s) for k in st.players[army]["stacks"].values() for s in k)


# ---- Optional Rule 3: team play in a single theater --------------------------------------------------------
def test_or3_any_multiple_of_two_players(real_catalog):
    """OR3: "A single theatre can be played with any multiple of 2 players." 2, 4, 6 and 8 players."""
    for n in (1, 2, 3, 4):
        st = _start(real_catalog, ["DE"] * n, ["GB"] * n)
        assert len(st.armies) == 2 * n
        assert st.classic is (False)
        assert not st.setup.uneven
    with pytest.raises(Exception):  # noqa: B017 (MalformedAction): at most 4 armies a side (8 players)
        team_setup(real_catalog, 1, axis=["DE"] * 5, allies=["GB"] * 5)


def test_or3_equal_sides_each_across_from_an_opponent(real_catalog):
    """OR3: "In a multi-player game, each side gets an equal number of players -- all of whom sit on the same
    side of the table directly across from an opponent." Each army of a 4v4 faces the enemy army of its
    number, and that one faces it back."""
    st = _start(real_catalog, ["DE"] * 4, ["GB"] * 4)
    for n in range(1, 5):
        assert st.players[f"axis-{n}"]["across"] == f"allies-{n}"
        assert st.players[f"allies-{n}"]["across"] == f"axis-{n}"
    assert view(st, "allies-3")["opponent"]["nation"] == "DE"
    assert view(st, "allies-3")["armies"]["others"]["axis-3"]["across"] == "allies-3"


def test_or3_six_players_three_british_across_three_germans(real_catalog):
    """OR3: "EXAMPLE: In a 6-player game, the British will have 3 players sitting next to each other and
    across from 3 German players." """
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    assert st.armies_of("allies") == ["allies-1", "allies-2", "allies-3"]
    assert {st.players[a]["nation"] for a in st.armies_of("allies")} == {"GB"}
    assert {st.players[a]["nation"] for a in st.armies_of("axis")} == {"DE"}
    assert sorted(st.players[a]["across"] for a in st.armies_of("allies")) == ["axis-1", "axis-2", "axis-3"]


def test_or3_own_hand_and_stacks_common_arsenal_deck(real_catalog):
    """OR3: "Each British player has his own reserve hand and his own deployed Ground, Air, & Sea stacks and
    draws from a common British Arsenal Deck." """
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    hands = [st.players[a]["hand"] for a in st.armies_of("allies")]
    assert all(len(h) == 3 for h in hands)
    assert len({id(h) for h in hands}) == 3 and not set(hands[0]) & set(hands[1])
    for a in st.armies_of("allies"):
        assert set(st.players[a]["stacks"]) == {"ground", "air", "sea"}
        assert st.arsenal(a) is st.pools["allies:GB"]  # one British arsenal deck
    # the three armies drew their 6 from it: 47 + 45 cards minus 18
    assert len(st.pools["allies:GB"]["deck"]) == 47 + 45 - 18
    # a draw by the 2nd army comes off the common deck
    st2 = _at_turn(real_catalog, st, "allies-2", lambda d: _top(d, "we-military-build-up"))
    top = st2.pools["allies:GB"]["deck"][-1]
    apply(st2, {"type": "draw", "seat": "allies-2"})
    p = st2.players["allies-2"]
    assert top in p["hand"] + [c for k in p["stacks"].values() for s in k for c in s]


def test_or3_germans_common_deck_separate_stacks(real_catalog):
    """OR3: "The German players sit across from their British counterparts and likewise draw from a common
    German Arsenal deck and maintain separate deployed Ground, Air, & Sea stacks." """
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    assert all(st.arsenal(a) is st.pools["axis:DE"] for a in st.armies_of("axis"))
    stacks = [st.players[a]["stacks"] for a in st.armies_of("axis")]
    assert len({id(s) for s in stacks}) == 3
    assert all(_deployed(st, a) == 3 for a in st.armies_of("axis"))  # each deployed its own 3
    assert [st.players[a]["across"] for a in st.armies_of("axis")] == ["allies-1", "allies-2", "allies-3"]


def test_or3_each_position_is_an_army(real_catalog):
    """OR3: "Each position on each side is referred to as an "ARMY"." Each army is a seat: its own view,
    its own decisions."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    for army in st.armies:
        v = view(st, army)
        assert v["seat"] == army
        assert set(v["armies"]["others"]) == set(st.armies) - {army}
    assert st.decision.seat == "axis-1"
    with pytest.raises(IllegalAction):
        apply(st, {"type": "draw", "seat": "axis-2"})


def test_or3_first_second_third_armies(real_catalog):
    """OR3: "So, there are players representing the German 1st, 2nd, and 3rd armies, and players
    representing the British 1st, 2nd, and 3rd armies." """
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    assert sorted(st.armies) == ["allies-1", "allies-2", "allies-3", "axis-1", "axis-2", "axis-3"]
    assert [st.players[a]["nation"] for a in ("axis-1", "axis-2", "axis-3")] == ["DE"] * 3
    assert [st.players[a]["nation"] for a in ("allies-1", "allies-2", "allies-3")] == ["GB"] * 3


def test_or3_zigzag_turn_order(real_catalog):
    """OR3: "Play proceeds in a zigzag fashion from the German 1st army, to the British 1st Army, to the
    German 2nd Army, to the British 2nd Army, to the German 3rd Army, and finally ends with the British 3rd
    Army." Two rounds of turns, each army drawing."""
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    order = ["axis-1", "allies-1", "axis-2", "allies-2", "axis-3", "allies-3"]
    assert list(st.armies) == order
    seen = []
    st.record_events = True
    for _ in range(3000):
        if st.decision is None or len(seen) >= 12:
            break
        d = st.decision
        if d.kind == "turn_start":
            seen.append(d.seat)
            apply(st, {"type": "draw", "seat": d.seat})
            continue
        acts = legal_actions(st)
        apply(st, next((a for a in acts if isinstance(a, Choose) and a.option == "decline"), acts[0]))
    assert seen == order * 2


def test_or3_battle_drawn_fought_with_the_army_across(real_catalog):
    """OR3: "Battles drawn by any player are fought between his forces and the forces directly across from
    him." A German battlecard drawn by the British 2nd army is fought by the German army across from him
    (the 2nd), not the German 1st army."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-2", lambda d: _top(d, "we-invasion-of-luxembourg"))
    apply(st, {"type": "draw", "seat": "allies-2"})
    assert st.decision.kind == "fight_or_decline"
    assert st.decision.seat == "axis-2"


def test_or3_battlecards_won_common_stack(real_catalog):
    """OR3: "All Battlecards won by a side go in a common stack for that side." A battlecard won by the
    German 2nd army counts for every German army (one stack, one VP total), none for the British."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)

    def edit(d):
        _top(d, "we-invasion-of-luxembourg")
        for army in ("allies-1", "allies-2"):  # no British forces: the battle is won at once
            _strip(d, army)
        _deploy(d, "axis-2", "ground", ["de-infantry", "de-panzer-iii"])
    st = _at_turn(real_catalog, st, "axis-2", edit)
    apply(st, {"type": "draw", "seat": "axis-2"})
    _drive(st, "turn_start", prefer=("fight", "allies-1", "pass"))
    won = [st.code[c] for c in st.team("axis")["won"]]
    assert won == ["we-invasion-of-luxembourg"]
    assert st.team("axis-1") is st.team("axis-2") is st.sides["axis"]
    assert view(st, "axis-1")["me"]["won"] == view(st, "axis-2")["me"]["won"]
    assert view(st, "axis-1")["me"]["victory_points"] == 2
    assert view(st, "allies-1")["me"]["victory_points"] == 0


def test_or3_homeland_battle_all_armies(real_catalog):
    """OR3: "In the Invasion of Britain or the Invasion of Germany, forces from all 3 armies on each side may
    participate." The aggressor chooses no enemy army: the battle is flagged for every army (the battle
    itself: phases.battle) and defended by the invaded nation."""
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)
    st = _at_turn(real_catalog, st, "axis-2", lambda d: _top(d, "we-invasion-of-britain"))
    apply(st, {"type": "draw", "seat": "axis-2"})
    assert (st.decision.kind, st.decision.seat) == ("fight_or_decline", "axis-2")
    apply(st, Choose("axis-2", "fight"))
    assert st.decision.kind != "choose_enemy_army"
    frame = innermost_frame(st, "battlecard", "battle")
    assert frame.all_armies is True
    assert st.players[frame.defender]["nation"] == "GB"


def _kept_setup(cat, code, holder_side="allies"):
    """A 2v2 at the British 2nd army's turn; the British side holds `code` (kept when the British 1st army
    drew it) and the Germans hold Luxembourg (for a counterattack)."""
    st = _start(cat, ["DE"] * 2, ["GB"] * 2)

    def edit(d):
        d["sides"][holder_side]["kept"].append(_take(d, code))
        d["sides"]["axis"]["won"].append(_take(d, "we-invasion-of-luxembourg"))
    return _at_turn(cat, st, "allies-2", edit)


def test_or3_kept_cards_common_to_the_side(real_catalog):
    """OR3: "Kept cards are maintained by each side as common cards, playable by any of that side's
    players." A card the British 1st army kept shows in every British army's view and in none of the
    Germans' (only the count)."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, "we-counterattack"))
    apply(st, {"type": "draw", "seat": "allies-1"})
    cid = st.team("allies")["kept"][0]
    assert st.code[cid] == "we-counterattack"
    for army in ("allies-1", "allies-2"):
        assert [c["id"] for c in view(st, army)["me"]["kept"]] == [cid]
    mate = view(st, "allies-1")["armies"]["others"]["allies-2"]
    assert mate["kept"] == [{"id": cid, "code": "we-counterattack"}]
    for army in ("axis-1", "axis-2"):
        v = view(st, army)
        assert v["armies"]["others"]["allies-1"]["kept_count"] == 1
        assert "kept" not in v["armies"]["others"]["allies-1"]
        assert cid not in str(v)


def test_or3_use_needs_no_agreement(real_catalog):
    """OR3: "Use of cards does not require agreement from all players on a side." The British 2nd army plays
    the side's Counterattack: no other army is asked, his next decision follows at once."""
    st = _kept_setup(real_catalog, "we-counterattack")
    cid = st.team("allies")["kept"][0]
    play = next(a for a in legal_actions(st) if isinstance(a, PlayCard) and a.card == cid)
    apply(st, play)
    assert st.decision.seat == "allies-2"
    assert st.decision.kind == "choose_enemy_army"  # the counterattack's aggressor chooses the enemy army
    assert cid not in st.team("allies")["kept"]


def test_or3_your_turn_you_may_use_a_card_your_side_holds(real_catalog):
    """OR3: "If it is your turn, and you have a chance to use a card your side holds, you may do so." A
    Counterattack kept by the British 1st army is played by the British 2nd army on his turn, against the
    battlecard the Germans hold; every other window offers the side's kept cards to the army deciding:
    the battlecard response (Delay Tactics) of the attacked army, the battle window (Military
    Intelligence) of either army of the battle and Scorched Earth after a lost battle."""
    st = _kept_setup(real_catalog, "we-counterattack")
    cid = st.team("allies")["kept"][0]
    bc = st.team("axis")["won"][0]
    assert PlayCard("allies-2", cid, target=bc) in legal_actions(st)
    apply(st, PlayCard("allies-2", cid, target=bc))
    apply(st, Choose("allies-2", "axis-1"))
    frame = innermost_frame(st, "battlecard", "battle")
    assert (frame.aggressor, frame.defender, frame.counter) == ("allies-2", "axis-1", True)

    # the response window: the attacked army may play the Delay Tactics its teammate kept
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)

    def edit(d):
        d["sides"]["allies"]["kept"].append(_take(d, "we-delay-tactics"))
        d["sides"]["allies"]["kept"].append(_take(d, "we-military-intelligence"))
        _top(d, "we-invasion-of-luxembourg")
        _deploy(d, "axis-1", "ground", ["de-infantry", "de-panzer-iii"])
        _deploy(d, "allies-2", "ground", ["gb-infantry", "gb-infantry"])
    st = _at_turn(real_catalog, st, "axis-1", edit)
    delay, intel = st.team("allies")["kept"]
    apply(st, {"type": "draw", "seat": "axis-1"})
    apply(st, Choose("axis-1", "fight"))
    apply(st, Choose("axis-1", "allies-2"))
    assert (st.decision.kind, st.decision.seat) == ("battlecard_response", "allies-2")
    assert PlayCard("allies-2", delay) in legal_actions(st)
    apply(st, Pass("allies-2"))
    _drive(st, "battle_window", seat="allies-2")
    assert PlayCard("allies-2", intel) in legal_actions(st)
    assert not any(isinstance(a, PlayCard) for a in legal_actions(st) if a.seat == "allies-1")

    # Scorched Earth: the army that lost the battle may play the card its teammate kept
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)

    def edit2(d):
        d["sides"]["allies"]["kept"].append(_take(d, "we-scorched-earth"))
        _top(d, "we-invasion-of-luxembourg")
        _deploy(d, "axis-1", "ground", ["de-infantry", "de-panzer-iii"])
        _strip(d, "allies-2")
    st = _at_turn(real_catalog, st, "axis-1", edit2)
    scorch = st.team("allies")["kept"][0]
    apply(st, {"type": "draw", "seat": "axis-1"})
    apply(st, Choose("axis-1", "fight"))
    apply(st, Choose("axis-1", "allies-2"))
    _drive(st, "scorched_earth")
    assert st.decision.seat == "allies-2"
    luxembourg = st.decision.prompt["battlecard"]
    apply(st, PlayCard("allies-2", scorch, target=luxembourg))
    assert luxembourg in st.scorched and view(st, "axis-1")["me"]["victory_points"] == 0


def test_or3_transfer_up_to_three_forces(real_catalog):
    """OR3: "On any turn, a player may sacrifice his turn to transfer up to 3 deployed forces from his
    stacks to the stacks of another friendly army." Three cards go to the friend's stacks of their kind,
    the turn ends without a draw; everyone sees the count and the stacks, only the two armies the cards."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1",
                  lambda d: _deploy(d, "allies-1", "ground", ["gb-infantry", "gb-infantry", "gb-infantry"]))
    st.record_events = True
    before = {a: _deployed(st, a) for a in st.armies}
    deck = len(st.conflict_deck)
    assert _options(st, "give") == [("allies-2", None)]
    events = apply(st, Choose("allies-1", "give", army="allies-2"))
    assert [e.type for e in events] == ["turn_sacrificed"]
    assert (st.decision.kind, st.decision.seat) == ("army_transfer", "allies-1")
    assert not any(isinstance(a, Pass) for a in legal_actions(st))  # at least one card
    moved, seen = [], []
    for _ in range(3):
        move = next(a for a in legal_actions(st) if isinstance(a, Deploy) and a.stack == "ground:0")
        moved.append(move.card)
        seen += apply(st, move)
    assert st.decision.kind == "turn_start" and st.decision.seat == "axis-2"  # the turn is over
    assert len(st.conflict_deck) == deck  # no conflict card drawn
    assert _deployed(st, "allies-1") == before["allies-1"] - 3
    assert _deployed(st, "allies-2") == before["allies-2"] + 3
    assert set(moved) <= set(st.players["allies-2"]["stacks"]["ground"][0])
    public = [e for e in seen if e.visible_to == "all" and e.type != "turn_started"]
    assert [e.type for e in public] == ["forces_transferred"] * 3
    assert all("card" not in e.data and e.data["stack"] == "ground:0" for e in public)
    for army in ("allies-1", "allies-2"):
        private = events_for(seen, army)
        assert {e.data["card"] for e in private if e.type == "forces_transferred_card"} == set(moved)
    for army in ("axis-1", "axis-2"):
        text = str([e.to_json() for e in events_for(seen, army)])
        assert not [c for c in moved if f"'{c}'" in text]
        assert all(e.type in ("forces_transferred", "turn_started") for e in events_for(seen, army))
    # "up to 3": one card is enough
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "axis-2")
    apply(st, Choose("axis-2", "give", army="axis-1"))
    apply(st, next(a for a in legal_actions(st) if isinstance(a, Deploy)))
    apply(st, Pass("axis-2"))
    assert st.decision.kind == "turn_start" and st.decision.seat == "allies-2"


def test_or3_trade_a_reserve_card(real_catalog):
    """OR3: "If you cannot afford to sacrifice a turn, you may at the start of a turn, trade one of the cards
    in your reserve hand with any friendly army." The friend picks the card he sends back; the turn goes on
    (the trader still draws), once a turn; the cards are seen only by the two armies."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)

    def edit(d):
        _hand(d, "allies-2", ["gb-infantry", "gb-infantry", "gb-infantry"])
        _hand(d, "allies-1", ["gb-spitfire", "gb-hood", "gb-montgomery"])
    st = _at_turn(real_catalog, st, "allies-2", edit)
    st.record_events = True
    sent = st.players["allies-2"]["hand"][0]
    assert [army for army, _ in _options(st, "trade")] == ["allies-1"] * 3
    events = apply(st, Choose("allies-2", "trade", army="allies-1", card=sent))
    assert (st.decision.kind, st.decision.seat) == ("reserve_trade", "allies-1")
    assert st.decision.prompt["card"] == {"id": sent, "code": "gb-infantry"}
    back = next(c for c in st.players["allies-1"]["hand"] if st.code[c] == "gb-montgomery")
    events += apply(st, Choose("allies-1", back))
    assert back in st.players["allies-2"]["hand"] and sent in st.players["allies-1"]["hand"]
    assert (st.decision.kind, st.decision.seat) == ("turn_start", "allies-2")  # the turn goes on
    assert not _options(st, "trade") and not _options(st, "give") and not _options(st, "seats")
    assert any(a.type == "draw" for a in legal_actions(st))
    private = [e for e in events if e.type == "reserve_traded_cards"]
    assert sorted(e.visible_to for e in private) == ["allies-1", "allies-2"]
    for army in ("axis-1", "axis-2"):
        seen = str([e.to_json() for e in events_for(events, army)])
        assert sent not in seen and back not in seen and "montgomery" not in seen
    assert [e.type for e in events_for(events, "axis-1")] == ["reserve_trade_offered", "reserve_traded"]


def test_or3_no_trade_with_an_empty_handed_army(real_catalog):
    """OR3: "You may not send a reserve card to a friendly army who does not have one to send back." """
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 3)

    def edit(d):
        pool = d["pools"]["allies:GB"]
        pool["deck"].extend(d["players"]["allies-3"]["hand"])
        d["players"]["allies-3"]["hand"] = []
    st = _at_turn(real_catalog, st, "allies-1", edit)
    card = st.players["allies-1"]["hand"][0]
    assert {army for army, _ in _options(st, "trade")} == {"allies-2"}
    with pytest.raises(IllegalAction):
        apply(st, Choose("allies-1", "trade", army="allies-3", card=card))
    # nor when his own hand is empty (an emergency deployment emptied it)
    st = _at_turn(real_catalog, st, "allies-3")
    assert not _options(st, "trade")


def test_or3_trade_seats(real_catalog):
    """OR3: "If two players on the same side agree to do so, they may both sacrifice their next turns to
    trade seats at the table, therefore aligning their armies against different opponents." The British
    1st army proposes (his turn), the 2nd accepts: the 1st's turn ends, the 2nd's next turn is skipped,
    and each now sits across from the other's German army (the Germans' "across" follow). A refusal
    costs nothing and the proposer goes on with his turn."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1")
    st.record_events = True
    assert _options(st, "seats") == [("allies-2", None)]
    apply(st, Choose("allies-1", "seats", army="allies-2"))
    assert (st.decision.kind, st.decision.seat) == ("seat_trade", "allies-2")
    apply(st, Choose("allies-2", "refuse"))
    assert (st.decision.kind, st.decision.seat) == ("turn_start", "allies-1")
    assert not _options(st, "seats")  # one proposal a turn
    assert st.players["allies-1"]["across"] == "axis-1"

    st = _at_turn(real_catalog, st, "allies-1")
    apply(st, Choose("allies-1", "seats", army="allies-2"))
    events = apply(st, Choose("allies-2", "accept"))
    assert {a: st.players[a]["across"] for a in st.armies} == {
        "axis-1": "allies-2", "allies-1": "axis-2", "axis-2": "allies-1", "allies-2": "axis-1"}
    assert "seats_traded" in [e.type for e in events]
    assert (st.decision.kind, st.decision.seat) == ("turn_start", "axis-2")  # the proposer's turn is over
    assert st.players["allies-2"]["sacrifice"] is True
    assert GameState.from_json(st.to_json(), real_catalog) == st  # the pending sacrifice is saved
    assert view(st, "allies-1")["opponent"]["across"] == "allies-1"  # he now faces the German 2nd army
    turn = st.turn
    apply(st, {"type": "emergency_deploy", "seat": "axis-2"})
    _drive(st, "turn_start")
    assert st.decision.seat == "axis-1"  # the British 2nd army's turn was sacrificed
    assert st.turn == turn + 2
    # a German battlecard drawn by the British 1st army is now fought by the German 2nd army
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, "we-invasion-of-luxembourg"))
    apply(st, {"type": "draw", "seat": "allies-1"})
    assert (st.decision.kind, st.decision.seat) == ("fight_or_decline", "axis-2")


def test_or3_one_starter_set_per_two_players(real_catalog):
    """OR3: "It is best, though not essential to play with one starter set for each set of two players."
    Two British players share one British starter set; a fourth player of a nation brings the second."""
    s = team_setup(real_catalog, 1, axis=["DE"] * 2, allies=["GB"] * 2)
    starter = sum(real_catalog.sets["gb-we-starter"].arsenal_counts().values())
    assert len(s.decks["allies-1"]) == starter and s.decks["allies-2"] == ()
    s = team_setup(real_catalog, 1, axis=["DE"] * 4, allies=["GB"] * 4)
    assert [bool(s.decks[f"allies-{n}"]) for n in range(1, 5)] == [True, False, True, False]
    # "not essential": four British players may share a single starter set (a hand-built GameSetup)
    one = dataclasses.replace(s, decks={**s.decks, "allies-3": ()})
    st = new_game(real_catalog, one)
    assert len(st.pools["allies:GB"]["deck"]) == starter - 4 * 6


def test_or3_six_players_three_starter_sets(real_catalog):
    """OR3: "Therefore, in our 6-player game described above, three starter sets should be ideally used
    (along with any compatible expansion packs)." Each side of a 6-player game brings two starter sets of
    its nation (three players each: one set per two players, rounded up), and a common deck of them."""
    s = team_setup(real_catalog, 1, axis=["DE"] * 3, allies=["GB"] * 3)
    st = new_game(real_catalog, s)
    for side, code in (("axis", "de-we-starter"), ("allies", "gb-we-starter")):
        decks = [s.decks[f"{side}-{n}"] for n in (1, 2, 3)]
        assert [bool(d) for d in decks] == [True, False, True]
        assert set(decks[2]) <= set(real_catalog.sets[code].arsenal_counts())
    total = sum(len(d) for d in s.decks.values())
    assert total == sum(1 for c, o in st.owner.items() if st.code[c] in real_catalog.arsenal)


def test_or3_remove_or2_cards_from_all_but_one_set(real_catalog):
    """OR3: "When doing so, don't forget to remove the cards indicated in Optional Rule # 2 above from all
    but one set." The FAQ's copy lost Optional Rule 2's list: the cards removed are the leaders and
    generals (one of each per arsenal deck, TO SET UP THE GAME), kept only in the first set."""
    s = team_setup(real_catalog, 1, axis=["DE"] * 3, allies=["GB"] * 3)
    cat = real_catalog
    for side in ("axis", "allies"):
        first, extra = s.decks[f"{side}-1"], s.decks[f"{side}-3"]
        singles = [c for c in first if cat.arsenal[c].is_general or cat.arsenal[c].is_leader]
        assert singles  # Rommel, Hitler / Montgomery, Churchill ...
        assert not [c for c in extra if cat.arsenal[c].is_general or cat.arsenal[c].is_leader]
        assert len(first) - len(singles) == len(extra)
    new_game(cat, s)  # and the pooled deck passes the one-of-each check


# ---- Optional Rule 4: uneven teams -------------------------------------------------------------------------
def test_or4_three_five_seven_players(real_catalog):
    """OR4: "Yes, it is possible to play the game with 3, 5, or even 7 players in a single theatre." """
    for axis, allies in ((1, 2), (2, 3), (3, 4)):
        st = _start(real_catalog, ["DE"] * axis, ["GB"] * allies)
        assert len(st.armies) == axis + allies and st.setup.uneven


def test_or4_advantaged_side_first_disadvantaged_six_extra(real_catalog):
    """OR4: "When doing so, team play proceeds as described above in rule 3, except that the advantaged side
    (the side with the most players) goes first, and the disadvantaged side (the side with fewer players)
    begins the game with 6 extra deployed units." """
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 3)
    assert st.armies[0] == "allies-1"
    deployed = {side: sum(_deployed(st, a) for a in st.armies_of(side)) for side in ("axis", "allies")}
    assert deployed == {"axis": 2 * 3 + 6, "allies": 3 * 3}
    assert st.players["allies-1"]["hand"] and len(st.players["allies-1"]["hand"]) == 3
    assert st.pools["axis:DE"] is st.arsenal("axis-2")  # otherwise rule 3: a common deck, own stacks


def test_or4_three_players_germans_draw_12_deploy_9(real_catalog):
    """OR4: "So, in a 3 player game, if 2 players were on the British side, the Germans would begin the game
    by drawing 12 and deploying 9, rather than drawing 6 and deploying 3." """
    s = team_setup(real_catalog, 1, axis=["DE"], allies=["GB", "GB"])
    assert initial_counts(s, "axis-1") == (12, 9)
    assert initial_counts(s, "allies-1") == initial_counts(s, "allies-2") == (6, 3)
    st = _start(real_catalog, ["DE"], ["GB", "GB"])
    assert _deployed(st, "axis-1") == 9 and len(st.players["axis-1"]["hand"]) == 3


def test_or4_five_and_seven_players(real_catalog):
    """OR4: "In a 5 player game, the disadvantaged side would have 2 players, each of which would draw 9 and
    deploy 6, and in a 7 player game, the disadvantaged side would have 3 players, each of which would draw
    8 and deploy 5 to start the game." """
    s5 = team_setup(real_catalog, 1, axis=["DE"] * 2, allies=["GB"] * 3)
    assert [initial_counts(s5, a) for a in ("axis-1", "axis-2")] == [(9, 6)] * 2
    s7 = team_setup(real_catalog, 1, axis=["DE"] * 3, allies=["GB"] * 4)
    assert [initial_counts(s7, a) for a in ("axis-1", "axis-2", "axis-3")] == [(8, 5)] * 3
    assert initial_counts(s7, "allies-4") == (6, 3)
    st = _start(real_catalog, ["DE"] * 3, ["GB"] * 4)
    assert [_deployed(st, a) for a in st.armies_of("axis")] == [5, 5, 5]


def test_or4_disadvantaged_side_ahead_at_start_behind_later(real_catalog):
    """OR4: "In this way the disadvantaged side actually has an advantage at the start of the game, but will
    loose out to their opponents in a long drawn out confrontation." The single German starts with more
    deployed units than both British armies together (9 v 6), but over every round of turns the British
    play two turns to his one."""
    st = _start(real_catalog, ["DE"], ["GB", "GB"])
    assert _deployed(st, "axis-1") > _deployed(st, "allies-1") + _deployed(st, "allies-2")
    assert list(st.armies).count("axis-1") == 1 and len(st.armies_of("allies")) == 2


def test_or4_tournament_axis_disadvantaged_not_enforced(real_catalog):
    """OR4: "In any tournament scenario, the Axis player MUST be the disadvantaged player, but for
    non-tournament play, it is your choice." The engine has no tournament mode: both are accepted (README);
    with two German armies against one British, the Germans go first and the British get the 6 extra."""
    st = _start(real_catalog, ["DE", "DE"], ["GB"])
    assert list(st.armies) == ["axis-1", "allies-1", "axis-2"]
    assert _deployed(st, "allies-1") == 9
    st = _start(real_catalog, ["DE"], ["GB", "GB"])
    assert list(st.armies) == ["allies-1", "axis-1", "allies-2"]


def test_or4_example_german_draws_12_deploys_9(real_catalog):
    """OR4: "EXAMPLE: In a 3-player game with 2 British and 1 German player, the German player draws 12 and
    deploys 9 to start the game." The German picks his 9 among the 12 he drew (one set-up decision each)."""
    st = new_game(real_catalog, team_setup(real_catalog, 3, axis=["DE"], allies=["GB", "GB"]))
    assert len(st.players["axis-1"]["hand"]) == 12
    counts = []
    while st.decision.kind == "initial_deploy":
        if st.decision.seat == "axis-1":
            counts.append(st.decision.prompt["count"])
        apply(st, legal_actions(st)[0])
    assert counts[0] == 9 and counts == sorted(counts, reverse=True)
    assert _deployed(st, "axis-1") == 9 and len(st.players["axis-1"]["hand"]) == 3


def test_or4_three_player_turn_order(real_catalog):
    """OR4: "Then, the Turn Order goes: 1st British Army, Germans, 2nd British Army [next turn] 1st British
    Army, Germans, 2nd British Army [next turn] and so on." """
    st = _start(real_catalog, ["DE"], ["GB", "GB"])
    seen = []
    while len(seen) < 9:
        d = st.decision
        if d.kind == "turn_start":
            seen.append(d.seat)
            apply(st, {"type": "draw", "seat": d.seat})
            continue
        acts = legal_actions(st)
        apply(st, next((a for a in acts if isinstance(a, Choose) and a.option == "decline"), acts[0]))
    assert seen == ["allies-1", "axis-1", "allies-2"] * 3


def test_or4_no_larger_standing_armies(real_catalog):
    """OR4: "NOTE: Games with uneven teams cannot use Optional Rule #1: Larger Standing Armies." """
    s = team_setup(real_catalog, 1, axis=["DE"], allies=["GB", "GB"],
                   options=Options(larger_standing_armies=True))
    with pytest.raises(SetupError):
        new_game(real_catalog, s)
    even = team_setup(real_catalog, 1, axis=["DE"] * 2, allies=["GB"] * 2,
                      options=Options(larger_standing_armies=True))
    assert initial_counts(even, "axis-1") == (9, 6)
    new_game(real_catalog, even)


def test_or4_aggressor_selects_the_enemy_army(real_catalog):
    """OR4: "When a Battlecard comes up, the aggressor stated on the Battlecard selects which enemy army he
    would like to fight against." The German army across from the British drawer attacks and chooses
    between the two British armies; a drawing-player battlecard's drawer chooses too."""
    st = _start(real_catalog, ["DE"], ["GB", "GB"])
    st = _at_turn(real_catalog, st, "allies-2", lambda d: _top(d, "we-invasion-of-luxembourg"))
    apply(st, {"type": "draw", "seat": "allies-2"})
    apply(st, Choose("axis-1", "fight"))
    assert (st.decision.kind, st.decision.seat) == ("choose_enemy_army", "axis-1")
    assert _named(st, "allies") == ["allies-1", "allies-2"]
    apply(st, Choose("axis-1", "allies-1"))
    frame = innermost_frame(st, "battlecard", "battle")
    assert (frame.aggressor, frame.defender) == ("axis-1", "allies-1")

    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, "we-battle-of-the-atlantic"))
    apply(st, {"type": "draw", "seat": "allies-1"})
    apply(st, Choose("allies-1", "fight"))
    assert (st.decision.kind, st.decision.seat) == ("choose_enemy_army", "allies-1")
    assert _named(st, "axis") == ["axis-1", "axis-2"]


def test_or4_exception_homeland_battles(real_catalog):
    """OR4: "The only exception is that in the Invasion of Britain and the Battle for Germany, all armies on
    both sides may participate." No enemy army is chosen in either; the battle is flagged for all armies."""
    for code, drawer, aggressor in (("we-invasion-of-britain", "allies-1", "axis-1"),
                                    ("we-battle-for-germany", "axis-1", "allies-1")):
        st = _start(real_catalog, ["DE"], ["GB", "GB"])
        st = _at_turn(real_catalog, st, drawer, lambda d, code=code: _top(d, code))
        apply(st, {"type": "draw", "seat": drawer})
        assert (st.decision.kind, st.decision.seat) == ("fight_or_decline", aggressor)
        apply(st, Choose(aggressor, "fight"))
        assert st.decision.kind != "choose_enemy_army"
        frame = innermost_frame(st, "battlecard", "battle")
        assert frame.all_armies is True


# ---- COMBINING SETS (rules, Western Europe starter) --------------------------------------------------------
COMBINED = (["DE", "JP"], ["GB", "US", "RU"])


def test_combining_sets_other_sets(real_catalog):
    """COMBINING SETS: "You may combine other World War II sets with this one." Britain, the US and Russia
    against Germany and Japan, each nation from its own starter set."""
    s = team_setup(real_catalog, 1, axis=COMBINED[0], allies=COMBINED[1])
    assert [s.nations[a] for a in ("axis-1", "axis-2", "allies-1", "allies-2", "allies-3")] == \
        ["DE", "JP", "GB", "US", "RU"]
    st = new_game(real_catalog, s)
    assert set(st.pools) == {"axis:DE", "axis:JP", "allies:GB", "allies:US", "allies:RU"}


def test_combining_sets_conflict_decks_added(real_catalog):
    """COMBINING SETS: "To do so, add the CONFLICT decks together." The three theaters' conflict decks make
    one deck, and the standard victory needs half of the combined victory points."""
    cat = real_catalog
    s = team_setup(cat, 1, axis=COMBINED[0], allies=COMBINED[1])
    decks = {th: cat.conflict_deck(th, set_codes=(f"{th.lower()}-conflict-starter",))
             for th in ("WE", "PAC", "EF")}
    assert sorted(s.conflict_deck) == sorted(c for d in decks.values() for c in d)
    st = new_game(cat, s)
    vps = sum(cat.battlecards[c].victory_points for d in decks.values() for c in d if c in cat.battlecards)
    assert st.vp_threshold == (vps + 1) // 2 == (76 + 72 + 74 + 1) // 2
    assert len(st.aside) == 3  # each theater's battlecard list card set aside


def test_combining_sets_allies_called_in_together_own_hands_and_stacks(real_catalog):
    """COMBINING SETS: "Allied nations will be called into battles together, but each nation will have its
    own separate reserve hand and deployed forces stacks." A Japanese battlecard drawn by the British army
    is fought by the Axis army across from him (the German), who may choose any Allied nation's army; each
    nation keeps its own hand, stacks and arsenal deck."""
    st = _start(real_catalog, *COMBINED)
    for a in st.armies:  # 2 v 3: Optional Rule 4's 9/6 for each Axis army
        assert len(st.players[a]["hand"]) == 3 and _deployed(st, a) == (6 if a.startswith("axis") else 3)
        assert st.arsenal(a) is st.pools[f"{a.split('-')[0]}:{st.players[a]['nation']}"]
    hands = [c for a in st.armies for c in st.players[a]["hand"]]
    assert len(hands) == len(set(hands))
    code = next(c for c, b in real_catalog.battlecards.items() if c.startswith("pac-")
                and b.aggressor == "JP" and not b.prerequisites and b.homeland_of is None)
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, code))
    apply(st, {"type": "draw", "seat": "allies-1"})
    assert (st.decision.kind, st.decision.seat) == ("fight_or_decline", "axis-1")
    apply(st, Choose("axis-1", "fight"))
    assert st.decision.kind == "choose_enemy_army"
    assert _named(st, "allies") == ["allies-1", "allies-2", "allies-3"]


def _homeland_battle(cat, st, drawer, code, defenders, won=()):
    """`drawer` draws the homeland battlecard `code` with his ground forces against `defenders` stripped of
    every card (hand and stacks): the battle is won by the drawer's side."""
    def edit(d):
        for army in defenders:
            _strip(d, army)
        for w in won:
            d["sides"]["allies"]["won"].append(_take(d, w))
        nation = d["players"][drawer]["nation"].lower()
        _deploy(d, drawer, "ground", [f"{nation}-infantry", f"{nation}-infantry"])
        _top(d, code)
    st = _at_turn(cat, st, drawer, edit)
    apply(st, {"type": "draw", "seat": drawer})
    for _ in range(200):
        if st.decision is None or (st.decision.kind == "turn_start" and st.decision.seat != drawer):
            break
        acts = legal_actions(st)
        apply(st, next((a for a in acts if (isinstance(a, Choose) and a.option == "fight")
                        or isinstance(a, Pass)), acts[0]))
    return st


def test_combining_sets_several_homelands(real_catalog):
    """COMBINING SETS with several homelands (estimated, README): winning a nation's homeland battle
    eliminates that nation's armies (the Allies win the Battle for Germany: the German army is out, the
    Japanese plays on, the turns skip the German); total victory only when every army of the other side is
    out (then the Invasion of Japan)."""
    cat = real_catalog
    st = _start(cat, *COMBINED)
    st = _homeland_battle(cat, st, "allies-1", "we-battle-for-germany", ["axis-1", "axis-2"])
    assert [st.code[c] for c in st.team("allies")["won"]] == ["we-battle-for-germany"]
    assert st.players["axis-1"]["out"] and not st.players["axis-2"]["out"]
    assert st.status == "active" and st.armies_of("axis") == ["axis-2"]
    assert st.decision.seat != "axis-1"
    st = _homeland_battle(cat, st, "allies-2", "pac-invasion-of-japan", ["axis-2"],
                          won=["pac-battle-of-okinawa"])
    assert st.players["axis-2"]["out"]
    assert st.status == "finished" and st.winner == "allies"
    assert "total" in str(st.result)


# ---- termination guard, bots, replay -----------------------------------------------------------------------
def test_turn_limit_per_two_armies(real_catalog):
    """Options.max_turns counts the turns of the table: a team game gets max_turns per two armies, so each
    army plays as many turns as a classic player; classic games unchanged."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 3, max_turns=10)
    assert turn_limit(st) == 25
    assert turn_limit(_start(real_catalog, ["DE"], ["GB"], max_turns=10)) == 10  # 1v1 in army form
    classic = new_game(real_catalog, starter_setup(real_catalog, 1, options=Options(max_turns=10)))
    assert classic.classic and turn_limit(classic) == 10
    bots = {a: RandomBot(salt=2) for a in st.armies}
    st = play_game(real_catalog, st.setup, bots)
    assert st.status == "finished" and st.turn <= 25


@pytest.mark.parametrize("axis,allies", [(["DE"] * 2, ["GB"] * 2), (["DE"], ["GB"] * 2),
                                         (["DE"] * 3, ["GB"] * 4), COMBINED])
def test_bot_games_finish_and_replay(real_catalog, axis, allies):
    """Heuristic and random bots play 2v2, 1v2, 3v4 and the combined GB+US+RU v DE+JP game to the end; the
    setup and the action log replay to the same state."""
    for seed in (1, 2):
        s = team_setup(real_catalog, seed, axis=axis, allies=allies)
        for mix in ("heuristic", "mixed"):
            bots = {a: (HeuristicBot(real_catalog) if mix == "heuristic" or i % 2 else RandomBot(salt=seed))
                    for i, a in enumerate(s.armies)}
            log: list = []
            st = play_game(real_catalog, s, bots, log=log)
            assert st.status == "finished", (axis, allies, seed, mix)
            assert st.winner in ("axis", "allies", None)
            assert replay(real_catalog, s, log).to_json() == st.to_json()


def test_heuristic_bot_team_decisions(real_catalog):
    """HeuristicBot: fights the enemy army with the fewest deployed units of the battle's kinds, sends back
    its least valuable card in a reserve trade, refuses seat trades and never proposes OR3 options."""
    bot = HeuristicBot(real_catalog)
    st = _start(real_catalog, ["DE"], ["GB", "GB"])

    def edit(d):
        _top(d, "we-invasion-of-luxembourg")
        _deploy(d, "allies-1", "ground", ["gb-infantry"] * 4)  # 7 units against the 2nd army's 3
    st = _at_turn(real_catalog, st, "allies-2", edit)
    apply(st, {"type": "draw", "seat": "allies-2"})
    apply(st, Choose("axis-1", "fight"))
    assert st.decision.kind == "choose_enemy_army"
    assert bot.choose(view(st, "axis-1"), legal_actions(st), "axis-1") == Choose("axis-1", "allies-2")

    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)

    def edit2(d):
        _hand(d, "allies-1", ["gb-infantry", "gb-hood", "gb-montgomery"])
    st = _at_turn(real_catalog, st, "allies-2", edit2)
    assert bot.choose(view(st, "allies-2"), legal_actions(st), "allies-2").type == "draw"
    apply(st, Choose("allies-2", "trade", army="allies-1", card=st.players["allies-2"]["hand"][0]))
    back = bot.choose(view(st, "allies-1"), legal_actions(st), "allies-1")
    assert st.code[back.option] == "gb-infantry"
    st = _at_turn(real_catalog, st, "allies-2")
    apply(st, Choose("allies-2", "seats", army="allies-1"))
    assert bot.choose(view(st, "allies-1"), legal_actions(st), "allies-1") == Choose("allies-1", "refuse")


def test_teammates_see_no_more_than_an_enemy(real_catalog):
    """README (team play): a teammate's hand and face-down stacks are as private as an enemy's; the side's
    kept cards and won battlecards are shared."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    v = view(st, "allies-1")
    mate, enemy = v["armies"]["others"]["allies-2"], v["armies"]["others"]["axis-1"]
    for army in (mate, enemy):
        assert "hand" not in army and isinstance(army["hand_size"], int)
        assert all(isinstance(n, int) for k in army["stacks"].values() for n in k)
    text = str(v)
    for c in st.players["allies-2"]["hand"] + [c for k in st.players["allies-2"]["stacks"].values()
                                               for s in k for c in s]:
        assert f"'{c}'" not in text


def test_kept_card_event_visible_to_every_army_of_the_side(real_catalog):
    """OR3 kept cards are the side's: the private `card_kept_private` event (visible_to the side) reaches
    every army of the side through events_for, no enemy army."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, "we-counterattack"))
    events = apply(st, {"type": "draw", "seat": "allies-1"})
    cid = st.team("allies")["kept"][0]
    for army in ("allies-1", "allies-2"):
        assert [e.data["card"] for e in events_for(events, army) if e.type == "card_kept_private"] == [cid]
    for army in ("axis-1", "axis-2"):
        assert not [e for e in events_for(events, army) if cid in str(e.data)]


def test_capture_shows_the_card_only_to_the_two_armies(real_catalog):
    """A captured card goes face down into the captor's stack: in a team game the public `captured` event
    has no card; the card is in `captured_card`, private to the captor and the victim (README, team play)."""
    st = _start(real_catalog, ["DE"] * 2, ["GB"] * 2)
    st = _at_turn(real_catalog, st, "allies-1", lambda d: _top(d, "we-capture"))
    events = apply(st, {"type": "draw", "seat": "allies-1"})
    assert (st.decision.kind, st.decision.seat) == ("capture_browse", "allies-1")
    assert all(a.option == "stack" and a.stack.startswith(("ground", "air", "sea"))
               for a in legal_actions(st))
    events += apply(st, legal_actions(st)[0])
    take = legal_actions(st)[0]
    events += apply(st, take)
    assert take.card in [c for k in st.players["allies-1"]["stacks"].values() for s in k for c in s]
    public = next(e for e in events if e.type == "captured")
    assert public.visible_to == "all" and "card" not in public.data and public.data["from"] == "axis-1"
    private = [e for e in events if e.type == "captured_card"]
    assert sorted(e.visible_to for e in private) == ["allies-1", "axis-1"]
    assert all(e.data["card"] == take.card for e in private)
    for army in ("allies-2", "axis-2"):
        assert not [e for e in events_for(events, army) if take.card in str(e.data)]


def test_teams_more_than_one_army_apart_are_not_a_game_of_the_rules(real_catalog):
    """OR3: "any multiple of 2 players. In a multi-player game, each side gets an equal number of players";
    OR4: "it is possible to play the game with 3, 5, or even 7 players" (one side one army larger). A 1v3 or
    2v4 set-up is refused by the engine itself, not only by the API."""
    import pytest

    from games.engine import SetupError
    from games.engine.battlecards.setup import team_setup

    for axis, allies in ((["DE"], ["GB"] * 3), (["DE"] * 4, ["GB"] * 2)):
        with pytest.raises(SetupError) as exc:
            team_setup(real_catalog, 1, axis=axis, allies=allies)
        assert exc.value.code == "malformed_setup" and "one army apart" in exc.value.message
