"""Printable decks: GET /api/decks/{id}/print.pdf and /api/starters/{code}/print.pdf."""

from __future__ import annotations

import io
import math

from pypdf import PdfReader
from pypdf.generic import ContentStream

from tests.decks.factories import DeckFactory


def faces_per_page(content: bytes) -> tuple[list[int], PdfReader]:
    reader = PdfReader(io.BytesIO(content))
    counts = []
    for page in reader.pages:
        ops = ContentStream(page.get_contents(), reader).operations
        counts.append(sum(1 for _, op in ops if op == b"Do"))
    return counts, reader


def test_starter_prints_every_copy_nine_to_a_page(anon_client, gb_entries):
    response = anon_client.get("/api/starters/gb-we-starter/print.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    copies = sum(gb_entries.values())
    assert copies == 47
    counts, reader = faces_per_page(response.content)
    assert len(reader.pages) == math.ceil(copies / 9) == 6
    assert counts == [9, 9, 9, 9, 9, 2]
    page = reader.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert (round(width), round(height)) == (612, 792)  # US letter
    # playing-card size: each face is a form 2.5 x 3.5 inches
    forms = page["/Resources"]["/XObject"]
    bbox = [float(v) for v in forms[next(iter(forms))].get_object()["/BBox"]]
    assert bbox == [0.0, 0.0, 180.0, 252.0]
    text = "".join(p.extract_text() for p in reader.pages)
    assert "Queen Elizabeth" in text and "Spitfire" in text


def test_a4_and_bad_paper(anon_client):
    response = anon_client.get("/api/starters/de-we-starter/print.pdf", {"paper": "a4"})
    reader = PdfReader(io.BytesIO(response.content))
    assert round(float(reader.pages[0].mediabox.width)) == 595
    bad = anon_client.get("/api/starters/de-we-starter/print.pdf", {"paper": "legal"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_unknown_starter_is_a_404(anon_client):
    response = anon_client.get("/api/starters/xx/print.pdf")
    assert response.status_code == 404 and response.json()["code"] == "starter_not_found"


def test_deck_print_respects_authorization(owner, owner_client, other_client, anon_client):
    deck = DeckFactory(
        owner=owner,
        is_public=False,
        nation="DE",
        name="My panzers",
        entries={"de-tiger-i": 2, "de-infantry": 10},
    )
    url = f"/api/decks/{deck.pk}/print.pdf"
    for client in (other_client, anon_client):
        response = client.get(url)
        assert response.status_code == 404 and response.json()["code"] == "deck_not_found"
    response = owner_client.get(url)
    assert response.status_code == 200
    counts, reader = faces_per_page(response.content)
    assert counts == [9, 3]
    assert reader.metadata.title == "My panzers"
    # one drawing per distinct card, placed for every copy
    assert len(reader.pages[0]["/Resources"]["/XObject"]) == 1  # nine infantry
    assert len(reader.pages[1]["/Resources"]["/XObject"]) == 2  # one infantry, two Tigers
    deck.is_public = True
    deck.save()
    assert other_client.get(url).status_code == 200
