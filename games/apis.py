"""The games API: thin views (validate input, call one service or selector, shape the output)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config import metrics
from config.api_input import validated_input
from config.errors import Conflict, DomainError, ValidationFailed
from config.pagination import StandardPagination
from config.schema import LAST_EVENT_ID_SCHEMA, SSE_EVENT, ErrorSerializer
from config.stream_asgi import time_left
from config.throttling import (
    GameActionThrottle,
    GameCreateThrottle,
    ReplayThrottle,
    astream_slot_release,
    stream_slot_acquire,
    stream_slot_release,
)
from games import clock_timer, event_bus, feed_selectors, selectors, services, spectator_selectors
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

logger = logging.getLogger(__name__)

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
            game = selectors.game_get(game_id=game.pk, user=request.user)
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
        game = selectors.game_get(game_id=game.pk, user=request.user)
        return Response(
            GameSerializer(game, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class GameDetailApi(SettlesClock, APIView):
    permission_classes = [AllowAny]  # finished games are public; the selector answers 404 for the rest

    @extend_schema(responses={200: GameSerializer}, summary="One game")
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user)
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
        game = selectors.game_get(game_id=game.pk, user=request.user)
        return Response(GameSerializer(game, context={"request": request}).data)


class GameResignApi(SettlesClock, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameSerializer}, summary="Resign")
    def post(self, request: Request, game_id: str) -> Response:
        game = services.game_resign(game_id=game_id, user=request.user)
        game = selectors.game_get(game_id=game.pk, user=request.user)
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
        if type(request.accepted_renderer) is JSONRenderer:
            # The JSON clients ask for, as JSONRenderer would render it: the unchanging part of the seat's
            # view is kept encoded per game row and seat (selectors.game_player_view_json).
            body = selectors.game_player_view_json(
                game_id=game_id, user=request.user, settle_clock=services.game_clock_settle
            )
            return HttpResponse(body, content_type=JSONRenderer.media_type)
        return Response(selectors.game_player_view(game_id=game_id, user=request.user,
                                                   settle_clock=services.game_clock_settle))


def _action_input(body: Any) -> dict[str, Any]:
    """ActionSubmitSerializer's validated data of an action POST's body. A JSON object with a non-negative
    integer version and a non-null action is the serializer's data as it is (IntegerField returns such an
    int, the JSONField a parsed JSON value, other keys are ignored): it skips the field machinery (issue
    26); anything else goes through the serializer (its errors, its coercions)."""
    if type(body) is dict:
        version, action = body.get("version"), body.get("action")
        if type(version) is int and version >= 0 and action is not None:
            return {"version": version, "action": action}
    return validated_input(ActionSubmitSerializer, body)


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
        data = _action_input(body)
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
        if type(request.accepted_renderer) is JSONRenderer and "indent" not in request.accepted_media_type:
            # The JSON JSONRenderer would render, spliced from its encoded parts (as GET .../view/ does); the
            # seat's view part, built once here, is kept for the row written (the seat's next GET finds it).
            state = selectors.seat_view_json(
                game=outcome.game, seat=outcome.seat, state=outcome.state, keep=outcome.committed
            )
            services.game_action_hand_on(outcome=outcome)  # after the last read of outcome.state
            entries = selectors.log_entries_json(outcome.entries, outcome.seat)
            return HttpResponse(
                b"".join((b'{"entries":', entries, b',"state":', state, b"}")),
                content_type=JSONRenderer.media_type,
            )
        body = {
            "entries": [selectors.log_entry_for_seat(e, outcome.seat) for e in outcome.entries],
            "state": selectors.seat_view_payload(game=outcome.game, seat=outcome.seat, state=outcome.state),
        }
        services.game_action_hand_on(outcome=outcome)  # after the last read of outcome.state
        return Response(body)


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


class EventStreamRenderer(BaseRenderer):
    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        # Only errors reach a renderer (the stream itself is a StreamingHttpResponse).
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()


def _sse(data: Any, *, event: str | None = None, event_id: int | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append(f"data: {json.dumps(data, separators=(',', ':'))}")
    return "\n".join(lines) + "\n\n"


def polling_event_stream(*, game_id: Any, seat: str, since: int, timeout: float) -> Iterator[str]:
    """The polling stream (WSGI: the development server and the test client): holds its thread."""
    poll = float(getattr(settings, "GAMES_SSE_POLL_SECONDS", 0.5))
    deadline = time.monotonic() + timeout
    last = since
    yield "retry: 2000\n\n"
    while True:
        entries, game_status, last_seq = _read(game_id=game_id, seat=seat, since=last)
        for entry in entries:
            last = entry["seq"]
            yield _sse(entry, event_id=entry["seq"])
        if game_status == GameStatus.FINISHED and last >= last_seq:
            yield _sse({"status": game_status, "last_seq": last}, event="end", event_id=last)
            return
        if time.monotonic() >= deadline:
            yield _sse(
                {"status": game_status, "last_seq": last, "reconnect": True}, event="timeout", event_id=last
            )
            return
        yield ": keep-alive\n\n"
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())))


def _read(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str | None, int]:
    """One look at what a stream sends after `since`: the entries, the game's status, the last seq there
    is to send. `seat` names the reader: a seat of the game, spectators at a delay ("spectator:<plies>",
    games.spectator_selectors; `game_id` is the game) or a user's feed ("feed"; `game_id` is the feed's
    key feed:<user id>: no status, the stream ends at its timeout only)."""
    if seat.startswith(spectator_selectors.SPECTATOR_VIEWER):
        delay = int(seat.removeprefix(spectator_selectors.SPECTATOR_VIEWER))
        return spectator_selectors.spectator_read_since(game_id=game_id, delay=delay, since=since)
    if seat == feed_selectors.FEED_VIEWER:
        user_id = str(game_id).rsplit(":", 1)[1]
        entries = feed_selectors.feed_read_since(user_id=user_id, since=since)
        return entries, None, entries[-1]["seq"] if entries else since
    game_status, last_seq = selectors.game_status_now(game_id=game_id)
    return selectors.game_events_since(game_id=game_id, seat=seat, since=since), game_status, last_seq


def _read_since(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str | None, int]:
    """One look (_read) from a worker thread; its database connection goes back at once."""
    try:
        return _read(game_id=game_id, seat=seat, since=since)
    finally:
        close_old_connections()


_reads_in_flight: dict[tuple[str, str, int], asyncio.Future] = {}


def _retrieve_error(done: asyncio.Future) -> None:
    """A failed read whose streams all stopped waiting (their deadline): its error is theirs to log, not
    asyncio's ("exception was never retrieved")."""
    if not done.cancelled():
        done.exception()


