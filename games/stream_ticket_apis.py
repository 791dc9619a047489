"""POST /api/games/{id}/events/stream-ticket/ and the `?ticket=` authentication of the event stream
(games.services.stream_tickets)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.authentication import InvalidTicket
from config.schema import ErrorSerializer
from config.throttling import scoped
from games.services.stream_tickets import stream_ticket_issue, stream_ticket_redeem


class StreamTicketAuthentication(BaseAuthentication):
    """`?ticket=` on the event stream: the user a ticket was issued to, for its one game, once."""

    def authenticate(self, request: Request):
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        game_id = (request.parser_context or {}).get("kwargs", {}).get("game_id")
        user_id = stream_ticket_redeem(ticket=ticket, game_id=game_id)
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
        if user is None:
            raise InvalidTicket()
        return user, None

    def authenticate_header(self, request: Request) -> str:
        return "Ticket"


class StreamTicketScheme(OpenApiAuthenticationExtension):
    target_class = StreamTicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "A single-use stream ticket from POST /api/games/{id}/events/stream-ticket/.",
        }


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="Pass as ?ticket= on the game's event stream, once.")
    game = serializers.UUIDField()
    expires_in = serializers.IntegerField(help_text="Seconds the ticket stays valid if unused.")


class StreamTicketApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [scoped("stream_ticket", methods={"POST"})]

    @extend_schema(
        request=None,
        responses={
            201: StreamTicketSerializer,
            403: OpenApiResponse(ErrorSerializer, description="Not a player of this game."),
            404: OpenApiResponse(ErrorSerializer, description="No such game."),
        },
        examples=[
            OpenApiExample(
                "ticket",
                value={"ticket": "hT3...", "game": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "expires_in": 60},
                response_only=True,
            )
        ],
        summary="A single-use ticket for EventSource on another origin to open this game's event stream",
        description="GET /api/games/{id}/events/stream/?ticket=<ticket> then authenticates as you, once, "
        "within `expires_in` seconds (GAMES_STREAM_TICKET_SECONDS). Never put the API token in a URL.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        ticket = stream_ticket_issue(user=request.user, game_id=game_id)
        return Response(ticket, status=status.HTTP_201_CREATED)
