"""Read-only API of The War's cards and starters (/api/the-war/), as the Battlecards and Battlefront catalogs.

Same envelope, pagination, django-filter filters (invalid values: a 400 in the common error shape),
ordering, ?search=, ?q= (cards) and per-catalog-version ETag caching (config.http_cache). Faces at
/api/the-war/cards/{code}/face.svg mark every estimated value.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.apis import CatalogViewSet, catalog_docs
from cards.extra_apis import (
    BinaryRenderer,
    CatalogCached,
    TableChangesSerializer,
    error_response,
    face_response,
)
from cards.search_api import QuerySearchMixin
from cards.selectors import VERSION_PREFIX_SCHEMA
from cards.the_war import selectors
from cards.the_war.faces import the_war_face_svg, the_war_face_token
from cards.the_war.filters import TheWarCardFilter, TheWarStarterFilter
from cards.the_war.search import THE_WAR
from cards.the_war.serializers import TheWarCardSerializer, TheWarStarterSerializer

CARD_EXAMPLE = {
    "code": "tw-kv-1-1940",
    "url": "http://testserver/api/the-war/cards/tw-kv-1-1940/",
    "face_url": "http://testserver/api/the-war/cards/tw-kv-1-1940/face.svg",
    "title": "KV-1 (1940)",
    "category": "unit",
    "army": "red-army",
    "number": "ST-005",
    "rarity": "U",
    "cost": [
        {"resource": "depot", "amount": 1, "resource_cards_only": False},
        {"resource": "plant", "amount": 5, "resource_cards_only": False},
        {"resource": "fuel", "amount": 1, "resource_cards_only": False},
    ],
    "cost_total": 7,
    "unit_type": "armored",
    "subtype": "heavy-tank",
    "line": 1,
    "attack": 4,
    "defense": 4,
    "restrictions": ["cannot-be-blocked-by-infantry"],
    "attack_cost": [{"resource": "fuel", "amount": 1, "resource_cards_only": False}],
    "max_copies": 4,
    "provenance": {
        "attack": {"source": "seed", "section": "Types and categories of cards", "quote": "ATK / DEF: 4/4"},
        "army": {"source": "estimated", "note": "estimated: the army that fielded this equipment"},
    },
    "estimated": ["army"],
}
STARTER_EXAMPLE = {
    "code": "tw-starter-red-army",
    "url": "http://testserver/api/the-war/starters/tw-starter-red-army/",
    "name": "Red Army starter",
    "army": "red-army",
    "card_count": 60,
    "entries": [{"card": "tw-45mm-at-gun", "title": "45 mm AT-gun", "count": 2}],
    "position": 1,
}


@catalog_docs(
    noun="The War card",
    search=(THE_WAR, "type:heavy-tank attack>=4 -is:estimated"),
    plural="The War cards",
    serializer=TheWarCardSerializer,
    example=CARD_EXAMPLE,
    filters_help="The cards of The War (fixtures/the_war/cards.json), each value with its provenance "
    "(seed: printed in the rulebook, with section and quote; estimated: with the method). Filters: category, "
    "army (or none), unit_type, subtype, line, rarity, resource_kind, hero_mode, feature, restriction, "
    "ability, resource (in the cost), resource_cards_only, attack/defense (exact, _min, _max), aa, "
    "cost/cost_min/cost_max (total), location, seed, title, text.",
)
class TheWarCardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = THE_WAR
    serializer_class = TheWarCardSerializer
    filterset_class = TheWarCardFilter
    form_sources = ()  # the row alone
    search_fields = ["title", "code"]

    def get_queryset(self):
        return selectors.the_war_card_list()


@catalog_docs(
    noun="The War starter deck",
    plural="The War starter decks",
    serializer=TheWarStarterSerializer,
    example=STARTER_EXAMPLE,
    filters_help="The two preconstructed 60-card decks (one per army). Filter: army.",
)
class TheWarStarterViewSet(CatalogViewSet):
    serializer_class = TheWarStarterSerializer
    filterset_class = TheWarStarterFilter
    form_sources = ("entries__card",)
    search_fields = ["name", "code"]

    def get_queryset(self):
        return selectors.the_war_starter_list()


class TheWarFaceApi(APIView):
    """GET /api/the-war/cards/{code}/face.svg: the card drawn from its data (cached per catalog token)."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BinaryRenderer]
    schema_public = True  # the same answer for everyone: no padlock in Swagger UI (config.schema)

    @extend_schema(
        tags=["faces"],
        summary="The face of one The War card as SVG",
        description="Drawn from the card's data at playing-card proportions (250 x 350): cost per resource, "
        "category, type, attack/defense and the other parameters, features and text. Every estimated value "
        "carries a mark (*) explained by a legend. ETag per catalog version.",
        responses={
            (200, "image/svg+xml"): OpenApiTypes.STR,
            304: None,
            404: error_response(
                "not_found", "No The War card with code 'xx'.", 404, "No card with that code.",
            ),
        },
    )
    def get(self, request: Request, code: str) -> HttpResponse:
        token = the_war_face_token()
        return face_response(request, f'"{token}-tw-{code}"', lambda: the_war_face_svg(code, token=token))


class TheWarChangesSerializer(serializers.Serializer):
    from_version = serializers.CharField()
    to_version = serializers.CharField(help_text="The current version (the bulk file's the_war.version).")
    changed = serializers.BooleanField()
    tables = serializers.DictField(child=TableChangesSerializer(), help_text="cards and starters.")


class TheWarChangesApi(CatalogCached, APIView):
    """GET /api/the-war/changes/?since=<version>: The War's change feed (cards.the_war.selectors)."""

    permission_classes = [AllowAny]
    cache_extra_params = ("since",)

    @extend_schema(
        tags=["bulk"],
        summary="What changed in The War's cards and starters since a version",
        description="The bulk file's `the_war` part carries its own `version` (The War's cards change apart "
        "from the Battlecards catalog); give it here to learn which cards and starters were added, changed "
        "(with the fields) or removed since. Every load_catalog and admin edit that changes them records a "
        "version.",
        parameters=[
            OpenApiParameter(
                "since",
                VERSION_PREFIX_SCHEMA,
                OpenApiParameter.QUERY,
                required=True,
                description="A The War version hash (or a unique prefix of at least 8 hex digits).",
            )
        ],
        responses={
            200: TheWarChangesSerializer,
            400: error_response(
                "invalid", "since must be a The War version hash.", 400, "since is missing or bad.",
            ),
            404: error_response("unknown_version", "No The War version '0123abcd'.", 404, "No such version."),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.the_war_changes(since=request.query_params.get("since", "")))
