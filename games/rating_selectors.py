"""Reads of the ratings (games.services.ratings writes them): a leaderboard per game type, a user's ratings,
the bots' ratings, and the ratings of the players seated at a page of games (one query for the page)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from config.errors import NotFound
from games.game_types import GAME_TYPES
from games.models import BotKind, Game, GameAction, GameStatus, LogKind, Rating, RatingChange, SeatKind
from games.takeback_rules import effective_actions

PROVISIONAL_DEVIATION = 110.0  # a rating whose deviation is above this is provisional (shown as "1500?")
# The game types with ratings: those with clocks, takebacks and ratings (GameType.live_play; not a referee
# such as Tide of Iron); bots are rated where the game type has bots.
RATED_GAME_TYPES = [name for name, kind in GAME_TYPES.items() if kind.live_play]
BOT_RATED_GAME_TYPES = [name for name in RATED_GAME_TYPES if GAME_TYPES[name].bots_available]


def rating_game_type_check(*, game_type: str) -> str:
    """A game type that has ratings (404 unknown_game_type otherwise)."""
    if game_type not in RATED_GAME_TYPES:
        raise NotFound(
            f"Unknown game type {game_type!r}: one of {sorted(RATED_GAME_TYPES)}.",
            code="unknown_game_type",
            game_type=game_type,
        )
    return game_type


def rating_leaderboard(*, game_type: str) -> QuerySet[Rating]:
    """Every player with at least one rated game of `game_type` (users and bots), best first: higher rating,
    then the surer (lower deviation), then the earlier rated. The user comes with each row (no query per
    row)."""
    rating_game_type_check(game_type=game_type)
    return (
        Rating.objects.filter(game_type=game_type, games__gt=0)
        .select_related("user")
        .order_by("-rating", "deviation", "id")
    )


def _newcomer(*, game_type: str, user: Any = None, bot: str = "") -> Rating:
    """The rating a player has before his first rated game of a type (not stored)."""
    return Rating(game_type=game_type, user=user, bot=bot)


def ratings_of_user(*, username: str) -> tuple[Any, list[Rating]]:
    """A user and his rating in every game type, in the game types' order (a newcomer's where he has played no
    rated game). 404 unknown_user."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("No user has this username.", code="unknown_user", username=username)
    found = {r.game_type: r for r in Rating.objects.filter(user=user)}
    return user, [found.get(name) or _newcomer(game_type=name, user=user) for name in RATED_GAME_TYPES]


def bot_ratings() -> list[Rating]:
    """Every bot kind's rating in every game type (a newcomer's until calibrated or played)."""
    found = {(r.bot, r.game_type): r for r in Rating.objects.filter(user__isnull=True)}
    return [
        found.get((bot, name)) or _newcomer(game_type=name, bot=bot)
        for bot in BotKind.values
        for name in BOT_RATED_GAME_TYPES
        if bot in GAME_TYPES[name].bot_kinds  # a search level only where the game has a search bot
    ]


def seat_ratings(*, games: Iterable[Game]) -> dict[tuple[str, str], Rating]:
    """The current rating of every player seated at `games` in each game's type, keyed (game type, "user:<id>"
    or "bot:<kind>"), in one query (the seats must be prefetched)."""
    wanted = {
        key for game in games for seat in game.seats.all() if (key := seat_rating_key(game=game, seat=seat))
    }
    if not wanted:
        return {}
    users = {int(who[5:]) for _, who in wanted if who.startswith("user:")}
    bots = {who[4:] for _, who in wanted if who.startswith("bot:")}
    rows = Rating.objects.filter(
        Q(user_id__in=users) | Q(user__isnull=True, bot__in=bots), game_type__in={t for t, _ in wanted}
    )
    found = {(r.game_type, f"bot:{r.bot}" if r.bot else f"user:{r.user_id}"): r for r in rows}
    return {key: row for key, row in found.items() if key in wanted}


def seat_rating_key(*, game: Game, seat: Any) -> tuple[str, str] | None:
    """The key of seat_ratings for one seat (None: an open seat)."""
    if seat.kind == SeatKind.BOT and seat.bot:
        return game.game_type, f"bot:{seat.bot}"
    if seat.user_id is not None:
        return game.game_type, f"user:{seat.user_id}"
    return None


def rating_changes_of(*, games: Iterable[Game]) -> dict[tuple[Any, str], RatingChange]:
    """What each rated, finished game among `games` did to each seat's rating, keyed (game id, seat): one
    query, none when no game shown was rated."""
    rated = [game.pk for game in games if game.rated and game.status == GameStatus.FINISHED]
    if not rated:
        return {}
    return {(c.game_id, c.seat): c for c in RatingChange.objects.filter(game_id__in=rated)}


def seats_that_acted(*, game: Game) -> set[str]:
    """The seats with at least one engine action of their own still in effect (an action a takeback undid
    no longer counts): a rated game counts only when every seat is in it (games.services.ratings). Reads
    each engine action's seat and seq, and the takeback entries' actions only."""
    rows: list[tuple[str, int, Any, str]] = [
        (LogKind.ACTION, seq, None, seat)
        for seq, seat in GameAction.objects.filter(game=game, kind=LogKind.ACTION).values_list("seq", "seat")
    ]
    rows += [
        (LogKind.TAKEBACK, seq, action, seat)
        for seq, action, seat in GameAction.objects.filter(game=game, kind=LogKind.TAKEBACK).values_list(
            "seq", "action", "seat"
        )
    ]
    rows.sort(key=lambda row: row[1])
    return {row[3] for row in effective_actions(rows)}


def pair_rated_games_since(*, first: Rating, second: Rating, since: datetime) -> int:
    """How many games rated since `since` were between these two players (users or bots): the pair limit of
    games.services.ratings."""
    return RatingChange.objects.filter(
        rating=first, created_at__gte=since, game__rating_changes__rating=second
    ).count()
