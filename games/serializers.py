"""Input validation and output shapes of the games API (no business logic here)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import clocks
from games.game_type_fields import GameIdField
from games.game_types import DEFAULT_GAME_TYPE, game_type_or_none, side_of_seat
from games.models import (
    SIDE_SEATS,
    BotKind,
    EndReason,
    Game,
    GameSeat,
    GameStatus,
    SeatKind,
    SeatName,
)
from games.options import MAX_SPECTATOR_DELAY, time_control_not_an_object
from games.rating_selectors import rating_changes_of, seat_rating_key, seat_ratings
from games.rating_serializers import (
    SeatRatingChangeSerializer,
    SeatRatingSerializer,
    seat_rating_change_json,
    seat_rating_json,
)
from games.schema_fields import documented
from games.selectors import game_clock_view, private_deck_owners, seat_deck
from games.view_serializers import ClockSerializer, TimeControlSerializer, any_action_schema

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
    theaters = serializers.ListField(
        child=serializers.CharField(max_length=16),
        required=False,
        min_length=1,
        max_length=8,
        help_text="With `armies` only: the theaters whose conflict decks are added together (default: the "
        "theaters of the nations involved).",
    )
    mode = serializers.ChoiceField(choices=["thin", "fat", "packs"], required=False, default="thin")
    packs = serializers.ListField(child=serializers.CharField(max_length=60), required=False, default=list)


MAX_ARMIES_PER_SIDE = 4  # 2 to 8 seats: 1 to 4 armies a side (the limits are checked by games.services)


class ArmyRequestSerializer(serializers.Serializer):
    """One army (one seat) of a team, uneven or combined game."""

    nation = serializers.CharField(
        max_length=8,
        help_text="The army's nation, e.g. GB, US, RU (allies), DE, JP (axis): GET /api/nations/.",
    )
    starter = serializers.CharField(
        required=False,
        max_length=60,
        help_text="The nation's starter set to play when it has several (Germany: de-we-starter or "
        "de-ef-starter); default: the one of the game's theaters.",
    )
    player = serializers.ChoiceField(
        choices=["me", "open", "bot"],
        required=False,
        default="open",
        help_text="me: your seat (exactly one army); open: a human seat anyone (or `invite`) takes with "
        "POST /api/games/{id}/join/ {\"seat\": ...}; bot: a bot plays it.",
    )
    bot = serializers.ChoiceField(
        choices=BotKind.choices, required=False, help_text="player bot only (default heuristic)."
    )
    invite = serializers.CharField(
        required=False, max_length=150, help_text="player open only: reserve the seat for this username."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "bot" in attrs and attrs["player"] != "bot":
            raise serializers.ValidationError({"bot": ["Only a bot army (player: bot) names a bot."]})
        if "invite" in attrs and attrs["player"] != "open":
            raise serializers.ValidationError({"invite": ["Only an open army (player: open) is reserved."]})
        if attrs["player"] == "bot":
            attrs.setdefault("bot", BotKind.HEURISTIC)
        return attrs


class ArmiesRequestSerializer(serializers.Serializer):
    """The armies of each side, in seat order: the n-th army of a side is seat `<side>-<n>`; 3 to 8 armies
    (a 1v1 game is made from two decks)."""

    axis = ArmyRequestSerializer(many=True, help_text="1 to 4 axis armies (axis-1, axis-2, ...).")
    allies = ArmyRequestSerializer(many=True, help_text="1 to 4 allied armies (allies-1, allies-2, ...).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # a cap on the input's size before any work: the service says 400 too_many_armies beyond 4 a side
        for side in ("axis", "allies"):
            if len(attrs[side]) > 2 * MAX_ARMIES_PER_SIDE:
                raise serializers.ValidationError({side: [f"At most {MAX_ARMIES_PER_SIDE} armies a side."]})
        return attrs


class SpectatorsChoiceSerializer(serializers.Serializer):
    allowed = serializers.BooleanField(required=False, help_text="Any user may watch the public view.")
    delay = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_SPECTATOR_DELAY, help_text="Plies (engine actions) behind."
    )


class TimeControlInputField(serializers.JSONField):
    """A time control's JSON as sent (games.options.time_control_option checks it); null is refused with the
    same 400 invalid_time_control as any other non-object."""

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is None:
            raise time_control_not_an_object()
        return super().validate_empty_values(data)


class GameCreateSerializer(serializers.Serializer):
    game_type = GameIdField(
        required=False,
        default=DEFAULT_GAME_TYPE,
        help_text="Which game: battlecards (each player brings a deck), battlefront (one shared deck: "
        "no my_deck, opponent_deck nor conflict) or tide-of-iron (the server referees the Strategy decks of "
        "a "
        "physical match: no decks, a human opponent) or the-war (two The War decks: my_deck and "
        "opponent_deck name saved The War decks or The War starters; options {\"casual\": true} allows "
        "any equal size).",
    )
    seat = serializers.ChoiceField(
        choices=[SeatName.WEST, SeatName.EAST, SeatName.ALLIES, SeatName.AXIS, SeatName.P1, SeatName.P2],
        required=False,
        help_text="Battlefront: the seat you take (west or east, default west); Tide of Iron: allies or axis "
        "(default allies); The War: p1 or p2 (default p1; the seeded deal decides who moves first). In "
        "Battlecards your deck decides.",
    )
    my_deck = DeckRefSerializer(
        required=False,
        help_text="Battlecards (required) and The War (a saved The War deck or a The War starter; without "
        "it a The War game plays the decks named in options.decks).",
    )
    opponent_deck = DeckRefSerializer(
        required=False,
        help_text="Required against a bot. Against a human it may be left out: the joiner brings his deck.",
    )
    opponent = OpponentSerializer(required=False, help_text="Required, except with `armies`.")
    armies = ArmiesRequestSerializer(
        required=False,
        help_text="Battlecards team play (optional rules 3 and 4) and combined sets: 1 to 4 armies a side, "
        "each one seat with its own nation, every army playing the starter decks (one starter set per two "
        "armies of a nation, the side's armies of one nation drawing from one common arsenal deck). Give "
        "it instead of my_deck, opponent_deck and opponent; conflict may name the theaters.",
    )
    options = serializers.DictField(
        child=serializers.JSONField(allow_null=True),  # any JSON value, as declared (the rules check them)
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
    spectators = SpectatorsChoiceSerializer(
        required=False,
        help_text="Who may watch: allowed (default: true in a game against bots only, whose every other "
        "seat is a bot) and delay (plies a spectator stays behind the game, default 0).",
    )
    # The JSON as sent, checked by the service (games.options.time_control_option: 400 invalid_time_control
    # with the field); documented by TimeControlSerializer, whose fields would coerce (true -> 1, "5" -> 5)
    # and drop unknown keys.
    time_control = documented(
        TimeControlSerializer,
        TimeControlInputField,
        required=False,
        help_text='Clocks (any game type): {"kind": "realtime", "minutes": 5, "increment_seconds": 3}, '
        '{"kind": "correspondence", "days": 3} or none (the default). The side whose clock runs out loses. '
        "Checked as sent: numbers are JSON numbers (a string or a boolean is refused), no other keys; "
        "400 invalid_time_control (with `field`) otherwise.",
    )
    rated = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A rated game: when it ends (by the rules, a resignation or a timeout; not when cancelled) "
        "both players' Glicko-2 ratings in this game type move, bots' too, once each seat has acted (else an "
        "abort: not rated) and within the pair limit (GAMES_RATED_PAIR_LIMIT games between the same two "
        "players in GAMES_RATED_PAIR_WINDOW_HOURS; client guide: Ratings). 1v1 games only: with `armies`, "
        "400 team_game_not_rated; with options.bots_accept_takebacks, 400 invalid_options.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "armies" in attrs:
            given = [name for name in ("my_deck", "opponent_deck", "opponent", "seat") if name in attrs]
            if given:
                raise serializers.ValidationError(
                    {name: ["Leave it out with `armies`: each army says who plays it."] for name in given}
                )
            kind = game_type_or_none(attrs.get("game_type"))
            if kind is not None and not kind.team_games:
                raise serializers.ValidationError({"armies": ["Armies are a Battlecards game's."]})
            conflict = self.initial_data.get("conflict") if isinstance(self.initial_data, dict) else None
            if isinstance(conflict, dict) and set(conflict) - {"theaters"}:
                raise serializers.ValidationError(
                    {"conflict": ["With `armies` the conflict deck is the starter decks of `theaters`."]}
                )
            return attrs
        if "opponent" not in attrs:
            raise serializers.ValidationError({"opponent": ["This field is required."]})
        if (attrs.get("conflict") or {}).get("theaters"):
            raise serializers.ValidationError({"conflict.theaters": ["Only with `armies`: use theater."]})
        kind = game_type_or_none(attrs.get("game_type"))
        if kind is not None and kind.uses_decks and "my_deck" not in attrs:
            raise serializers.ValidationError({"my_deck": ["This field is required."]})
        return attrs


class GameJoinSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(
        choices=SeatName.choices,
        required=False,
        help_text="The open seat you take, e.g. allies-2 (default: the seat reserved for you, else the "
        "first open one).",
    )
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
    side = serializers.SerializerMethodField()
    player = serializers.SerializerMethodField()
    invited = serializers.SerializerMethodField()
    open = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField(
        help_text="The current rating, in this game's type, of the player or bot in the seat (null: an open "
        "seat); every game shows it, rated or not."
    )
    rating_change = serializers.SerializerMethodField(
        help_text="A finished rated game: what it did to this seat's rating; null otherwise."
    )
    deck_label = serializers.SerializerMethodField(
        help_text='The deck the seat plays ("starter WE-GB: ...", "deck 12: name"); a deck that was private '
        'when the game was made reads "a private deck" to everyone but its owner.'
    )
    deck_source = serializers.SerializerMethodField(
        help_text='Where the deck came from: {"starter": code}, {"deck_id", "name", "public"}, ...; a '
        'private deck is {"public": false} to everyone but its owner.'
    )

    class Meta:
        model = GameSeat
        fields = [
            "seat",
            "side",
            "kind",
            "player",
            "rating",
            "rating_change",
            "bot",
            "nation",
            "deck_label",
            "deck_source",
            "open",
            "invited",
            "joined_at",
        ]

    def get_side(self, seat: GameSeat) -> str:
        """The side the seat plays for (an army seat allies-2: allies)."""
        return side_of_seat(seat.seat)

    def get_player(self, seat: GameSeat) -> str | None:
        return seat.user.get_username() if seat.user_id else None

    def get_invited(self, seat: GameSeat) -> str | None:
        return seat.invited_user.get_username() if seat.invited_user_id else None

    def get_open(self, seat: GameSeat) -> bool:
        return seat.kind == SeatKind.HUMAN and seat.user_id is None

    def _deck_shown(self, seat: GameSeat) -> tuple[str, dict[str, Any]]:
        """The seat's deck label and source as the requesting user may see them (games.selectors.seat_deck);
        the owners of the private decks shown are read once per response."""
        owners = self.context.get("_deck_owners")
        if owners is None:
            root = self.root.instance
            games = list(root) if isinstance(root, list | tuple) or hasattr(root, "model") else [root]
            seats = [s for game in games if isinstance(game, Game) for s in game.seats.all()]
            owners = private_deck_owners(seats=seats or [seat])
            if seats:
                self.context["_deck_owners"] = owners
        request = self.context.get("request")
        return seat_deck(seat, user=getattr(request, "user", None), owners=owners)

    def get_deck_label(self, seat: GameSeat) -> str:
        return self._deck_shown(seat)[0]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_deck_source(self, seat: GameSeat) -> dict[str, Any]:
        return self._deck_shown(seat)[1]

    def _ratings_shown(self) -> tuple[dict[Any, Game], dict, dict]:
        """The games being shown, their seats' ratings and their rating changes: read once per response (one
        query each, the changes only when a rated game is shown)."""
        shown = self.context.get("_seat_ratings")
        if shown is None:
            root = self.root.instance
            games = list(root) if isinstance(root, list | tuple) or hasattr(root, "model") else [root]
            games = [game for game in games if isinstance(game, Game)]
            shown = self.context["_seat_ratings"] = (
                {game.pk: game for game in games},
                seat_ratings(games=games),
                rating_changes_of(games=games),
            )
        return shown

    @extend_schema_field(SeatRatingSerializer(allow_null=True))
    def get_rating(self, seat: GameSeat) -> dict[str, Any] | None:
        games_by_id, ratings, _changes = self._ratings_shown()
        game = games_by_id.get(seat.game_id) or seat.game
        key = seat_rating_key(game=game, seat=seat)
        return None if key is None else seat_rating_json(ratings.get(key), game_type=game.game_type)

    @extend_schema_field(SeatRatingChangeSerializer(allow_null=True))
    def get_rating_change(self, seat: GameSeat) -> dict[str, Any] | None:
        _games, _ratings, changes = self._ratings_shown()
        return seat_rating_change_json(changes.get((seat.game_id, seat.seat)))


class GameSpectatorsSerializer(serializers.Serializer):
    allowed = serializers.BooleanField(help_text="Anyone may watch it (GET spectate/).")
    delay = serializers.IntegerField(help_text="Plies a spectator stays behind while it is played.")
    watching = serializers.IntegerField(help_text="Users with a spectator stream of it open now.")


class GameSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    current_seat = BlankAsNullChoiceField(
        choices=SeatName.choices, help_text="The seat whose decision it is; null unless the game is active."
    )
    winner = BlankAsNullChoiceField(
        choices=SIDE_SEATS,
        help_text="The side that won (a team game's too: axis or allies); null while playing and when "
        "nobody won.",
    )
    end_reason = BlankAsNullChoiceField(choices=EndReason.choices, help_text="null until the end.")
    created_by = serializers.SerializerMethodField()
    time_control = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    my_seat = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    seed_salt = serializers.SerializerMethodField()
    url = serializers.HyperlinkedIdentityField(view_name="game-detail", lookup_url_kwarg="game_id")
    spectators = serializers.SerializerMethodField()

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
            "time_control",
            "clock",
            "rated",
            "lineup",
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
            "spectators",
        ]
        extra_kwargs = {  # noqa: RUF012 (DRF's Meta convention)
            "rated": {
                "help_text": "A rated game: its end moves both players' Glicko-2 ratings (only 1v1 games)."
            },
            "lineup": {
                "help_text": "A team game (created with `armies`): each side's armies in seat order, as "
                'nations or starter sets, e.g. {"axis": ["DE", "DE"], "allies": ["GB"]}; {} for a 1v1 game.'
            },
        }

    @extend_schema_field(GameSpectatorsSerializer)
    def get_spectators(self, game: Game) -> dict[str, Any]:
        from games.spectator_selectors import spectator_count

        counts = self.context.get("spectators")  # a list's page: counted in one query (GameListCreateApi)
        if counts is not None:
            watching = counts.get(game.pk, 0)
        else:
            watching = spectator_count(game_id=game.pk) if game.spectators_allowed and game.started_at else 0
        return {"allowed": game.spectators_allowed, "delay": game.spectator_delay, "watching": watching}

    def get_created_by(self, game: Game) -> str:
        return next((s.user.get_username() for s in game.seats.all() if s.user_id == game.created_by_id), "")

    @extend_schema_field(TimeControlSerializer)
    def get_time_control(self, game: Game) -> dict[str, Any]:
        """The time control chosen at creation ({"kind": "none"} without clocks)."""
        return game.time_control or {"kind": clocks.NONE}

    @extend_schema_field(ClockSerializer(allow_null=True))
    def get_clock(self, game: Game) -> dict[str, Any] | None:
        """The clocks now (null without a time control)."""
        return game_clock_view(game)

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

