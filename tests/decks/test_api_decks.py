"""The deck CRUD API: create, read, change, entries, versions, bad input, access, query counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks.models import Deck, DeckEntry, DeckVersion
from tests.decks.conftest import as_list
from tests.decks.factories import DeckFactory, UserFactory

pytestmark = pytest.mark.django_db

LIST = reverse("deck-list")


def detail(deck_id, name="deck-detail", **kwargs):
    return reverse(name, kwargs={"pk": deck_id, **kwargs})


def custom_gb(**changes):
    """A legal 40-card custom British deck."""
    entries = {
        "gb-infantry": 12,
        "gb-spitfire": 10,
        "gb-churchill-tank": 10,
        "gb-hurricane": 6,
        "gb-montgomery": 1,
        "gb-churchill-leader": 1,
    }
    entries.update(changes)
    return {k: v for k, v in entries.items() if v}


# ---------------------------------------------------------------------------------------------- create / read


def test_create_a_deck_returns_entries_totals_and_legality(owner_client):
    response = owner_client.post(
        LIST, {"name": "Desert Rats", "nation": "GB", "entries": as_list(custom_gb())}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Desert Rats" and body["owner"] == "owner" and body["version"] == 1
    assert body["totals"]["cards"] == 40 and body["is_valid"] is True
    tiger = next(e for e in body["entries"] if e["card"] == "gb-spitfire")
    assert tiger == {
        "card": "gb-spitfire",
        "count": 10,
        "name": "Supermarine Spitfire",
        "nation": "GB",
        "kind": "air",
        "points": 10,
    }
    assert DeckVersion.objects.get(deck_id=body["id"]).entries == dict(sorted(custom_gb().items()))


def test_an_illegal_deck_under_construction_can_be_saved(owner_client):
    response = owner_client.post(
        LIST, {"name": "WIP", "nation": "GB", "entries": [{"card": "gb-infantry", "count": 3}]}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["is_valid"] is False


def test_list_shows_my_decks_and_public_decks_on_request(owner, other, owner_client):
    mine = DeckFactory(owner=owner, name="mine")
    DeckFactory(owner=other, name="theirs private")
    theirs_public = DeckFactory(owner=other, name="theirs public", is_public=True, nation="DE")
    assert [d["id"] for d in owner_client.get(LIST).json()["results"]] == [mine.pk]
    assert [d["id"] for d in owner_client.get(LIST, {"public": "true"}).json()["results"]] == [
        theirs_public.pk
    ]
    assert [d["id"] for d in owner_client.get(LIST, {"mine": "true"}).json()["results"]] == [mine.pk]
    assert owner_client.get(LIST, {"public": "true", "nation": "GB"}).json()["count"] == 0
    assert owner_client.get(LIST, {"public": "true", "nation": "de"}).json()["count"] == 1


def test_anonymous_list_is_the_public_decks(anon_client, owner):
    DeckFactory(owner=owner, is_public=False)
    public = DeckFactory(owner=owner, is_public=True)
    assert [d["id"] for d in anon_client.get(LIST).json()["results"]] == [public.pk]


def test_list_filters_search_and_ordering(owner, owner_client):
    DeckFactory(owner=owner, name="Bravo", is_public=True)
    DeckFactory(owner=owner, name="Alpha")
    names = [d["name"] for d in owner_client.get(LIST, {"ordering": "name"}).json()["results"]]
    assert names == ["Alpha", "Bravo"]
    assert [d["name"] for d in owner_client.get(LIST, {"is_public": "true"}).json()["results"]] == ["Bravo"]
    assert [d["name"] for d in owner_client.get(LIST, {"search": "alp"}).json()["results"]] == ["Alpha"]
    bad = owner_client.get(LIST, {"ordering": "password"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_list_uses_a_constant_number_of_queries(owner, owner_client, gb_entries):
    DeckFactory(owner=owner, entries=gb_entries)
    owner_client.get(LIST)  # warm the catalog cache
    with CaptureQueriesContext(connection) as one:
        assert owner_client.get(LIST).status_code == 200
    for _ in range(5):
        DeckFactory(owner=owner, entries=gb_entries)
    with CaptureQueriesContext(connection) as six:
        assert owner_client.get(LIST).json()["count"] == 6
    assert len(six) == len(one) > 0  # the list reads the database: an empty capture would prove nothing


# ------------------------------------------------------------------------------------- update / versions


def test_every_saved_change_creates_a_version_and_diff_shows_it(owner, owner_client):
    deck = DeckFactory(owner=owner, entries=custom_gb())
    r = owner_client.patch(detail(deck.pk), {"name": "Renamed"}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 2
    r = owner_client.put(
        detail(deck.pk, "deck-entries"),
        {"entries": as_list(custom_gb(**{"gb-infantry": 10, "gb-typhoon": 2, "gb-hurricane": None}))},
        format="json",
    )
    assert r.status_code == 200 and r.json()["version"] == 3
    # No change, no version.
    assert owner_client.patch(detail(deck.pk), {"name": "Renamed"}, format="json").json()["version"] == 3

    versions = owner_client.get(detail(deck.pk, "deck-version-list")).json()
    assert [v["number"] for v in versions["results"]] == [3, 2, 1]
    v1 = owner_client.get(detail(deck.pk, "deck-version-detail", number=1)).json()
    assert v1["name"] == deck.name and v1["cards"] == 40

    diff = owner_client.get(detail(deck.pk, "deck-version-diff"), {"from": 1, "to": 3}).json()
    assert diff["added"] == [{"card": "gb-typhoon", "count": 2}]
    assert diff["removed"] == [{"card": "gb-hurricane", "count": 6}]
    assert diff["changed"] == [{"card": "gb-infantry", "from": 12, "to": 10, "delta": -2}]
    assert diff["counts"] == {"added": 1, "removed": 1, "changed": 1}
    assert diff["fields"] == {"name": {"from": deck.name, "to": "Renamed"}}


def test_versions_are_immutable_snapshots(owner, owner_client):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 4})
    owner_client.put(
        detail(deck.pk, "deck-entries"), {"entries": [{"card": "gb-spitfire", "count": 2}]}, format="json"
    )
    assert DeckVersion.objects.get(deck=deck, number=1).entries == {"gb-infantry": 4}
    assert DeckVersion.objects.get(deck=deck, number=2).entries == {"gb-spitfire": 2}


def test_missing_version_and_bad_diff_parameters(owner, owner_client):
    deck = DeckFactory(owner=owner)
    r = owner_client.get(detail(deck.pk, "deck-version-detail", number=9))
    assert (r.status_code, r.json()["code"]) == (404, "version_not_found")
    r = owner_client.get(detail(deck.pk, "deck-version-diff"), {"from": "x"})
    assert (r.status_code, r.json()["code"]) == (400, "invalid")


def test_stale_version_is_a_409_and_changes_nothing(owner, owner_client):
    deck = DeckFactory(owner=owner, name="A")
    owner_client.patch(detail(deck.pk), {"name": "B", "version": 1}, format="json")
    r = owner_client.patch(detail(deck.pk), {"name": "C", "version": 1}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["current_version"]) == (409, "stale_version", 2)
    assert Deck.objects.get(pk=deck.pk).name == "B"


def test_delete(owner, owner_client):
    deck = DeckFactory(owner=owner)
    assert owner_client.delete(detail(deck.pk)).status_code == 204
    assert (
        not Deck.objects.filter(pk=deck.pk).exists()
        and not DeckVersion.objects.filter(deck_id=deck.pk).exists()
    )


# ---------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        ([{"card": "gb-nope", "count": 1}], "unknown_card"),
        ([{"card": "we-conflict-starter", "count": 1}], "unknown_card"),
        ([{"card": "gb-infantry", "count": 0}], "invalid_count"),
        ([{"card": "gb-infantry", "count": -2}], "invalid_count"),
        ([{"card": "gb-infantry", "count": 100}], "invalid_count"),
        ([{"card": "gb-infantry", "count": "many"}], "invalid"),
        ([{"card": "gb-infantry"}], "invalid"),
        ([{"count": 3}], "invalid"),
        ([{"card": "gb-infantry", "count": 2}, {}], "invalid"),
        ([{"card": ["gb-infantry"], "count": 1}], "invalid"),
        ("gb-infantry", "invalid"),
        ([{"card": "gb-infantry", "count": 1}, {"card": "gb-infantry", "count": 2}], "duplicate_entry"),
        ([{"card": f"gb-{i}", "count": 1} for i in range(501)], "too_many_entries"),
    ],
)
def test_bad_entries_are_a_400_and_nothing_is_saved(owner, owner_client, entries, code):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 4})
    r = owner_client.put(detail(deck.pk, "deck-entries"), {"entries": entries}, format="json")
    assert r.status_code == 400, r.json()
    body = r.json()
    assert body["code"] == code and body["status"] == 400 and body["detail"]
    assert dict(DeckEntry.objects.filter(deck=deck).values_list("card_code", "count")) == {"gb-infantry": 4}
    assert Deck.objects.get(pk=deck.pk).version == 1
    for method in (owner_client.patch, owner_client.put):  # a partial update validates entries whole
        r = method(detail(deck.pk), {"name": "y", "nation": "GB", "entries": entries}, format="json")
        assert r.status_code == 400, r.json()
        assert r.json()["code"] == code
    assert Deck.objects.get(pk=deck.pk).version == 1
    r = owner_client.post(LIST, {"name": "x", "nation": "GB", "entries": entries}, format="json")
    assert r.status_code == 400 and r.json()["code"] == code
    assert Deck.objects.count() == 1


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"name": "x", "nation": "XX"}, "unknown_nation"),
        ({"nation": "GB"}, "invalid"),
        ({"name": "x" * 121, "nation": "GB"}, "invalid"),
        ({"name": "x", "nation": "GB", "is_public": "perhaps"}, "invalid"),
    ],
)
def test_bad_deck_fields(owner_client, payload, code):
    r = owner_client.post(LIST, payload, format="json")
    assert (r.status_code, r.json()["code"]) == (400, code)
    assert Deck.objects.count() == 0


def test_malformed_json_is_a_400(owner_client):
    r = owner_client.generic("POST", LIST, "{not json", content_type="application/json")
    assert (r.status_code, r.json()["code"]) == (400, "malformed_request")


def test_unknown_deck_is_a_404(owner_client):
    r = owner_client.get(detail(999999))
    assert (r.status_code, r.json()["code"]) == (404, "deck_not_found")


# ---------------------------------------------------------------------------------------------- access matrix

READS = ["deck-detail", "deck-validation", "deck-stats", "deck-export", "deck-version-list"]


@pytest.mark.parametrize("is_public", [False, True])
@pytest.mark.parametrize("who", ["owner", "other", "anonymous"])
def test_access_matrix(owner, owner_client, other_client, anon_client, who, is_public):
    deck = DeckFactory(owner=owner, is_public=is_public, entries={"gb-infantry": 2})
    client = {"owner": owner_client, "other": other_client, "anonymous": anon_client}[who]
    can_read = who == "owner" or is_public
    for name in READS:
        r = client.get(detail(deck.pk, name))
        assert r.status_code == (200 if can_read else 404), (name, r.status_code)
        if not can_read:
            assert r.json()["code"] == "deck_not_found"  # indistinguishable from a missing deck

    writes = [
        ("patch", detail(deck.pk), {"name": "hijacked"}),
        ("put", detail(deck.pk), {"name": "hijacked"}),
        ("put", detail(deck.pk, "deck-entries"), {"entries": [{"card": "gb-spitfire", "count": 9}]}),
        ("delete", detail(deck.pk), None),
    ]
    for method, url, payload in writes:
        r = getattr(client, method)(url, payload, format="json")
        if who == "owner":
            assert r.status_code in (200, 204)
            deck = DeckFactory(owner=owner, is_public=is_public) if method == "delete" else deck
            continue
        expected = 401 if who == "anonymous" else (403 if is_public else 404)
        assert r.status_code == expected, (method, url, r.status_code)
        assert r.json()["code"] in {"not_authenticated", "not_deck_owner", "deck_not_found"}
    if who != "owner":
        assert Deck.objects.get(pk=deck.pk).name != "hijacked"
        assert dict(DeckEntry.objects.filter(deck=deck).values_list("card_code", "count")) == {
            "gb-infantry": 2
        }


def test_a_private_deck_of_another_user_cannot_be_used_in_a_matchup(owner, other_client):
    deck = DeckFactory(owner=owner, is_public=False)
    r = other_client.post(
        reverse("deck-matchup"), {"a": {"deck_id": deck.pk}, "b": {"starter": "de-we-starter"}}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (404, "deck_not_found")


def test_users_only_see_their_own_decks_in_the_list(owner_client, other_client, owner):
    DeckFactory(owner=owner)
    DeckFactory(owner=UserFactory())
    assert owner_client.get(LIST).json()["count"] == 1
    assert other_client.get(LIST).json()["count"] == 0


def test_an_oversized_request_body_is_a_413(owner_client):
    payload = {"name": "x", "nation": "GB", "description": "y" * 300_000}
    r = owner_client.post(LIST, payload, format="json")
    assert (r.status_code, r.json()["code"]) == (413, "request_too_large")
    assert Deck.objects.count() == 0


def test_the_schema_of_the_deck_api_generates_without_warnings_or_errors():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ours = ("Deck", "Starter", "Register", "Token")
    problems = [
        m
        for m in [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
        if "decks/" in m or any(f"[{name}" in m for name in ours)
    ]
    assert problems == []
    for path in (
        "/api/decks/",
        "/api/decks/{id}/entries/",
        "/api/decks/validate/",
        "/api/decks/matchup/",
        "/api/decks/{id}/versions/diff/",
        "/api/starters/{code}/clone/",
        "/api/auth/register/",
    ):
        assert path in schema["paths"], path


def test_version_list_uses_a_constant_number_of_queries(owner, owner_client):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 1})
    url = detail(deck.pk, "deck-version-list")
    owner_client.get(url)
    with CaptureQueriesContext(connection) as one:
        assert owner_client.get(url).json()["count"] == 1
    for n in range(2, 8):
        owner_client.put(
            detail(deck.pk, "deck-entries"), {"entries": [{"card": "gb-infantry", "count": n}]}, format="json"
        )
    with CaptureQueriesContext(connection) as seven:
        assert owner_client.get(url).json()["count"] == 7
    assert len(seven) == len(one)


def test_entries_can_be_replaced_with_a_bare_list(owner, owner_client):
    deck = DeckFactory(owner=owner, entries={"gb-infantry": 4})
    r = owner_client.put(
        detail(deck.pk, "deck-entries"), [{"card": "gb-spitfire", "count": 3}], format="json"
    )
    assert r.status_code == 200
    assert [(e["card"], e["count"]) for e in r.json()["entries"]] == [("gb-spitfire", 3)]
