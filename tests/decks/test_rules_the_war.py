"""decks/rules_the_war.py on the committed The War pool: each rule at its boundary, every violation at once,
the starters, the army reading and the casual variant. Pure: no database.

The rules ("Main Part" of ../shared/seeds/the-war-rules.txt): "Total number of cards in a deck must be 60.
Only four copies of each card (except "basic resource" cards) are allowed in a deck. Two cards are identical
if they have the same title." "Only one copy of a particular hero card is allowed in a deck." Casual play:
any size, "but number of cards in two decks must still be equal".
"""

from __future__ import annotations

import copy
import json

import pytest

from decks.rules_the_war import (
    DeckInput,
    validate_casual_pair,
    validate_deck,
    validate_pair,
)
from vocabulary.the_war import FIXTURE_DIR, load_catalog, parse_catalog

CATALOG = load_catalog()
RED = dict(CATALOG.starters["tw-starter-red-army"].entries)
WEH = dict(CATALOG.starters["tw-starter-wehrmacht"].entries)


def codes(result):
    return sorted(str(v.code) for v in result.violations)


def red(**changes):
    """The Red Army starter (60 cards) with some counts changed (None removes a card)."""
    entries = dict(RED)
    for code, count in changes.items():
        code = code.replace("_", "-")
        if count is None:
            entries.pop(code, None)
        else:
            entries[code] = count
    return entries


@pytest.mark.parametrize(
    ("army", "entries"), [("red-army", RED), ("wehrmacht", WEH)], ids=["red", "wehrmacht"]
)
def test_both_starters_are_legal_60_card_decks(army, entries):
    result = validate_deck(CATALOG, army=army, entries=entries)
    assert result.is_valid and result.violations == () and result.cards == 60


# ------------------------------------------------------------------------------ 60 cards


def test_59_cards_are_too_few_and_61_too_many():
    assert RED["tw-depot"] == 7
    few = validate_deck(CATALOG, army="red-army", entries=red(tw_depot=6))
    many = validate_deck(CATALOG, army="red-army", entries=red(tw_depot=8))
    assert codes(few) == ["too_few_cards"] and codes(many) == ["too_many_cards"]
    assert [(v.limit, v.actual) for v in few.violations + many.violations] == [(60, 59), (60, 61)]


# ------------------------------------------------------------------------------ four copies of a title


def test_four_copies_of_a_title_are_allowed_five_are_not():
    four = red(tw_t_34_76=4, tw_depot=6)
    five = red(tw_t_34_76=5, tw_depot=5)
    assert validate_deck(CATALOG, army="red-army", entries=four).is_valid
    result = validate_deck(CATALOG, army="red-army", entries=five)
    assert codes(result) == ["over_max_copies"]
    (v,) = result.violations
    assert (v.card, v.limit, v.actual) == ("tw-t-34-76", 4, 5)
    assert "T-34/76" in v.message


def test_basic_resources_are_unlimited_special_resources_are_not():
    basics = red(tw_depot=14, tw_plant=None)
    assert basics["tw-depot"] > 4 and sum(basics.values()) == 60
    assert validate_deck(CATALOG, army="red-army", entries=basics).is_valid
    lend_lease = red(tw_lend_lease=5, tw_depot=4)
    assert codes(validate_deck(CATALOG, army="red-army", entries=lend_lease)) == ["over_max_copies"]


def test_copies_are_counted_per_title_and_a_year_makes_another_title():
    """Two codes with one title would be one card (the loader refuses them); a year in parentheses is part
    of the title, so a KV-1 of another year is another card with four copies of its own."""
    cards_doc = json.loads((FIXTURE_DIR / "cards.json").read_text(encoding="utf-8"))
    starters_doc = json.loads((FIXTURE_DIR / "starters.json").read_text(encoding="utf-8"))
    kv = next(c for c in cards_doc["cards"] if c["code"] == "tw-kv-1-1940")
    other_year = copy.deepcopy(kv) | {"code": "tw-kv-1-1941", "title": "KV-1 (1941)"}
    cards_doc["cards"].append(other_year)
    catalog = parse_catalog(cards_doc, starters_doc)
    entries = red(tw_kv_1_1940=4, tw_kv_1_1941=4, tw_depot=1)
    assert sum(entries.values()) == 60
    assert validate_deck(catalog, army="red-army", entries=entries).is_valid


# ------------------------------------------------------------------------------ heroes


def test_one_copy_of_a_hero_is_allowed_two_are_not():
    assert RED["tw-vasily-zaitsev"] == 1
    result = validate_deck(CATALOG, army="red-army", entries=red(tw_vasily_zaitsev=2, tw_depot=6))
    assert codes(result) == ["hero_single"]
    (v,) = result.violations
    assert (v.card, v.limit, v.actual) == ("tw-vasily-zaitsev", 1, 2)


