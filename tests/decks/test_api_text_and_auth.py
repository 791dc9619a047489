"""Text import/export through the API, and user accounts (register, token, session)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from decks.models import Deck
from tests.decks.factories import DeckFactory

pytestmark = pytest.mark.django_db

IMPORT = reverse("deck-import")


# ---------------------------------------------------------------------------------------------- text


def test_export_and_import_round_trip_every_starter(owner, owner_client, catalog, starter_entries):
    for card_set in catalog.starters():
        entries = starter_entries(card_set.code)
        deck = DeckFactory(owner=owner, nation=card_set.nation, name=card_set.name, entries=entries)
        r = owner_client.get(reverse("deck-export", args=[deck.pk]))
        assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
        text = r.content.decode()
        assert "\n1 " in text or "\n2 " in text
        imported = owner_client.post(
            IMPORT, {"name": "copy", "nation": card_set.nation, "text": text}, format="json"
        )
        assert imported.status_code == 201, imported.json()
        assert {e["card"]: e["count"] for e in imported.json()["entries"]} == entries, card_set.code


def test_an_exported_deck_imports_as_is_with_no_other_field(owner, owner_client, de_entries):
    deck = DeckFactory(owner=owner, nation="DE", name="Afrika  Korps\nsecond line", entries=de_entries)
    text = owner_client.get(reverse("deck-export", args=[deck.pk])).content.decode()
    assert text.startswith("# name: Afrika Korps second line\n# nation: DE\n")
    r = owner_client.post(IMPORT, {"text": text}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["name"], body["nation"]) == ("Afrika Korps second line", "DE")
    assert {e["card"]: e["count"] for e in body["entries"]} == de_entries
    # fields given in the request win over the header lines
    r = owner_client.post(IMPORT, {"text": text, "nation": "XX"}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "unknown_nation")
    r = owner_client.post(IMPORT, {"text": text, "name": "Mine"}, format="json")
    assert (r.status_code, r.json()["name"], r.json()["nation"]) == (201, "Mine", "DE")


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("1 Tiger I Tank\n", ["name", "nation"]),
        ("# name: Tigers\n1 Tiger I Tank\n", ["nation"]),
        ("# nation: DE\n# name:\n1 Tiger I Tank\n", ["name"]),
    ],
)
def test_an_import_without_name_or_nation_anywhere_is_a_400(owner_client, text, missing):
    r = owner_client.post(IMPORT, {"text": text}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "invalid")
    assert sorted(r.json()["errors"]) == missing
    long_name = f"# name: {'x' * 121}\n# nation: DE\n1 Tiger I Tank"
    r = owner_client.post(IMPORT, {"text": long_name}, format="json")
    assert (r.status_code, r.json()["code"], list(r.json()["errors"])) == (400, "invalid", ["name"])
    assert Deck.objects.count() == 0


def test_export_writes_one_line_per_card_with_count_and_name(owner, owner_client):
    deck = DeckFactory(owner=owner, nation="DE", entries={"de-tiger-i": 3, "de-infantry": 6})
    lines = owner_client.get(reverse("deck-export", args=[deck.pk])).content.decode().splitlines()
    assert "3 Tiger I Tank" in lines and "6 German Infantry" in lines


def test_import_accepts_names_printed_names_and_codes_case_insensitively(owner_client, catalog):
    printed = next(e.printed_name for e in catalog.sets["de-we-starter"].entries if e.card == "de-rommel")
    text = (
        f"3 tiger i TANK\n# a comment\n\n2x de-panzer-iii\n{printed.upper()}\n"
        "German Infantry x4\n1 de-tiger-i\n"
    )
    r = owner_client.post(IMPORT, {"name": "Panzers", "nation": "DE", "text": text}, format="json")
    assert r.status_code == 201, r.json()
    entries = {e["card"]: e["count"] for e in r.json()["entries"]}
    assert entries == {"de-tiger-i": 4, "de-panzer-iii": 2, "de-rommel": 1, "de-infantry": 4}
    assert r.json()["version"] == 1


def test_import_errors_come_back_per_line_with_suggestions_and_nothing_is_saved(owner_client):
    text = "3 Tiger I Tank\n2 Panzr III\n1 Xyzzy Qwerty\n0 German Infantry\n"
    r = owner_client.post(IMPORT, {"name": "Bad", "nation": "DE", "text": text}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "import_failed"
    errors = {e["line"]: e for e in body["lines"]}
    assert set(errors) == {2, 3, 4}
    assert (
        errors[2]["code"] == "unknown_card" and "Panzer III Tank (de-panzer-iii)" in errors[2]["suggestions"]
    )
    assert errors[3]["suggestions"] == []
    assert errors[4]["code"] == "invalid_count"
    assert Deck.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"name": "x", "nation": "DE", "text": "1 Tiger I Tank\n" * 5000}, 413, "text_too_large"),
        ({"name": "x", "nation": "XX", "text": "1 Tiger I Tank"}, 400, "unknown_nation"),
        ({"name": "x", "nation": "DE", "text": "# only a comment"}, 400, "import_empty"),
        ({"name": "x", "nation": "DE"}, 400, "invalid"),
    ],
)
def test_import_bad_input(owner_client, payload, status, code):
    r = owner_client.post(IMPORT, payload, format="json")
    assert (r.status_code, r.json()["code"]) == (status, code)
    assert Deck.objects.count() == 0


def test_import_needs_a_login(anon_client):
    r = anon_client.post(IMPORT, {"name": "x", "nation": "DE", "text": "1 Tiger I Tank"}, format="json")
    assert r.status_code == 401


# ---------------------------------------------------------------------------------------------- accounts


def test_register_then_use_the_token(anon_client):
    r = anon_client.post(
        reverse("auth-register"), {"username": "monty", "password": "El-Alamein-1942"}, format="json"
    )
    assert r.status_code == 201
    token = r.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post(reverse("deck-list"), {"name": "Mine", "nation": "GB"}, format="json")
    assert created.status_code == 201 and created.json()["owner"] == "monty"


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"username": "weak", "password": "password"}, 400, "weak_password"),
        ({"username": "short", "password": "a1"}, 400, "weak_password"),
        ({"username": "digits", "password": "12345678901"}, 400, "weak_password"),
        ({"username": "bad name!", "password": "El-Alamein-1942"}, 400, "invalid"),
        ({"username": "nopass"}, 400, "invalid"),
    ],
)
def test_register_rejects_bad_input(anon_client, payload, status, code):
    r = anon_client.post(reverse("auth-register"), payload, format="json")
    assert (r.status_code, r.json()["code"]) == (status, code)
    assert not get_user_model().objects.filter(username=payload["username"]).exists()


def test_register_a_taken_username_is_a_409(anon_client, owner):
    r = anon_client.post(
        reverse("auth-register"), {"username": "OWNER", "password": "El-Alamein-1942"}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (409, "username_taken")


def test_token_for_username_and_password(anon_client, owner):
    r = anon_client.post(
        reverse("auth-token"), {"username": "owner", "password": "Sturmgeschutz-44"}, format="json"
    )
    assert r.status_code == 200 and len(r.json()["token"]) == 40
    again = anon_client.post(
        reverse("auth-token"), {"username": "owner", "password": "Sturmgeschutz-44"}, format="json"
    )
    assert again.json()["token"] == r.json()["token"]
    bad = anon_client.post(reverse("auth-token"), {"username": "owner", "password": "nope"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_credentials")


def test_a_bad_token_is_a_401(catalog_rows):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0000000000000000000000000000000000000000")
    r = client.get(reverse("deck-list"))
    assert (r.status_code, r.json()["code"]) == (401, "authentication_failed")


def test_session_login_works_for_the_browsable_api(owner, client):
    assert client.login(username="owner", password="Sturmgeschutz-44")
    DeckFactory(owner=owner)
    r = client.get(reverse("deck-list"), HTTP_ACCEPT="application/json")
    assert r.status_code == 200 and r.json()["count"] == 1
    page = client.get(reverse("deck-list"), HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and b"owner" in page.content
    assert client.get(reverse("rest_framework:login")).status_code == 200
