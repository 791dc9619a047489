"""The documented shapes of a seat's view, its log and events, and the clocks (OpenAPI only).

A seat's view is built by its game's engine as plain JSON; each game's definition names the serializer
that describes it (`GameType.api_schema.view`: games.view_serializers_battlecards, _battlefront, _the_war,
_toi), and its decisions and actions are built from the engine's own declarations (games.decision_schemas),
so generated clients get typed objects that cannot drift: `GameView` is one of the registered games' views
and `AnyAction` one of their actions.
"""

from __future__ import annotations

from typing import Any

from django.utils.module_loading import import_string
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games import clocks
from games.decision_schemas import action_component
from games.game_type_fields import GameIdField
from games.game_types import game_type_ids, get_game_type
from games.models import SIDE_SEATS, GameStatus, LogKind, SeatName
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum

SEATS = [c for c, _ in SeatName.choices]  # every game's seats (log entries, events, game rows)
# the games the schema documents (their definition's api_schema), in registration order
DOCUMENTED = [g for g in game_type_ids() if get_game_type(g).api_schema is not None]


def _any_seat(**kwargs: Any) -> serializers.ChoiceField:
    """A seat of any game type (log entries and events are shaped alike in every game)."""
    return serializers.ChoiceField(choices=SeatName.choices, **kwargs)


def any_action_schema() -> PolymorphicProxySerializer:
    """What a client may send: an action of its game (Action, BattlefrontAction, TheWarAction, ...)."""
    return PolymorphicProxySerializer(
        component_name="AnyAction",
        serializers=[action_component(g) for g in DOCUMENTED],
        resource_type_field_name=None,
        many=False,
    )


GameView = PolymorphicProxySerializer(
    component_name="GameView",
    serializers=[import_string(get_game_type(g).api_schema.view) for g in DOCUMENTED],  # type: ignore[union-attr]
    resource_type_field_name=None,
    many=False,
)


# ------------------------------------------------------------------------------------------- clocks


class ClockSideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDE_SEATS, help_text="axis/allies or west/east: a clock a side.")
    remaining_ms = serializers.IntegerField(
        min_value=0, help_text="The side's time left at server_time, in milliseconds."
    )
    running = serializers.BooleanField(help_text="Its clock runs: one of its human seats must decide.")


class ClockSerializer(serializers.Serializer):
    """The clocks of a game with a time control, as they are at `server_time` (null without one)."""

    kind = serializers.ChoiceField(choices=[clocks.REALTIME, clocks.CORRESPONDENCE])
    minutes = serializers.FloatField(required=False, help_text="realtime: each side's time at the start.")
    increment_seconds = serializers.IntegerField(
        required=False, help_text="realtime: added to a side's clock after each of its actions."
    )
    days = serializers.IntegerField(required=False, help_text="correspondence: the time for each decision.")
    running = serializers.ChoiceField(
        choices=SIDE_SEATS, allow_null=True, help_text="The side whose clock runs (null: none runs)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the running side loses on time unless it acts (null: none runs)."
    )
    server_time = serializers.DateTimeField(help_text="The server's time these values are computed at.")
    sides = ClockSideSerializer(many=True)


class TimeControlSerializer(serializers.Serializer):
    """A time control (games.clocks): none, realtime (minutes + increment) or correspondence (days)."""

    kind = serializers.ChoiceField(
        choices=list(clocks.KINDS),
        help_text="none (the default: no clocks), realtime (`minutes` each plus `increment_seconds` per "
        "action) or correspondence (`days` for each decision).",
    )
    minutes = serializers.FloatField(
        required=False,
        min_value=clocks.MIN_MINUTES,
        max_value=clocks.MAX_MINUTES,
        help_text="realtime: each side's time at the start.",
    )
    increment_seconds = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=clocks.MAX_INCREMENT_SECONDS,
        help_text="realtime: seconds added to a side's clock after each of its actions (default 0).",
    )
    days = serializers.IntegerField(
        required=False,
        min_value=clocks.MIN_DAYS,
        max_value=clocks.MAX_DAYS,
        help_text="correspondence: days for each decision.",
    )


class SeatViewSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    game_type = GameIdField(help_text="Which view `view` is.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Send it back with your action.")
    last_seq = serializers.IntegerField()
    seat = _any_seat()
    your_turn = serializers.BooleanField()
    waiting_on = _any_seat(allow_null=True)
    winner = _any_seat(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    clock = ClockSerializer(allow_null=True, help_text="The clocks (null: the game has no time control).")
    view = _documented(
        GameView,
        serializers.JSONField,
        help_text="A View (battlecards), a BattlefrontView (battlefront), a TideOfIronView (tide-of-iron) or "
        "a TheWarView (the-war).",
    )


class EventSerializer(serializers.Serializer):
    type = serializers.CharField()
    data = serializers.DictField()
    visible_to = _enum("all", *SEATS)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LogKind.choices)
    seat = _any_seat()
    by_bot = serializers.BooleanField()
    action = serializers.DictField(allow_null=True, help_text="Null for the other seat's engine actions.")
    events = EventSerializer(many=True, help_text="Only the events your seat may see.")
    created_at = serializers.DateTimeField()


class ActionResultSerializer(serializers.Serializer):
    entries = LogEntrySerializer(many=True, help_text="What happened (your action, then the bots' answers).")
    state = SeatViewSerializer()


class EventsPageSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    seat = _any_seat()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    clock = ClockSerializer(allow_null=True, help_text="The clocks (null: the game has no time control).")
    entries = LogEntrySerializer(many=True)

