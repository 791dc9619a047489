"""Printable proxies: card faces (cards.faces) laid out nine to a page at playing-card size in a PDF.

reportlab writes the PDF; svglib turns each face's SVG into reportlab drawing commands, kept once per card
as a PDF form XObject and placed for every copy (so a 50-card deck costs one drawing per distinct card).

printable_pdf bounds and caches that work for the API: at most PRINT_MAX_CARDS copies (more: a 400
too_many_cards_to_print), and each PDF is built once per key (a deck's id and version, a starter's code),
paper and catalog version, then served from the shared cache.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from reportlab.graphics import renderPDF
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.units import inch
from reportlab.pdfgen import canvas
from svglib.svglib import svg2rlg

from cards.selectors import catalog_cache_token
from config.errors import ValidationFailed

CARD_WIDTH = 2.5 * inch  # a poker-size playing card, 2.5 x 3.5 inches
CARD_HEIGHT = 3.5 * inch
PER_ROW, PER_COLUMN = 3, 3
PAGE_SIZES = {"letter": letter, "a4": A4}


def _face_form(pdf: canvas.Canvas, name: str, svg: str) -> None:
    drawing = svg2rlg(io.BytesIO(svg.encode("utf-8")))
    pdf.beginForm(name, lowerx=0, lowery=0, upperx=CARD_WIDTH, uppery=CARD_HEIGHT)
    # svglib sizes the drawing in points at 0.75 pt per SVG px (250 x 350 px: 187.5 x 262.5 pt), so scale
    # from the drawing's own size, not the view box's, or the card prints at 75 %
    pdf.scale(CARD_WIDTH / drawing.width, CARD_HEIGHT / drawing.height)
    renderPDF.draw(drawing, pdf, 0, 0)
    pdf.endForm()


def deck_pdf(
    *, title: str, codes: list[str], faces: Callable[[list[str]], dict[str, str]], paper: str = "letter"
) -> bytes:
    """A PDF with one face per card copy in `codes` (card codes of one game, in order), nine to a page;
    `faces` gives the face (SVG) of each code its game knows (the game's deck part: decks.deck_games)."""
    page_width, page_height = PAGE_SIZES[paper]
    margin_x = (page_width - PER_ROW * CARD_WIDTH) / 2
    margin_y = (page_height - PER_COLUMN * CARD_HEIGHT) / 2
    faces = faces(codes)
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(page_width, page_height), pageCompression=1, invariant=1)
    pdf.setTitle(title)
    pdf.setCreator("Battlecards server")
    forms: dict[str, str] = {}
    per_page = PER_ROW * PER_COLUMN
    printable = [code for code in codes if code in faces]
    for index, code in enumerate(printable):
        slot = index % per_page
        if index and slot == 0:
            pdf.showPage()
        if code not in forms:
            forms[code] = f"face{len(forms)}"
            _face_form(pdf, forms[code], faces[code])
        column, row = slot % PER_ROW, slot // PER_ROW
        pdf.saveState()
        pdf.translate(margin_x + column * CARD_WIDTH, page_height - margin_y - (row + 1) * CARD_HEIGHT)
        pdf.doForm(forms[code])
        pdf.restoreState()
    if not printable:
        pdf.drawString(72, page_height - 72, f"{title}: no cards")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def printable_pdf(
    *,
    key: str,
    title: str,
    codes: list[str],
    paper: str = "letter",
    game: str,
    faces: Callable[[list[str]], dict[str, str]],
    size_limit: int = 0,
) -> bytes:
    """deck_pdf for the API: refused past PRINT_MAX_CARDS copies (or the game's largest legal deck,
    `size_limit`, if larger), cached per key, paper and catalog version.

    `key` must change whenever the title or the codes do (e.g. a deck's id and version)."""
    limit = max(settings.PRINT_MAX_CARDS, size_limit)
    if len(codes) > limit:
        raise ValidationFailed(
            f"Only decks of at most {limit} cards are printed; this one has {len(codes)}.",
            code="too_many_cards_to_print",
            limit=limit,
            actual=len(codes),
        )
    identity = f"{key}|{game}|{paper}|{catalog_cache_token()}"
    cache_key = "print:" + hashlib.sha256(identity.encode()).hexdigest()
    data = cache.get(cache_key)
    if data is None:
        data = deck_pdf(title=title, codes=codes, paper=paper, faces=faces)
        cache.set(cache_key, data, settings.HTTP_CACHE_SECONDS)
    return data
