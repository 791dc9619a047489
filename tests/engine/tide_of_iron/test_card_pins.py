"""Issue 36 item 9: card-level rules pinned through `apply`: a real card outside one's HQ area cannot be
activated; Increased Priority makes Sustained Blanket affordable with 2 command points; every estimated
card's numbers; no voluntary discard of a play-area card (revision 2), while old logs holding one replay."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import tide_of_iron as toi
from tests.engine.tide_of_iron.conftest import act, catalog, give, types


def test_activating_a_real_card_outside_ones_hq_is_refused_and_changes_nothing(new_match):
    st = new_match(scenario="toi-scenario-all-decks")
    act(st, "allies", "report_command", points="20")
    mine = set(st.hq["allies"])
    in_deck = next(c for cards in st.decks["allies"].values() for c in cards if c not in mine)
    in_their_hq = next(c for c in st.hq["axis"] if c not in mine)
    # a card back in the box: the state as if it had been resolved
    data = st.to_json()
    boxed = next(c for d in data["decks"]["allies"] for c in d["cards"] if c not in mine and c != in_deck)
    for d in data["decks"]["allies"]:
        if boxed in d["cards"]:
            d["cards"].remove(boxed)
            break
    data["box"].append(boxed)
    st = toi.TideOfIronState.from_json(data, st.catalog)
    for code in (in_deck, in_their_hq, boxed):
        assert code in st.catalog.cards and st.catalog.card(code).phase == "action"
        before = st.to_json()
        with pytest.raises(toi.IllegalAction) as refused:
            act(st, "allies", "activate", card=code)
        assert refused.value.code == "not_in_hq"
        assert st.to_json() == before
        assert ("activate", "allies", code) not in toi.legal_keys(st)


def test_with_increased_priority_in_play_sustained_blanket_costs_2_and_leaves_0_points(new_match):
    st = new_match(scenario="toi-scenario-all-decks")
    give(st, "allies", "toi-increased-priority")
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="1")
    act(st, "allies", "activate", card="toi-increased-priority")
    act(st, "axis", "pass_turn")
    act(st, "allies", "report_command", points="2")
    assert ("activate", "allies", "toi-sustained-blanket") in toi.legal_keys(st)
    events = act(st, "allies", "activate", card="toi-sustained-blanket")
    activated = next(e.data for e in events if e.type == "card_activated")
    assert (activated["printed_cost"], activated["cost"], activated["command"]) == (3, 2, 0)
    assert st.command["allies"] == 0


# every card value the fixtures estimate (provenance "estimated"), pinned: (deck, cost, phase, play_area,
# keywords as (keyword, value, suppressive)); the seed's values (Sustained Blanket's keywords) pinned too
KW = tuple[tuple[str, int | None, bool], ...]
CONTACT, TARGET, DRIFT = "establish-contact", ("target-hex", None, False), ("determine-drift", None, False)
ESTIMATED: dict[str, tuple[str, int, str, bool, KW]] = {
    "toi-increased-priority": ("toi-artillery-i", 1, "action", True, ()),
    "toi-sustained-blanket": (
        "toi-artillery-ii",
        3,
        "action",
        False,
        ((CONTACT, 4, False), TARGET, DRIFT, ("area-attack", 4, True), ("wide-blast-radius", 3, True)),
    ),
    "toi-harassing-fire": (
        "toi-artillery-i",
        2,
        "action",
        False,
        ((CONTACT, 3, False), TARGET, DRIFT, ("area-attack", 3, False)),
    ),
    "toi-creeping-barrage": (
        "toi-artillery-i",
        2,
        "action",
        False,
        ((CONTACT, 4, False), TARGET, DRIFT, ("area-attack", 3, True), ("wide-blast-radius", 2, True)),
    ),
    "toi-fire-mission": (
        "toi-artillery-i",
        2,
        "command",
        False,
        ((CONTACT, 4, False), TARGET, DRIFT, ("area-attack", 4, False)),
    ),
    "toi-heavy-concentration": (
        "toi-artillery-ii",
        3,
        "action",
        False,
        ((CONTACT, 5, False), TARGET, DRIFT, ("area-attack", 5, False), ("wide-blast-radius", 3, False)),
    ),
    "toi-rolling-barrage": (
        "toi-artillery-ii",
        2,
        "action",
        False,
        ((CONTACT, 4, False), TARGET, DRIFT, ("area-attack", 4, False)),
    ),
    "toi-registered-fire": ("toi-artillery-ii", 2, "command", False, (TARGET, ("area-attack", 3, False))),
    "toi-strafing-run": ("toi-air-support", 2, "action", False, (TARGET, DRIFT, ("area-attack", 4, False))),
    "toi-dive-bombers": (
        "toi-air-support",
        3,
        "action",
        False,
        ((CONTACT, 5, False), TARGET, DRIFT, ("area-attack", 5, False), ("wide-blast-radius", 2, False)),
    ),
    "toi-air-cover": ("toi-air-support", 1, "command", True, ()),
}
DECKS = {  # the estimated deck contents (code -> copies)
    "toi-artillery-i": {
        "toi-increased-priority": 1,
        "toi-harassing-fire": 2,
        "toi-creeping-barrage": 2,
        "toi-fire-mission": 1,
    },
    "toi-artillery-ii": {
        "toi-sustained-blanket": 1,
        "toi-heavy-concentration": 1,
        "toi-rolling-barrage": 2,
        "toi-registered-fire": 2,
    },
    "toi-air-support": {"toi-strafing-run": 2, "toi-dive-bombers": 2, "toi-air-cover": 2},
}


@pytest.mark.parametrize("code", sorted(ESTIMATED))
def test_each_estimated_cards_numbers(code):
    card = catalog().card(code)
    keywords = tuple((k.keyword, k.value, k.suppressive) for k in card.keywords)
    assert (card.deck, card.cost, card.phase, card.play_area, keywords) == ESTIMATED[code]
    assert all(k.success_on == 5 for k in card.keywords)


def test_the_table_covers_every_card_and_deck():
    cat = catalog()
    assert set(cat.cards) == set(ESTIMATED)
    assert {d: dict(Counter(deck.cards)) for d, deck in cat.decks.items()} == DECKS


def _with_increased_priority(st: toi.TideOfIronState) -> None:
    give(st, "allies", "toi-increased-priority")
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="1")
    act(st, "allies", "activate", card="toi-increased-priority")
    act(st, "axis", "pass_turn")


def test_a_play_area_card_cannot_be_discarded_at_will(new_match):
    """ "until the end of the game, or until the card is discarded by its own effects": no sentence lets a
    player discard it, so `discard` is no choice and is refused (revision 2)."""
    st = new_match(scenario="toi-scenario-all-decks")
    assert st.revision == toi.RULES_REVISION
    _with_increased_priority(st)
    assert not [k for k in toi.legal_keys(st) if k[0] == "discard"]
    before = st.to_json()
    with pytest.raises(toi.IllegalAction) as refused:
        act(st, "allies", "discard", card="toi-increased-priority")
    assert refused.value.code == "no_discard" and st.to_json() == before
    assert toi.effective_cost(st, "allies", st.catalog.card("toi-sustained-blanket")) == 2  # still in effect


def test_an_old_log_holding_a_discard_still_replays():
    """A match stored before issue 36 (no revision in its setup) keeps reading 14 as it was played: the
    discarded card goes to the box and its effect ends."""
    setup = toi.GameSetup.from_json(
        {"seed": 7, "options": {"scenario": "toi-scenario-all-decks", "board_width": 12, "board_height": 10}}
    )
    assert setup.revision == toi.LEGACY_REVISION
    st = toi.new_game(catalog(), setup)
    _with_increased_priority(st)
    assert ("discard", "allies", "toi-increased-priority") in toi.legal_keys(st)
    events = act(st, "allies", "discard", card="toi-increased-priority")
    assert types(events) == ["card_discarded"] and st.box[-1] == "toi-increased-priority"
    assert st.play["allies"] == []
    assert toi.effective_cost(st, "allies", st.catalog.card("toi-sustained-blanket")) == 3  # effect ended
