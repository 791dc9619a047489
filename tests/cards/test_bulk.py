"""Bulk data (/api/bulk/, the gzipped catalog) and catalog changes between versions."""

from __future__ import annotations

import copy
import gzip
import json

import pytest
from rest_framework.test import APIClient

from cards.battlecards.selectors import catalog_dicts
from cards.models import CatalogVersion
from cards.services import catalog_load
from vocabulary.battlecards import DEFAULT_CATALOG_DIR, read_fixture_dicts


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def download(client) -> tuple[dict, object]:
    listing = client.get("/api/bulk/").json()
    (entry,) = listing["files"]
    response = client.get(entry["download_url"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert int(response["Content-Length"]) == entry["size"] == len(response.content)
    assert response["ETag"] == entry["etag"]
    return entry, response


def test_bulk_lists_the_catalog_file_and_it_holds_the_whole_catalog(client, catalog_rows):
    listing = client.get("/api/bulk/").json()
    assert listing["version"] == catalog_rows
    entry, response = download(client)
    assert entry["version"] == catalog_rows and entry["content_encoding"] == "gzip"
    assert entry["updated_at"] == listing["updated_at"]
    document = json.loads(gzip.decompress(response.content))
    assert document["version"] == catalog_rows
    data = catalog_dicts()
    for table in ("nations", "theaters", "sets", "arsenal", "conflict_cards", "battlecards"):
        assert document[table] == data[table], table
    assert len(document["arsenal"]) == 253
    assert 'filename="battlecards-catalog-' in response["Content-Disposition"]


def test_etag_gives_not_modified(client, catalog_rows):
    entry, _ = download(client)
    response = client.get(entry["download_url"], HTTP_IF_NONE_MATCH=entry["etag"])
    assert response.status_code == 304


def changed_catalog() -> dict:
    raw = copy.deepcopy(read_fixture_dicts(DEFAULT_CATALOG_DIR))
    tiger = next(c for c in raw["arsenal"] if c["code"] == "de-tiger-i")
    tiger["points"] += 1
    tiger["name"] = "Tiger I Tank (errata)"
    raw["arsenal"].append({**copy.deepcopy(tiger), "code": "de-tiger-x", "name": "Tiger X"})
    raw["arsenal"] = [c for c in raw["arsenal"] if c["code"] != "ru-bt7-ukr"]
    for card_set in raw["sets"]:
        card_set["entries"] = [e for e in card_set["entries"] if e["card"] != "ru-bt7-ukr"]
    return raw


def test_a_catalog_change_rebuilds_the_file_and_lists_the_changes(client, catalog_rows):
    old_entry, old_file = download(client)
    result = catalog_load(raw=changed_catalog(), source="test")
    assert result.version_created
    new_entry, new_file = download(client)
    assert new_entry["version"] == result.content_hash != old_entry["version"]
    assert new_entry["etag"] != old_entry["etag"]
    document = json.loads(gzip.decompress(new_file.content))
    codes = {c["code"] for c in document["arsenal"]}
    assert "de-tiger-x" in codes and "ru-bt7-ukr" not in codes

    response = client.get("/api/catalog/changes/", {"since": old_entry["version"]})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["from_version"] == old_entry["version"] and body["to_version"] == new_entry["version"]
    assert body["changed"] is True
    arsenal = body["tables"]["arsenal"]
    assert arsenal["added"] == ["de-tiger-x"]
    assert arsenal["removed"] == ["ru-bt7-ukr"]
    assert arsenal["changed"] == {"de-tiger-i": ["name", "points"]}
    assert set(body["tables"]["sets"]["changed"]) == {s["code"] for s in old_sets_with("ru-bt7-ukr")}
    assert body["tables"]["nations"] == {"added": [], "changed": {}, "removed": []}

    # a short prefix works; the current version has no changes
    short = client.get("/api/catalog/changes/", {"since": new_entry["version"][:10]}).json()
    assert short["changed"] is False and short["tables"]["arsenal"]["changed"] == {}


def old_sets_with(code: str) -> list[dict]:
    raw = read_fixture_dicts(DEFAULT_CATALOG_DIR)
    return [s for s in raw["sets"] if any(e["card"] == code for e in s["entries"])]


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({}, 400, "invalid"),
        ({"since": "xyz"}, 400, "invalid"),
        ({"since": "0123456789abcdef"}, 404, "unknown_version"),
    ],
)
def test_bad_since(client, catalog_rows, params, status, code):
    response = client.get("/api/catalog/changes/", params)
    assert response.status_code == status
    assert response.json()["code"] == code


def test_versions_recorded_before_contents_were_kept_are_a_410(client, catalog_rows):
    old = CatalogVersion.objects.create(content_hash="ab" * 32, source="old", contents=None)
    response = client.get("/api/catalog/changes/", {"since": old.content_hash})
    assert response.status_code == 410
    assert response.json()["code"] == "version_contents_unavailable"


def test_the_file_holds_every_ruling_and_the_battlefront_cards(client, catalog_rows):
    from cards.battlefront.selectors import battlefront_dicts
    from cards.models import BattlefrontCard, Ruling

    _, response = download(client)
    document = json.loads(gzip.decompress(response.content))
    assert document["battlefront"] == battlefront_dicts()
    assert len(document["battlefront"]["cards"]) == 70 and len(document["battlefront"]["special_cards"]) == 5
    assert BattlefrontCard.objects.count() == 75
    rulings = {r["key"]: r for r in document["rulings"]}
    assert set(rulings) == set(Ruling.objects.values_list("key", flat=True)) and len(rulings) >= 71
    zhukov = rulings["faq-cards-21"]
    assert zhukov["source"] == "faq" and zhukov["answer"].startswith("Yes he can.")
    assert "ru-zhukov" in zhukov["arsenal_cards"]


def test_a_battlefront_edit_rebuilds_the_file(client, catalog_rows, django_capture_on_commit_callbacks):
    from cards.battlefront.services import battlefront_after_admin_edit
    from cards.models import BattlefrontCard

    before, _ = download(client)
    with django_capture_on_commit_callbacks(execute=True):
        BattlefrontCard.objects.filter(code="bf-tank-brigade").update(name="Armoured Brigade")
        battlefront_after_admin_edit()
    after, response = download(client)
    assert after["etag"] != before["etag"] and after["version"] == before["version"]
    cards = json.loads(gzip.decompress(response.content))["battlefront"]["cards"]
    names = {c["code"]: c["name"] for c in cards}
    assert names["bf-tank-brigade"] == "Armoured Brigade"
