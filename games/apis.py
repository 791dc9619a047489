"""The games API: thin views (validate input, call one service or selector, shape the output)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config.api_input import validated_input
from config.errors import Conflict, ValidationFailed
from config.pagination import StandardPagination
from config.schema import LAST_EVENT_ID_SCHEMA, SSE_EVENT, ErrorSerializer
from config.stream_asgi import time_left
from config.throttling import (
    GameActionThrottle,
    GameCreateThrottle,
    ReplayThrottle,
)
from games import clock_timer, fastpath, selectors, services, spectator_selectors
from games.fastpath.stream import (
    EventStreamRenderer,
    EventStreamResponse,
    StreamSlot,
    async_stream_view,
    polling_event_stream,
    pushed_event_stream,
)
from games.game_type_fields import game_type_choices
from games.models import SIDE_SEATS, GameStatus
from games.serializers import (
    ActionSubmitSerializer,
    EventsQuerySerializer,
    GameCreateSerializer,
    GameJoinSerializer,
    GameListQuerySerializer,
    GameSerializer,
    StreamQuerySerializer,
)
from games.stream_ticket_apis import StreamTicketAuthentication
from games.view_serializers import (
    ActionResultSerializer,
    EventsPageSerializer,
    SeatViewSerializer,
)

CREATE_EXAMPLE = OpenApiExample(
    "Play a starter deck against the heuristic bot",
    value={
        "my_deck": {"starter": "gb-we-starter"},
        "opponent_deck": {"starter": "de-we-starter"},
        "opponent": {"kind": "bot", "bot": "heuristic"},
        "options": {"larger_standing_armies": False},
    },
    request_only=True,
)
TEAM_EXAMPLE = OpenApiExample(
    "A 2v2 team game: you and a bot against an open seat and a bot (Western Europe)",
    value={
        "armies": {
            "axis": [
                {"nation": "DE", "player": "open"},
                {"nation": "DE", "player": "bot", "bot": "heuristic"},
            ],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "GB", "player": "bot"}],
        },
        "options": {"occupying_force": False},
    },
    request_only=True,
)
UNEVEN_EXAMPLE = OpenApiExample(
    "An uneven, combined game: GB and US against a German army, the conflict decks of WE and PAC added",
    value={
        "armies": {
            "axis": [{"nation": "DE", "player": "bot"}],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "US", "player": "open", "invite": "bob"}],
        },
        "conflict": {"theaters": ["WE", "PAC"]},
    },
    request_only=True,
)
ACTION_EXAMPLE = OpenApiExample(
    "Submit one of your legal actions",
    value={"version": 7, "action": {"type": "draw", "seat": "axis"}},
    request_only=True,
)


class SettlesClock:
    """A view about one game (URL kwarg game_id): before it answers, a game whose running clock has run out
    is ended on time (games.services.game_clock_settle), so every read and write agrees with the periodic
    expiry job even before it ran."""

    settles_before_reading = True  # False: the view settles from the row it reads (game_player_view)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        clock_timer.ensure_started()  # without a broker: this process's sweep thread (once)
        if kwargs.get("game_id") is not None and self.settles_before_reading:
            services.game_clock_settle(game_id=kwargs["game_id"])



class GameListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = StandardPagination  # documents the list as a page (count, next, previous, results)
    throttle_classes = [GameCreateThrottle]  # POST only

    @extend_schema(
        parameters=[
            GameListQuerySerializer,
            OpenApiParameter("status", str, enum=[c for c, _ in GameStatus.choices], required=False),
            OpenApiParameter("winner", str, enum=[s.value for s in SIDE_SEATS], required=False),
            OpenApiParameter("game_type", str, enum=[c for c, _ in game_type_choices()], required=False),
        ],
        responses={200: GameSerializer(many=True)},  # paginated: pagination_class above
        summary="My games (or ?joinable=true: open games I may join), newest first",
    )
    def get(self, request: Request) -> Response:
        query = validated_input(GameListQuerySerializer, request.query_params)
        services.games_clocks_settle_for_user(user=request.user)  # a game lost on time shows so at once
        games = selectors.game_list(
            user=request.user, filters=request.query_params, joinable=query["joinable"]
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        watching = spectator_selectors.spectator_counts(game_ids=[g.pk for g in page])
        return paginator.get_paginated_response(
            GameSerializer(page, many=True, context={"request": request, "spectators": watching}).data
        )

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameSerializer},
        examples=[CREATE_EXAMPLE, TEAM_EXAMPLE, UNEVEN_EXAMPLE],
        summary="Create a game: 1v1 from two legal, matched decks, or a team game from `armies`",
        description="A 1v1 game: my_deck, opponent_deck, opponent. A team, uneven or combined Battlecards "
        "game (2 to 8 seats, one per army): `armies` instead, 1 to 4 armies a side, each with its nation and "
        "who plays it (me, open, bot). 400 codes: side_without_army, too_many_armies, teams_too_uneven, "
        "uneven_teams_refuse_rule_1 (uneven teams with larger_standing_armies), unknown_nation, "
        "nation_on_wrong_side, one_seat_per_player, unknown_user, unknown_theater, theater_not_playable, "
        "team_game_not_rated (`rated` with `armies`). "
        "Any game may be played against the clock: `time_control` (realtime minutes + increment, or "
        "correspondence days; 400 invalid_time_control).",
    )
    def post(self, request: Request) -> Response:
        data = validated_input(GameCreateSerializer, request.data)
        if "armies" in data:
            game = services.game_create_armies(
                user=request.user,
                armies=data["armies"],
                options=data.get("options"),
                seed=data.get("seed"),
                theaters=(data.get("conflict") or {}).get("theaters"),
                spectators=data.get("spectators"),
                time_control=data.get("time_control"),
                rated=data["rated"],
            )
            game = fastpath.game_get(game_id=game.pk, user=request.user)
            return Response(
                GameSerializer(game, context={"request": request}).data, status=status.HTTP_201_CREATED
            )
        game = services.game_create(
            user=request.user,
            game_type=data["game_type"],
            seat=data.get("seat"),
            my_deck=data.get("my_deck"),
            opponent_deck=data.get("opponent_deck"),
            opponent=data["opponent"],
            options=data.get("options"),
            seed=data.get("seed"),
            conflict=data.get("conflict"),
            spectators=data.get("spectators"),
            time_control=data.get("time_control"),
            rated=data["rated"],
        )
        game = fastpath.game_get(game_id=game.pk, user=request.user)
        return Response(
            GameSerializer(game, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class GameDetailApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # finished games are public; the selector answers 404 for the rest

    @extend_schema(responses={200: GameSerializer}, summary="One game")
    def get(self, request: Request, game_id: str) -> Response:
        game = fastpath.game_get(game_id=game_id, user=request.user)
        return Response(GameSerializer(game, context={"request": request}).data)


class GameJoinApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=GameJoinSerializer,
        responses={200: GameSerializer},
        summary="Take an open seat (a team game: the army you name; 1v1: with your own deck, or the one the "
        "creator chose for it)",
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = validated_input(GameJoinSerializer, request.data)
        game = services.game_join(
            game_id=game_id, user=request.user, deck=data.get("deck"), seat=data.get("seat")
        )
        game = fastpath.game_get(game_id=game.pk, user=request.user)
        return Response(GameSerializer(game, context={"request": request}).data)


class GameResignApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameSerializer}, summary="Resign")
    def post(self, request: Request, game_id: str) -> Response:
        game = services.game_resign(game_id=game_id, user=request.user)
        game = fastpath.game_get(game_id=game.pk, user=request.user)
        return Response(GameSerializer(game, context={"request": request}).data)


class GameSeatViewApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]
    settles_before_reading = False  # game_player_view settles a clock past its deadline from the row

    @extend_schema(
        responses={
            200: SeatViewSerializer,
            403: OpenApiResponse(ErrorSerializer, description="You do not sit at this game."),
            409: OpenApiResponse(ErrorSerializer, description="game_not_active: a seat is still open."),
        },
        summary="My seat's view: what I may see, the pending decision and my legal actions",
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        if fastpath.answers_json(request):  # the same bytes JSONRenderer makes of the view below
            body = fastpath.game_player_view_json(
                game_id=game_id, user=request.user, settle_clock=services.game_clock_settle
            )
            return HttpResponse(body, content_type=JSONRenderer.media_type)
        return Response(fastpath.game_player_view(game_id=game_id, user=request.user,
                                                  settle_clock=services.game_clock_settle))


class GameActionSubmitApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]
    settles_before_reading = False  # a clock past its deadline is seen under the row lock (post)
    invalid_input_code = "malformed_action"  # the code of a 400 for a body that fails the serializer
    throttle_classes = [GameActionThrottle]

    @extend_schema(
        request=ActionSubmitSerializer,
        examples=[ACTION_EXAMPLE],
        responses={200: ActionResultSerializer},
        summary="Act for my seat at the version I saw (bots answer in the same request)",
    )
    def post(self, request: Request, game_id: str) -> HttpResponse:
        try:
            body = request.data
        except ParseError as exc:  # not JSON at all: still a malformed action for this endpoint
            raise ValidationFailed(f"The body is not JSON: {exc.detail}", code="malformed_action") from exc
        data = fastpath.action_input(body, ActionSubmitSerializer)
        submit = partial(
            services.game_action_submit,
            game_id=game_id, user=request.user, version=data["version"], action=data["action"],
        )
        try:
            outcome = submit()
        except Conflict as exc:
            if exc.code != "game_finished":
                raise
            # The locked row showed a clock past its deadline (or a finished game): end it on time as
            # SettlesClock would have before reading, then answer as for a finished game.
            services.game_clock_settle(game_id=game_id)
            outcome = submit()
        if fastpath.answers_json(request):  # the same bytes JSONRenderer makes of the answer below
            answer = fastpath.action_answer_json(
                game=outcome.game, seat=outcome.seat, state=outcome.state, entries=outcome.entries,
                keep=outcome.committed,
            )
            services.game_action_hand_on(outcome=outcome)  # after the last read of outcome.state
            return HttpResponse(answer, content_type=JSONRenderer.media_type)
        result = {
            "entries": [selectors.log_entry_for_seat(e, outcome.seat) for e in outcome.entries],
            "state": selectors.seat_view_payload(game=outcome.game, seat=outcome.seat, state=outcome.state),
        }
        services.game_action_hand_on(outcome=outcome)  # after the last read of outcome.state
        return Response(result)


class GameEventsApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[EventsQuerySerializer],
        responses={200: EventsPageSerializer, 403: ErrorSerializer},
        summary="Log entries after ?since=seq, with only the events my seat may see",
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = validated_input(EventsQuerySerializer, request.query_params)
        return Response(
            selectors.game_events_for_user(game_id=game_id, user=request.user, since=query["since"])
        )



class GameEventStreamApi(SettlesClock, APIView):
    # ?ticket= (a single-use stream ticket) when no header or session authenticates: EventSource on another
    # origin sends neither (a ticket beside a token is left unused)
    authentication_classes = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, StreamTicketAuthentication]
    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[
            StreamQuerySerializer,
            OpenApiParameter(
                "Last-Event-ID",
                LAST_EVENT_ID_SCHEMA,
                OpenApiParameter.HEADER,
                required=False,
                description="Resume after this seq (overrides ?since).",
            ),
        ],
        responses={
            (200, "text/event-stream"): SSE_EVENT,
            (403, "application/json"): ErrorSerializer,
            (403, "text/event-stream"): SSE_EVENT,  # the same error as an `error` event
            (429, "application/json"): ErrorSerializer,
            (429, "text/event-stream"): SSE_EVENT,  # too_many_streams, as an `error` event
        },
        summary="Server-sent events: my seat's log entries as they happen (ends at game end or timeout)",
        description="Under the ASGI server the stream is pushed when an action commits (PostgreSQL "
        "LISTEN/NOTIFY) and holds no thread while it waits. At most GAMES_SSE_MAX_STREAMS_PER_USER streams "
        "per user are open at once (429 too_many_streams beyond).",
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        query = validated_input(StreamQuerySerializer, request.query_params)
        since = query["since"]
        last_event_id = request.headers.get("Last-Event-ID", "").strip()
        if last_event_id:
            if not (last_event_id.isascii() and last_event_id.isdigit()):  # "²".isdigit() is True
                raise ValidationFailed("Last-Event-ID must be a log seq number.", code="invalid")
            since = int(last_event_id)
        game, seat = selectors.game_seat_for_events(game_id=game_id, user=request.user)
        slot = StreamSlot(user_id=request.user.pk, timeout=query["timeout"])
        plan = {"game_id": game.pk, "seat": seat, "since": since,
                "timeout": time_left(request, query["timeout"])}  # counted from the request's arrival
        if isinstance(request._request, ASGIRequest):
            return EventStreamResponse(pushed_event_stream(**plan, slot=slot), slot=slot)
        return EventStreamResponse(polling_event_stream(**plan), slot=slot)



game_event_stream = async_stream_view(GameEventStreamApi)


class GameReplayApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # a finished game is public
    throttle_classes = [ReplayThrottle]

    @extend_schema(
        responses={
            200: OpenApiTypes.OBJECT,
            409: OpenApiResponse(ErrorSerializer, description="The game is not finished yet."),
        },
        summary="After the end: setup, seed and salt, catalog snapshot and the full action log",
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(selectors.game_replay(game_id=game_id, user=request.user))
