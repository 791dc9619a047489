"""Input validation and output shapes of the games API (no business logic here)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import BotKind, EndReason, Game, GameSeat, GameStatus, GameType, SeatKind, SeatName
from games.view_serializers import any_action_schema

MAX_SEED = 2**63 - 1


class DeckRefSerializer(serializers.Serializer):
    deck_id = serializers.IntegerField(
        required=False, min_value=1, help_text="One of your decks or a public deck."
    )
    starter = serializers.CharField(required=False, max_length=60, help_text="An official starter set code.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("deck_id" in attrs) == ("starter" in attrs):
            raise serializers.ValidationError("Give exactly one of deck_id or starter.")
        return attrs


class OpponentSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=SeatKind.choices, required=False, help_text="Defaults to bot when `bot` is given."
    )
    bot = serializers.ChoiceField(choices=BotKind.choices, required=False)
    username = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=150,
        help_text="Human opponent only: reserve the seat for this user.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "kind" not in attrs:
            if "bot" not in attrs:
                raise serializers.ValidationError({"kind": ["This field is required."]})
            attrs["kind"] = SeatKind.BOT
        if attrs["kind"] == SeatKind.BOT:
            attrs.setdefault("bot", BotKind.HEURISTIC)
        return attrs


class ConflictChoiceSerializer(serializers.Serializer):
    theater = serializers.CharField(
        required=False, max_length=16, help_text="Defaults to the one theater both nations fight in."
    )
    mode = serializers.ChoiceField(choices=["thin", "fat", "packs"], required=False, default="thin")
    packs = serializers.ListField(child=serializers.CharField(max_length=60), required=False, default=list)


class GameCreateSerializer(serializers.Serializer):
    game_type = serializers.ChoiceField(
        choices=GameType.choices,
        required=False,
        default=GameType.BATTLECARDS,
        help_text="Which game: battlecards (each player brings a deck) or battlefront (one shared deck: "
        "no my_deck, opponent_deck nor conflict).",
    )
    seat = serializers.ChoiceField(
        choices=[SeatName.WEST, SeatName.EAST],
        required=False,
        help_text="Battlefront only: the seat you take (default west). In Battlecards your deck decides.",
    )
    my_deck = DeckRefSerializer(required=False, help_text="Battlecards only, and required there.")
    opponent_deck = DeckRefSerializer(
        required=False,
        help_text="Required against a bot. Against a human it may be left out: the joiner brings his deck.",
    )
    opponent = OpponentSerializer()
    options = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        default=dict,
        help_text='Optional rules, e.g. {"larger_standing_armies": true} (Battlecards) or '
        '{"two_front_victory": true} (Battlefront).',
    )
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text=(
            "The game seed (else the server draws one). The deal uses it mixed with a secret server "
            "salt, so nobody can predict the cards; seed and salt are published after the end."
        ),
    )
    conflict = ConflictChoiceSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("game_type", GameType.BATTLECARDS) == GameType.BATTLECARDS and "my_deck" not in attrs:
            raise serializers.ValidationError({"my_deck": ["This field is required."]})
        return attrs


class GameJoinSerializer(serializers.Serializer):
    deck = DeckRefSerializer(
        required=False,
        help_text=(
            "The deck you bring (checked by the matchup rule against the creator's deck); required when the "
            "creator left the opponent deck out, else it replaces the deck the creator chose for your seat."
        ),
    )


class ActionSubmitSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, help_text="The game version your view showed.")
    action = extend_schema_field(any_action_schema())(type("ActionField", (serializers.JSONField,), {}))(
        help_text="One of the legal actions of your view, exactly as listed there."
    )


class EventsQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(
        required=False, min_value=0, default=0, help_text="Return log entries with seq greater than this."
    )


class StreamQuerySerializer(EventsQuerySerializer):
    timeout = serializers.FloatField(
        required=False,
        min_value=0,
        max_value=300,
        default=25.0,
        help_text="Seconds before the stream ends (reconnect with Last-Event-ID).",
    )


class GameListQuerySerializer(serializers.Serializer):
    joinable = serializers.BooleanField(
        required=False, default=False, help_text="Open games you may join instead of your own games."
    )


class BlankAsNullChoiceField(serializers.ChoiceField):
    """A read-only choice column whose empty value ("") is sent as null: no winner, nobody's turn."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return value or None


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    invited = serializers.SerializerMethodField()
    open = serializers.SerializerMethodField()

    class Meta:
        model = GameSeat
        fields = [
            "seat",
            "kind",
            "player",
            "bot",
            "nation",
            "deck_label",
            "deck_source",
            "open",
            "invited",
            "joined_at",
        ]

    def get_player(self, seat: GameSeat) -> str | None:
        return seat.user.get_username() if seat.user_id else None

    def get_invited(self, seat: GameSeat) -> str | None:
        return seat.invited_user.get_username() if seat.invited_user_id else None

    def get_open(self, seat: GameSeat) -> bool:
        return seat.kind == SeatKind.HUMAN and seat.user_id is None


class GameSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    current_seat = BlankAsNullChoiceField(
        choices=SeatName.choices, help_text="The seat whose decision it is; null unless the game is active."
    )
    winner = BlankAsNullChoiceField(
        choices=SeatName.choices, help_text="null while playing and when nobody won."
    )
    end_reason = BlankAsNullChoiceField(choices=EndReason.choices, help_text="null until the end.")
    created_by = serializers.SerializerMethodField()
    my_seat = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    seed_salt = serializers.SerializerMethodField()
    url = serializers.HyperlinkedIdentityField(view_name="game-detail", lookup_url_kwarg="game_id")

    class Meta:
        model = Game
        fields = [
            "id",
            "url",
            "game_type",
            "status",
            "created_by",
            "seats",
            "my_seat",
            "version",
            "last_seq",
            "turn",
            "ply",
            "current_seat",
            "winner",
            "end_reason",
            "result",
            "options",
            "conflict_choice",
            "seed_hash",
            "seed",
            "seed_salt",
            "catalog_version",
            "catalog_hash",
            "snapshot_hash",
            "created_at",
            "updated_at",
            "started_at",
            "finished_at",
        ]

    def get_created_by(self, game: Game) -> str:
        return next((s.user.get_username() for s in game.seats.all() if s.user_id == game.created_by_id), "")

    def get_my_seat(self, game: Game) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return next((s.seat for s in game.seats.all() if s.user_id == user.pk), None)

    def get_seed(self, game: Game) -> int | None:
        return game.seed if game.status == GameStatus.FINISHED else None

    def get_seed_salt(self, game: Game) -> str | None:
        return game.seed_salt if game.status == GameStatus.FINISHED else None
