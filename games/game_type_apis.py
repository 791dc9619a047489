"""GET /api/game-types/: the game types the server plays, as registered (games.engine.registry and the
definitions of games.game_types): a client reads the ids it may send as `game_type` here."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.game_types import game_type_list


class GameTypeSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The one id of the game: send it as `game_type`")
    label = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField(), help_text="The two sides, in order")
    bots = serializers.BooleanField(help_text="Bots can play it (false: humans only)")
    bot_kinds = serializers.ListField(
        child=serializers.CharField(),
        help_text="The `opponent.bot` values it accepts (search-1..search-4 where it has a search bot)",
    )
    decks = serializers.BooleanField(help_text="Each player brings a saved deck (Battlecards)")
    live_play = serializers.BooleanField(help_text="Clocks, takebacks and ratings apply")


class GameTypeListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["games"],
        summary="The game types the server plays (their ids are the `game_type` values)",
        responses={200: GameTypeSerializer(many=True)},
        examples=[
            OpenApiExample(
                "The War",
                value=[{"id": "the-war", "label": "The War", "seats": ["p1", "p2"], "bots": True,
                        "bot_kinds": ["random", "heuristic"], "decks": False, "live_play": True}],
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(GameTypeSerializer(game_type_list(), many=True).data)
