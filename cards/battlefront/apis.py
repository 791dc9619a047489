"""Read-only Battlefront card API (/api/battlefront/): list + detail by code, as the Battlecards catalog.

Same envelope, pagination, django-filter filters (invalid values: a 400 in the common error shape),
ordering, ?search=, ?q= (cards on the list) and per-catalog-version ETag caching (config.http_cache).
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from cards.apis import CatalogViewSet, catalog_docs
from cards.battlefront import selectors
from cards.battlefront.faces import battlefront_face_svg, battlefront_face_token
from cards.battlefront.filters import BattlefrontCardFilter, BattlefrontSpecialUseFilter
from cards.battlefront.search import BATTLEFRONT
from cards.battlefront.serializers import BattlefrontCardSerializer, BattlefrontSpecialUseSerializer
from cards.extra_apis import BinaryRenderer, error_response, face_response
from cards.search_api import QuerySearchMixin

CARD_EXAMPLE = {
    "code": "bf-tank-destroyers",
    "url": "http://testserver/api/battlefront/cards/bf-tank-destroyers/",
    "face_url": "http://testserver/api/battlefront/cards/bf-tank-destroyers/face.svg",
    "name": "Tank Destroyers",
    "type": "T",
    "type_name": "Tank",
    "force": 7,
    "notes": "Opposing Tank Negated",
    "abilities": [{"kind": "negate", "type": "T", "wording": "opposing_negated"}],
    "is_special": False,
    "optional_rule": "",
    "position": 7,
}
SPECIAL_USE_EXAMPLE = {
    "code": "bf-use-gb-intelligence",
    "url": "http://testserver/api/battlefront/special-uses/bf-use-gb-intelligence/",
    "nationality": "GB",
    "nationality_name": "British",
    "name": "Intelligence",
    "type": "L",
    "type_name": "Leader",
    "force": 7,
    "abilities": [{"kind": "scout"}, {"kind": "extra", "type": "L"}],
    "text": "Intelligence (L) Force = 7 & Scout & play an extra Leader",
    "position": 5,
}


@catalog_docs(
    noun="Battlefront card",
    search=(BATTLEFRONT, "type:tank force>=7 -is:special"),
    plural="Battlefront cards",
    serializer=BattlefrontCardSerializer,
    example=CARD_EXAMPLE,
    filters_help="The 70 cards of Battlefront's one shared deck in printed order, then the five optional "
    "Special cards (type X, no force of their own: see special-uses). Filters: type (L I P T A S F X), "
    "force, force_min/max, ability (scout, extra, negate, discard_and_draw, none), extra (type of the extra "
    "card allowed), negates (opposing type negated), wording (of the negation), special, name, notes.",
)
class BattlefrontCardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = BATTLEFRONT
    serializer_class = BattlefrontCardSerializer
    filterset_class = BattlefrontCardFilter
    form_sources = ("abilities",)
    search_fields = ["name", "code", "notes"]

    def get_queryset(self):
        return selectors.battlefront_card_list()


@catalog_docs(
    noun="Battlefront special card use",
    plural="Battlefront special card uses",
    serializer=BattlefrontSpecialUseSerializer,
    example=SPECIAL_USE_EXAMPLE,
    filters_help="What each nationality may use a Special card as (optional special cards rules), one "
    "entry per printed use. Filters: nationality (DE RU US GB JP), type (or none), force_min/max, "
    "ability, extra, negates, wording.",
)
class BattlefrontSpecialUseViewSet(CatalogViewSet):
    serializer_class = BattlefrontSpecialUseSerializer
    filterset_class = BattlefrontSpecialUseFilter
    form_sources = ("abilities",)

    def get_queryset(self):
        return selectors.battlefront_special_use_list()


class BattlefrontFaceApi(APIView):
    """GET /api/battlefront/cards/{code}/face.svg: the card drawn from its data (cached per catalog token)."""

    schema_public = True  # the same answer for everyone: no padlock in Swagger UI (config.schema)
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BinaryRenderer]

    @extend_schema(
        tags=["faces"],
        summary="The face of one Battlefront card as SVG",
        description="Drawn from the card's data at playing-card proportions (250 x 350): type, force and the "
        "printed notes; a Special card lists each nationality's use of it. ETag per catalog version.",
        responses={
            (200, "image/svg+xml"): OpenApiTypes.STR,
            304: None,
            404: error_response(
                "not_found", "No Battlefront card with code 'xx'.", 404, "No card with that code.",
            ),
        },
    )
    def get(self, request: Request, code: str) -> HttpResponse:
        token = battlefront_face_token()
        return face_response(request, f'"{token}-bf-{code}"', lambda: battlefront_face_svg(code, token=token))
