"""Catalog endpoints beyond list/detail: rulings per card, card faces (SVG), bulk data and catalog changes."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards import selectors
from cards.bulk import bulk_catalog_file, catalog_changes
from cards.faces import face_svg, face_version
from cards.models import Ruling
from config.http_cache import VersionedCacheMixin
from config.schema import ErrorSerializer


class CatalogCached(VersionedCacheMixin):
    """JSON answers cached per catalog version like the catalog lists (config.http_cache)."""

    cache_namespace = "catalog-extra"
    schema_public = True  # the same answer for everyone: no padlock in Swagger UI (config.schema)

    def cache_token(self) -> str:
        return selectors.catalog_cache_token()


class BinaryRenderer(BaseRenderer):
    """Lets clients ask for the file's media type; errors are still the JSON error shape."""

    media_type = "*/*"
    format = "bin"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes | str):
            return data
        return json.dumps(data).encode("utf-8")


def error_response(code: str, detail: str, status: int, description: str) -> OpenApiResponse:
    return OpenApiResponse(
        response=ErrorSerializer,
        description=description,
        examples=[OpenApiExample(code, value={"status": status, "code": code, "detail": detail})],
    )


NOT_FOUND = error_response("not_found", "No arsenal card with code 'xx'.", 404, "No card with that code.")


# ------------------------------------------------------------------------------------------------ rulings


class RulingSerializer(serializers.ModelSerializer):
    source = serializers.ChoiceField(
        choices=["faq", "engine"], help_text="faq: FAQ v1.6; engine: the engine's estimated ruling."
    )

    class Meta:
        model = Ruling
        fields = ["key", "source", "section", "number", "title", "question", "answer", "estimated"]


RULING_EXAMPLE = {
    "key": "faq-cards-21",
    "source": "faq",
    "section": "FAQ v1.6, Cards",
    "number": "21",
    "title": "",
    "question": "Zhukov has two abilities. Can he be used to provide his +2 Bonus ...?",
    "answer": "Yes he can. The bonus to Attack And Defense is automatic. ...",
    "estimated": False,
}

class CardRulingsApi(CatalogCached, APIView):
    """GET /api/<cards>/{code}/rulings/: the FAQ rulings and the engine's estimated rulings on one card."""

    permission_classes = [AllowAny]
    kind = "arsenal"

    def get(self, request: Request, code: str) -> Response:
        rulings = selectors.ruling_list_for_card(kind=self.kind, code=code)
        return Response(RulingSerializer(rulings, many=True).data)


def rulings_view(kind: str, noun: str):
    return extend_schema(
        tags=["rulings"],
        summary=f"Rulings on one {noun}",
        description=f"The FAQ v1.6 rulings (section, number, question and answer, verbatim) that concern the "
        f"{noun}, then the engine README's estimated rulings on it (estimated: true), in document order.",
        responses={200: RulingSerializer(many=True), 404: NOT_FOUND},
        examples=[OpenApiExample("ruling", value=[RULING_EXAMPLE], response_only=True)],
    )(type(f"{kind.title()}RulingsApi", (CardRulingsApi,), {"kind": kind}))


ArsenalRulingsApi = rulings_view("arsenal", "arsenal card")
ConflictRulingsApi = rulings_view("conflict", "conflict card")
BattlecardRulingsApi = rulings_view("battlecard", "battlecard")


# -------------------------------------------------------------------------------------------------- faces


class CardFaceApi(APIView):
    """GET /api/<cards>/{code}/face.svg: the card drawn from its data (cached per catalog version)."""

    permission_classes = [AllowAny]
    schema_public = True
    renderer_classes = [JSONRenderer, BinaryRenderer]
    kind = "arsenal"

    def get(self, request: Request, code: str) -> HttpResponse:
        version = face_version()
        etag = f'"{version[:16]}-{self.kind}-{code}"' if version else None
        return face_response(request, etag, lambda: face_svg(self.kind, code, version=version))


def face_response(request: Request, etag: str | None, render: Callable[[], str]) -> HttpResponse:
    """An SVG card face of any game: 304 when the client holds `etag` (None: no catalog version yet, so no
    ETag), else the face rendered (or taken from the face cache) with its ETag and a short public max-age."""
    if etag is not None and request.headers.get("If-None-Match") == etag:
        return HttpResponse(status=304, headers={"ETag": etag})
    response = HttpResponse(render(), content_type="image/svg+xml; charset=utf-8")
    if etag is not None:
        response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=300"
    return response


def face_view(kind: str, noun: str):
    return extend_schema(
        tags=["faces"],
        summary=f"The face of one {noun} as SVG",
        description="Drawn from the card's data at playing-card proportions (250 x 350). Every estimated "
        "value is marked with * in red italics and explained in a legend. ETag per catalog version.",
        responses={(200, "image/svg+xml"): OpenApiTypes.STR, 304: None, 404: NOT_FOUND},
    )(type(f"{kind.title()}FaceApi", (CardFaceApi,), {"kind": kind}))


