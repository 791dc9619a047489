"""The text's worked example, "Example of an Off-Board Artillery Attack" ("Sustained Blanket"), through
`apply` with the dice fixed by the test."""

from __future__ import annotations

from tests.engine.tide_of_iron.conftest import ScriptedDice, act, give


def test_sustained_blanket_as_in_the_example(new_match):
    st = new_match(scenario="toi-scenario-artillery-duel", marker="nw")  # the American player: allies
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="5")
    # the board as the players report it: target 3,4; 3 hexes directly to the right is 6,4
    act(st, "allies", "place_unit", unit="A", hex="6,4", side="axis", kind="squad")
    act(st, "allies", "place_unit", unit="B", hex="6,4", side="axis", kind="squad")
    act(st, "allies", "place_unit", unit="E", hex="5,4", side="allies", kind="squad")  # friendly
    act(st, "allies", "place_unit", unit="F", hex="6,3", side="axis", kind="vehicle")
    act(st, "allies", "place_unit", unit="G", hex="7,4", side="axis", kind="squad")
    act(st, "allies", "set_cover", hex="5,4", cover="1")
    st.rng = ScriptedDice(
        4,  # 1. Establish Contact (4): a 4 is "equal to or higher than the target number"
        3,
        3,  # 3. black 3 (< drift number 4: drifts 3 hexes), red 3 ("directly to the right")
        5,
        6,
        2,
        1,  # 4. Suppressive Area Attack (4) on the final hex: 2 successes (5 and 6)
        6,
        1,
        1,  # 5. wide blast (3) on G's hex (e of the final hex): 1 success
        5,
        5,
        3,  # 5. wide blast (3) on E's hex (w), rolled separately: 2 successes
        6,  # E's own defense die (cover 1 reported): 1 success
    )
    events = act(st, "allies", "activate", card="toi-sustained-blanket")
    assert [e.type for e in events] == ["card_activated", "contact_roll"]
    assert events[0].data["cost"] == 3 and st.command["allies"] == 2
    assert events[1].data == {
        "seat": "allies",
        "card": "toi-sustained-blanket",
        "die": 4,
        "target_number": 4,
        "established": True,
    }
    assert st.decision.kind == "target_column" and st.decision.seat == "allies"
    # 2. Target Hex: a hex his "E" unit has normal LOS to (not adjacent to a friendly unit), column then row
    act(st, "allies", "target_column", column="3")
    assert st.decision.kind == "target_row"
    act(st, "allies", "target_row", row="4")
    assert st.decision.kind == "los"
    events = act(st, "allies", "los", los="normal")
    by_type = {}
    for e in events:
        by_type.setdefault(e.type, []).append(e.data)
    drift = by_type["drift_roll"][0]
    assert (drift["drift_number"], drift["black"], drift["red"]) == (4, 3, 3)
    assert (drift["accurate"], drift["direction"], drift["distance"], drift["final"]) == (
        False,
        "e",
        3,
        "6,4",
    )
    area = by_type["area_attack"][0]
    assert (area["hex"], area["dice"], area["successes"], area["suppressive"]) == (
        "6,4",
        [5, 6, 2, 1],
        2,
        True,
    )
    blasts = by_type["wide_blast_attack"]
    assert [(b["hex"], b["dice"], b["successes"], b["rolled"]) for b in blasts] == [
        ("7,4", [6, 1, 1], 1, True),
        ("5,4", [5, 5, 3], 2, True),
        ("6,3", [], 0, False),  # F's hex: only a vehicle, unaffected by a suppressive attack
    ]
    attacked = {u["unit"]: u for u in by_type["unit_attacked"]}
    # the 2 squads in the final target hex have no cover, so no defense dice are rolled
    assert attacked["A"]["defense_dice"] == [] and attacked["A"]["hits"] == 2
    assert attacked["B"]["defense_dice"] == [] and attacked["B"]["hits"] == 2
    # squads E and G are subject to the suppressive attack, E though friendly
    assert attacked["G"]["hits"] == 1 and attacked["G"]["friendly"] is False
    assert attacked["E"]["friendly"] is True and attacked["E"]["defense_dice"] == [6]
    assert attacked["E"]["hits"] == 1 and attacked["E"]["suppressive"] is True
    # unit F is not: vehicles are unaffected by suppressive attacks
    assert "F" not in attacked
    assert [u["unit"] for u in by_type["unit_unaffected"]] == ["F"]
    # resolved, the card is discarded; the action is over: the other player decides
    assert by_type["card_resolved"][0]["to"] == "box" and "toi-sustained-blanket" in st.box
    assert st.pending is None and st.decision.seat == "axis" and st.rng.dice == []
