"""The deck admin (issue 21, item 16): entries are "deck entries", and a deck's nation is a select of the
catalog's nations, validated (no free text)."""

from __future__ import annotations

import re

from django.urls import reverse

from decks.models import Deck, DeckEntry
from tests.decks.factories import DeckFactory


def change_form(deck: Deck, **changes) -> dict:
    data = {
        "owner": deck.owner_id,
        "name": deck.name,
        "nation": deck.nation,
        "description": deck.description,
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "versions-TOTAL_FORMS": "0",
        "versions-INITIAL_FORMS": "0",
    }
    return {**data, **changes}


def test_entries_are_called_deck_entries(admin_client, catalog_rows):
    assert DeckEntry._meta.verbose_name_plural == "deck entries"
    deck = DeckFactory(entries={"gb-infantry": 4})
    page = admin_client.get(reverse("admin:decks_deck_change", args=[deck.pk])).content.decode()
    assert "Deck entries" in page
    assert "entrys" not in page.lower()


def test_the_nation_is_a_select_of_the_catalogs_nations(admin_client, catalog_rows):
    deck = DeckFactory()
    page = admin_client.get(reverse("admin:decks_deck_change", args=[deck.pk])).content.decode()
    select = re.search(r'<select name="nation"[^>]*>(.*?)</select>', page, flags=re.S)
    assert select is not None, "the nation is not a select"
    options = set(re.findall(r'<option value="([^"]+)"', select.group(1)))
    assert options == {"GB", "DE", "US", "JP", "RU"}
    assert re.search(r'<option value="GB"[^>]*selected', select.group(1))


def test_an_unknown_nation_is_refused_and_a_known_one_saved(admin_client, catalog_rows):
    deck = DeckFactory()
    url = reverse("admin:decks_deck_change", args=[deck.pk])
    refused = admin_client.post(url, change_form(deck, nation="Britain"))
    assert refused.status_code == 200  # the form again, with the error
    assert "Select a valid choice" in refused.content.decode()
    deck.refresh_from_db()
    assert deck.nation == "GB"
    saved = admin_client.post(url, change_form(deck, nation="DE"))
    assert saved.status_code == 302
    deck.refresh_from_db()
    assert deck.nation == "DE"