ArsenalFaceApi = face_view("arsenal", "arsenal card")
ConflictFaceApi = face_view("conflict", "conflict card")
BattlecardFaceApi = face_view("battlecard", "battlecard")


# ---------------------------------------------------------------------------------------- bulk, changes


class BulkFileSerializer(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    download_url = serializers.URLField()
    content_type = serializers.CharField()
    content_encoding = serializers.CharField()
    size = serializers.IntegerField(help_text="Bytes of the gzipped file.")
    version = serializers.CharField(help_text="The catalog version (content hash).")
    updated_at = serializers.DateTimeField(allow_null=True)
    etag = serializers.CharField()


class BulkListSerializer(serializers.Serializer):
    version = serializers.CharField()
    updated_at = serializers.DateTimeField(allow_null=True)
    files = BulkFileSerializer(many=True)


class BulkListApi(CatalogCached, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["bulk"],
        summary="Downloadable bulk data files",
        description="The whole catalog (nations, theaters, sets, arsenal cards, conflict cards, battlecards "
        "in the fixture format, every ruling with the cards it concerns, and the Battlefront cards) as one "
        "gzipped JSON file per catalog version. Sync incrementally with "
        "/api/catalog/changes/?since=<version>.",
        responses={200: BulkListSerializer},
    )
    def get(self, request: Request) -> Response:
        bulk = bulk_catalog_file()
        file = {
            "name": bulk.name,
            "description": "The whole catalog as JSON (gzip).",
            "download_url": request.build_absolute_uri(reverse("bulk-catalog")),
            "content_type": "application/json",
            "content_encoding": "gzip",
            "size": bulk.size,
            "version": bulk.version,
            "updated_at": bulk.updated_at,
            "etag": bulk.etag,
        }
        return Response(
            BulkListSerializer({"version": bulk.version, "updated_at": bulk.updated_at, "files": [file]}).data
        )


class BulkCatalogApi(APIView):
    permission_classes = [AllowAny]
    schema_public = True
    renderer_classes = [JSONRenderer, BinaryRenderer]

    @extend_schema(
        tags=["bulk"],
        summary="The catalog bulk file (gzipped JSON)",
        description="Served as application/gzip with an ETag; If-None-Match with the same ETag gives 304. "
        "Decompressed: {object, version, updated_at, nations, theaters, sets, arsenal, conflict_cards, "
        "battlecards, rulings, battlefront: {cards, special_cards, special_uses}}.",
        responses={(200, "application/gzip"): OpenApiTypes.BINARY, 304: None},
    )
    def get(self, request: Request) -> HttpResponse:
        bulk = bulk_catalog_file()
        if request.headers.get("If-None-Match") == bulk.etag:
            return HttpResponse(status=304, headers={"ETag": bulk.etag})
        response = HttpResponse(bulk.data, content_type="application/gzip")
        response["ETag"] = bulk.etag
        response["Content-Length"] = str(bulk.size)
        response["Content-Disposition"] = f'attachment; filename="{bulk.filename}"'
        response["X-Catalog-Version"] = bulk.version
        return response


class TableChangesSerializer(serializers.Serializer):
    added = serializers.ListField(child=serializers.CharField(), help_text="Codes new since that version.")
    changed = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="{code: [top-level fields whose value changed]}.",
    )
    removed = serializers.ListField(child=serializers.CharField(), help_text="Codes gone since then.")


class CatalogChangesSerializer(serializers.Serializer):
    from_version = serializers.CharField()
    to_version = serializers.CharField()
    changed = serializers.BooleanField()
    tables = serializers.DictField(
        child=TableChangesSerializer(),
        help_text="Per table: nations, theaters, sets, arsenal, conflict_cards, battlecards.",
    )


class CatalogChangesApi(CatalogCached, APIView):
    permission_classes = [AllowAny]
    cache_extra_params = ("since",)

    @extend_schema(
        tags=["bulk"],
        summary="What changed in the catalog since a version",
        parameters=[
            OpenApiParameter(
                "since",
                selectors.VERSION_PREFIX_SCHEMA,
                OpenApiParameter.QUERY,
                required=True,
                description="A catalog version hash (or a unique prefix of at least 8 hex digits), e.g. the "
                "`version` of the bulk file a client holds.",
            )
        ],
        responses={
            200: CatalogChangesSerializer,
            400: error_response(
                "invalid", "since must be a catalog version hash.", 400, "since is missing or malformed."
            ),
            404: error_response("unknown_version", "No catalog version '0123abcd'.", 404, "No such version."),
            410: error_response(
                "version_contents_unavailable",
                "The contents of that catalog version were not kept; download the bulk file instead.",
                410,
                "The version predates the history of contents.",
            ),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(catalog_changes(since=request.query_params.get("since", "")))
