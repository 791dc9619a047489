"""Printable decks: GET /api/decks/{id}/print.pdf and /api/starters/{code}/print.pdf."""

from __future__ import annotations

import copy
import io
import math

import pytest
from django.conf import settings
from django.test import override_settings
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cards import printing
from decks.models import Deck, DeckEntry
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


# ---------------------------------------------------------------------------------------------- card size


def _mul(m: list[float], n: list[float]) -> list[float]:
    """PDF matrix product m x n ([a b c d e f]; `cm` makes the new CTM = operand x CTM)."""
    a, b, c, d, e, f = m
    return [
        a * n[0] + b * n[2], a * n[1] + b * n[3],
        c * n[0] + d * n[2], c * n[1] + d * n[3],
        e * n[0] + f * n[2] + n[4], e * n[1] + f * n[3] + n[5],
    ]


def _apply(m: list[float], x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def printed_frame(reader: PdfReader, page_number: int = 0) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) in points, on the page, of the first card's outer frame: the first
    stroked path drawn by the first face placed on the page, its stroke included, through every transform
    (the page's cm, the form's Matrix, the drawing's own cm)."""
    page = reader.pages[page_number]
    ctm, stack = [1.0, 0, 0, 1.0, 0, 0], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"Do":
            form = page["/Resources"]["/XObject"][operands[0]].get_object()
            matrix = [float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])]
            return _first_stroked_path(form, reader, _mul(matrix, ctm))
    raise AssertionError("no face on the page")


def _first_stroked_path(form, reader: PdfReader, ctm: list[float]) -> tuple[float, float, float, float]:
    stack, width, points = [], 1.0, []
    for operands, op in ContentStream(form, reader).operations:
        numeric = op in (b"cm", b"w", b"m", b"l", b"c", b"v", b"y", b"re")
        values = [float(v) for v in operands] if numeric else []
        if op == b"q":
            stack.append((ctm, width))
        elif op == b"Q":
            ctm, width = stack.pop()
        elif op == b"cm":
            ctm = _mul(values, ctm)
        elif op == b"w":
            width = values[0]
        elif op == b"re":
            x, y, w, h = values
            points += [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]
        elif op in (b"m", b"l", b"c", b"v", b"y"):
            points += [_apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op in (b"n", b"f", b"F", b"f*"):  # a path not stroked: not the frame
            points = []
        elif op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
            stroke = width * math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))  # in page units
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            return (
                min(xs) - stroke / 2, min(ys) - stroke / 2,
                max(xs) - min(xs) + stroke, max(ys) - min(ys) + stroke,
            )
    raise AssertionError("no stroked path in the face")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_printed_card_measures_2_5_by_3_5_inches_on_the_page(anon_client, paper):
    response = anon_client.get("/api/starters/gb-we-starter/print.pdf", {"paper": paper})
    reader = PdfReader(io.BytesIO(response.content))
    left, bottom, width, height = printed_frame(reader)
    assert (round(width / 72, 2), round(height / 72, 2)) == (2.5, 3.5)
    page = reader.pages[0]
    page_width, page_height = float(page.mediabox.width), float(page.mediabox.height)
    # the first card is the top-left one of a centred 3 x 3 grid, all on the page
    assert left == pytest.approx((page_width - 3 * width) / 2, abs=0.5)
    assert bottom + height == pytest.approx(page_height - (page_height - 3 * height) / 2, abs=0.5)
    assert left > 0 and bottom - 2 * height > 0


# ---------------------------------------------------------------------------------------------- bounds


def test_a_huge_public_deck_is_refused_at_once_with_a_clear_code(owner, anon_client, catalog):
    codes = sorted(catalog.arsenal)[:253]
    deck = DeckFactory(owner=owner, is_public=True, entries=dict.fromkeys(codes, 99))  # 25,047 copies
    response = anon_client.get(f"/api/decks/{deck.pk}/print.pdf")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "too_many_cards_to_print" and (body["limit"], body["actual"]) == (225, 25_047)
    assert body["status"] == 400 and "225" in body["detail"]


@override_settings(PRINT_MAX_CARDS=12)
def test_a_deck_prints_up_to_the_documented_maximum(owner, anon_client):
    deck = DeckFactory(owner=owner, is_public=True, entries={"de-tiger-i": 2, "de-infantry": 10})
    response = anon_client.get(f"/api/decks/{deck.pk}/print.pdf")
    assert response.status_code == 200
    assert faces_per_page(response.content)[0] == [9, 3]
    DeckEntry.objects.filter(deck=deck, card_code="de-infantry").update(count=11)
    Deck.objects.filter(pk=deck.pk).update(version=2)
    response = anon_client.get(f"/api/decks/{deck.pk}/print.pdf")
    assert (response.status_code, response.json()["actual"]) == (400, 13)


def test_the_pdf_is_built_once_per_deck_version_and_paper(owner, owner_client, monkeypatch):
    built = []
    real = printing.deck_pdf

    def counting(**kwargs):
        built.append(kwargs["title"])
        return real(**kwargs)

    monkeypatch.setattr(printing, "deck_pdf", counting)
    deck = DeckFactory(owner=owner, name="First", entries={"de-tiger-i": 2})
    url = f"/api/decks/{deck.pk}/print.pdf"
    first = owner_client.get(url)
    assert owner_client.get(url).content == first.content
    assert built == ["First"]
    assert owner_client.get(url, {"paper": "a4"}).status_code == 200
    assert built == ["First", "First"]
    # a saved change is a new version: printed afresh
    assert owner_client.patch(f"/api/decks/{deck.pk}/", {"name": "Second"}, format="json").status_code == 200
    response = owner_client.get(url)
    assert PdfReader(io.BytesIO(response.content)).metadata.title == "Second"
    assert built == ["First", "First", "Second"]
    owner_client.get("/api/starters/de-we-starter/print.pdf")
    owner_client.get("/api/starters/de-we-starter/print.pdf")
    assert len(built) == 4  # the starter, once


def test_printing_is_throttled_in_its_own_scope(owner, anon_client):
    deck = DeckFactory(owner=owner, is_public=True, entries={"de-tiger-i": 2})
    rest = copy.deepcopy(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"]["deck_print"] = "2/min"
    with override_settings(REST_FRAMEWORK=rest):
        assert anon_client.get(f"/api/decks/{deck.pk}/print.pdf").status_code == 200
        assert anon_client.get("/api/starters/de-we-starter/print.pdf").status_code == 200
        response = anon_client.get(f"/api/decks/{deck.pk}/print.pdf")
        assert response.status_code == 429 and response.json()["code"] == "throttled"
        assert int(response["Retry-After"]) >= 1
        assert anon_client.get(f"/api/decks/{deck.pk}/").status_code == 200  # other scopes unaffected


def test_a_the_war_starter_and_deck_print_their_own_faces(owner, owner_client, anon_client):
    """The faces come from the deck's game (its deck part): The War's cards, every copy, nine to a page."""
    starter = anon_client.get("/api/starters/", {"game": "the-war"}).json()[0]
    copies = sum(e["count"] for e in starter["entries"])
    response = anon_client.get(f"/api/starters/{starter['code']}/print.pdf")
    assert response.status_code == 200, response.content[:200]
    counts, reader = faces_per_page(response.content)
    assert sum(counts) == copies and len(reader.pages) == math.ceil(copies / 9)
    deck = owner_client.post(f"/api/starters/{starter['code']}/clone/", {}, format="json").json()
    assert deck["game"] == "the-war"
    printed = owner_client.get(f"/api/decks/{deck['id']}/print.pdf")
    assert printed.status_code == 200 and faces_per_page(printed.content)[0] == counts
