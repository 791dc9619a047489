"""The takeback endpoints (issue 25 section 3): thin views over games.services.takebacks.

GET /api/games/{id}/takeback/          the pending request (or null) and the game's takeback option
POST /api/games/{id}/takeback/         ask to take back my last `count` actions
POST /api/games/{id}/takeback/answer/  accept or decline the pending request (the other side)
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.schema import ErrorSerializer
from config.throttling import GameActionThrottle
from games import selectors
from games.services.takebacks import TakebackOutcome, game_takeback_answer, game_takeback_request
from games.takeback_serializers import (
    TakebackAnswerSerializer,
    TakebackRequestSerializer,
    TakebackResultSerializer,
    TakebackStatusSerializer,
)

REQUEST_ERRORS = {
    403: OpenApiResponse(ErrorSerializer, description="not_a_player: you do not sit at this game."),
    409: OpenApiResponse(
        ErrorSerializer,
        description="game_finished, game_not_active, stale_version, takeback_pending (one request at a "
        "time), nothing_to_take_back (fewer of your actions in effect), takeback_reveals_hidden_information "
        "(`seq`: the undone entry that showed you or a teammate a hidden card or used a random draw; "
        "`reason`: card or random; `seat`: the seat shown the card).",
    ),
}
ANSWER_ERRORS = {
    403: OpenApiResponse(
        ErrorSerializer, description="not_a_player; not_the_other_side: the asking side cannot answer."
    ),
    409: OpenApiResponse(
        ErrorSerializer,
        description="game_finished, game_not_active, stale_version, no_takeback_pending (none waits: "
        "answered, or an action came after it).",
    ),
}



def _result(outcome: TakebackOutcome) -> dict[str, Any]:
    game = outcome.game
    return {
        "entries": [selectors.log_entry_for_seat(e, outcome.seat) for e in outcome.entries],
        "pending": selectors.takeback_pending_payload(game=game, entry=selectors.takeback_pending(game=game)),
        "state": selectors.seat_view_payload(game=game, seat=outcome.seat, state=outcome.state),
    }


class GameTakebackApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [GameActionThrottle]  # POST only (the throttle's scope)

    @extend_schema(
        responses={200: TakebackStatusSerializer, 403: ErrorSerializer},
        summary="The pending takeback request of my game (or null)",
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(selectors.game_takeback_status(game_id=game_id, user=request.user))

    @extend_schema(
        request=TakebackRequestSerializer,
        responses={200: TakebackResultSerializer, **REQUEST_ERRORS},
        examples=[OpenApiExample("Take back my last action", value={"version": 12, "count": 1},
                                 request_only=True)],
        summary="Ask to take back my last action(s); against bots they answer at once",
        description="Undoes my last `count` actions still in effect and every action after the first of "
        "them, once the other side accepts. Refused when those actions showed me a hidden card (a draw, a "
        "card turned up, a card played from the opponent's hand, a scout's look) or used a random draw. Bots "
        "decline unless the game was created with the option bots_accept_takebacks, and always in a rated "
        "game.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = validated_input(TakebackRequestSerializer, request.data)
        outcome = game_takeback_request(
            game_id=game_id, user=request.user, version=data["version"], count=data["count"]
        )
        return Response(_result(outcome))


class GameTakebackAnswerApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [GameActionThrottle]

    @extend_schema(
        request=TakebackAnswerSerializer,
        responses={200: TakebackResultSerializer, **ANSWER_ERRORS},
        examples=[OpenApiExample("Accept", value={"version": 13, "accept": True}, request_only=True)],
        summary="Accept or decline the pending takeback request (a seat of the other side)",
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = validated_input(TakebackAnswerSerializer, request.data)
        outcome = game_takeback_answer(
            game_id=game_id, user=request.user, version=data["version"], accept=data["accept"]
        )
        return Response(_result(outcome))