# ------------------------------------------------------------------------------ army


def test_a_card_of_the_other_army_is_wrong_army():
    result = validate_deck(CATALOG, army="red-army", entries=red(tw_pzkpfw_vi_tiger=1, tw_depot=6))
    assert codes(result) == ["wrong_army"]
    assert result.violations[0].card == "tw-pzkpfw-vi-tiger"


@pytest.mark.parametrize("code", ["tw-river", "tw-panic", "tw-capture", "tw-depot", "tw-city-fighting"])
def test_cards_of_no_army_fit_either_army(code):
    for army, base in (("red-army", RED), ("wehrmacht", WEH)):
        entries = dict(base)
        entries[code] = entries.get(code, 0) + 1
        entries["tw-plant"] -= 1
        assert validate_deck(CATALOG, army=army, entries=entries).is_valid, (army, code)


def test_an_unknown_army_is_reported_and_its_army_checks_skipped():
    result = validate_deck(CATALOG, army="us-army", entries=RED)
    assert codes(result) == ["unknown_army"]


# ------------------------------------------------------------------------------ every violation at once


def test_an_illegal_deck_gets_every_violation():
    entries = red(
        tw_t_34_76=5,  # five copies of a title
        tw_vasily_zaitsev=2,  # two copies of a hero
        tw_pzkpfw_vi_tiger=1,  # a Wehrmacht card in a Red Army deck
        tw_nope=1,  # no such card
        tw_ba_10=0,  # not a positive count
    )
    result = validate_deck(CATALOG, army="red-army", entries=entries)
    assert not result.is_valid
    assert codes(result) == sorted(
        ["over_max_copies", "hero_single", "wrong_army", "unknown_card", "invalid_count", "too_many_cards"]
    )
    assert result.cards == 60 + 2 + 1 + 1 + 1 - 1  # the unknown card counts, the zero count does not
    body = result.to_dict()
    assert body["is_valid"] is False and len(body["violations"]) == 6
    # one violation shape for every game: a Battlecards violation's keys (pack is None here)
    assert set(body["violations"][0]) == {"code", "message", "card", "limit", "actual", "deck", "pack"}
    assert all(v["pack"] is None for v in body["violations"])


def test_a_non_integer_count_is_invalid_not_a_crash():
    result = validate_deck(CATALOG, army="red-army", entries=red(tw_t_60="2", tw_depot=8))
    assert codes(result) == ["invalid_count"]


# ------------------------------------------------------------------------------ two decks, casual play


def test_field_exercises_two_decks_of_one_army_may_play():
    result = validate_pair(CATALOG, DeckInput("red-army", RED), DeckInput("red-army", RED))
    assert result.is_legal and result.violations == ()


def test_a_pair_reports_each_decks_violations_tagged():
    result = validate_pair(CATALOG, DeckInput("red-army", red(tw_depot=6)), DeckInput("wehrmacht", WEH))
    assert not result.is_legal
    assert [(str(v.code), v.deck) for v in result.violations] == [
        ("deck_invalid", "a"),
        ("too_few_cards", "a"),
    ]


def double(entries):
    """80 cards in casual play: the starter plus 20 basic resources."""
    out = dict(entries)
    out["tw-depot"] += 10
    out["tw-plant"] += 10
    return out


def test_casual_decks_may_have_any_size_if_both_have_the_same():
    a, b = double(RED), double(WEH)
    assert sum(a.values()) == sum(b.values()) == 80
    assert validate_casual_pair(CATALOG, DeckInput("red-army", a), DeckInput("wehrmacht", b)).is_legal
    assert not validate_pair(CATALOG, DeckInput("red-army", a), DeckInput("wehrmacht", b)).is_legal


def test_casual_decks_of_different_sizes_are_refused():
    a, b = double(RED), double(WEH)
    b["tw-depot"] -= 1
    result = validate_casual_pair(CATALOG, DeckInput("red-army", a), DeckInput("wehrmacht", b))
    assert [(str(v.code), v.limit, v.actual) for v in result.violations] == [("deck_size_mismatch", 80, 79)]


def test_casual_play_keeps_the_other_deck_rules():
    a = double(RED)
    a["tw-t-34-76"] = 5
    b = double(WEH)
    b["tw-depot"] += 2
    result = validate_casual_pair(CATALOG, DeckInput("red-army", a), DeckInput("wehrmacht", b))
    assert [(str(v.code), v.deck) for v in result.violations] == [
        ("deck_invalid", "a"),
        ("over_max_copies", "a"),
    ]


def test_an_empty_casual_deck_is_refused():
    result = validate_deck(CATALOG, army="red-army", entries={}, casual=True)
    assert codes(result) == ["too_few_cards"]
