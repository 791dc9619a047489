"""Output shapes of the ratings: a rating, a user's ratings, a leaderboard row, a bot's rating, a seat's."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import BotKind, Rating, SeatKind
from games.rating_selectors import PROVISIONAL_DEVIATION

SCALE = "glicko2"
SCALE_HELP = (
    "The rating scale: glicko2 (Glicko-2 on the display scale: a newcomer has 1500, deviation 350). Only 1v1 "
    "games are rated; team games are not rated at all."
)


class RatingSerializer(serializers.ModelSerializer):
    """A Glicko-2 rating in one game type."""

    scale = serializers.SerializerMethodField(help_text=SCALE_HELP)
    rating = serializers.SerializerMethodField(help_text="The rating (1500 for a newcomer), 2 decimals.")
    deviation = serializers.SerializerMethodField(
        help_text="The rating deviation (RD): the rating is within about twice this of the player's "
        "strength, 95% of the time; 350 for a newcomer, smaller with each rated game."
    )
    volatility = serializers.SerializerMethodField(help_text="The Glicko-2 volatility (0.06 for a newcomer).")
    provisional = serializers.SerializerMethodField(
        help_text=f"The deviation is above {PROVISIONAL_DEVIATION:.0f}: too few rated games to trust the "
        "rating yet (shown as 1500?)."
    )

    class Meta:
        model = Rating
        fields = [
            "game_type",
            "scale",
            "rating",
            "deviation",
            "volatility",
            "provisional",
            "games",
            "wins",
            "losses",
            "draws",
        ]
        extra_kwargs = {  # noqa: RUF012 (DRF's Meta convention)
            "game_type": {"help_text": "The game type rated (battlecards, battlefront)."},
            "games": {"help_text": "Rated games played in this game type."},
        }

    def get_scale(self, rating: Rating) -> str:  # noqa: ARG002
        return SCALE

    def get_rating(self, rating: Rating) -> float:
        return round(rating.rating, 2)

    def get_deviation(self, rating: Rating) -> float:
        return round(rating.deviation, 2)

    def get_volatility(self, rating: Rating) -> float:
        return round(rating.volatility, 6)

    def get_provisional(self, rating: Rating) -> bool:
        return rating.deviation > PROVISIONAL_DEVIATION


class UserRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    ratings = RatingSerializer(many=True, help_text="One rating per game type (a newcomer's where unplayed).")


class BotRatingSerializer(RatingSerializer):
    bot = serializers.ChoiceField(
        choices=BotKind.choices, help_text="The bot kind (opponent.bot at creation)."
    )

    class Meta(RatingSerializer.Meta):
        fields = ["bot", *RatingSerializer.Meta.fields]


class LeaderboardEntrySerializer(RatingSerializer):
    rank = serializers.SerializerMethodField(help_text="1 for the best: the place on the whole board.")
    kind = serializers.SerializerMethodField(help_text="human or bot (bots are rated players).")
    player = serializers.SerializerMethodField(help_text="The username; null for a bot.")
    bot = serializers.SerializerMethodField(help_text="The bot kind; null for a human.")

    class Meta(RatingSerializer.Meta):
        fields = ["rank", "kind", "player", "bot", *RatingSerializer.Meta.fields]

    def get_rank(self, rating: Rating) -> int:
        return rating.rank  # set by the API: the page's first rank + the row's place on the page

    @extend_schema_field(serializers.ChoiceField(choices=SeatKind.choices))
    def get_kind(self, rating: Rating) -> str:
        return SeatKind.BOT if rating.bot else SeatKind.HUMAN

    def get_player(self, rating: Rating) -> str | None:
        return rating.user.get_username() if rating.user_id else None

    @extend_schema_field(serializers.ChoiceField(choices=BotKind.choices, allow_null=True))
    def get_bot(self, rating: Rating) -> str | None:
        return rating.bot or None


class SeatRatingSerializer(serializers.Serializer):
    """The current rating, in the game's type, of the player (or bot) in a seat."""

    scale = serializers.CharField(help_text=SCALE_HELP)
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField(help_text="Rated games played in this game type.")


class SeatRatingChangeSerializer(serializers.Serializer):
    """What a rated game did to the rating of the player (or bot) in a seat."""

    score = serializers.FloatField(help_text="1 a win, 0.5 a draw, 0 a loss.")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_before = serializers.FloatField()
    deviation_after = serializers.FloatField()


def seat_rating_change_json(change: Any) -> dict[str, Any] | None:
    if change is None:
        return None
    return {
        "score": change.score,
        "rating_before": round(change.rating_before, 2),
        "rating_after": round(change.rating_after, 2),
        "deviation_before": round(change.deviation_before, 2),
        "deviation_after": round(change.deviation_after, 2),
    }


def seat_rating_json(rating: Rating | None, *, game_type: str) -> dict[str, Any]:
    row = rating or Rating(game_type=game_type)
    return {
        "scale": SCALE,
        "rating": round(row.rating, 2),
        "deviation": round(row.deviation, 2),
        "provisional": row.deviation > PROVISIONAL_DEVIATION,
        "games": row.games,
    }
