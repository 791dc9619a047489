"""decks/rules.py on a small hand-made catalog: each rule with a passing and a failing deck. No database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules import (
    ConflictChoice,
    ConflictChoiceError,
    DeckInput,
    build_conflict_deck,
    deck_stats,
    deck_totals,
    validate_deck,
    validate_matchup,
)
from tests.decks.mini_catalog import DE_STARTER, GB_STARTER, mini_catalog

CATALOG = mini_catalog()


def codes(result):
    return sorted(str(v.code) for v in result.violations)


def custom_gb(**extra):
    """A legal customized British deck of 40 cards (not a starter)."""
    entries = {"GB-INF": 18, "GB-TANK": 12, "GB-SPIT": 8, "GB-MONTY": 1, "GB-CHURCHILL-L": 1}
    entries.update(extra)
    return {k: v for k, v in entries.items() if v is not None}


def custom_de(**extra):
    entries = {"DE-INF": 18, "DE-TIGER1": 10, "DE-ME109": 10, "DE-HITLER": 1, "DE-ROMMEL": 1}
    entries.update(extra)
    return {k: v for k, v in entries.items() if v is not None}


# --------------------------------------------------------------------------------------------- single deck


def test_custom_deck_of_40_is_legal_and_totals_are_summed():
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb())
    assert result.is_valid and result.violations == ()
    assert result.official is None
    assert result.totals.cards == 40
    assert result.totals.points == 18 * 4 + 12 * 7 + 8 * 10 + 13 + 13


def test_39_cards_is_too_few():
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{"GB-INF": 17}))
    assert codes(result) == ["too_few_cards"]
    (v,) = result.violations
    assert (v.limit, v.actual) == (40, 39)


def test_card_of_the_other_side_is_wrong_side():
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{"DE-ME262": 1}))
    assert codes(result) == ["wrong_side"]
    assert result.violations[0].card == "DE-ME262"
    assert "RAF" in result.violations[0].message


def test_card_of_an_allied_nation_is_wrong_nation():
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{"US-INF": 2}))
    assert codes(result) == ["wrong_nation"]
    assert result.violations[0].actual == 2


@pytest.mark.parametrize(
    ("card", "count", "ok"),
    [("GB-OSS", 2, True), ("GB-OSS", 3, False), ("GB-ULTRA", 1, True), ("GB-ULTRA", 2, False)],
)
def test_max_per_deck(card, count, ok):
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{card: count}))
    assert result.is_valid is ok
    if not ok:
        assert codes(result) == ["over_max_per_deck"]
        assert result.violations[0].card == card


def test_generals_and_leaders_are_single_whatever_the_list_prints():
    gb = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{"GB-MONTY": 2}))
    assert codes(gb) == ["general_leader_single"]
    # The German Hitler card prints "-" as its max per deck (East Front list): still one.
    de = validate_deck(CATALOG, nation="DE", entries=custom_de(**{"DE-HITLER": 2}))
    assert codes(de) == ["general_leader_single"]
    assert de.violations[0].limit == 1


def test_unknown_codes_conflict_cards_and_bad_counts_are_reported():
    result = validate_deck(CATALOG, nation="GB", entries=custom_gb(**{"NOPE": 1, "WE-BUILD": 1, "GB-OSS": 0}))
    assert codes(result) == ["invalid_count", "not_arsenal_card", "unknown_card"]
    assert not result.is_valid


def test_every_violation_is_reported_not_just_the_first():
    entries = {"GB-INF": 5, "DE-INF": 2, "US-INF": 1, "GB-MONTY": 3, "GB-OSS": 4, "MISSING": 1}
    result = validate_deck(CATALOG, nation="GB", entries=entries)
    assert codes(result) == [
        "general_leader_single",
        "over_max_per_deck",
        "too_few_cards",
        "unknown_card",
        "wrong_nation",
        "wrong_side",
    ]


def test_unknown_nation():
    result = validate_deck(CATALOG, nation="XX", entries=custom_gb())
    assert codes(result) == ["unknown_nation"]
    assert not result.is_valid and result.totals.cards == 40


def test_ukrainian_cards_cost_one_point_less_and_the_discount_is_exposed():
    totals = deck_totals(CATALOG, {"SU-T34": 2, "SU-T34-UA": 3, "SU-INF": 1, "SU-UA-INF": 2})
    assert totals.points == 2 * 9 + 3 * 8 + 7 + 2 * 3
    assert totals.ukrainian_cards == 5
    # "10/9*": only Ukrainian-marked units of a type that also has a Soviet card are 1 point cheaper.
    assert totals.ukrainian_discount == 3
    assert totals.points_before_discount == totals.points + 3


# --------------------------------------------------------------------------------------------- official decks


def test_official_starter_is_legal_even_below_the_customization_limits():
    result = validate_deck(CATALOG, nation="GB", entries=GB_STARTER)
    assert result.is_valid
    assert result.official.starter == "GB-S" and result.official.copies == 1 and result.official.packs == ()


def test_starter_plus_a_whole_expansion_pack_is_not_customizing():
    # OSS x2 and Firefly x3 of the pack: only the pack's British half goes into the British deck.
    entries = {**GB_STARTER, "GB-FIREFLY": 3, "GB-OSS": 2}
    result = validate_deck(CATALOG, nation="GB", entries=entries)
    assert result.is_valid and result.official.packs == ("WE-X1",)


def test_starter_plus_part_of_a_pack_is_a_custom_deck():
    entries = {**GB_STARTER, "GB-FIREFLY": 2, "GB-OSS": 2}
    result = validate_deck(CATALOG, nation="GB", entries=entries)
    assert result.official is None and result.is_valid  # still legal as a custom deck


def test_starter_plus_two_whole_packs_is_legal_even_over_the_max_per_deck():
    entries = {**DE_STARTER, "DE-HALFTRACK": 4, "DE-V2": 4, "DE-ME262": 2}  # V-2: 3 in WE-X1, 1 in WE-X2
    result = validate_deck(CATALOG, nation="DE", entries=entries)
    assert result.is_valid and result.official.packs == ("WE-X1", "WE-X2")
    customized = {**entries, "DE-INF": 21}
    assert codes(validate_deck(CATALOG, nation="DE", entries=customized)) == ["over_max_per_deck"]


def test_two_starter_sets_keep_generals_and_leaders_single():
    doubled = {code: count * 2 for code, count in GB_STARTER.items()}
    assert validate_deck(CATALOG, nation="GB", entries=doubled).official is None
    doubled.update({"GB-MONTY": 1, "GB-CHURCHILL-L": 1})
    result = validate_deck(CATALOG, nation="GB", entries=doubled)
    assert result.is_valid and result.official.copies == 2


# --------------------------------------------------------------------------------------------- conflict deck


def test_thin_conflict_deck_has_only_starter_conflict_cards():
    deck = build_conflict_deck(CATALOG, ConflictChoice("WE", "thin"))
    assert deck == ["WE-B-FRANCE", "WE-BUILD", "WE-BUILD", "WE-LIST"]


def test_fat_conflict_deck_has_every_expansion_conflict_card():
    deck = build_conflict_deck(CATALOG, ConflictChoice("WE", "fat"))
    assert deck.count("WE-X1-BUILD") == 2 and deck.count("WE-X2-BUILD") == 1 and len(deck) == 7


def test_packs_are_all_or_nothing():
    deck = build_conflict_deck(CATALOG, ConflictChoice("WE", "packs", ("WE-X1",)))
    assert deck.count("WE-X1-BUILD") == 2 and "WE-X2-BUILD" not in deck


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        (ConflictChoice("XX"), "unknown_theater"),
        (ConflictChoice("WE", "medium"), "invalid_conflict_mode"),
        (ConflictChoice("WE", "packs", ("GB-S",)), "unknown_pack"),
        (ConflictChoice("PAC", "packs", ("WE-X1",)), "pack_wrong_theater"),
        (ConflictChoice("WE", "thin", ("WE-X1",)), "packs_without_pack_mode"),
    ],
)
def test_bad_conflict_choices(choice, code):
    with pytest.raises(ConflictChoiceError) as info:
        build_conflict_deck(CATALOG, choice)
    assert code in [str(v.code) for v in info.value.violations]


# --------------------------------------------------------------------------------------------- matchup


def matchup(a, b, choice=None, nation_a="GB", nation_b="DE"):
    return validate_matchup(
        CATALOG, DeckInput(nation_a, a), DeckInput(nation_b, b), choice or ConflictChoice("WE")
    )


def test_two_official_starters_may_play_whatever_the_balance():
    result = matchup(GB_STARTER, DE_STARTER)
    assert result.is_legal and result.balance_exempt
    assert result.point_difference == 290 - 350  # 60 points apart: the 10-point rule binds custom decks only
    assert len(result.conflict_deck) == 4


def test_custom_decks_within_10_cards_and_10_points_may_play():
    a = custom_gb()  # 40 cards, 262 points
    b = {"DE-INF": 24, "DE-TIGER1": 7, "DE-ME109": 8, "DE-HITLER": 1}  # 40 cards, 266 points
    result = matchup(a, b)
    assert deck_totals(CATALOG, a).points == 262 and deck_totals(CATALOG, b).points == 266
    assert result.is_legal and not result.balance_exempt
    assert (result.card_difference, result.point_difference) == (0, -4)


def test_custom_decks_more_than_10_points_apart_may_not_play():
    result = matchup(custom_gb(), custom_de())  # 262 vs 310 points
    assert [str(v.code) for v in result.violations] == ["point_difference"]
    assert result.violations[0].actual == 48


def test_custom_decks_more_than_10_cards_apart_may_not_play():
    a = custom_gb(**{"GB-INF": 29})  # 51 cards
    b = {"DE-INF": 37, "DE-HITLER": 1, "DE-ROMMEL": 1, "DE-ME109": 1}  # 40 cards
    result = matchup(a, b)
    assert "card_difference" in [str(v.code) for v in result.violations]


def test_a_starter_against_a_custom_deck_is_balanced():
    result = matchup(GB_STARTER, custom_de())  # 290 vs 310
    assert not result.balance_exempt
    assert "point_difference" in [str(v.code) for v in result.violations]


def test_same_side_and_invalid_decks_are_reported_together():
    result = matchup(GB_STARTER, {"US-INF": 3}, nation_b="US")
    found = [(str(v.code), v.deck) for v in result.violations]
    assert ("same_side", None) in found
    assert ("deck_invalid", "b") in found and ("too_few_cards", "b") in found


def test_a_nation_must_fight_in_the_conflict_decks_theater():
    result = matchup({"SU-T34": 20, "SU-T34-UA": 5, "SU-INF": 20}, DE_STARTER, nation_a="SU")
    assert [(str(v.code), v.deck) for v in result.violations] == [("nation_not_in_theater", "a")]


def test_a_starter_plus_pack_that_is_also_a_legal_custom_deck_needs_nothing_more():
    a = {**GB_STARTER, "GB-FIREFLY": 3, "GB-OSS": 2}  # 49 cards, 344 points: a fine custom deck
    result = matchup(a, DE_STARTER)  # 45 cards, 350 points; THIN: the pack's conflict cards are not in
    assert result.is_legal, result.violations
    assert not result.balance_exempt and result.packs_used_whole == ()


def test_a_deck_legal_only_thanks_to_whole_packs_must_use_them_whole():
    de = {**DE_STARTER, "DE-HALFTRACK": 4, "DE-V2": 4, "DE-ME262": 2}  # over the V-2 max as a custom deck
    thin = matchup(GB_STARTER, de)
    found = sorted((str(v.code), v.deck, v.pack, v.card) for v in thin.violations if v.pack)
    assert found == [
        ("pack_conflict_cards_missing", "b", "WE-X1", None),
        ("pack_conflict_cards_missing", "b", "WE-X2", None),
        ("pack_incomplete", "a", "WE-X1", "GB-FIREFLY"),  # "all German, British, and Conflict cards"
        ("pack_incomplete", "a", "WE-X1", "GB-OSS"),
    ]
    # Not used whole, the packs' cards count in the balance too: 44 against 55 cards.
    assert "card_difference" in [str(v.code) for v in thin.violations]
    gb = {**GB_STARTER, "GB-FIREFLY": 3, "GB-OSS": 2}
    whole = matchup(gb, de, ConflictChoice("WE", "packs", ("WE-X1", "WE-X2")))
    assert whole.is_legal, whole.violations
    assert whole.packs_used_whole == ("WE-X1", "WE-X2") and whole.balance_exempt
    assert matchup(gb, de, ConflictChoice("WE", "fat")).is_legal


def test_whole_packs_are_left_out_of_the_balance():
    # Custom decks 4 points apart, plus the whole of WE-X1 on both sides (worth 54 and 51 points).
    a = {**custom_gb(), "GB-FIREFLY": 3, "GB-OSS": 2}
    b = {"DE-INF": 24, "DE-TIGER1": 7, "DE-ME109": 8, "DE-HITLER": 1, "DE-V2": 3, "DE-ME262": 2}
    result = matchup(a, b, ConflictChoice("WE", "fat"))
    assert result.is_legal, result.violations
    assert result.packs_used_whole == ("WE-X1",)
    assert result.balanced_point_difference == -4
    assert result.point_difference == (262 + 54) - (266 + 51)
    # Without the pack's conflict cards the same decks are merely custom decks: still legal (7 - 3 = -1).
    assert matchup(a, b).packs_used_whole == ()


# --------------------------------------------------------------------------------------------- stats


def test_stats_by_kind_class_phase_and_cost():
    stats = deck_stats(CATALOG, {"GB-INF": 10, "GB-SPIT": 2, "GB-MONTY": 1})
    assert stats["by_kind"] == {"air": {"cards": 2, "points": 20}, "ground": {"cards": 11, "points": 53}}
    assert stats["by_class"]["general"] == {"cards": 1, "points": 13}
    assert stats["by_phase"] == {"4": {"cards": 13, "points": 73}}
    assert stats["by_cost"][0] == {"cost": 4, "cards": 10, "points": 40}
    assert stats["totals"]["cards"] == 13


# --------------------------------------------------------------------------------------------- properties

GB_CODES = ["GB-INF", "GB-TANK", "GB-SPIT", "GB-FIREFLY"]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(GB_CODES), st.integers(min_value=1, max_value=30), min_size=1))
def test_custom_deck_of_own_unlimited_cards_is_legal_iff_it_has_40_cards(entries):
    result = validate_deck(CATALOG, nation="GB", entries=entries)
    assert result.totals.cards == sum(entries.values())
    assert result.is_valid == (sum(entries.values()) >= 40)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.sampled_from(GB_CODES), st.integers(min_value=1, max_value=30), min_size=1),
    st.dictionaries(
        st.sampled_from(["DE-INF", "DE-TIGER1", "DE-ME109", "DE-HALFTRACK"]),
        st.integers(min_value=1, max_value=30),
        min_size=1,
    ),
)
def test_matchup_is_symmetric(a, b):
    ab = matchup(a, b)
    ba = validate_matchup(CATALOG, DeckInput("DE", b), DeckInput("GB", a), ConflictChoice("WE"))
    assert ab.is_legal == ba.is_legal
    assert ab.point_difference == -ba.point_difference
    assert sorted(str(v.code) for v in ab.violations if v.deck is None) == sorted(
        str(v.code) for v in ba.violations if v.deck is None
    )