async def _shared_read(*, game_id: Any, seat: str, since: int) -> tuple[list[dict[str, Any]], str, int]:
    """_read_since in a pooled thread, shared by the streams that ask the same (game, seat, since) at the
    same time: the streams of a game wake together, and one read serves them all."""
    key = (str(game_id), seat, since)
    future = _reads_in_flight.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        future = asyncio.ensure_future(
            sync_to_async(_read_since, thread_sensitive=False)(game_id=game_id, seat=seat, since=since)
        )
        _reads_in_flight[key] = future
        future.add_done_callback(lambda done: _reads_in_flight.pop(key, None) if
                                 _reads_in_flight.get(key) is done else None)
        future.add_done_callback(_retrieve_error)
    entries, game_status, last_seq = await asyncio.shield(future)
    return entries, game_status, last_seq


STREAM_READ_RETRY_SECONDS = 1.0  # a read of the log failed (the database is away): try again this soon
STREAM_LAST_READ_SECONDS = 1.0  # a read may end this long after the stream's deadline, never later
SLOT_RELEASE_WAIT_SECONDS = 2.0  # the end of a stream waits this long at most for its slot to be given back


async def _read_before(*, deadline: float, game_id: Any, seat: str, since: int) -> tuple | None:
    """The log after `since` (see _shared_read), or None when the database did not answer in time: in an
    outage a read waits for a pooled connection, and a stream must still end at its deadline."""
    budget = max(deadline - asyncio.get_running_loop().time(), STREAM_LAST_READ_SECONDS)
    try:
        return await asyncio.wait_for(_shared_read(game_id=game_id, seat=seat, since=since), budget)
    except TimeoutError:
        return None
    except DatabaseError as exc:
        logger.warning("event stream of game %s: reading the log failed, retrying: %s", game_id, exc)
        return None


