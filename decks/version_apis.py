"""The saved versions of a deck: the list, one version, and what changed between two. Thin views over
decks.selectors; each operation's OpenAPI declaration is in decks.schema."""

from __future__ import annotations

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.pagination import StandardPagination
from decks import schema, selectors
from decks.serializers import DeckVersionOutputSerializer, VersionDiffQuerySerializer


class DeckVersionListApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = StandardPagination

    @schema.deck_version_list_get
    def get(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.deck_version_list(deck=deck), request, view=self)
        context = {"entry_rows": selectors.deck_version_entry_rows(deck=deck, versions=page)}
        return paginator.get_paginated_response(
            DeckVersionOutputSerializer(page, many=True, context=context).data
        )


class DeckVersionDetailApi(APIView):
    permission_classes = [AllowAny]

    @schema.deck_version_detail_get
    def get(self, request: Request, pk: int, number: int) -> Response:
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        version = selectors.deck_version_get(deck=deck, number=number)
        context = {"entry_rows": selectors.deck_version_entry_rows(deck=deck, versions=[version])}
        return Response(DeckVersionOutputSerializer(version, context=context).data)


class DeckVersionDiffApi(APIView):
    permission_classes = [AllowAny]

    @schema.deck_version_diff_get
    def get(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        query = validated_input(VersionDiffQuerySerializer, request.query_params)
        return Response(
            selectors.deck_version_diff(deck=deck, from_number=query["from_"], to_number=query["to"])
        )
