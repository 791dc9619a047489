"""Validation, matchup, starters, clone and stats through the API (real catalog rows)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks.models import Deck
from tests.decks.conftest import DE_STARTER, GB_STARTER, as_list
from tests.decks.factories import DeckFactory

pytestmark = pytest.mark.django_db

VALIDATE = reverse("deck-validate")
MATCHUP = reverse("deck-matchup")


def codes(body):
    return sorted(v["code"] for v in body["violations"])


# ---------------------------------------------------------------------------------------------- validate


def test_validate_an_unsaved_legal_deck(anon_client):
    entries = {"gb-infantry": 20, "gb-spitfire": 18, "gb-montgomery": 1, "gb-churchill-leader": 1}
    r = anon_client.post(VALIDATE, {"nation": "GB", "entries": as_list(entries)}, format="json")
    assert r.status_code == 200
    body = r.json()
    assert body["is_valid"] is True and body["violations"] == []
    assert body["totals"]["cards"] == 40 and body["totals"]["points"] == 20 * 4 + 18 * 10 + 13 + 13


def test_validate_reports_every_violation_with_machine_codes(anon_client):
    entries = {
        "gb-infantry": 20,
        "de-me-262": 1,
        "us-infantry": 2,
        "gb-montgomery": 2,
        "gb-ultra": 2,
        "gb-oss-saboteurs": 3,
        "gb-typo": 1,
    }
    body = anon_client.post(VALIDATE, {"nation": "GB", "entries": as_list(entries)}, format="json").json()
    assert body["is_valid"] is False
    assert codes(body) == [
        "general_leader_single",
        "over_max_per_deck",
        "over_max_per_deck",
        "too_few_cards",
        "unknown_card",
        "wrong_nation",
        "wrong_side",
    ]
    wrong_side = next(v for v in body["violations"] if v["code"] == "wrong_side")
    assert wrong_side["card"] == "de-me-262" and "RAF" in wrong_side["message"]
    ultra = next(v for v in body["violations"] if v["card"] == "gb-ultra")
    assert (ultra["limit"], ultra["actual"]) == (1, 2)


def test_every_official_starter_validates_through_the_api(anon_client, catalog, starter_entries):
    for card_set in catalog.starters():
        entries = starter_entries(card_set.code)
        body = anon_client.post(
            VALIDATE, {"nation": card_set.nation, "entries": as_list(entries)}, format="json"
        ).json()
        assert body["is_valid"], (card_set.code, body["violations"])
        assert body["official"]["starter"] == card_set.code


@pytest.mark.parametrize(
    "payload",
    [
        {"nation": "GB"},
        {"nation": "GB", "entries": "gb-infantry"},
        {"nation": "GB", "entries": {"gb-infantry": "three"}},
        {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 0}]},
        [],
    ],
)
def test_validate_rejects_malformed_input(anon_client, payload):
    r = anon_client.post(VALIDATE, payload, format="json")
    assert r.status_code == 400
    assert set(r.json()) >= {"status", "code", "detail"}


def _deck_of(size):
    """A custom German deck of `size` cards over many different entries."""
    cards = [
        "de-infantry",
        "de-me-109",
        "de-fw-190",
        "de-panzer-iii",
        "de-panther-g",
        "de-tiger-i",
        "de-tiger-ii",
        "de-jagdpanther",
        "de-flak-88mm",
        "de-flak-37mm",
        "de-flak-128mm",
        "de-ju-87",
        "de-he-111",
        "de-u-boat",
        "de-z1934-destroyer",
        "de-admiral-hipper",
        "de-bismarck",
        "de-me-410",
    ]
    entries = dict.fromkeys(cards, 1)
    entries["de-infantry"] += size - len(cards)
    return entries


def test_validate_query_count_is_constant_for_40_and_60_cards(anon_client):
    anon_client.post(
        VALIDATE, {"nation": "DE", "entries": as_list(_deck_of(40))}, format="json"
    )  # warm cache
    counts = []
    for size in (40, 60):
        with CaptureQueriesContext(connection) as queries:
            r = anon_client.post(
                VALIDATE, {"nation": "DE", "entries": as_list(_deck_of(size))}, format="json"
            )
        assert r.status_code == 200 and r.json()["totals"]["cards"] == size
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 1  # one query: the catalog version (catalog held in memory)


def test_saved_deck_validation_query_count_does_not_grow_with_entries(owner, owner_client):
    small = DeckFactory(owner=owner, nation="DE", entries=_deck_of(40))
    big = DeckFactory(owner=owner, nation="DE", entries={**_deck_of(60), "de-rommel": 1, "de-hitler": 1})
    owner_client.get(reverse("deck-validation", args=[small.pk]))
    sizes = []
    for deck in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert owner_client.get(reverse("deck-validation", args=[deck.pk])).status_code == 200
        sizes.append(len(queries))
    assert sizes[0] == sizes[1]


def test_saved_deck_validation(owner, owner_client):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 39})
    body = owner_client.get(reverse("deck-validation", args=[deck.pk])).json()
    assert codes(body) == ["too_few_cards"] and body["totals"]["cards"] == 39


# ---------------------------------------------------------------------------------------------- matchup


def test_matchup_of_the_two_western_european_starters_is_legal(anon_client):
    r = anon_client.post(MATCHUP, {"a": {"starter": GB_STARTER}, "b": {"starter": DE_STARTER}}, format="json")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["is_legal"] is True and body["violations"] == []
    assert body["conflict"] == {"theater": "WE", "mode": "thin", "packs": []}
    assert body["differences"]["cards"] == 0 and body["differences"]["points"] == -1
    assert body["conflict_deck"]["cards"] == 50
    assert body["deck_a"]["source"]["starter"] == GB_STARTER


def test_matchup_reports_every_failed_rule(owner, owner_client):
    deck = DeckFactory(owner=owner, nation="GB", entries={"gb-infantry": 50, "gb-ultra": 2})
    r = owner_client.post(
        MATCHUP,
        {
            "a": {"deck_id": deck.pk},
            "b": {"nation": "US", "entries": as_list({"us-infantry": 30})},
            "conflict": {"theater": "WE", "mode": "fat"},
        },
        format="json",
    )
    body = r.json()
    assert body["is_legal"] is False
    found = {(v["code"], v["deck"]) for v in body["violations"]}
    assert {
        ("deck_invalid", "a"),
        ("over_max_per_deck", "a"),
        ("deck_invalid", "b"),
        ("too_few_cards", "b"),
        ("same_side", None),
        ("card_difference", None),
        ("point_difference", None),
        ("nation_not_in_theater", "b"),
    } <= found


def test_matchup_custom_decks_within_the_balance(owner, owner_client):
    gb = {"gb-infantry": 20, "gb-spitfire": 18, "gb-montgomery": 1, "gb-churchill-leader": 1}  # 40 cards, 286
    de = {"de-infantry": 20, "de-me-109": 18, "de-rommel": 1, "de-hitler": 1}  # 40 cards, 288
    r = owner_client.post(
        MATCHUP,
        {"a": {"nation": "GB", "entries": as_list(gb)}, "b": {"nation": "DE", "entries": as_list(de)}},
        format="json",
    )
    body = r.json()
    assert body["is_legal"] is True and body["balance_exempt"] is False
    assert body["differences"]["points"] == -2


@pytest.mark.parametrize(
    ("conflict", "code"),
    [
        ({"theater": "XX"}, "unknown_theater"),
        ({"theater": "WE", "mode": "packs", "packs": ["nope"]}, "unknown_pack"),
        ({"theater": "WE", "mode": "packs", "packs": ["us-expansion"]}, "pack_wrong_theater"),
    ],
)
def test_matchup_bad_conflict_choice_is_a_violation(anon_client, conflict, code):
    body = anon_client.post(
        MATCHUP,
        {"a": {"starter": GB_STARTER}, "b": {"starter": DE_STARTER}, "conflict": conflict},
        format="json",
    ).json()
    assert body["is_legal"] is False and code in codes(body)


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"a": {"starter": GB_STARTER}}, 400, "invalid"),
        ({"a": {"starter": GB_STARTER, "deck_id": 1}, "b": {"starter": DE_STARTER}}, 400, "invalid_deck_ref"),
        ({"a": {"starter": "nope"}, "b": {"starter": DE_STARTER}}, 404, "starter_not_found"),
        (
            {"a": {"starter": GB_STARTER}, "b": {"starter": DE_STARTER}, "conflict": {"mode": "medium"}},
            400,
            "invalid",
        ),
        ({"a": {"starter": "ru-starter"}, "b": {"starter": "jp-starter"}}, 400, "theater_required"),
    ],
)
def test_matchup_bad_input(anon_client, payload, status, code):
    r = anon_client.post(MATCHUP, payload, format="json")
    assert (r.status_code, r.json()["code"]) == (status, code)


# ---------------------------------------------------------------------------------------------- starters


def test_starters_are_listed_with_computed_and_printed_totals(anon_client):
    body = anon_client.get(reverse("starter-list")).json()
    by_code = {s["code"]: s for s in body if s["game"] == "battlecards"}  # The War's are listed too
    assert set(by_code) == {
        "gb-we-starter",
        "de-we-starter",
        "us-starter",
        "jp-starter",
        "ru-starter",
        "de-ef-starter",
    }
    gb = by_code["gb-we-starter"]
    assert gb["is_valid"] and gb["totals"]["cards"] == gb["printed_cards"] == 47
    assert gb["totals"]["points"] == gb["printed_points"] == 502
    assert by_code["ru-starter"]["totals"]["ukrainian_discount"] == 5
    assert anon_client.get(reverse("starter-detail", args=["us-starter"])).json()["totals"]["points"] == 675
    r = anon_client.get(reverse("starter-detail", args=["gb-we-expansion"]))
    assert (r.status_code, r.json()["code"]) == (404, "starter_not_found")


def test_clone_a_starter_into_my_deck(owner_client, gb_entries):
    r = owner_client.post(reverse("starter-clone", args=[GB_STARTER]), {"name": "My Brits"}, format="json")
    assert r.status_code == 201
    body = r.json()
    assert body["name"] == "My Brits" and body["owner"] == "owner" and body["is_valid"]
    assert {e["card"]: e["count"] for e in body["entries"]} == gb_entries
    assert body["official"] == {"starter": GB_STARTER, "copies": 1, "packs": []}


def test_clone_needs_a_login_and_a_real_starter(anon_client, owner_client):
    assert anon_client.post(reverse("starter-clone", args=[GB_STARTER]), {}, format="json").status_code == 401
    r = owner_client.post(reverse("starter-clone", args=["nope"]), {}, format="json")
    assert (r.status_code, r.json()["code"]) == (404, "starter_not_found")
    assert Deck.objects.count() == 0


# ---------------------------------------------------------------------------------------------- stats


def test_stats_by_kind_class_phase_and_cost(owner, owner_client, catalog):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 4, "gb-spitfire": 3, "gb-hood": 1})
    body = owner_client.get(reverse("deck-stats", args=[deck.pk])).json()
    assert body["by_kind"] == {
        "air": {"cards": 3, "points": 30},
        "ground": {"cards": 4, "points": 16},
        "sea": {"cards": 1, "points": 19},
    }
    assert body["by_class"]["infantry"] == {"cards": 4, "points": 16}
    assert body["by_class"]["battlecruiser"] == {"cards": 1, "points": 19}
    phase = str(catalog.arsenal["gb-spitfire"].phase)
    assert body["by_phase"][phase]["cards"] >= 3
    assert sum(b["cards"] for b in body["by_phase"].values()) == 8
    assert [c["cost"] for c in body["by_cost"]] == [4, 10, 19]
    assert body["totals"]["points"] == 65


def test_matchup_theater_defaults_to_the_shared_one(anon_client):
    # German decks fight in Western Europe and on the East Front; the Russians share only the East Front.
    body = anon_client.post(
        MATCHUP, {"a": {"starter": "ru-starter"}, "b": {"starter": "de-ef-starter"}}, format="json"
    ).json()
    assert body["conflict"]["theater"] == "EF"


def test_entries_may_be_given_as_a_code_to_count_mapping(anon_client):
    body = anon_client.post(VALIDATE, {"nation": "GB", "entries": {"gb-infantry": 39}}, format="json").json()
    assert body["totals"]["cards"] == 39 and codes(body) == ["too_few_cards"]
