"""Issue 36 item 7: the draws go through a player's decks in the scenario's order, whatever order a database
returns a stored state's JSON keys in (PostgreSQL's jsonb returns them shortest first), so that a match
reloaded from the database after every action replays from its log to the same state."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import tide_of_iron as toi
from tests.engine.tide_of_iron.conftest import catalog
from tests.engine.tide_of_iron.golden import script_choice

# Artillery duel: the allies draw from Artillery II then Air Support; jsonb lists "toi-air-support" (15
# characters) before "toi-artillery-ii" (16)
SCENARIO = "toi-scenario-artillery-duel"
ROUNDS = 3


def jsonb_order(data: Any) -> Any:
    """The JSON as PostgreSQL's jsonb gives it back: every object's keys shortest first, then bytewise."""
    if isinstance(data, dict):
        return {k: jsonb_order(data[k]) for k in sorted(data, key=lambda k: (len(k.encode()), k.encode()))}
    if isinstance(data, list):
        return [jsonb_order(v) for v in data]
    return data


def shuffled_keys(data: Any, rnd: random.Random) -> Any:
    if isinstance(data, dict):
        keys = list(data)
        rnd.shuffle(keys)
        return {k: shuffled_keys(data[k], rnd) for k in keys}
    if isinstance(data, list):
        return [shuffled_keys(v, rnd) for v in data]
    return data


def setups(seed: int) -> list[toi.GameSetup]:
    options = {"scenario": SCENARIO, "board_width": 12, "board_height": 10}
    current = toi.GameSetup(seed=seed, options=toi.Options(**options))
    # a setup stored before issue 36 (no "revision"): its state keeps the legacy {deck: cards} object
    legacy = toi.GameSetup.from_json({"game": "tide-of-iron", "seed": seed, "options": options})
    return [current, legacy]


def play(setup: toi.GameSetup, reload) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The scripted match of the golden games; after every action the state goes through `reload` (its
    JSON as a database returns it). Returns the final state, the actions and the events."""
    cat = catalog()
    st = toi.new_game(cat, setup)
    actions: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    while st.status == "active":
        seat = st.decision.seat
        action = {**script_choice(toi.view(st, seat), st.ply), "seat": seat}
        if st.round > ROUNDS and st.decision.kind == "act":
            action = {"type": "end_match", "seat": seat, "result": "draw"}
        events += [e.to_json() for e in toi.apply(st, action)]
        actions.append(action)
        st = toi.TideOfIronState.from_json(reload(json.loads(json.dumps(st.to_json()))), cat)
    return st.to_json(), actions, events


def test_a_match_reloaded_with_jsonb_key_order_after_every_action_replays_from_its_log():
    for setup in setups(seed=3):
        final, actions, events = play(setup, jsonb_order)
        drawn = [
            e["data"]["deck"] for e in events if e["type"] == "card_drawn" and e["data"]["seat"] == "allies"
        ]
        # every Status Phase draws Artillery II, then Air Support: the scenario's order
        assert drawn[:4] == ["toi-artillery-ii", "toi-air-support"] * 2, drawn
        rerun = toi.replay(catalog(), setup, actions)
        assert rerun.to_json() == final
        assert json.dumps(rerun.to_json(), sort_keys=True) == json.dumps(final, sort_keys=True)


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 2**16), shuffle=hs.randoms(use_true_random=False))
def test_a_state_whose_json_keys_were_shuffled_plays_on_as_the_original(seed, shuffle):
    for setup in setups(seed):
        straight = play(setup, lambda data: data)
        assert play(setup, lambda data: shuffled_keys(data, shuffle)) == straight


def test_new_matches_store_the_decks_as_a_list_in_scenario_order_legacy_ones_keep_the_object():
    current, legacy = setups(seed=5)
    stored = toi.new_game(catalog(), current).to_json()
    assert stored["setup"]["revision"] == toi.RULES_REVISION
    assert [d["deck"] for d in stored["decks"]["allies"]] == ["toi-artillery-ii", "toi-air-support"]
    old = toi.new_game(catalog(), legacy).to_json()
    assert "revision" not in old["setup"] and isinstance(old["decks"]["allies"], dict)
    # a legacy state read back in jsonb order still lists (and draws) the decks in the scenario's order
    reread = toi.TideOfIronState.from_json(jsonb_order(old), catalog())
    assert list(reread.decks["allies"]) == ["toi-artillery-ii", "toi-air-support"]
    assert [d["code"] for d in toi.view(reread, "allies")["me"]["decks"]] == list(reread.decks["allies"])
