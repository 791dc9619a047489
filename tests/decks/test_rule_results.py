"""Every game's deck rules answer in one result type (decks.rule_results.DeckValidation), whose to_dict() is
the deck API's validation shape: the same keys for every game (The War also gives its army as `army`), and
the output serializer only renders a validation that decks.selectors made. Pure but the last test."""

from __future__ import annotations

import pytest

from decks import rules, rules_the_war
from decks.rule_results import DeckValidation, Totals
from tests.decks.mini_catalog import mini_catalog
from vocabulary.the_war import load_catalog

KEYS = ["game", "nation", "is_valid", "totals", "official", "violations"]
VIOLATION_KEYS = {"code", "message", "card", "limit", "actual", "deck", "pack"}


def test_both_games_rules_return_the_one_result_type_in_one_shape():
    battlecards = mini_catalog()
    bc = rules.validate_deck(battlecards, nation="GB", entries={"GB-INF": 3, "nope": 1})
    the_war = load_catalog()
    tw = rules_the_war.validate_deck(the_war, army="red-army", entries={"tw-nope": 1})
    assert type(bc) is DeckValidation and type(tw) is DeckValidation
    assert isinstance(bc.totals, Totals) and isinstance(tw.totals, Totals)
    assert (bc.game, tw.game) == ("battlecards", "the-war")
    assert list(bc.to_dict()) == KEYS
    assert list(tw.to_dict()) == KEYS[:2] + ["army"] + KEYS[2:]  # the army under its old key too
    assert tw.to_dict()["army"] == tw.to_dict()["nation"] == "red-army"
    for result in (bc, tw):
        body = result.to_dict()
        assert body["totals"]["cards"] == result.cards
        assert body["violations"] and all(set(v) == VIOLATION_KEYS for v in body["violations"])
    assert set(bc.to_dict()["totals"]) > {"cards", "points"} and set(tw.to_dict()["totals"]) == {"cards"}


def test_a_pair_and_a_matchup_tag_each_decks_violations_with_its_label():
    the_war = load_catalog()
    pair = rules_the_war.validate_pair(
        the_war, rules_the_war.DeckInput("red-army", {"tw-nope": 1}), rules_the_war.DeckInput("wehrmacht", {})
    )
    assert {v.deck for v in pair.violations} == {"a", "b"}
    assert pair.deck_a.game == "the-war" and not pair.deck_a.is_valid


@pytest.mark.django_db
def test_the_deck_output_serializer_renders_the_selectors_validation(owner):
    from decks import selectors
    from decks.serializers import DeckOutputSerializer
    from decks.services import deck_create

    deck = deck_create(owner=owner, name="x", nation="GB", entries={})
    deck = selectors.deck_get(user=owner, deck_id=deck.pk)
    readings = selectors.deck_readings(decks=[deck])
    validation = readings[deck.pk].validation
    assert isinstance(validation, DeckValidation) and validation == selectors.deck_validation(deck=deck)
    data = DeckOutputSerializer(deck, context={"readings": readings}).data
    assert data["is_valid"] is validation.is_valid and data["totals"] == validation.totals.to_dict()
