"""Input and output shapes of the takeback endpoints (games.takeback_apis): no business logic here."""

from __future__ import annotations

from rest_framework import serializers

from games.models import SeatName
from games.services.takebacks import MAX_TAKEBACK_COUNT
from games.view_serializers import LogEntrySerializer, SeatViewSerializer


class TakebackRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, help_text="The game version your view showed.")
    count = serializers.IntegerField(
        min_value=1,
        max_value=MAX_TAKEBACK_COUNT,
        required=False,
        default=1,
        help_text="How many of your own last actions to take back (every action after the first of them, "
        "the other seats' included, is undone with them).",
    )


class TakebackAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, help_text="The game version your view showed.")
    accept = serializers.BooleanField(help_text="true: take the actions back; false: decline.")


class TakebackPendingSerializer(serializers.Serializer):
    """A takeback request waiting for its answer (public: every seat sees it whole)."""

    seq = serializers.IntegerField(help_text="The request's log entry.")
    version = serializers.IntegerField(help_text="The game version the request made (answer at it).")
    requested_by = serializers.ChoiceField(choices=SeatName.choices)
    count = serializers.IntegerField(help_text="How many of its own actions the asking seat takes back.")
    undo_from_seq = serializers.IntegerField(help_text="The engine actions at or after this seq are undone.")
    undo_seqs = serializers.ListField(child=serializers.IntegerField(), help_text="The entries undone.")
    answer_by = serializers.ListField(
        child=serializers.ChoiceField(choices=SeatName.choices),
        help_text="The seats that may answer (any one of them; empty: the bots answered already).",
    )
    created_at = serializers.DateTimeField()


class TakebackStatusSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    seat = serializers.ChoiceField(choices=SeatName.choices, help_text="Your seat.")
    version = serializers.IntegerField()
    bots_accept_takebacks = serializers.BooleanField(
        help_text="Whether bots accept takebacks: the game's option, never in a rated game."
    )
    pending = TakebackPendingSerializer(allow_null=True, help_text="null: no request waits.")


class TakebackResultSerializer(serializers.Serializer):
    entries = LogEntrySerializer(
        many=True,
        help_text="What was appended: the request (and the bots' answer), or the answer. An entry of kind "
        "takeback whose event `takeback` has reload true rewound the game: reload your view.",
    )
    pending = TakebackPendingSerializer(allow_null=True, help_text="The request still waiting, if any.")
    state = SeatViewSerializer(help_text="Your seat's view now (after a takeback: the rewound game).")
