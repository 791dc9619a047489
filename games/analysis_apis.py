"""GET/POST /api/games/{id}/analysis/ (issue 41): a finished game's analysis by the search bot, thin over
games.analysis_selectors (the read) and games.services.analysis (asking for it)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import ErrorSerializer
from config.throttling import GameActionThrottle
from games.analysis_selectors import game_analysis_get
from games.analysis_serializers import GameAnalysisSerializer
from games.services.analysis import game_analysis_request

READ_ERRORS = {
    404: OpenApiResponse(ErrorSerializer, description="game_not_found: no such game, or not yours to see."),
    409: OpenApiResponse(ErrorSerializer, description="game_not_finished: analysed once it has ended."),
}
REQUEST_ERRORS = {
    401: OpenApiResponse(ErrorSerializer, description="not_authenticated: sign in to ask for an analysis."),
    403: OpenApiResponse(
        ErrorSerializer,
        description="spectators_not_allowed: you did not play and its creator allowed no spectators.",
    ),
    404: READ_ERRORS[404],
    409: OpenApiResponse(
        ErrorSerializer,
        description="game_not_finished; analysis_not_available: this game type has no search bot.",
    ),
    429: OpenApiResponse(
        ErrorSerializer,
        description="analysis_quota (`limit`, `actual`): you have an analysis queued or running already; or "
        "throttled.",
    ),
}


class GameAnalysisApi(APIView):
    throttle_classes = [GameActionThrottle]  # POST only (the throttle's scope)

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        responses={200: GameAnalysisSerializer, **READ_ERRORS},
        summary="A finished game's analysis: each side's chances per ply and the moves the search preferred",
        description="Whoever may read the replay reads it (status none until someone asks for one). The "
        "moves (played and preferred) are shown only to readers who get the replay's actions "
        "(`moves_shown`); the estimates come from the deciding seat's own view at each ply.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(game_analysis_get(game_id=game_id, user=request.user))

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(GameAnalysisSerializer, description="The stored one, or the one under way."),
            202: OpenApiResponse(GameAnalysisSerializer, description="Queued now: GET shows its progress."),
            **REQUEST_ERRORS,
        },
        summary="Ask for the analysis of a finished game (a player, or anyone who may watch it)",
        description="One analysis per game, shared by every reader: asking again returns it. A background "
        "job searches every ply from the deciding seat's view (GAMES_ANALYSIS_ITERATIONS iterations a ply); "
        "`plies_done` grows while it runs. At most GAMES_ANALYSIS_MAX_ACTIVE_PER_USER of yours at once.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        _, started = game_analysis_request(game_id=game_id, user=request.user)
        return Response(game_analysis_get(game_id=game_id, user=request.user), status=202 if started else 200)
