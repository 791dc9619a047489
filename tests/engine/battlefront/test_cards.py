"""The Battlefront catalog as frozen values: from the fixture file or from dicts (DB rows), validated."""
from __future__ import annotations

import dataclasses
import json

import pytest

from games.engine import battlefront as bf
from games.engine.battlefront.cards import DEFAULT_CARDS_FILE


def test_from_dicts_gives_the_catalog_load_cards_reads(catalog):
    data = json.loads(DEFAULT_CARDS_FILE.read_text())
    again = bf.BattlefrontCatalog.from_dicts(data["cards"], data["special_cards"], data["special_uses"])
    assert again.cards == catalog.cards and again.special_cards == catalog.special_cards
    assert again.special_uses == catalog.special_uses
    # the frozen values give their dicts back (what a DB row would hold)
    rebuilt = bf.BattlefrontCatalog.from_dicts([c.to_dict() for c in catalog.cards.values()],
                                               [c.to_dict() for c in catalog.special_cards.values()],
                                               [u.to_dict() for us in catalog.special_uses.values()
                                                for u in us])
    assert rebuilt.cards == catalog.cards and rebuilt.special_uses == catalog.special_uses


def test_cards_are_frozen_and_abilities_structured(catalog):
    card = catalog.cards["bf-tank-destroyers"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.force = 99  # type: ignore[misc]
    assert card.abilities == (bf.Ability("negate", "T", "opposing_negated"),)
    assert catalog.cards["bf-armored-cars"].has("scout")
    assert catalog.use("US", "industrial-giant").abilities == (bf.Ability("discard_and_draw", count=2),)
    assert [u.id for u in catalog.special_uses["RU"]] == ["human-wave", "manpower"]


@pytest.mark.parametrize("cards,special,uses", [
    ([{"code": "x", "name": "X", "type": "Q", "force": 1}], [], []),                      # unknown type
    ([{"code": "x", "name": "X", "type": "T", "force": "1"}], [], []),                    # force not an int
    ([{"code": "x", "name": "X", "type": "T", "force": 1}] * 2, [], []),                  # a code twice
    ([{"code": "x", "name": "X", "type": "T", "force": 1, "abilities": [{"kind": "fly"}]}], [], []),
    ([{"code": "x", "name": "X", "type": "T", "force": 1,
       "abilities": [{"kind": "negate", "type": "T", "wording": "maybe"}]}], [], []),
    ([], [{"code": "s", "name": "S", "type": "T", "force": 3}], []),                # a Special is type X
    ([], [], [{"nationality": "FR", "name": "Elan", "type": "I", "force": 3}]),     # unknown nationality
    ([], [], [{"nationality": "US", "name": "Nothing", "type": None, "force": None}]),  # a use doing nothing
    ([{"name": "no code"}], [], []),
])
def test_bad_catalog_data_is_refused(cards, special, uses):
    with pytest.raises(bf.SetupError) as exc:
        bf.BattlefrontCatalog.from_dicts(cards, special, uses)
    assert exc.value.code == "bad_catalog"


def test_new_game_refuses_special_cards_the_catalog_lacks(catalog):
    bare = bf.BattlefrontCatalog.from_dicts([c.to_dict() for c in catalog.cards.values()])
    with pytest.raises(bf.SetupError):
        bf.new_game(bare, bf.GameSetup(1, bf.Options(special_cards={"west": "DE", "east": "US"})))
    assert bf.new_game(bare, bf.GameSetup(1, bf.Options())).status == "active"


def test_state_from_json_refuses_what_is_not_a_state(catalog):
    st = bf.new_game(catalog, bf.GameSetup(1, bf.Options()))
    data = st.to_json()
    for bad in ({}, {"game": "battlecards"}, {**data, "hands": None},
                {**data, "deck": data["deck"][:-1] + ["bf-no-such-card"]}, {**data, "frames": []}):
        with pytest.raises(bf.StateError):
            bf.BattlefrontState.from_json(bad, catalog)
    with pytest.raises(bf.StateError) as exc:
        bf.BattlefrontState.from_json({**data, "deck": data["deck"][:-1] + ["bf-no-such-card"]}, catalog)
    assert exc.value.code == "unknown_card"
