"""Output and query shapes of the spectator and feed endpoints (games.spectator_apis, games.feed_apis)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.game_type_fields import GameIdField
from games.models import GameStatus, LogKind, NotificationKind, SeatKind, SeatName
from games.options import MAX_SPECTATOR_DELAY
from games.serializers import StreamQuerySerializer
from games.view_serializers import ClockSerializer, EventSerializer
from games.view_serializers_battlecards import (
    BattleSerializer,
    ConflictPilesSerializer,
    OpponentSideSerializer,
    ResultSerializer,
)
from games.view_serializers_battlefront import (
    BattlefrontBattleSerializer,
    BattlefrontFrontSerializer,
    BattlefrontOpponentSerializer,
    BattlefrontOptionsSerializer,
    BattlefrontResultSerializer,
)


class SpectatorQuerySerializer(serializers.Serializer):
    delay = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SPECTATOR_DELAY,
        help_text="Stay this many plies (engine actions) behind the game; the creator's delay is the least.",
    )


class SpectatorEventsQuerySerializer(SpectatorQuerySerializer):
    since = serializers.IntegerField(
        required=False, min_value=0, default=0, help_text="Return log entries with seq greater than this."
    )


class SpectatorStreamQuerySerializer(StreamQuerySerializer, SpectatorQuerySerializer):
    pass


class SpectatorDecisionSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=SeatName.choices, help_text="Whose decision it is.")
    kind = serializers.CharField(help_text="What kind of decision (no prompt, no legal actions).")


class PublicViewSerializer(serializers.Serializer):
    """What a spectator of a Battlecards game sees: every army as an enemy sees it (sizes and counts of
    what is hidden), never a hand, a face-down card, a deck order or the RNG state."""

    seat = serializers.CharField(allow_null=True, help_text="Always null: a spectator sits nowhere.")
    status = serializers.ChoiceField(choices=["active", "finished"])
    winner = serializers.CharField(allow_null=True)
    result = ResultSerializer(allow_null=True)
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    active_seat = serializers.ChoiceField(choices=SeatName.choices, allow_null=True)
    victory_threshold = serializers.IntegerField()
    max_action_number = serializers.IntegerField()
    players = serializers.DictField(child=OpponentSideSerializer(), help_text="Seat (army) -> what all see.")
    conflict = ConflictPilesSerializer()
    battle = BattleSerializer(allow_null=True)
    decision = SpectatorDecisionSerializer(allow_null=True)
    turn_order = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Team and combined games only."
    )


class BattlefrontPublicViewSerializer(serializers.Serializer):
    """What a spectator of a Battlefront game sees: the fronts, never a hand or a face-down discard."""

    game = serializers.ChoiceField(choices=["battlefront"])
    seat = serializers.CharField(allow_null=True, help_text="Always null: a spectator sits nowhere.")
    status = serializers.ChoiceField(choices=["active", "finished"])
    winner = serializers.CharField(allow_null=True)
    result = BattlefrontResultSerializer()
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    first_seat = serializers.CharField(allow_null=True)
    options = BattlefrontOptionsSerializer()
    hand_limit = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    fronts = BattlefrontFrontSerializer(many=True)
    last_battle = BattlefrontBattleSerializer(allow_null=True)
    players = serializers.DictField(child=BattlefrontOpponentSerializer(), help_text="Seat -> what all see.")
    decision = SpectatorDecisionSerializer(allow_null=True)


PublicView = PolymorphicProxySerializer(
    component_name="SpectatorView",
    serializers=[PublicViewSerializer, BattlefrontPublicViewSerializer],
    resource_type_field_name=None,
    many=False,
)


class SpectatorPlayerSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=SeatName.choices)
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    player = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    nation = serializers.CharField()


class SpectatorAnswerSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    game_type = GameIdField()
    status = serializers.ChoiceField(choices=[GameStatus.ACTIVE, GameStatus.FINISHED])
    delay = serializers.IntegerField(
        help_text="How many plies behind the game this view is (0 once it ended)."
    )
    seq = serializers.IntegerField(
        help_text="The last log seq this view shows (its stream resumes after it)."
    )
    spectators = serializers.IntegerField(help_text="Distinct users with a spectator stream of it open now.")
    players = SpectatorPlayerSerializer(many=True)
    winner = serializers.CharField(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    clock = ClockSerializer(
        allow_null=True,
        help_text="The clocks now (null: no time control, or a delayed view, which must not show whose "
        "decision it is now).",
    )
    cards = serializers.DictField(
        child=serializers.DictField(), help_text="Code -> definition (codes shown)."
    )
    view = PublicView


class SpectatorLogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LogKind.choices)
    seat = serializers.CharField()
    by_bot = serializers.BooleanField()
    action = serializers.DictField(allow_null=True, help_text="Null for every engine action.")
    events = EventSerializer(many=True, help_text="Only the events shown to all seats.")
    created_at = serializers.DateTimeField()


class SpectatorEventsSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    delay = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The last seq a spectator may see now (the delayed cut-off).")
    entries = SpectatorLogEntrySerializer(many=True)


class FeedQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(
        required=False, min_value=0, default=0, help_text="Only notifications with seq greater than this."
    )
    kind = serializers.ChoiceField(choices=NotificationKind.choices, required=False)


class NotificationSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        help_text="Orders the feed; send the last one seen as ?since or Last-Event-ID."
    )
    kind = serializers.ChoiceField(choices=NotificationKind.choices)
    game = serializers.UUIDField()
    data = serializers.DictField(
        help_text="game_type, and per kind: invitation {seat, by}; your_turn {seat, version, ply, last_seq}; "
        "takeback_request {seat, by, count, your_seat}; game_end {seat, winner, end_reason, result}."
    )
    created_at = serializers.DateTimeField()
