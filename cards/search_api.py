"""`?q=` on the catalog list endpoints: a mixin for the viewsets and the paginated schema with `warnings`."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from cards.search import SYNTAX_HELP, Language, compile_query, syntax_help
from config.pagination import StandardPagination
from config.schema import ErrorSerializer


class SearchPagination(StandardPagination):
    """The standard page plus `warnings`: the terms of ?q= that were ignored (present when ?q= is given)."""

    def get_paginated_response_schema(self, schema):
        result = super().get_paginated_response_schema(schema)
        result["properties"]["warnings"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Terms of ?q= that could not be used and were ignored (only with ?q=).",
            "example": ['"colour:red": unknown key "colour"; term ignored'],
        }
        return result


class QuerySearchMixin:
    """Applies ?q= (cards.search) after the django-filter filters, before ordering and pagination."""

    search_language: Language
    pagination_class = SearchPagination
    cache_extra_params = ("q",)  # config.http_cache keeps it in the query (and the cache key)

    def _query(self) -> str | None:
        raw = self.request.query_params.get("q")
        return raw if raw is not None and raw.strip() else None

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        query = self._query() if getattr(self, "action", None) == "list" else None
        if query is None:
            return queryset
        compiled = compile_query(query, self.search_language)
        self.search_warnings = compiled.warnings
        return queryset.filter(compiled.q)

    def list(self, request, *args, **kwargs):
        response = super().list(request, *args, **kwargs)
        if self._query() is not None and isinstance(response.data, dict):
            response.data["warnings"] = list(getattr(self, "search_warnings", []))
        return response


def search_parameter(language: Language, example: str) -> OpenApiParameter:
    return OpenApiParameter(
        "q",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        description=SYNTAX_HELP + syntax_help(language) + f". Example: `{example}`.",
        examples=[OpenApiExample("search", value=example)],
    )


BAD_QUERY = OpenApiResponse(
    ErrorSerializer,
    description="A filter, ordering, page parameter or the ?q= query is invalid (codes: invalid, "
    "query_syntax, query_unusable, query_too_long, query_too_complex).",
    examples=[
        OpenApiExample(
            "no usable term",
            value={
                "status": 400,
                "code": "query_unusable",
                "detail": "No term of the query can be used.",
                "warnings": ['"colour:red": unknown key "colour"; term ignored'],
            },
        )
    ],
)
