"""The spectator endpoints (watch a game: its public view, log and event stream) and a user's feed (the
notifications the games service writes for him: a paginated list and an event stream). Thin views over
games.spectator_selectors, games.feed_selectors and games.services; the streams are the player stream's
machinery (games.fastpath.stream) with another reader."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_input import validated_input
from config.errors import ValidationFailed
from config.pagination import StandardPagination
from config.schema import LAST_EVENT_ID_SCHEMA, SSE_EVENT, ErrorSerializer
from config.stream_asgi import time_left
from config.throttling import SpectateDelayThrottle
from games import feed_selectors, services, spectator_selectors
from games.apis import SettlesClock
from games.fastpath.stream import (
    SLOT_RELEASE_WAIT_SECONDS,
    EventStreamRenderer,
    EventStreamResponse,
    StreamSlot,
    async_stream_view,
    polling_event_stream,
    pushed_event_stream,
)
from games.serializers import GameSerializer, StreamQuerySerializer
from games.services.feed import feed_key
from games.spectator_serializers import (
    FeedQuerySerializer,
    NotificationSerializer,
    SpectatorAnswerSerializer,
    SpectatorEventsQuerySerializer,
    SpectatorEventsSerializer,
    SpectatorQuerySerializer,
    SpectatorStreamQuerySerializer,
)

logger = logging.getLogger(__name__)

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    LAST_EVENT_ID_SCHEMA,
    OpenApiParameter.HEADER,
    required=False,
    description="Resume after this seq (overrides ?since).",
)
STREAM_RESPONSES = {
    (200, "text/event-stream"): SSE_EVENT,
    (403, "application/json"): ErrorSerializer,
    (403, "text/event-stream"): SSE_EVENT,  # the same error as an `error` event
    (429, "application/json"): ErrorSerializer,
    (429, "text/event-stream"): SSE_EVENT,  # too_many_streams, as an `error` event to an event stream
}
NOT_WATCHABLE = {
    401: OpenApiResponse(ErrorSerializer, description="not_authenticated: watching needs a signed-in user."),
    403: OpenApiResponse(ErrorSerializer, description="spectators_not_allowed: the creator allows none."),
    409: OpenApiResponse(ErrorSerializer, description="game_not_active: a seat is still open."),
}


def _since(request: Request, since: int) -> int:
    """?since, or the Last-Event-ID header of a reconnecting EventSource."""
    last_event_id = request.headers.get("Last-Event-ID", "").strip()
    if not last_event_id:
        return since
    if not (last_event_id.isascii() and last_event_id.isdigit()):  # "²".isdigit() is True
        raise ValidationFailed("Last-Event-ID must be a seq number.", code="invalid")
    return int(last_event_id)


def _stream(request: Request, plan: dict[str, Any], slot: StreamSlot) -> StreamingHttpResponse:
    if isinstance(request._request, ASGIRequest):
        return EventStreamResponse(pushed_event_stream(**plan, slot=slot), slot=slot)
    return EventStreamResponse(polling_event_stream(**plan), slot=slot)


# ------------------------------------------------------------------------------------------ spectators


class GameSpectatorViewApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # who may watch: spectator_selectors.spectator_may_watch
    throttle_classes = [SpectateDelayThrottle]  # only a view asked at its own ?delay= is counted

    @extend_schema(
        parameters=[SpectatorQuerySerializer],
        responses={200: SpectatorAnswerSerializer, **NOT_WATCHABLE},
        summary="Watch a game: its public view (what every seat sees), optionally some plies behind",
        description="Any signed-in user may watch a game whose creator allowed spectators (`spectators` at "
        "creation; on by default against bots); its players may always; anonymous visitors may not (401). "
        "While the game is played the view is "
        "`delay` plies (engine actions) behind it: the creator's delay or ?delay, the larger; once it "
        "ended, the whole game. `spectators` counts the users with a spectator stream open.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = validated_input(SpectatorQuerySerializer, request.query_params)
        return Response(
            spectator_selectors.spectator_view(game_id=game_id, user=request.user, delay=query.get("delay"))
        )


class GameSpectatorEventsApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # who may watch: spectator_selectors.spectator_may_watch

    @extend_schema(
        parameters=[SpectatorEventsQuerySerializer],
        responses={200: SpectatorEventsSerializer, **NOT_WATCHABLE},
        summary="Watch a game: its public log after ?since=seq, up to the delayed cut-off",
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = validated_input(SpectatorEventsQuerySerializer, request.query_params)
        return Response(
            spectator_selectors.spectator_events(
                game_id=game_id, user=request.user, since=query["since"], delay=query.get("delay")
            )
        )


class _SpectatorSlot(StreamSlot):
    """A stream slot that also counts its user as a spectator of the game while it is held."""

    def __init__(self, *, user: Any, game_id: Any, timeout: float) -> None:
        super().__init__(user_id=user.pk, timeout=timeout)
        try:
            self.presence = services.spectator_stream_open(game_id=game_id, user=user, timeout=timeout)
        except BaseException:
            super().release()
            raise

    def release(self) -> None:
        if self.held:
            super().release()
            services.spectator_stream_close(stream_id=self.presence)

    async def arelease(self) -> None:
        if not self.held:
            return
        await super().arelease()
        task = asyncio.ensure_future(sync_to_async(_close_presence, thread_sensitive=False)(self.presence))
        done, _ = await asyncio.wait({task}, timeout=SLOT_RELEASE_WAIT_SECONDS)
        if not done:  # the database is away: the row stops counting at its expiry
            logger.warning("spectator stream %s: not closed yet", self.presence)


def _close_presence(stream_id: int) -> None:
    try:
        services.spectator_stream_close(stream_id=stream_id)
    finally:
        close_old_connections()


class GameSpectatorStreamApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # who may watch: spectator_selectors.spectator_may_watch
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[SpectatorStreamQuerySerializer, LAST_EVENT_ID],
        responses={**STREAM_RESPONSES, (409, "application/json"): ErrorSerializer},
        summary="Watch a game: server-sent events of its public log, `delay` plies behind (ends at game end "
        "or timeout)",
        description="The player stream's machinery (pushed at commit under ASGI) with only the events shown "
        "to all seats and no engine action; while the game is played an entry is sent once `delay` more "
        "engine actions follow it; at the end the rest comes, then `end`. While open, the stream counts "
        "its user as a spectator. It takes one of the user's GAMES_SSE_MAX_STREAMS_PER_USER slots.",
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        query = validated_input(SpectatorStreamQuerySerializer, request.query_params)
        since = _since(request, query["since"])
        game = spectator_selectors.spectator_game(game_id=game_id, user=request.user)
        delay = spectator_selectors.spectator_delay(game=game, requested=query.get("delay"))
        slot = _SpectatorSlot(user=request.user, game_id=game.pk, timeout=query["timeout"])
        plan = {
            "game_id": game.pk,
            "seat": spectator_selectors.spectator_viewer(delay),
            "since": since,
            "timeout": time_left(request, query["timeout"]),  # counted from the request's arrival
        }
        return _stream(request, plan, slot)


game_spectator_stream = async_stream_view(GameSpectatorStreamApi)


class WatchListApi(APIView):
    permission_classes = [AllowAny]  # who may watch: spectator_selectors (401 for anonymous visitors)
    pagination_class = StandardPagination

    @extend_schema(
        responses={200: GameSerializer(many=True), 401: NOT_WATCHABLE[401]},  # paginated
        summary="Live games I may watch: games of others whose creator allowed spectators, newest first",
        description="Games being played (status active) whose creator allowed spectators, without my own "
        "games. Each game's `spectators` gives the delay in plies a spectator stays behind and how many "
        "watch it now. Anonymous visitors: 401 not_authenticated (watching needs a signed-in user).",
    )
    def get(self, request: Request) -> Response:
        games = spectator_selectors.watchable_games(user=request.user)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        counts = spectator_selectors.spectator_counts(game_ids=[game.pk for game in page])
        data = GameSerializer(page, many=True, context={"request": request, "spectators": counts}).data
        return paginator.get_paginated_response(data)


# ------------------------------------------------------------------------------------------------ feed


class FeedListApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = StandardPagination

    @extend_schema(
        parameters=[FeedQuerySerializer],
        responses={200: NotificationSerializer(many=True)},  # paginated: pagination_class above
        summary="My feed, newest first: invitations, my turn in any game, takeback requests, game ends",
        description="For clients that poll: ?since=<the last seq seen> gives only the newer ones.",
    )
    def get(self, request: Request) -> Response:
        query = validated_input(FeedQuerySerializer, request.query_params)
        rows = feed_selectors.feed_list(user=request.user, since=query["since"], kind=query.get("kind"))
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([feed_selectors.notification_payload(r) for r in page])


class FeedStreamApi(APIView):
    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[StreamQuerySerializer, LAST_EVENT_ID],
        responses=STREAM_RESPONSES,
        summary="Server-sent events: my feed's notifications as they are written (ends at its timeout)",
        description="One stream per user for all his games: each notification (the list's shape) is sent "
        "when the transaction that wrote it commits (pushed under ASGI), its seq as the event id. The "
        "stream ends with a `timeout` event (status null): reconnect with Last-Event-ID. It takes one of "
        "the user's GAMES_SSE_MAX_STREAMS_PER_USER slots.",
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        query = validated_input(StreamQuerySerializer, request.query_params)
        slot = StreamSlot(user_id=request.user.pk, timeout=query["timeout"])
        plan = {
            "game_id": feed_key(user_id=request.user.pk),
            "seat": feed_selectors.FEED_VIEWER,
            "since": _since(request, query["since"]),
            "timeout": time_left(request, query["timeout"]),  # counted from the request's arrival
        }
        return _stream(request, plan, slot)


feed_stream = async_stream_view(FeedStreamApi)
