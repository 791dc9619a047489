"""Simulation and balance jobs of The War (issue 24 §2): bot games between two The War decks through the same
API and workers; the balance assistant proposes swaps within the deck's army pool that keep it legal."""

from __future__ import annotations

import pytest

from decks.models import Deck, DeckEntry
from decks.rules_the_war import validate_deck
from simulations.balance_the_war import army_pool, war_propose_swaps
from simulations.models import SimulationJob
from vocabulary.the_war import load_catalog

pytestmark = pytest.mark.django_db

SMALL = {"tw-depot": 14, "tw-guardsmen": 4}


def war_deck(owner, entries, army="red-army"):
    deck = Deck.objects.create(owner=owner, name="small", game="the-war", nation=army)
    DeckEntry.objects.bulk_create(DeckEntry(deck=deck, card_code=c, count=n) for c, n in entries.items())
    return deck


def test_a_the_war_job_plays_two_saved_casual_decks(submit, alice, api):
    deck = war_deck(alice, SMALL)
    response = submit(alice, game_type="the-war", games=3, seed=24, deck_a={"deck_id": deck.pk},
                      deck_b={"deck_id": deck.pk}, options={"casual": True},
                      bots={"a": "heuristic", "b": "random"})
    assert response.status_code == 202, response.json()
    done = api(alice).get(f"/api/simulations/{response.json()['id']}/").json()
    assert done["status"] == "done", done
    assert done["request"]["bots"] == {"p1": "heuristic", "p2": "random"}
    result = done["result"]
    assert set(result["seats"]) == {"p1", "p2"} and result["unfinished"] == 0
    assert result["seats"]["p1"]["wins"] + result["seats"]["p2"]["wins"] + result["draws"] == 3


def test_a_the_war_job_refuses_decks_of_unequal_casual_size(submit, alice):
    deck = war_deck(alice, SMALL)
    response = submit(alice, game_type="the-war", games=2, deck_a={"deck_id": deck.pk},
                      deck_b={"starter": "tw-starter-wehrmacht"}, options={"casual": True})
    assert response.status_code == 400 and response.json()["code"] == "illegal_matchup"
    assert not SimulationJob.objects.exists()


def test_swaps_stay_within_the_army_pool_and_keep_the_deck_legal():
    catalog = load_catalog()
    starter = catalog.starters["tw-starter-red-army"]
    proposals = war_propose_swaps(catalog, army="red-army", entries=starter.entries, limit=4)
    assert len(proposals) == 4
    pool = set(army_pool(catalog, "red-army"))
    for proposal in proposals:
        assert set(proposal.added) <= pool and proposal.changes == 2
        assert validate_deck(catalog, army="red-army", entries=proposal.entries).is_valid
        assert sum(proposal.entries.values()) == 60


def test_the_balance_assistant_simulates_swaps_of_a_the_war_deck(submit, alice, api):
    deck = war_deck(alice, SMALL)
    response = submit(alice, f"/api/decks/{deck.pk}/balance/", opponent={"deck_id": deck.pk}, games=2,
                      seed=5, proposals=2, options={"casual": True}, bots={"a": "random", "b": "random"})
    assert response.status_code == 202, response.json()
    job = api(alice).get(f"/api/simulations/{response.json()['id']}/").json()
    assert job["kind"] == "balance" and job["status"] == "done", job
    assert job["request"]["matchup_legal"] is True and job["result"]["current"] is not None
    assert len(job["result"]["proposals"]) == 2
    catalog = load_catalog()
    for proposal in job["result"]["proposals"]:
        entries = dict(SMALL)
        for code, n in proposal["remove"].items():
            entries[code] -= n
        for code, n in proposal["add"].items():
            entries[code] = entries.get(code, 0) + n
        assert validate_deck(catalog, army="red-army", entries={c: n for c, n in entries.items() if n},
                             casual=True).is_valid
