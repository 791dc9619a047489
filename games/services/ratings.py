"""Ratings: one Glicko-2 rating per player (a user, or a bot kind) and game type, from finished rated 1v1
games.

The maths is Glickman's Glicko-2 as the pinned package glicko2-py implements it (glicko2.math.algorithm:
update_rating); this module only decides which games count and stores the result.

- Rating period: every rated game is its own rating period. When a rated game ends, both players are updated
  at once, each from the other's rating before the game (the lichess way: a rating moves as soon as a game
  ends, never in a nightly batch). A player who plays no game is left alone: his deviation does not grow with
  idle time. The system constant tau is 0.5; a new player starts at 1500, deviation 350, volatility 0.06.
- Which games count: a finished game created with `rated: true`, with two seats (team games are never rated:
  games.options.rated_option), whatever ended it (victory or draw by the rules, resignation, timeout), except
  the end reason `unfinished` (cancelled or expired before the rules ended it). A win scores 1, a draw 1/2.
- Not an aborted game (issue 34): a game counts only when every seat has an engine action of its own still
  in effect when it ends (lichess's abort: resigning or losing on time before both sides have acted rates
  nothing; an action undone by a takeback no longer counts). Team games are never rated; the rule reads
  every seat (each army) all the same.
- The pair limit (issue 34): of the rated games between the same two players (two users, or a user and a
  bot kind) in one game type, at most settings.GAMES_RATED_PAIR_LIMIT (default 5) rated within the last
  GAMES_RATED_PAIR_WINDOW_HOURS (default 24) count; a later one is played, but rates nothing. 0 turns the
  limit off. The Rating rows are locked before counting, so two games of the pair ending at once cannot both
  be the last one to count.
- Once: the RatingChange rows (one per game and seat, unique) mark a rated game; a game with rows is never
  rated again, so the hook may run on every save of a finished game (games.services.progress.save_progress,
  the one place where every finished game passes).
- Bots are rated players: each bot kind has one rating per game type, moved by the rated games humans play
  against it and seeded by `manage.py calibrate_bot_ratings` (rated bot-versus-bot games: bot_game_rate).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from glicko2.exceptions import Glicko2Error
from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi

from games.game_types import side_of_seat
from games.models import EndReason, Game, GameStatus, Rating, RatingChange, SeatKind
from games.rating_selectors import pair_rated_games_since, seats_that_acted

GLICKO2_TAU = 0.5
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Glicko2:
    """A Glicko-2 rating on the display scale (rating ~1500, deviation ~350 for a newcomer)."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


def glicko2_period(
    player: Glicko2, results: list[tuple[Glicko2, float]], *, tau: float = GLICKO2_TAU
) -> Glicko2:
    """One Glicko-2 rating period of `player` against `results` [(opponent before the period, score 1 / 0.5
    / 0)], by the package's update_rating (Glickman's steps 1 to 8 on the Glicko-2 scale)."""
    updated = update_rating(
        rating_to_mu(player.rating),
        rd_to_phi(player.deviation),
        player.volatility,
        [(rating_to_mu(o.rating), rd_to_phi(o.deviation), score) for o, score in results],
        tau=tau,
    )
    return Glicko2(
        rating=mu_to_rating(updated.mu),
        deviation=min(phi_to_rd(updated.phi), INITIAL_DEVIATION),
        volatility=updated.sigma,
    )


def _of(row: Rating) -> Glicko2:
    return Glicko2(rating=row.rating, deviation=row.deviation, volatility=row.volatility)


def _locked_ratings(*, game_type: str, players: list[dict[str, Any]]) -> list[Rating]:
    """The Rating rows of `players` ({"user_id"} or {"bot"}), created at the initial rating if new, then
    locked in id order (two games ending at once against the same bot wait for each other, never deadlock)."""
    rows = [Rating.objects.get_or_create(game_type=game_type, **who)[0] for who in players]
    locked = {
        row.pk: row
        for row in Rating.objects.select_for_update().filter(pk__in=[r.pk for r in rows]).order_by("pk")
    }
    return [locked[row.pk] for row in rows]


