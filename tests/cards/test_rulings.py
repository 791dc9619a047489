"""Rulings on cards: the FAQ's questions and answers (verbatim), the engine's estimated rulings, per card."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from cards.models import ArsenalCard, Ruling

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "fixtures" / "catalog" / "rulings.json"


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def keys(client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return [r["key"] for r in response.json()]


def test_zhukov_has_the_faq_ruling_on_his_two_abilities(client, catalog_rows):
    rulings = client.get("/api/arsenal-cards/ru-zhukov/rulings/").json()
    zhukov = next(r for r in rulings if r["key"] == "faq-cards-21")
    assert zhukov["section"] == "FAQ v1.6, Cards" and zhukov["number"] == "21"
    assert zhukov["question"].startswith("Zhukov has two abilities.")
    assert zhukov["answer"].startswith("Yes he can. The bonus to Attack And Defense is automatic.")
    assert zhukov["estimated"] is False
    # Zhukov is a general: the FAQ's rulings on generals concern him too, the ones on leaders do not
    assert {"faq-generals-1", "faq-generals-2", "faq-generals-3"} <= {r["key"] for r in rulings}
    assert "faq-generals-5" not in {r["key"] for r in rulings}


def test_cards_named_by_the_faq(client, catalog_rows):
    assert "faq-ships-4" in keys(client, "/api/arsenal-cards/gb-illustrious/rulings/")
    assert "faq-ships-1" in keys(client, "/api/arsenal-cards/gb-nelson/rulings/")
    tiger = keys(client, "/api/arsenal-cards/de-tiger-ii/rulings/")
    assert {"faq-ground-units-1", "faq-ground-units-5"} <= set(tiger)
    # every submarine gets the submarine rulings (Ships 6-7, Game Play 2) by class
    subs = ArsenalCard.objects.filter(class_links__unit_class__code="submarine").values_list(
        "code", flat=True
    )
    assert subs
    for code in subs:
        assert {"faq-ships-6", "faq-ships-7", "faq-game-play-2"} <= set(
            keys(client, f"/api/arsenal-cards/{code}/rulings/")
        ), code


def test_conflict_cards_and_battlecards(client, catalog_rows):
    counter = client.get("/api/conflict-cards/we-counterattack/rulings/").json()
    assert [r["key"] for r in counter if not r["estimated"]] == [
        "faq-counter-attacks-1",
        "faq-counter-attacks-2",
        "faq-counter-attacks-3",
    ]
    estimated = [r for r in counter if r["estimated"]]
    assert estimated and all(r["source"] == "engine" for r in estimated)
    assert "engine-play-windows-of-kept-cards" in {r["key"] for r in estimated}
    # the expansion-pack copy of a card gets the same rulings (linked by effect)
    copy = keys(client, "/api/conflict-cards/gb-we-expansion-counterattack/rulings/")
    assert copy == [r["key"] for r in counter]
    assert "faq-counter-attacks-2" in keys(client, "/api/battlecards/we-invasion-of-normandy/rulings/")


def test_the_faqs_rulings_come_first_in_document_order(client, catalog_rows):
    rulings = client.get("/api/conflict-cards/we-a-bomb/rulings/").json()
    sources = [r["source"] for r in rulings]
    assert sources == sorted(sources, key=lambda s: s != "faq")
    assert [r["key"] for r in rulings if r["source"] == "faq"] == [
        "faq-generals-6",
        "faq-cards-8",
        "faq-cards-9",
        "faq-cards-10",
    ]


def test_unknown_card_is_a_404(client, catalog_rows):
    response = client.get("/api/arsenal-cards/xx-nothing/rulings/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_card_json_links_to_its_rulings(client, catalog_rows):
    body = client.get("/api/arsenal-cards/ru-zhukov/").json()
    assert body["rulings_url"].endswith("/api/arsenal-cards/ru-zhukov/rulings/")


def test_engine_rulings_are_verbatim_from_the_engine_readme(catalog_rows):
    readme = fold((ROOT / "games" / "engine" / "README.md").read_text(encoding="utf-8"))
    engine = Ruling.objects.filter(source="engine")
    assert engine.count() >= 15
    for ruling in engine:
        assert ruling.estimated
        assert ruling.answer in readme, ruling.key


def test_faq_rulings_are_verbatim_from_the_faq(catalog_rows, seed_document):
    faq_path = seed_document("battlecards-faq-v1.6.txt")  # skips without the rules documents (CI: fails)
    faq = fold(faq_path.read_text(encoding="utf-8"))
    rulings = Ruling.objects.filter(source="faq")
    assert rulings.count() == 6 + 7 + 5 + 3 + 22 + 7 + 2  # the numbered answers of each FAQ section
    for ruling in rulings:
        assert ruling.answer and ruling.answer in faq, ruling.key
        assert ruling.question in faq, ruling.key
    # and the fixture is what the extraction tool writes from the documents today
    check = subprocess.run(
        [sys.executable, "fixtures/tools/extract_rulings.py", "--faq", str(faq_path), "--check"], cwd=ROOT
    )
    assert check.returncode == 0


def test_admin_shows_rulings_and_faces(admin_client, catalog_rows):
    card = ArsenalCard.objects.get(code="ru-zhukov")
    page = admin_client.get(reverse("admin:cards_arsenalcard_change", args=[card.pk])).content.decode()
    assert "FAQ v1.6, Cards 21" in page
    assert 'src="/api/arsenal-cards/ru-zhukov/face.svg"' in page
    listing = admin_client.get(reverse("admin:cards_arsenalcard_changelist") + "?q=zhukov").content.decode()
    assert 'class="card-face-thumb"' in listing and "/api/arsenal-cards/ru-zhukov/face.svg" in listing
    ruling = Ruling.objects.get(key="faq-cards-21")
    assert admin_client.get(reverse("admin:cards_ruling_change", args=[ruling.pk])).status_code == 200


def test_loading_twice_changes_no_ruling(catalog_rows):
    import io

    from django.core.management import call_command

    from vocabulary.battlecards import DEFAULT_CATALOG_DIR

    rulings = len(json.loads((DEFAULT_CATALOG_DIR / "rulings.json").read_text(encoding="utf-8")))
    assert rulings >= 71  # the FAQ's and the engine README's
    out = io.StringIO()
    call_command("load_catalog", stdout=out)
    assert f"rulings: {rulings} (0 created, 0 deleted)" in out.getvalue()
