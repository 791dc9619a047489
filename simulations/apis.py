"""The simulations API: thin views (validate input, call one service or selector, shape the output)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.pagination import StandardPagination
from config.schema import ErrorSerializer
from config.throttling import SimulationSubmitThrottle
from simulations import selectors, services
from simulations.serializers import (
    BalanceCreateSerializer,
    SimulationCreateSerializer,
    SimulationJobSerializer,
)


def _error(description: str, code: str, detail: str, status_code: int) -> OpenApiResponse:
    return OpenApiResponse(
        ErrorSerializer,
        description=description,
        examples=[OpenApiExample(code, value={"status": status_code, "code": code, "detail": detail})],
    )


BAD_INPUT = _error("Invalid input, illegal matchup or too many games.", "illegal_matchup", "...", 400)
UNAUTHENTICATED = _error("Log in first (token or session).", "not_authenticated", "...", 401)
NOT_FOUND = _error("No such job (or another user's).", "simulation_not_found", "No such simulation job.", 404)
QUOTA = _error(
    "Quota or throttle: too many active jobs, games today or submissions.", "simulation_quota", "...", 429
)
CREATE_EXAMPLE = OpenApiExample(
    "1000 heuristic games between the two Western European starters",
    value={
        "deck_a": {"starter": "gb-we-starter"},
        "deck_b": {"starter": "de-we-starter"},
        "games": 1000,
        "seed": 7,
        "bots": {"a": "heuristic", "b": "heuristic"},
        "options": {},
    },
    request_only=True,
)


def _job_out(job: Any, *, code: int = 200) -> Response:
    return Response(selectors.simulation_payload(job), status=code)


class SimulationListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = StandardPagination
    throttle_classes = [SimulationSubmitThrottle]  # POST only

    @extend_schema(
        summary="Your simulation jobs, newest first",
        responses={200: SimulationJobSerializer(many=True), 401: UNAUTHENTICATED},
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.simulation_list(user=request.user), request, view=self)
        return paginator.get_paginated_response([selectors.simulation_payload(job) for job in page])

    @extend_schema(
        summary="Queue a bot-versus-bot simulation between two decks",
        description=(
            "Answers 202 with the job at once; poll GET /api/simulations/{id}/ for progress and, when done, "
            "each side's win rate with its 95% Wilson interval, draws, end reasons, average turns and games "
            "per second (`result`, shaped as SimulationResult)."
        ),
        request=SimulationCreateSerializer,
        examples=[CREATE_EXAMPLE],
        responses={
            202: SimulationJobSerializer,
            400: BAD_INPUT,
            401: UNAUTHENTICATED,
            404: NOT_FOUND,
            429: QUOTA,
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(SimulationCreateSerializer, request.data)
        job = services.simulation_create(
            user=request.user,
            game_type=data["game_type"],
            deck_a=dict(data["deck_a"]) if "deck_a" in data else None,
            deck_b=dict(data["deck_b"]) if "deck_b" in data else None,
            bots=(data["bots"].get("a", "heuristic"), data["bots"].get("b", "heuristic")),
            games=data["games"],
            seed=data.get("seed"),
            options=data["options"],
            conflict=dict(data["conflict"]) or None,
        )
        return _job_out(job, code=status.HTTP_202_ACCEPTED)


class SimulationDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="One of your simulation jobs: status, progress, result",
        responses={200: SimulationJobSerializer, 401: UNAUTHENTICATED, 404: NOT_FOUND},
        extensions={"x-result-shapes": ["SimulationResult", "BalanceResult"]},
    )
    def get(self, request: Request, job_id: Any) -> Response:
        return _job_out(selectors.simulation_get(job_id=job_id, user=request.user))

    @extend_schema(
        summary="Cancel a queued or running job (a finished job is left as it is)",
        request=None,
        responses={200: SimulationJobSerializer, 401: UNAUTHENTICATED, 404: NOT_FOUND},
    )
    def delete(self, request: Request, job_id: Any) -> Response:
        return _job_out(services.simulation_cancel(job_id=job_id, user=request.user))


class DeckBalanceApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [SimulationSubmitThrottle]

    @extend_schema(
        summary="Propose swaps that make a matchup legal and even, ranked by simulated win rate",
        description=(
            "When the deck and the opponent's are more than 10 cards or 10 points apart (or the matchup is "
            "lopsided), proposes changes of a few cards within the deck's nation list that keep the deck "
            "legal (max per deck, deck rules) and make the matchup legal, and queues a simulation job that "
            "plays each proposal (and the deck as it is, when legal) against the opponent. Answers 202 with "
            "the job; its result (BalanceResult) ranks the proposals by win rate toward 50%."
        ),
        request=BalanceCreateSerializer,
        responses={
            202: SimulationJobSerializer,
            400: BAD_INPUT,
            401: UNAUTHENTICATED,
            404: NOT_FOUND,
            429: QUOTA,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated_input(BalanceCreateSerializer, request.data)
        job = services.balance_create(
            user=request.user,
            deck_id=pk,
            opponent=dict(data["opponent"]),
            bots=(data["bots"].get("a", "heuristic"), data["bots"].get("b", "heuristic")),
            games=data["games"],
            seed=data.get("seed"),
            options=data["options"],
            conflict=dict(data["conflict"]),
            proposals=data["proposals"],
        )
        return _job_out(job, code=status.HTTP_202_ACCEPTED)
