"""Printable proxies: GET /api/decks/{id}/print.pdf and /api/starters/{code}/print.pdf."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from cards.extra_apis import BinaryRenderer
from cards.printing import PAGE_SIZES, printable_pdf
from config.errors import ValidationFailed
from config.schema import ErrorSerializer
from config.throttling import DeckPrintThrottle
from decks import selectors
from decks.deck_games import deck_game

PAPER = OpenApiParameter(
    "paper",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    enum=sorted(PAGE_SIZES),
    description="Page size: letter (default) or a4. Cards are 2.5 x 3.5 inches, nine to a page.",
)


def _not_found(code: str, detail: str) -> OpenApiResponse:
    return OpenApiResponse(
        response=ErrorSerializer,
        description=detail,
        examples=[OpenApiExample(code, value={"status": 404, "code": code, "detail": detail})],
    )


BAD_PAPER = OpenApiResponse(
    response=ErrorSerializer,
    description="Unknown paper size, or more cards than are printed (PRINT_MAX_CARDS, default 225).",
    examples=[
        OpenApiExample("invalid", value={"status": 400, "code": "invalid", "detail": "paper: ..."}),
        OpenApiExample(
            "too_many_cards_to_print",
            value={
                "status": 400,
                "code": "too_many_cards_to_print",
                "detail": "Only decks of at most 225 cards are printed; this one has 25000.",
                "limit": 225,
                "actual": 25000,
            },
        ),
    ],
)
PRINTING = (
    " At most 225 card copies (PRINT_MAX_CARDS: the largest official deck fits; a legal deck of its game, "
    "such as a 60-card The War deck, always prints); throttled (scope "
    "deck_print, THROTTLE_DECK_PRINT); each PDF is built once per version and served from the cache."
)


def _paper(request: Request) -> str:
    paper = (request.query_params.get("paper") or "letter").lower()  # ?paper= is the default, as absent
    if paper not in PAGE_SIZES:
        raise ValidationFailed(
            f"paper must be one of {', '.join(sorted(PAGE_SIZES))}.",
            errors={"paper": [f"Choose one of {', '.join(sorted(PAGE_SIZES))}."]},
        )
    return paper


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _copies(entries: dict[str, int]) -> list[str]:
    return [code for code in sorted(entries) for _ in range(entries[code])]


class DeckPrintApi(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BinaryRenderer]
    throttle_classes = [DeckPrintThrottle]

    @extend_schema(
        tags=["decks"],
        summary="The deck as printable proxies (PDF)",
        description="Every card copy of the deck as its face (see /api/arsenal-cards/{code}/face.svg, The "
        "War: /api/the-war/cards/{code}/face.svg), nine to a page at playing-card size. Private decks of "
        "other players are a 404, like the deck itself." + PRINTING,
        parameters=[PAPER],
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            400: BAD_PAPER,
            404: _not_found("deck_not_found", "No such deck."),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        paper = _paper(request)
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        codes = _copies(selectors.deck_entries(deck))
        data = printable_pdf(
            key=f"deck:{deck.pk}:{deck.version}",
            title=deck.name,
            codes=codes,
            paper=paper,
            game=deck.game,
            faces=deck_game(deck.game).faces,
            size_limit=deck_game(deck.game).size_limit,  # the largest legal deck prints
        )
        return _pdf_response(data, f"deck-{deck.pk}.pdf")


class StarterPrintApi(APIView):
    permission_classes = [AllowAny]
    schema_public = True  # an official starter: the same for everyone (no padlock in Swagger UI)
    renderer_classes = [JSONRenderer, BinaryRenderer]
    throttle_classes = [DeckPrintThrottle]

    @extend_schema(
        tags=["starters"],
        summary="A starter deck as printable proxies (PDF)",
        description="Every card copy of the official starter, nine to a page at playing-card size."
        + PRINTING,
        parameters=[PAPER],
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            400: BAD_PAPER,
            404: _not_found("starter_not_found", "No starter deck has the code 'xx'."),
        },
    )
    def get(self, request: Request, code: str) -> HttpResponse:
        paper = _paper(request)
        game, starter = selectors.starter_find(code=code)
        part = deck_game(game)
        entries = part.starter_deck(part.catalog(), starter)[1]
        data = printable_pdf(
            key=f"starter:{starter.code}",
            title=starter.name,
            codes=_copies(entries),
            paper=paper,
            game=game,
            faces=part.faces,
            size_limit=part.size_limit,
        )
        return _pdf_response(data, f"{starter.code}.pdf")