async def pushed_event_stream(
    *, game_id: Any, seat: str, since: int, timeout: float, slot: StreamSlot
) -> AsyncIterator[str]:
    """The ASGI stream: waits on the game's signal (PostgreSQL NOTIFY) or polls (SQLite), holding no
    thread while it waits; reads the new log rows in a pooled worker thread.

    A database outage: a failed read is retried every STREAM_READ_RETRY_SECONDS and at once when the
    listener reconnects (which wakes every stream: the notifications sent while it was away are lost, so
    each stream reads the log from its last seq again); the stream still ends at its deadline. Its slot is
    given back before the last event (`end`, `timeout`) is sent, and when the client goes away."""
    try:
        bus = await event_bus.listener() if event_bus.pushes() else None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        poll = float(getattr(settings, "GAMES_SSE_POLL_SECONDS", 0.5))
        keepalive = float(settings.GAMES_SSE_KEEPALIVE_SECONDS)
        last = since
        game_status = None  # as last read (stays null in a `timeout` event if the database never answered)
        yield "retry: 2000\n\n"
        while True:
            signal = bus.signal(game_id) if bus is not None else None  # before reading: no wake-up is lost
            read = await _read_before(deadline=deadline, game_id=game_id, seat=seat, since=last)
            if read is not None:
                entries, game_status, last_seq = read
                for entry in entries:
                    last = entry["seq"]
                    yield _sse(entry, event_id=entry["seq"])
                if game_status == GameStatus.FINISHED and last >= last_seq:
                    await slot.arelease()
                    yield _sse({"status": game_status, "last_seq": last}, event="end", event_id=last)
                    return
            remaining = deadline - loop.time()
            if remaining <= 0:
                await slot.arelease()
                yield _sse(
                    {"status": game_status, "last_seq": last, "reconnect": True}, event="timeout",
                    event_id=last,
                )
                return
            if read is None:
                wait = min(STREAM_READ_RETRY_SECONDS, remaining)
            elif signal is None:
                await asyncio.sleep(min(poll, remaining))
                yield ": keep-alive\n\n"
                continue
            else:
                wait = min(keepalive, remaining)
            read = entries = entry = None  # an idle stream holds no log rows while it waits
            # one future, resolved by the signal (True) or the timer (False): no task, coroutine or
            # asyncio.timeout of its own for each waiting stream (issue 26)
            waiter = loop.create_future()
            timer = loop.call_later(wait, event_bus.wake, waiter, False)
            if signal is not None:
                signal.add(waiter)
            try:
                signalled = await waiter
            finally:
                timer.cancel()
                if signal is not None:
                    signal.discard(waiter)
            waiter = timer = None
            if not signalled:
                yield ": keep-alive\n\n"
    finally:  # also when the client went away (the task is cancelled) or the server shuts down
        await slot.arelease()


class TooManyStreams(DomainError):
    status = 429
    code = "too_many_streams"


