"""The Pacific and Eastern Front decks' own kept cards (estimated; engine README, estimated rulings
"Kamikaze" and "Russian Winter"): one test each, on the hand-made test catalog."""
from __future__ import annotations

from games.engine.battlecards.behaviour import BATTLE_WINDOW, EFFECTS

from .helpers import battle, do, fight, kinds, legal_json, load, one


def test_kamikaze_trades_one_of_your_air_units_in_the_battle_for_an_enemy_ship_in_it():
    """Estimated ruling "Kamikaze": played at the start of a battle round, one of your air units in the battle
    dives onto an enemy ship in the battle; both are destroyed, and the card is discarded."""
    assert BATTLE_WINDOW in EFFECTS["kamikaze"].windows
    st = load(
        axis={"stacks": {"air": ["de-fighter"], "sea": ["de-destroyer"]}, "kept": ["t-kamikaze"]},
        allies={"stacks": {"air": ["gb-fighter"], "sea": ["gb-battleship", "gb-destroyer"]}},
        drawn="t-sea",
    )
    fight(st)
    assert kinds(st) == "battle_window" and st.decision.seat == "axis"
    plays = [a for a in legal_json(st) if a["type"] == "play_card"]
    # every (enemy ship, own plane) pair; never an enemy plane, never one of your ships
    assert {(a["target"], a["option"]) for a in plays} == {
        (one(st, "gb-battleship"), one(st, "de-fighter")),
        (one(st, "gb-destroyer"), one(st, "de-fighter")),
    }
    card = one(st, "t-kamikaze")
    do(st, "play_card", card=card, target=one(st, "gb-battleship"), option=one(st, "de-fighter"))
    assert one(st, "gb-battleship") in st.arsenal("allies")["discard"]
    assert one(st, "de-fighter") in st.arsenal("axis")["discard"]
    fr = battle(st)
    assert one(st, "gb-battleship") not in fr.units["allies"]
    assert one(st, "de-fighter") not in fr.units["axis"]
    assert card in st.conflict_discard and card not in st.team("axis")["kept"]


def test_russian_winter_withdraws_every_enemy_armoured_unit_of_the_battle():
    """Estimated ruling "Russian Winter": played at the start of a battle round, every enemy tank,
    self-propelled gun, tank destroyer and armored car in the battle withdraws (GP1: they stay deployed);
    infantry and the other units fight on. Without enemy armour in the battle it cannot be played."""
    st = load(
        axis={"stacks": {"ground": ["de-tank", "de-tiger", "de-inf"]}},
        allies={"stacks": {"ground": ["gb-inf", "gb-tank"]}, "kept": ["t-russian-winter"]},
        drawn="t-ground",
    )
    fight(st)
    while kinds(st) == "battle_window" and st.decision.seat == "axis":
        do(st, "pass")
    assert kinds(st) == "battle_window" and st.decision.seat == "allies"
    card = one(st, "t-russian-winter")
    assert {"type": "play_card", "seat": "allies", "card": card} in [
        {k: v for k, v in a.items() if v is not None} for a in legal_json(st)
    ]
    do(st, "play_card", card=card)
    fr = battle(st)
    assert set(fr.withdrawn["axis"]) == {one(st, "de-tank"), one(st, "de-tiger")}
    assert fr.units["axis"] == [one(st, "de-inf")]
    assert one(st, "gb-tank") in fr.units["allies"]  # only the enemy's armour
    assert one(st, "de-tank") in st.players["axis"]["stacks"]["ground"][0]  # withdrawn, still deployed
    assert card in st.conflict_discard


def test_russian_winter_cannot_be_played_without_enemy_armour_in_the_battle():
    st = load(
        axis={"stacks": {"ground": ["de-inf"]}},
        allies={"stacks": {"ground": ["gb-inf"]}, "kept": ["t-russian-winter"]},
        drawn="t-ground",
    )
    fight(st)
    assert kinds(st) == "battle_window"
    while kinds(st) == "battle_window":
        assert all(a["type"] == "pass" for a in legal_json(st))
        do(st, "pass")


def test_the_axis_player_starts_in_every_theater(real_catalog):
    """Estimated ruling "First player in every theater": "Starting with the German player" (rules: PLAYING
    THE GAME) is the Axis player in every theater: Japan in the Pacific, Germany on the Eastern Front."""
    from games.engine import apply, legal_actions, new_game, starter_setup

    for theater, nation in (("WE", "DE"), ("PAC", "JP"), ("EF", "DE")):
        st = new_game(real_catalog, starter_setup(real_catalog, 5, theater=theater))
        while st.decision.kind != "turn_start":  # the initial deployments
            apply(st, legal_actions(st)[0])
        assert st.decision.seat == "axis" and st.players["axis"]["nation"] == nation and st.turn == 1
