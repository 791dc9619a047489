"""The War's game-type adapter (games.definitions.the_war.TheWar): options and the deck rules at creation, the
frozen card snapshot, set-up, bots and views through the adapter (no database)."""
from __future__ import annotations

import json

import pytest

from config.errors import ValidationFailed
from games.game_types import get_game_type


@pytest.fixture(scope="module")
def kind():
    return get_game_type("the-war")


def test_default_options_are_the_two_starters_checked_by_the_deck_rules(kind):
    decks = kind.options({})
    assert set(decks) == {"p1", "p2"} and len(decks["p1"]) == 60 and len(decks["p2"]) == 60


def test_the_casual_size_rule_is_checked_at_creation(kind):
    entries = {"tw-depot": 20, "tw-guardsmen": 4}
    kind.options({"casual": True, "decks": {"p1": {"army": "red-army", "entries": entries},
                                            "p2": {"army": "red-army", "entries": entries}}})
    with pytest.raises(ValidationFailed) as e:
        kind.options({"casual": True, "decks": {"p1": {"army": "red-army", "entries": entries},
                                                "p2": {"starter": "tw-starter-wehrmacht"}}})
    assert "deck_size_mismatch" in str(e.value.detail if hasattr(e.value, "detail") else e.value)
    with pytest.raises(ValidationFailed):  # not casual: 60 cards each
        kind.options({"decks": {"p1": {"army": "red-army", "entries": entries},
                                "p2": {"army": "red-army", "entries": entries}}})
    with pytest.raises(ValidationFailed):
        kind.options({"blitz": True})


def test_a_game_plays_to_the_end_through_the_adapter(kind):
    snapshot = json.loads(json.dumps(kind.live_snapshot()))
    catalog = kind.catalog_from_dicts(snapshot)
    setup = kind.new_setup(seed=11, options=kind.options({}))
    assert kind.setup_from_json(setup.to_json()) == setup
    state = kind.new_state(catalog, setup)
    bots = {"p1": kind.bot("heuristic", catalog=catalog, salt="h"), "p2": kind.bot("random", catalog=catalog)}
    log: list = []
    while state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(kind.view(state, seat), kind.legal_actions(state), seat)
        log.append(action.to_json())
        kind.apply(state, kind.parse_action(action.to_json() | {"seat": seat}))
    assert state.status == "finished" and state.winner == "p1"
    again = kind.replay(catalog, setup.to_json(), log)
    assert again.to_json() == state.to_json()
    view = kind.view(state, "p2")
    defs = kind.card_definitions(kind.card_codes(view), catalog)
    assert "tw-depot" in defs and "provenance" not in defs["tw-depot"]
    json.dumps(defs)
    hand = set(state.zones["p1"]["hand"])
    assert not any(f'"{c}"' in json.dumps(view) for c in hand)
