"""The Pacific and Eastern Front conflict decks (estimated: no such deck survives; fixtures/README.md,
"The Pacific and Eastern Front conflict decks"), in the shape of the Western European one."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from rest_framework.test import APIClient

from games.engine.battlecards.setup import starter_setup, theater_starters
from vocabulary.battlecards import DEFAULT_CATALOG_DIR, read_fixture_dicts

# theater -> (starter conflict set, allies nation, axis nation, deck VP)
THEATERS = {"PAC": ("pac-conflict-starter", "US", "JP", 72), "EF": ("ef-conflict-starter", "RU", "DE", 74)}
FLAT = Counter({n: (3 if 6 <= n <= 15 else 2) for n in range(1, 21)})  # the WE starter's distribution


def _starter(catalog, theater):
    return catalog.conflict_deck(theater, set_codes=[THEATERS[theater][0]])


@pytest.mark.parametrize("theater", THEATERS)
def test_a_50_card_starter_deck_with_the_list_card_and_the_western_european_categories(catalog, theater):
    deck = _starter(catalog, theater)
    assert len(deck) == 50
    lists = [c for c in deck if c in catalog.conflict and catalog.conflict[c].effect == "battlecard-list"]
    assert len(lists) == 1
    def category(code):
        return catalog.conflict[code].category if code in catalog.conflict else "battlecard"

    categories = Counter(category(c) for c in deck)
    we = Counter(category(c) for c in _we(catalog))
    assert categories == we  # 1 list card, 14 battlecards, 19 kept / immediate, 16 military build-ups


def _we(catalog):
    return catalog.conflict_deck("WE", set_codes=["we-conflict-starter"])


@pytest.mark.parametrize("theater", THEATERS)
def test_every_card_has_an_action_number_and_the_deck_has_the_flat_distribution(catalog, theater):
    deck = _starter(catalog, theater)
    numbers = Counter((catalog.conflict.get(c) or catalog.battlecards[c]).action_number for c in deck)
    assert numbers == FLAT == Counter(
        (catalog.conflict.get(c) or catalog.battlecards[c]).action_number for c in _we(catalog)
    )
    starter = THEATERS[theater][0]
    packs = [c for c in catalog.conflict.values() if c.theater == theater and c.set_code != starter]
    assert packs and all(3 <= c.action_number <= 19 for c in packs)


@pytest.mark.parametrize("theater", THEATERS)
def test_the_victory_threshold_is_exactly_half_the_decks_victory_points(catalog, theater):
    _, allies, axis, total = THEATERS[theater]
    battles = [catalog.battlecards[c] for c in _starter(catalog, theater) if c in catalog.battlecards]
    assert len(battles) == 14 and sum(b.victory_points for b in battles) == total and total % 2 == 0
    from games.engine import new_game

    state = new_game(catalog, starter_setup(catalog, 1, theater=theater))
    assert state.vp_threshold == total // 2
    assert state.players["allies"]["nation"] == allies and state.players["axis"]["nation"] == axis


@pytest.mark.parametrize("theater", THEATERS)
def test_one_homeland_battle_per_side_eliminates_the_loser(catalog, theater):
    _, allies, axis, _ = THEATERS[theater]
    battles = [b for b in catalog.battlecards.values() if b.theater == theater]
    homelands = {b.homeland_of: b for b in battles if b.homeland_of}
    assert set(homelands) == {allies, axis}
    for nation, battle in homelands.items():
        enemy = axis if nation == allies else allies
        assert battle.aggressor == enemy and battle.emergency_deployment
        assert battle.aggressor_forces.non_artillery_ground_required and battle.aggressor_forces.ground


@pytest.mark.parametrize("theater", THEATERS)
def test_aggressors_prerequisites_and_specials_name_the_theaters_own_nations_and_cards(catalog, theater):
    _, allies, axis, _ = THEATERS[theater]
    battles = [b for b in catalog.battlecards.values() if b.theater == theater]
    assert {b.aggressor for b in battles} <= {allies, axis, "drawing-player"}
    assert {allies, axis} <= {b.aggressor for b in battles}
    prerequisites = [(b, p) for b in battles for p in b.prerequisites]
    assert prerequisites  # the campaign's order
    for b, p in prerequisites:
        assert p.holder in (allies, axis) and catalog.battlecards[p.battlecard].theater == theater
        assert p.battlecard != b.code
    specials = {b.special_victory for b in battles} - {None}
    assert specials == {"defender-wins-if-aggressor-ground-destroyed"}  # the one the engine knows
    assert all(b.special_victory_text for b in battles if b.special_victory)


def test_every_value_of_the_new_decks_is_estimated():
    """No Pacific or Eastern Front conflict card survives: every field says `estimated` with a note."""
    raw = read_fixture_dicts(DEFAULT_CATALOG_DIR)
    cards = [c for c in raw["conflict_cards"] + raw["battlecards"] if c["theater"] in THEATERS]
    assert len(cards) == 2 * 14 + sum(1 for c in raw["conflict_cards"] if c["theater"] in THEATERS)
    for card in cards:
        assert card["provenance"], card["code"]
        for field, prov in card["provenance"].items():
            assert prov["source"] == "estimated" and prov["note"], (card["code"], field)


def test_expansion_packs_of_the_theaters_carry_conflict_cards(catalog):
    packs = Counter(c.set_code for c in catalog.conflict.values() if c.theater in THEATERS
                    and not c.set_code.endswith("-conflict-starter"))
    assert set(packs) == {"us-expansion", "jp-expansion", "ru-expansion", "de-ef-expansion"}
    for pack in ("jp-expansion", "ru-expansion", "de-ef-expansion"):  # filled to a 20-card pack, as WE's
        arsenal = len(catalog.sets[pack].entries)
        conflict = len(catalog.conflict_deck(catalog.sets[pack].theater, set_codes=[pack]))
        assert arsenal + conflict == 20, pack


def test_starter_setup_builds_every_theater(catalog):
    assert theater_starters(catalog, "WE") == {"allies": "gb-we-starter", "axis": "de-we-starter"}
    assert theater_starters(catalog, "PAC") == {"allies": "us-starter", "axis": "jp-starter"}
    assert theater_starters(catalog, "EF") == {"allies": "ru-starter", "axis": "de-ef-starter"}
    we = starter_setup(catalog, 3)
    assert we == starter_setup(catalog, 3, axis_set="de-we-starter", allies_set="gb-we-starter",
                               conflict_sets=("we-conflict-starter",), theater="WE")
    for theater in THEATERS:
        setup = starter_setup(catalog, 3, theater=theater)
        assert len(setup.conflict_deck) == 50 and len(setup.decks["axis"]) == len(setup.decks["allies"]) == 50


def test_the_generator_is_up_to_date():
    """fixtures/tools/theater_decks.py writes both files; --check exits 1 when they are stale."""
    tool = DEFAULT_CATALOG_DIR.parent / "tools" / "theater_decks.py"
    assert subprocess.run([sys.executable, str(tool), "--check"], check=False).returncode == 0


@pytest.mark.django_db
@pytest.mark.parametrize("theater", THEATERS)
def test_the_catalog_api_lists_the_new_decks(catalog_rows, catalog, theater):
    client = APIClient()
    battles = client.get(f"/api/battlecards/?theater={theater}&page_size=100").json()
    assert {b["code"] for b in battles["results"]} == {
        b.code for b in catalog.battlecards.values() if b.theater == theater
    }
    cards = client.get(f"/api/conflict-cards/?theater={theater}&page_size=200").json()
    assert {c["code"] for c in cards["results"]} == {
        c.code for c in catalog.conflict.values() if c.theater == theater
    }
