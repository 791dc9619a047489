"""The deck builder API: a player's decks (list, create, read, change, delete, replace their entries) and
their text lists (import, export). Thin views: validate input, call one service or selector, shape the output;
every error has the common shape {status, code, detail, ...}. Each operation's OpenAPI declaration is in
decks.schema. Checks of decks: decks.validation_apis; versions: decks.version_apis; official starters:
decks.starter_apis; accounts (login, registration, tokens): accounts.apis."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.errors import ValidationFailed
from config.pagination import StandardPagination
from config.throttling import DeckImportThrottle
from decks import schema, selectors, services
from decks.filters import DeckFilter
from decks.serializers import (
    DeckCreateInputSerializer,
    DeckImportInputSerializer,
    DeckListQuerySerializer,
    DeckOutputSerializer,
    DeckUpdateInputSerializer,
    EntriesReplaceInputSerializer,
)


def deck_response(request: Request, deck: Any, *, code: int = 200) -> Response:
    """A saved deck as the deck API answers it: its fields, entries and validation (decks.selectors)."""
    context = {"request": request, "readings": selectors.deck_readings(decks=[deck])}
    return Response(DeckOutputSerializer(deck, context=context).data, status=code)


class DeckListApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = StandardPagination

    @schema.deck_list_get
    def get(self, request: Request) -> Response:
        query = validated_input(DeckListQuerySerializer, request.query_params)
        queryset = selectors.deck_list(user=request.user, public=query["public"], mine=query["mine"])
        filterset = DeckFilter(request.query_params, queryset=queryset)
        if not filterset.is_valid():
            raise ValidationFailed("Invalid filter.", code="invalid", errors=filterset.errors)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(filterset.qs, request, view=self)
        context = {"request": request, "readings": selectors.deck_readings(decks=page)}
        return paginator.get_paginated_response(DeckOutputSerializer(page, many=True, context=context).data)

    @schema.deck_list_post
    def post(self, request: Request) -> Response:
        data = validated_input(DeckCreateInputSerializer, request.data)
        deck = services.deck_create(owner=request.user, **data)
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=deck.pk), code=201)


class DeckDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @schema.deck_detail_get
    def get(self, request: Request, pk: int) -> Response:
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=pk))

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        deck = selectors.deck_get_for_update(user=request.user, deck_id=pk)
        data = validated_input(DeckUpdateInputSerializer, request.data, partial=partial)
        expected = data.pop("version", None)
        services.deck_update(deck=deck, expected_version=expected, **data)
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=pk))

    @schema.deck_detail_put
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @schema.deck_detail_patch
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    @schema.deck_detail_delete
    def delete(self, request: Request, pk: int) -> Response:
        services.deck_delete(deck=selectors.deck_get_for_update(user=request.user, deck_id=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckEntriesApi(APIView):
    permission_classes = [IsAuthenticated]

    @schema.deck_entries_put
    def put(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get_for_update(user=request.user, deck_id=pk)
        body = request.data if isinstance(request.data, dict) else {"entries": request.data}  # bare list too
        data = validated_input(EntriesReplaceInputSerializer, body)
        services.deck_entries_replace(
            deck=deck, entries=data["entries"], expected_version=data.get("version")
        )
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=pk))


class DeckExportApi(APIView):
    permission_classes = [AllowAny]

    @schema.deck_export_get
    def get(self, request: Request, pk: int) -> HttpResponse:
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        response = HttpResponse(
            selectors.deck_export_text(deck=deck), content_type="text/plain; charset=utf-8"
        )
        response["Content-Disposition"] = f'inline; filename="deck-{deck.pk}.txt"'
        return response


class DeckImportApi(APIView):
    throttle_classes = [DeckImportThrottle]
    permission_classes = [IsAuthenticated]

    @schema.deck_import_post
    def post(self, request: Request) -> Response:
        data = validated_input(DeckImportInputSerializer, request.data)
        deck = services.deck_import_text(owner=request.user, **data)
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=deck.pk), code=201)
