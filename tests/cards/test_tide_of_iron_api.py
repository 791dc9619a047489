"""Tide of Iron's Strategy cards in the database (issue 27): load_catalog, local overrides, the read API
(/api/tide-of-iron/cards, decks, scenarios), ?q=, filters and faces."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from cards.models import FixtureState
from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiScenario
from cards.tide_of_iron.services import tide_of_iron_load
from vocabulary.tide_of_iron import read_documents

pytestmark = pytest.mark.django_db


def test_load_catalog_loads_every_card_deck_and_scenario_and_is_idempotent(catalog_rows):
    cards, decks = read_documents()
    assert ToiCard.objects.count() == len(cards["cards"])
    assert ToiDeck.objects.count() == len(decks["decks"]) and ToiScenario.objects.count() == len(
        decks["scenarios"]
    )
    sb = ToiCard.objects.get(code="toi-sustained-blanket")
    assert (sb.contact, sb.area_attack, sb.wide_blast, sb.suppressive) == (4, 4, 3, True)
    out = io.StringIO()
    call_command("load_catalog", stdout=out)
    assert "toi_cards: 11 (0 created, 0 updated, 0 deleted)" in out.getvalue()


def test_an_admin_edit_is_a_local_override_the_next_load_keeps(catalog_rows):
    card = ToiCard.objects.get(code="toi-harassing-fire")
    card.cost = 9
    card.save()
    cards, decks = read_documents()
    result = tide_of_iron_load(cards=cards, decks=decks)
    assert ToiCard.objects.get(code="toi-harassing-fire").cost == 9
    assert [(o["code"], o["field"]) for o in result.overrides] == [("toi-harassing-fire", "cost")]
    assert FixtureState.objects.get(name="tide_of_iron").overrides
    tide_of_iron_load(cards=cards, decks=decks, reset=True)
    assert ToiCard.objects.get(code="toi-harassing-fire").cost == 2


def test_a_card_edit_outside_the_vocabulary_is_refused_by_clean(catalog_rows):
    from django.core.exceptions import ValidationError

    card = ToiCard.objects.get(code="toi-sustained-blanket")
    card.keywords = [{"keyword": "smoke"}]
    with pytest.raises(ValidationError):
        card.full_clean()


def test_card_list_and_detail_carry_every_value_with_its_provenance(catalog_rows, client):
    page = client.get("/api/tide-of-iron/cards/").json()
    assert page["count"] == 11
    sb = client.get("/api/tide-of-iron/cards/toi-sustained-blanket/").json()
    assert sb["deck_title"] == "Artillery II" and sb["phase"] == "action"
    assert sb["keywords"][0] == {"keyword": "establish-contact", "value": 4}
    assert sb["provenance"]["keywords.4"]["source"] == "seed"
    assert "cost" in sb["estimated"] and "keywords.0" not in sb["estimated"]
    assert sb["face_url"].endswith("/api/tide-of-iron/cards/toi-sustained-blanket/face.svg")
    assert client.get("/api/tide-of-iron/cards/nope/").json()["code"] == "not_found"


@pytest.mark.parametrize(
    "query, expected",
    [
        (
            "keyword:wide-blast-radius contact>=4",
            {"toi-sustained-blanket", "toi-heavy-concentration", "toi-dive-bombers", "toi-creeping-barrage"},
        ),
        ("is:seed", {"toi-sustained-blanket", "toi-increased-priority"}),
        ("deck:air phase:command", {"toi-air-cover"}),
        ("is:suppressive", {"toi-sustained-blanket", "toi-creeping-barrage"}),
        ('"Sustained Blanket"', {"toi-sustained-blanket"}),
        ("blast=3 area>=5", {"toi-heavy-concentration"}),
    ],
)
def test_the_search_language(catalog_rows, client, query, expected):
    page = client.get("/api/tide-of-iron/cards/", {"q": query, "page_size": 100}).json()
    assert {c["code"] for c in page["results"]} == expected, page


def test_unknown_search_terms_are_warnings_and_bad_filters_are_400(catalog_rows, client):
    page = client.get("/api/tide-of-iron/cards/", {"q": "keyword:smoke cost<=1"}).json()
    assert page["warnings"] and page["count"] == 2  # Increased Priority and Air Cover cost 1
    assert client.get("/api/tide-of-iron/cards/", {"q": "keyword:smoke"}).status_code == 400
    bad = client.get("/api/tide-of-iron/cards/", {"phase": "status"})
    assert bad.status_code == 400 and bad.json()["status"] == 400
    assert (
        client.get("/api/tide-of-iron/cards/", {"keyword": "area-attack", "play_area": "false"}).json()[
            "count"
        ]
        == 9
    )


def test_decks_and_scenarios(catalog_rows, client):
    decks = client.get("/api/tide-of-iron/decks/").json()["results"]
    assert [d["title"] for d in decks] == ["Artillery I", "Artillery II", "Air Support"]
    assert all(d["card_count"] == 6 for d in decks)
    scenario = client.get("/api/tide-of-iron/scenarios/toi-scenario-artillery-duel/").json()
    assert scenario["seats"]["axis"]["decks"] == ["toi-artillery-i"]


def test_faces_mark_estimated_values(catalog_rows, client):
    response = client.get("/api/tide-of-iron/cards/toi-sustained-blanket/face.svg")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert "Sustained Blanket" in svg and "suppressive wide blast radius (3)" in svg
    assert 'class="est"' in svg or "est" in svg
    again = client.get(
        "/api/tide-of-iron/cards/toi-sustained-blanket/face.svg", HTTP_IF_NONE_MATCH=response["ETag"]
    )
    assert again.status_code == 304
    assert client.get("/api/tide-of-iron/cards/nope/face.svg").status_code == 404


def test_the_bulk_of_the_fixture_round_trips(catalog_rows):
    from cards.tide_of_iron.selectors import toi_dicts
    from cards.tide_of_iron.services import tide_of_iron_validate

    cards, decks = read_documents()
    assert json.dumps(toi_dicts(), sort_keys=True) == json.dumps(
        tide_of_iron_validate(cards=cards, decks=decks), sort_keys=True
    )