class RatingNotComputed(Exception):
    """The Glicko-2 update failed (the volatility iteration did not converge): nothing was written."""


def _rate_pair(*, rows: list[Rating], scores: list[float]) -> list[tuple[Glicko2, Glicko2]]:
    """Update two locked Rating rows by one game (scores from each one's side); (before, after) of each.
    Both new ratings are computed before anything is written (RatingNotComputed: nothing written)."""
    before = [_of(row) for row in rows]
    try:
        after = [
            glicko2_period(before[0], [(before[1], scores[0])]),
            glicko2_period(before[1], [(before[0], scores[1])]),
        ]
    except (Glicko2Error, ValueError, ArithmeticError) as exc:
        raise RatingNotComputed(f"Glicko-2 update of {before} with scores {scores} failed: {exc}") from exc
    for row, new, score in zip(rows, after, scores, strict=True):
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.wins += score == 1
        row.losses += score == 0
        row.draws += score == 0.5
        row.save(
            update_fields=[
                "rating",
                "deviation",
                "volatility",
                "games",
                "wins",
                "losses",
                "draws",
                "updated_at",
            ]
        )
    return list(zip(before, after, strict=True))


def game_is_rateable(*, game: Game) -> bool:
    """A finished rated game that did not stop unfinished (cancelled, expired): it moves ratings."""
    return (
        game.rated
        and game.status == GameStatus.FINISHED
        and game.end_reason not in ("", EndReason.UNFINISHED)
    )


@transaction.atomic
def game_ratings_apply(*, game: Game) -> list[RatingChange]:
    """Rate a finished rated 1v1 game once: both seats' ratings move by Glicko-2 (one rating period), one
    RatingChange row per seat records it. Does nothing (returns []) for a game that does not count (not
    rated, unfinished, aborted before every seat acted, past the pair limit) or was already rated. Called
    with the game row locked (every finishing write holds it). A rating the maths cannot compute never
    stops the game from ending: it is logged, and the game stays unrated."""
    if not game_is_rateable(game=game) or RatingChange.objects.filter(game=game).exists():
        return []
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    if len(seats) != 2:
        return []  # team games are never rated (refused at creation)
    players: list[dict[str, Any]] = []
    for seat in seats:
        if seat.kind == SeatKind.BOT:
            players.append({"bot": seat.bot})
        elif seat.user_id is not None:
            players.append({"user_id": seat.user_id})
        else:
            return []  # an empty seat: the game never started
    if not {seat.seat for seat in seats} <= seats_that_acted(game=game):
        return []  # aborted: a seat never acted (or its every action was taken back)
    scores = [_score(winner=game.winner, seat=seat.seat) for seat in seats]
    rows = _locked_ratings(game_type=game.game_type, players=players)
    if _pair_limit_reached(rows=rows):
        logger.info("game %s: not rated, past the pair limit", game.pk)
        return []
    try:
        moves = _rate_pair(rows=rows, scores=scores)
    except RatingNotComputed:
        logger.exception("game %s: not rated", game.pk)
        return []
    return RatingChange.objects.bulk_create(
        [
            RatingChange(
                game=game,
                seat=seat.seat,
                rating=row,
                score=score,
                rating_before=before.rating,
                rating_after=after.rating,
                deviation_before=before.deviation,
                deviation_after=after.deviation,
                volatility_before=before.volatility,
                volatility_after=after.volatility,
            )
            for seat, row, score, (before, after) in zip(seats, rows, scores, moves, strict=True)
        ]
    )


def pair_limit() -> tuple[int, timedelta]:
    """(how many rated games between the same two players count, within which window): settings
    GAMES_RATED_PAIR_LIMIT (0: no limit) and GAMES_RATED_PAIR_WINDOW_HOURS."""
    return (
        int(settings.GAMES_RATED_PAIR_LIMIT),
        timedelta(hours=float(settings.GAMES_RATED_PAIR_WINDOW_HOURS)),
    )


