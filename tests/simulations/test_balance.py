"""POST /api/decks/{id}/balance/: legal swaps within the nation's list, ranked by simulated win rate."""

from __future__ import annotations

import pytest

from decks.rules import ConflictChoice, DeckInput, set_arsenal_counts, validate_matchup
from decks.services import deck_create
from simulations.balance import propose_swaps

EXPENSIVE = ("gb-ultra", "gb-illustrious", "gb-nelson")  # 30 + 21 + 21 points over the British starter


def _gb_plus(catalog, extra) -> dict[str, int]:
    entries = set_arsenal_counts(catalog.sets["gb-we-starter"], catalog, "GB")
    for code in extra:
        entries[code] = entries.get(code, 0) + 1
    return entries


def test_proposals_make_an_illegal_matchup_legal_within_the_deck_rules(catalog):
    de = DeckInput("DE", set_arsenal_counts(catalog.sets["de-we-starter"], catalog, "DE"))
    mine = DeckInput("GB", _gb_plus(catalog, EXPENSIVE))
    choice = ConflictChoice("WE")
    assert not validate_matchup(catalog, mine, de, choice).is_legal
    proposals = propose_swaps(catalog, mine, de, choice, limit=3)
    assert proposals
    for proposal in proposals:
        result = validate_matchup(catalog, DeckInput("GB", proposal.entries), de, choice)
        assert result.is_legal, result.violations
        assert all(catalog.arsenal[code].nation == "GB" for code in proposal.entries)
        assert abs(proposal.point_difference) <= 10 and abs(proposal.card_difference) <= 10
        for code, count in proposal.added.items():
            assert proposal.entries[code] - mine.entries.get(code, 0) == count


def test_a_legal_matchup_gets_legal_single_changes_both_ways(catalog):
    de = DeckInput("DE", set_arsenal_counts(catalog.sets["de-we-starter"], catalog, "DE"))
    mine = DeckInput("GB", _gb_plus(catalog, ()))
    proposals = propose_swaps(catalog, mine, de, ConflictChoice("WE"), limit=4)
    assert len(proposals) == 4
    assert {p.point_difference > 0 for p in proposals} == {True, False}
    assert all(p.changes <= 2 for p in proposals)


@pytest.fixture
def heavy_deck(alice, catalog_rows, catalog):
    return deck_create(owner=alice, name="heavy", nation="GB", entries=_gb_plus(catalog, EXPENSIVE))


def test_balance_runs_as_a_job_and_ranks_proposals_toward_even(submit, alice, api, heavy_deck):
    response = submit(
        alice,
        f"/api/decks/{heavy_deck.pk}/balance/",
        opponent={"starter": "de-we-starter"},
        games=4,
        seed=5,
        proposals=2,
        bots={"a": "random", "b": "random"},
    )
    assert response.status_code == 202, response.json()
    job = api(alice).get(f"/api/simulations/{response.json()['id']}/").json()
    assert job["kind"] == "balance" and job["status"] == "done", job
    assert job["progress"]["games_done"] == job["progress"]["games_total"] == 8  # 2 proposals x 4 games
    assert job["request"]["matchup_legal"] is False
    result = job["result"]
    assert result["current"] is None and result["side"] == "allies"
    distances = [p["distance_from_even"] for p in result["proposals"]]
    assert distances == sorted(distances) and len(distances) == 2
    for proposal in result["proposals"]:
        assert proposal["changes"] >= 1 and set(proposal["remove"]) <= set(EXPENSIVE) | set(
            proposal["remove"]
        )
        assert proposal["report"]["games"] == 4
        low, high = proposal["ci95"]
        assert low <= proposal["win_rate"] <= high


def test_balance_of_someone_elses_private_deck_is_404(api, bob, heavy_deck, inline_runner):
    response = api(bob).post(
        f"/api/decks/{heavy_deck.pk}/balance/",
        {"opponent": {"starter": "de-we-starter"}, "games": 2},
        format="json",
    )
    assert response.status_code == 404 and response.json()["code"] == "deck_not_found"


def test_balance_against_a_deck_of_the_same_side_is_refused(api, alice, heavy_deck, inline_runner):
    response = api(alice).post(
        f"/api/decks/{heavy_deck.pk}/balance/",
        {"opponent": {"starter": "gb-we-starter"}, "games": 2},
        format="json",
    )
    assert response.status_code == 400
