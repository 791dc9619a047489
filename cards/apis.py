"""Read-only catalog API: list + detail by code for nations, theaters, sets and every kind of card.

Thin views: the queryset comes from one selector, filtering from a django-filter FilterSet (invalid values
are a 400 in the common error shape), output from a serializer.
"""

from __future__ import annotations

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import filters, viewsets
from rest_framework.permissions import AllowAny

from cards import selectors
from cards.filters import (
    ArsenalCardFilter,
    BattlecardFilter,
    CardSetFilter,
    ConflictCardFilter,
    NationFilter,
    TheaterFilter,
)
from cards.list_forms import PrebuiltListMixin
from cards.search import ARSENAL, BATTLECARD, CONFLICT
from cards.search_api import BAD_QUERY, QuerySearchMixin, search_parameter
from cards.serializers import (
    ArsenalCardSerializer,
    BattlecardSerializer,
    CardSetSerializer,
    ConflictCardSerializer,
    NationSerializer,
    TheaterSerializer,
)
from config.http_cache import VersionedCacheMixin
from config.schema import ErrorSerializer

NOT_FOUND = OpenApiResponse(
    ErrorSerializer,
    description="No such code.",
    examples=[
        OpenApiExample("not found", value={"status": 404, "code": "not_found", "detail": "Not found."})
    ],
)
BAD_FILTER = OpenApiResponse(
    ErrorSerializer,
    description="A filter, ordering or page parameter is invalid.",
    examples=[
        OpenApiExample(
            "bad filter",
            value={
                "status": 400,
                "code": "invalid",
                "detail": "Invalid input: points_min: Enter a number.",
                "errors": {"points_min": ["Enter a number."]},
            },
        )
    ],
)

NATION_EXAMPLE = {
    "code": "GB",
    "url": "http://testserver/api/nations/GB/",
    "name": "British",
    "side": "allies",
    "arsenal_card_count": 36,
}
THEATER_EXAMPLE = {
    "code": "WE",
    "url": "http://testserver/api/theaters/WE/",
    "name": "Western Europe",
    "conflict_card_count": 18,
    "battlecard_count": 16,
}
SET_EXAMPLE = {
    "code": "gb-we-starter",
    "url": "http://testserver/api/sets/gb-we-starter/",
    "name": "British starter deck",
    "kind": "starter",
    "nation": "GB",
    "theater": "WE",
    "printed_cards": 47,
    "computed_cards": 47,
    "cards_difference": 0,
    "printed_points": 502,
    "computed_points": 502,
    "points_difference": 0,
    "unknown_count_entries": 0,
    "notes": "",
    "entries": [
        {
            "card": "gb-infantry",
            "name": "British Infantry",
            "nation": "GB",
            "printed_name": "BRITISH INFANTRY",
            "count": 6,
            "points": 4,
            "count_provenance": "estimated",
            "count_note": "Card counts of the British starter are not printed in the FAQ.",
        }
    ],
}
ARSENAL_EXAMPLE = {
    "code": "gb-montgomery",
    "url": "http://testserver/api/arsenal-cards/gb-montgomery/",
    "name": "Montgomery, General",
    "nation": "GB",
    "side": "allies",
    "kind": "ground",
    "classes": ["general"],
    "points": 13,
    "max_per_deck": 1,
    "effective_max_per_deck": 1,
    "attack": {"ground": 9, "air": 4, "sea": None},
    "defense": {"ground": 8, "air": 5, "sea": 5},
    "phase": 3,
    "abilities": [
        {"kind": "general_aura", "attack": 1, "defense": 1},
        {
            "kind": "autokill",
            "max_defense": 4,
            "target_kinds": ["ground"],
            "requires_infantry": False,
            "first_round_only": False,
        },
    ],
    "ukrainian": False,
    "variant_of": None,
    "variants": [],
    "sets": [{"set": "gb-we-starter", "count": 1, "count_provenance": "seed"}],
    "estimated": True,
    "provenance": {
        "points": {"source": "seed", "note": "FAQ: British starter deck cards"},
        "attack": {"source": "estimated", "note": "printed stats are lost"},
    },
}
CONFLICT_EXAMPLE = {
    "code": "we-military-build-up",
    "url": "http://testserver/api/conflict-cards/we-military-build-up/",
    "name": "Military Build-up",
    "theater": "WE",
    "set": "we-conflict-starter",
    "count": 6,
    "category": "military-build-up",
    "action_number": 7,
    "effect": "build-up",
    "params": {"draw": 2, "deploy": 2},
    "text": "Draw 2 arsenal cards, then deploy 2.",
    "estimated": True,
    "provenance": {"count": {"source": "estimated", "note": "the conflict deck list is lost"}},
}
BATTLECARD_EXAMPLE = {
    "code": "we-invasion-of-britain",
    "url": "http://testserver/api/battlecards/we-invasion-of-britain/",
    "name": "Invasion of Britain",
    "theater": "WE",
    "set": "we-conflict-starter",
    "count": 1,
    "action_number": 16,
    "aggressor": "DE",
    "aggressor_forces": {
        "ground": True,
        "air": True,
        "sea": True,
        "non_artillery_ground_required": True,
        "optional_ground_classes": [],
    },
    "defender_forces": {
        "ground": True,
        "air": True,
        "sea": True,
        "non_artillery_ground_required": False,
        "optional_ground_classes": [],
    },
    "prerequisites": [{"holder": "DE", "battlecard": "we-invasion-of-france-belgium"}],
    "victory_points": 8,
    "homeland_of": "GB",
    "emergency_deployment": True,
    "special_victory": None,
    "special_victory_text": "",
    "text": "",
    "estimated": True,
    "provenance": {"victory_points": {"source": "estimated", "note": "the battle list is lost"}},
}


