"""Read-only API of Tide of Iron's Strategy cards, decks and scenarios (/api/tide-of-iron/), as the other
catalogs: same envelope, pagination, filters (an invalid value is a 400 in the common error shape), ordering,
?search=, ?q= (cards) and per-catalog-version ETag caching. Faces at /api/tide-of-iron/cards/{code}/face.svg
mark every estimated value."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from cards.apis import CatalogViewSet, catalog_docs
from cards.extra_apis import BinaryRenderer, error_response, face_response
from cards.search_api import QuerySearchMixin
from cards.tide_of_iron import selectors
from cards.tide_of_iron.faces import toi_face_svg, toi_face_token
from cards.tide_of_iron.filters import ToiCardFilter
from cards.tide_of_iron.search import TIDE_OF_IRON
from cards.tide_of_iron.serializers import ToiCardSerializer, ToiDeckSerializer, ToiScenarioSerializer

CARD_EXAMPLE = {
    "code": "toi-sustained-blanket",
    "url": "http://testserver/api/tide-of-iron/cards/toi-sustained-blanket/",
    "face_url": "http://testserver/api/tide-of-iron/cards/toi-sustained-blanket/face.svg",
    "title": "Sustained Blanket",
    "deck": "toi-artillery-ii",
    "deck_title": "Artillery II",
    "cost": 3,
    "phase": "action",
    "play_area": False,
    "keywords": [
        {"keyword": "establish-contact", "value": 4},
        {"keyword": "target-hex"},
        {"keyword": "determine-drift"},
        {"keyword": "area-attack", "value": 4, "suppressive": True, "success_on": 5},
        {"keyword": "wide-blast-radius", "value": 3, "suppressive": True, "success_on": 5},
    ],
    "effects": [],
    "text": [
        "Establish Contact (4)",
        "Target Hex",
        "Determine Drift",
        "Suppressive Area Attack (4)",
        "Suppressive Wide Blast Radius (3)",
    ],
    "contact": 4,
    "area_attack": 4,
    "wide_blast": 3,
    "suppressive": True,
    "provenance": {
        "keywords.0": {
            "source": "seed",
            "quote": "equal to or higher than the target number (4 in this example)",
        },
        "cost": {"source": "estimated", "note": "estimated: 1 + (4 + 3) // 3"},
    },
    "estimated": ["cost", "deck", "phase", "play_area"],
}
DECK_EXAMPLE = {
    "code": "toi-artillery-i",
    "url": "http://testserver/api/tide-of-iron/decks/toi-artillery-i/",
    "title": "Artillery I",
    "card_count": 6,
    "entries": [{"card": "toi-increased-priority", "title": "Increased Priority", "count": 1}],
    "provenance": {"title": {"source": "seed", "quote": "the Artillery I and the Artillery II deck"}},
    "position": 1,
}
SCENARIO_EXAMPLE = {
    "code": "toi-scenario-artillery-duel",
    "url": "http://testserver/api/tide-of-iron/scenarios/toi-scenario-artillery-duel/",
    "title": "Artillery duel",
    "seats": {
        "allies": {"decks": ["toi-artillery-ii", "toi-air-support"], "start_draw": 1, "status_draw": 1},
        "axis": {"decks": ["toi-artillery-i"], "start_draw": 1, "status_draw": 1},
    },
    "provenance": {"title": {"source": "estimated", "note": "estimated: a placeholder scenario"}},
    "position": 1,
}


@catalog_docs(
    noun="Tide of Iron Strategy card",
    search=(TIDE_OF_IRON, "keyword:wide-blast-radius contact>=4 -is:estimated"),
    plural="Tide of Iron Strategy cards",
    serializer=ToiCardSerializer,
    example=CARD_EXAMPLE,
    filters_help="The Strategy cards of Tide of Iron (fixtures/tide_of_iron/cards.json), each value with its "
    "provenance (seed: stated in the text, with the quote; estimated: with the method). Filters: deck, "
    "phase, "
    "keyword, cost, cost_max, play_area, suppressive.",
)
class ToiCardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = TIDE_OF_IRON
    serializer_class = ToiCardSerializer
    filterset_class = ToiCardFilter
    search_fields = ["title", "code"]

    def get_queryset(self):
        return selectors.toi_card_list()


@catalog_docs(
    noun="Tide of Iron Strategy deck",
    plural="Tide of Iron Strategy decks",
    serializer=ToiDeckSerializer,
    example=DECK_EXAMPLE,
    filters_help="The Strategy decks the text names (their contents estimated).",
)
class ToiDeckViewSet(CatalogViewSet):
    serializer_class = ToiDeckSerializer
    search_fields = ["title", "code"]

    def get_queryset(self):
        return selectors.toi_deck_list()


@catalog_docs(
    noun="Tide of Iron scenario",
    plural="Tide of Iron scenarios",
    serializer=ToiScenarioSerializer,
    example=SCENARIO_EXAMPLE,
    filters_help="Which Strategy decks a scenario gives each player (estimated scenarios).",
)
class ToiScenarioViewSet(CatalogViewSet):
    serializer_class = ToiScenarioSerializer
    search_fields = ["title", "code"]

    def get_queryset(self):
        return selectors.toi_scenario_list()


class ToiFaceApi(APIView):
    """GET /api/tide-of-iron/cards/{code}/face.svg: the card drawn from its data (cached per token)."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BinaryRenderer]
    schema_public = True

    @extend_schema(
        tags=["faces"],
        summary="The face of one Tide of Iron Strategy card as SVG",
        description="Drawn from the card's data at playing-card proportions (250 x 350): command cost, deck, "
        "phase, keywords and text. Every estimated value carries a mark (*) explained by a legend. ETag per "
        "catalog version.",
        responses={
            (200, "image/svg+xml"): OpenApiTypes.STR,
            304: None,
            404: error_response(
                "not_found", "No Tide of Iron card with code 'xx'.", 404, "No card with that code.",
            ),
        },
    )
    def get(self, request: Request, code: str) -> HttpResponse:
        token = toi_face_token()
        return face_response(request, f'"{token}-toi-{code}"', lambda: toi_face_svg(code, token=token))