def _pair_limit_reached(*, rows: list[Rating]) -> bool:
    limit, window = pair_limit()
    if limit <= 0:
        return False
    since = timezone.now() - window
    return pair_rated_games_since(first=rows[0], second=rows[1], since=since) >= limit


def _score(*, winner: str, seat: str) -> float:
    if not winner:
        return 0.5
    return 1.0 if side_of_seat(seat) == winner else 0.0


@transaction.atomic
def bot_game_rate(
    *, game_type: str, bots: dict[str, str], winner: str | None
) -> list[tuple[Glicko2, Glicko2]]:
    """Rate one bot-versus-bot game played outside the database (manage.py calibrate_bot_ratings): `bots`
    maps the two seats to bot kinds (two different kinds), `winner` is the winning seat or None for a draw.
    Returns (before, after) of each seat's bot, in the order of `bots`."""
    seats = list(bots)
    if len(seats) != 2 or bots[seats[0]] == bots[seats[1]]:
        raise ValueError("a calibration game is played by two different bot kinds")
    rows = _locked_ratings(game_type=game_type, players=[{"bot": bots[seat]} for seat in seats])
    scores = [0.5 if not winner else (1.0 if seat == winner else 0.0) for seat in seats]
    return _rate_pair(rows=rows, scores=scores)


@transaction.atomic
def bot_ratings_reset(*, game_type: str) -> int:
    """Put the bots' ratings in one game type back to a newcomer's (a calibration from scratch; the rating
    changes of past games stay as they were). Returns how many bot ratings were reset."""
    return Rating.objects.filter(game_type=game_type, user__isnull=True).update(
        rating=INITIAL_RATING,
        deviation=INITIAL_DEVIATION,
        volatility=INITIAL_VOLATILITY,
        games=0,
        wins=0,
        losses=0,
        draws=0,
    )


@dataclass
class CalibrationReport:
    game_type: str
    games: int = 0
    wins: dict[str, int] | None = None  # bot kind -> games won
    draws: int = 0
    unfinished: int = 0  # stopped by the ply cap: not rated
    ratings: dict[str, Glicko2] | None = None  # bot kind -> its rating after the run


def bot_ratings_calibrate(
    *,
    game_type: str,
    catalog: Any,
    setup: Any,
    games: int,
    seed: int,
    bots: tuple[str, str] = ("heuristic", "random"),
    reset: bool = False,
    max_plies: int = 20_000,
) -> CalibrationReport:
    """Seed the bots' ratings: play `games` rated bot-versus-bot games of `game_type` from `setup` (the bots
    swap seats every game; game i is dealt from games.simulation.game_seed(seed, i), so a run is reproducible)
    and rate each one in turn, one rating period per game as for every rated game (bot_game_rate). A game
    the ply cap stops is not rated. `reset` first puts the bots back to a newcomer's rating."""
    from games.game_types import get_game_type
    from games.simulation import game_seed, play_game_outcome

    kind = get_game_type(game_type)
    if reset:
        bot_ratings_reset(game_type=game_type)
    first, second = kind.seats
    report = CalibrationReport(game_type=game_type, wins=dict.fromkeys(bots, 0))
    for index in range(games):
        seating = {first: bots[index % 2], second: bots[(index + 1) % 2]}
        outcome = play_game_outcome(
            catalog=catalog,
            setup=setup,
            bots=seating,
            index=index,
            seed=game_seed(seed, index),
            max_plies=max_plies,
            game_type=game_type,
        )
        if not outcome["finished"]:
            report.unfinished += 1
            continue
        winner = outcome["winner"] or None
        bot_game_rate(game_type=game_type, bots=seating, winner=winner)
        report.games += 1
        if winner:
            report.wins[seating[winner]] += 1
        else:
            report.draws += 1
    rows = {r.bot: r for r in Rating.objects.filter(game_type=game_type, bot__in=bots)}
    report.ratings = {bot: _of(rows[bot]) if bot in rows else Glicko2() for bot in bots}
    return report