def catalog_docs(*, noun: str, plural: str, serializer, example: dict, filters_help: str, search=None):
    return extend_schema_view(
        list=extend_schema(
            summary=f"List {plural}",
            description=f"Paginated list of {plural} (?page, ?page_size up to 500). {filters_help} "
            "?search= matches name and code; ?ordering= takes comma-separated fields, '-' descending."
            + (" ?q= is the search language (see the parameter)." if search else ""),
            parameters=[search_parameter(*search)] if search else None,
            responses={200: serializer, 400: BAD_QUERY if search else BAD_FILTER},
            examples=[OpenApiExample(noun, value=example, response_only=True)],
        ),
        retrieve=extend_schema(
            summary=f"One {noun} by code",
            responses={200: serializer, 404: NOT_FOUND},
            examples=[OpenApiExample(noun, value=example, response_only=True)],
        ),
    )


class CatalogViewSet(VersionedCacheMixin, PrebuiltListMixin, viewsets.ReadOnlyModelViewSet):
    """Every catalog response is cached per catalog version and normalised query, with an ETag; a list that
    misses that cache is built from each row's serialized form, prebuilt per row content (`form_sources`) or
    per catalog version (cards.list_forms)."""

    cache_namespace = "catalog"
    schema_public = True  # the same answer for everyone: no padlock in Swagger UI (config.schema)
    lookup_field = "code"
    lookup_value_regex = "[^/]+"
    permission_classes = [AllowAny]
    filter_backends = [DjangoFilterBackend, filters.SearchFilter]
    search_fields = ["name", "code"]

    def cache_token(self) -> str:
        return selectors.catalog_cache_token()


@catalog_docs(
    noun="nation",
    plural="nations",
    serializer=NationSerializer,
    example=NATION_EXAMPLE,
    filters_help="Filter: side.",
)
class NationViewSet(CatalogViewSet):
    serializer_class = NationSerializer
    filterset_class = NationFilter

    def get_queryset(self):
        return selectors.nation_list()


@catalog_docs(
    noun="theater", plural="theaters", serializer=TheaterSerializer, example=THEATER_EXAMPLE, filters_help=""
)
class TheaterViewSet(CatalogViewSet):
    serializer_class = TheaterSerializer
    filterset_class = TheaterFilter

    def get_queryset(self):
        return selectors.theater_list()


@catalog_docs(
    noun="set",
    plural="sets",
    serializer=CardSetSerializer,
    example=SET_EXAMPLE,
    filters_help="Filters: kind, nation, side, theater. Each set lists its entries with counts and compares "
    "the printed card count and deck value with the totals computed from the entries.",
)
class CardSetViewSet(CatalogViewSet):
    serializer_class = CardSetSerializer
    filterset_class = CardSetFilter

    def get_queryset(self):
        return selectors.card_set_list()


@catalog_docs(
    noun="arsenal card",
    search=(ARSENAL, "nation:de kind:air points<15"),
    plural="arsenal cards",
    serializer=ArsenalCardSerializer,
    example=ARSENAL_EXAMPLE,
    filters_help="Filters: nation, side, set, kind, class, phase (1-4 or none), ability, points_min/max, "
    "attack_<ground|air|sea>_min/max, defense_<ground|air|sea>_min/max, max_per_deck "
    "(a number or unlimited), provenance (estimated|seed), ukrainian, variant_of.",
)
class ArsenalCardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = ARSENAL
    serializer_class = ArsenalCardSerializer
    form_sources = ("nation", "class_links__unit_class", "memberships__card_set", "variants")
    filterset_class = ArsenalCardFilter

    def get_queryset(self):
        return selectors.arsenal_card_list()


@catalog_docs(
    noun="conflict card",
    search=(CONFLICT, "category:kept action>=10 -theater:pac"),
    plural="conflict cards",
    serializer=ConflictCardSerializer,
    example=CONFLICT_EXAMPLE,
    filters_help="Filters: theater, set, category, effect, action_number, provenance.",
)
class ConflictCardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = CONFLICT
    serializer_class = ConflictCardSerializer
    form_sources = ("theater", "card_set")
    filterset_class = ConflictCardFilter

    def get_queryset(self):
        return selectors.conflict_card_list()


@catalog_docs(
    noun="battlecard",
    search=(BATTLECARD, "aggressor:GB vp>=5"),
    plural="battlecards",
    serializer=BattlecardSerializer,
    example=BATTLECARD_EXAMPLE,
    filters_help="Filters: theater, set, aggressor, homeland (nation code), is_homeland, "
    "victory_points_min/max, emergency_deployment, provenance.",
)
class BattlecardViewSet(QuerySearchMixin, CatalogViewSet):
    search_language = BATTLECARD
    serializer_class = BattlecardSerializer
    form_sources = ("theater", "card_set", "homeland_of", "prerequisite_links__requires")
    filterset_class = BattlecardFilter

    def get_queryset(self):
        return selectors.battlecard_list()