class StreamSlot:
    """One of the user's open-stream slots (GAMES_SSE_MAX_STREAMS_PER_USER), given back once: `release`
    from synchronous code (WSGI, a response's close), `arelease` from the event loop (an ASGI stream)."""

    __slots__ = ("held", "slot", "user_id")  # one per open stream (issue 26: memory per idle listener)

    def __init__(self, *, user_id: int, timeout: float) -> None:
        limit = settings.GAMES_SSE_MAX_STREAMS_PER_USER
        slot = stream_slot_acquire(user_id=user_id, limit=limit, ttl=int(timeout) + 60)
        if slot is None:
            raise TooManyStreams(
                f"You have {limit} event streams open already; close one first.", retry_after=5
            )
        self.user_id = user_id
        self.slot = slot
        self.held = True
        metrics.stream_opened()

    def release(self) -> None:
        if self.held:
            self.held = False
            metrics.stream_closed()
            stream_slot_release(slot=self.slot)

    async def arelease(self) -> None:
        """Give the slot back from async code, waiting SLOT_RELEASE_WAIT_SECONDS at most (a database cache
        in an outage): the release goes on in its thread, and a slot never given back expires after its
        `ttl` (the stream's timeout + 60 s)."""
        if not self.held:
            return
        self.held = False
        metrics.stream_closed()
        task = asyncio.ensure_future(astream_slot_release(slot=self.slot))
        task.add_done_callback(_log_failed_release)
        done, _ = await asyncio.wait({task}, timeout=SLOT_RELEASE_WAIT_SECONDS)  # never raises its error
        if not done:
            logger.warning("event stream slot of user %s: release still pending", self.user_id)


def _log_failed_release(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("event stream slot: release failed: %s", task.exception())


class EventStreamResponse(StreamingHttpResponse):
    """text/event-stream that gives its slot back when the server closes it (ended or client gone)."""

    def __init__(self, content: Any, *, slot: StreamSlot) -> None:
        super().__init__(content, content_type="text/event-stream")
        self.events = content if self.is_async else None  # the pushed stream (an async generator)
        self.slot: StreamSlot | None = slot
        self["Cache-Control"] = "no-cache"
        self["X-Accel-Buffering"] = "no"

    def detach_events(self) -> tuple[AsyncIterator[str], Callable[[], Awaitable[None]]] | None:
        """For the streams' ASGI application (config.stream_asgi), which sends a pushed stream itself: its
        events and what to await once they end or the client left (its slot given back), taken out of the
        response, whose close() then leaves the slot held. None for a polling stream."""
        if self.events is None or self.slot is None:
            return None
        events, slot = self.events, self.slot
        self.events = self.slot = None
        return events, slot.arelease

    def close(self) -> None:
        if self.slot is not None:
            self.slot.release()
        super().close()


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


def async_stream_view(view_class: type[APIView]) -> Any:
    """The URL's view of an event stream API: under Django's ASGI handler its checks run in a pooled thread
    and the stream itself is async (the OpenAPI schema documents `view_class`). `make serve`'s stream
    process runs `sync_view` itself instead (config.stream_asgi): the same view, without Django's
    per-connection handler while the stream waits."""
    drf_view = view_class.as_view()

    def in_worker_thread(request: Any, **kwargs: Any) -> Any:
        try:
            return drf_view(request, **kwargs)
        finally:
            close_old_connections()

    async def stream(request: Any, **kwargs: Any) -> Any:
        kwargs = {name: str(value) for name, value in kwargs.items()}
        if not isinstance(request, ASGIRequest):
            return await sync_to_async(drf_view)(request, **kwargs)
        opening = asyncio.ensure_future(
            sync_to_async(in_worker_thread, thread_sensitive=False)(request, **kwargs)
        )
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:  # the client went away while the checks ran: Django will never send
            # (nor close) the response they make, so close it here once they are done: its slot is given back
            with contextlib.suppress(Exception):
                response = await opening
                await sync_to_async(response.close, thread_sensitive=False)()
            raise

    stream.sync_view = drf_view  # config.stream_asgi runs it in a pooled thread, then sends the stream itself
    stream.cls = view_class  # the OpenAPI schema documents the DRF view
    stream.initkwargs = {}
    stream.csrf_exempt = True
    return stream


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
