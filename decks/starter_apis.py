"""The official starter decks of every game with decks: the list, one starter, and a copy of one into a new
deck of mine. Thin views; each operation's OpenAPI declaration is in decks.schema."""

from __future__ import annotations

from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from decks import schema, selectors, services
from decks.apis import deck_response
from decks.deck_games import deck_game, deck_games
from decks.serializers import StarterCloneInputSerializer, StarterListQuerySerializer


class StarterListApi(APIView):
    permission_classes = [AllowAny]
    schema_public = True  # official starters: the same for everyone (no padlock in Swagger UI)

    @schema.starter_list_get
    def get(self, request: Request) -> Response:
        game = validated_input(StarterListQuerySerializer, request.query_params).get("game")
        out = []
        for part in deck_games() if game is None else [deck_game(game)]:
            cat = part.catalog()
            out += [part.starter_out(cat, s) for s in part.starters(cat)]
        return Response(out)


class StarterDetailApi(APIView):
    permission_classes = [AllowAny]
    schema_public = True

    @schema.starter_detail_get
    def get(self, request: Request, code: str) -> Response:
        game, starter = selectors.starter_find(code=code)
        part = deck_game(game)
        return Response(part.starter_out(part.catalog(), starter))


class StarterCloneApi(APIView):
    permission_classes = [IsAuthenticated]

    @schema.starter_clone_post
    def post(self, request: Request, code: str) -> Response:
        data = validated_input(StarterCloneInputSerializer, request.data)
        deck = services.deck_clone_starter(owner=request.user, starter_code=code, **data)
        return deck_response(request, selectors.deck_get(user=request.user, deck_id=deck.pk), code=201)
