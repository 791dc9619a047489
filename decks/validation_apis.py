"""Checks of decks: validate an unsaved or a saved deck by its game's deck rules, a saved deck's stats, and
whether two decks may play each other (the matchup). Thin views over decks.selectors; each operation's OpenAPI
declaration is in decks.schema."""

from __future__ import annotations

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.throttling import DeckValidateThrottle
from decks import schema, selectors
from decks.serializers import MatchupInputSerializer, deck_validate_input


class DeckValidateApi(APIView):
    throttle_classes = [DeckValidateThrottle]
    permission_classes = [AllowAny]

    @schema.deck_validate_post
    def post(self, request: Request) -> Response:
        data = deck_validate_input(request.data)
        result = selectors.deck_validate(game=data["game"], nation=data["nation"], entries=data["entries"])
        return Response(result.to_dict())


class DeckValidationApi(APIView):
    throttle_classes = [DeckValidateThrottle]
    permission_classes = [AllowAny]

    @schema.deck_validation_get
    def get(self, request: Request, pk: int) -> Response:
        deck = selectors.deck_get(user=request.user, deck_id=pk)
        return Response(selectors.deck_validation(deck=deck).to_dict())


class DeckStatsApi(APIView):
    permission_classes = [AllowAny]

    @schema.deck_stats_get
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.deck_stats(deck=selectors.deck_get(user=request.user, deck_id=pk)))


class DeckMatchupApi(APIView):
    throttle_classes = [DeckValidateThrottle]
    permission_classes = [AllowAny]

    @schema.deck_matchup_post
    def post(self, request: Request) -> Response:
        data = validated_input(MatchupInputSerializer, request.data)
        return Response(
            selectors.deck_matchup(
                user=request.user, a=data["a"], b=data["b"], conflict=data.get("conflict") or {}
            )
        )
