"""The ratings API: a leaderboard per game type, a user's ratings, the bots' ratings (public reads)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.pagination import StandardPagination
from config.schema import ErrorSerializer
from games import rating_selectors, selectors
from games.game_type_fields import game_type_choices
from games.rating_serializers import BotRatingSerializer, LeaderboardEntrySerializer, UserRatingsSerializer
from games.serializers import GameSerializer

RATING_EXAMPLE = {
    "game_type": "battlecards",
    "scale": "glicko2",
    "rating": 1623.41,
    "deviation": 74.2,
    "volatility": 0.059998,
    "provisional": False,
    "games": 31,
    "wins": 19,
    "losses": 11,
    "draws": 1,
}


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = StandardPagination

    @extend_schema(
        tags=["ratings"],
        summary="The leaderboard of one game type: every rated player (users and bots), best first",
        parameters=[
            OpenApiParameter(
                "game_type", str, OpenApiParameter.PATH, enum=[c for c, _ in game_type_choices()]
            ),
        ],
        responses={200: LeaderboardEntrySerializer(many=True), 404: ErrorSerializer},
        examples=[
            OpenApiExample(
                "a page of the board",
                value=[{"rank": 1, "kind": "human", "player": "alice", "bot": None, **RATING_EXAMPLE}],
                response_only=True,
            )
        ],
        description="Players with at least one rated game of the type, ordered by rating (ties: the lower "
        "deviation first). Paginated (`page`, `page_size`); `rank` counts from the top of the whole board. "
        "404 unknown_game_type.",
    )
    def get(self, request: Request, game_type: str) -> Response:
        board = rating_selectors.rating_leaderboard(game_type=game_type)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(board, request, view=self)
        first = (paginator.page.number - 1) * paginator.page.paginator.per_page + 1
        for place, row in enumerate(page):
            row.rank = first + place
        return paginator.get_paginated_response(LeaderboardEntrySerializer(page, many=True).data)


class UserRatingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["ratings"],
        summary="A user's ratings: one Glicko-2 rating per game type",
        responses={200: UserRatingsSerializer, 404: ErrorSerializer},
        examples=[
            OpenApiExample(
                "alice's ratings",
                value={
                    "username": "alice",
                    "ratings": [
                        RATING_EXAMPLE,
                        {
                            **RATING_EXAMPLE,
                            "game_type": "battlefront",
                            "rating": 1500.0,
                            "deviation": 350.0,
                            "volatility": 0.06,
                            "provisional": True,
                            "games": 0,
                            "wins": 0,
                            "losses": 0,
                            "draws": 0,
                        },
                    ],
                },
                response_only=True,
            )
        ],
        description="Every game type is listed; one without a rated game shows a newcomer's rating (1500, "
        "deviation 350, games 0). 404 unknown_user.",
    )
    def get(self, request: Request, username: str) -> Response:
        user, ratings = rating_selectors.ratings_of_user(username=username)
        return Response(UserRatingsSerializer({"username": user.get_username(), "ratings": ratings}).data)


class BotRatingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["ratings"],
        summary="How strong each bot is: every bot kind's rating in every game type",
        responses={200: BotRatingSerializer(many=True)},
        description="Bots are rated players: seeded by `manage.py calibrate_bot_ratings` (rated "
        "bot-versus-bot games), then moved by every rated game played against them.",
    )
    def get(self, request: Request) -> Response:
        return Response(BotRatingSerializer(rating_selectors.bot_ratings(), many=True).data)


class PlayerGamesApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = StandardPagination

    @extend_schema(
        tags=["ratings"],
        summary="A player's finished games, the most recently finished first (public once over)",
        responses={200: GameSerializer(many=True), 404: ErrorSerializer},  # paginated
        description="The games the user played to their end (or that ended by resignation, on time, or "
        "stopped after the start), as the game list shows them: seats with ratings and a rated game's "
        "change; a deck that was private reads \"a private deck\" to everyone but its owner. 404 "
        "unknown_user.",
    )
    def get(self, request: Request, username: str) -> Response:
        games = selectors.player_finished_games(username=username)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        data = GameSerializer(page, many=True, context={"request": request, "spectators": {}}).data
        return paginator.get_paginated_response(data)
