"""Battlefront cards never go in a Battlecards deck: a clear 400 `battlefront_card_in_deck` on every deck
endpoint that takes entries.

Issue 15: "Battlecards deck endpoints refuse Battlefront cards with a clear 4xx (Battlefront has no deck
building: one shared deck)". Rules: "Players share a common deck. The deck contains 1 copy of every card in
the card list."
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks.models import Deck, DeckEntry
from tests.decks.conftest import as_list
from tests.decks.factories import DeckFactory

pytestmark = pytest.mark.django_db

LIST = reverse("deck-list")
VALIDATE = reverse("deck-validate")
MATCHUP = reverse("deck-matchup")
MIXED = {"gb-infantry": 4, "bf-tank-brigade": 1}


def assert_refused(response, *codes: str) -> None:
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["status"] == 400 and body["code"] == "battlefront_card_in_deck"
    assert body["cards"] == sorted(codes)
    assert "Battlefront has no deck building" in body["detail"] and "one shared deck" in body["detail"]
    for code in codes:
        assert code in body["detail"]


def test_create_refuses_a_battlefront_card_and_saves_nothing(owner_client):
    r = owner_client.post(LIST, {"name": "x", "nation": "GB", "entries": as_list(MIXED)}, format="json")
    assert_refused(r, "bf-tank-brigade")
    assert "Tank Brigade" in r.json()["detail"]
    assert Deck.objects.count() == 0


def test_update_and_entries_replace_refuse_it_and_change_nothing(owner, owner_client):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 4})
    url = reverse("deck-detail", kwargs={"pk": deck.pk})
    assert_refused(owner_client.patch(url, {"entries": as_list(MIXED)}, format="json"), "bf-tank-brigade")
    entries_url = reverse("deck-entries", kwargs={"pk": deck.pk})
    two = as_list({"bf-armored-cars": 1, "bf-pillboxes": 2})
    r = owner_client.put(entries_url, {"entries": two}, format="json")
    assert_refused(r, "bf-armored-cars", "bf-pillboxes")
    assert dict(DeckEntry.objects.filter(deck=deck).values_list("card_code", "count")) == {"gb-infantry": 4}
    assert Deck.objects.get(pk=deck.pk).version == 1


def test_validate_refuses_it_instead_of_reporting_an_unknown_card(anon_client):
    r = anon_client.post(VALIDATE, {"nation": "GB", "entries": as_list(MIXED)}, format="json")
    assert_refused(r, "bf-tank-brigade")
    # a code that names no card at all is still a violation of an answered validation, as before
    r = anon_client.post(VALIDATE, {"nation": "GB", "entries": as_list({"gb-nope": 1})}, format="json")
    assert r.status_code == 200 and r.json()["violations"][0]["code"] == "unknown_card"


def test_the_special_cards_are_refused_too(owner_client):
    r = owner_client.post(LIST, {"name": "x", "nation": "DE", "entries": {"bf-special-1": 1}}, format="json")
    assert_refused(r, "bf-special-1")


def test_an_inline_matchup_deck_is_refused(anon_client):
    r = anon_client.post(
        MATCHUP,
        {"a": {"starter": "gb-we-starter"}, "b": {"nation": "DE", "entries": as_list({"bf-heavy-tanks": 1})}},
        format="json",
    )
    assert_refused(r, "bf-heavy-tanks")


def test_a_legal_deck_costs_no_battlefront_query(owner_client, gb_entries):
    """The Battlefront look-up runs only for codes that are not arsenal cards."""
    payload = {"name": "x", "nation": "GB", "entries": as_list(gb_entries)}
    with CaptureQueriesContext(connection) as ctx:
        r = owner_client.post(LIST, payload, format="json")
    assert r.status_code == 201
    assert not any("battlefront" in q["sql"] for q in ctx.captured_queries)


def test_a_text_import_naming_battlefront_cards_says_so_per_line(owner_client):
    text = "6 German Infantry\n2 Tank Brigade\nbf-armored-cars x1\n1 Tiger 1 Tank\n"
    r = owner_client.post(reverse("deck-import"), {"name": "x", "nation": "DE", "text": text}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "import_failed"
    lines = {line["line"]: line for line in body["lines"]}
    assert set(lines) == {2, 3, 4}
    for number, label in ((2, "Tank Brigade (bf-tank-brigade)"), (3, "Armored Cars (bf-armored-cars)")):
        assert lines[number]["code"] == "battlefront_card_in_deck"
        assert lines[number]["message"].startswith(f"{label} is a Battlefront card")
        assert "no deck building" in lines[number]["message"] and lines[number]["suggestions"] == []
    assert lines[4]["code"] == "unknown_card" and lines[4]["suggestions"]  # an arsenal typo, as before
    assert Deck.objects.count() == 0
