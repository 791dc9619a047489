"""The fast path's reads of a game row with its seats: one statement each, compiled once per process
(config.prepared), the seats joined to their game and attached to it as if prefetched (a write into the
queryset cache Django's prefetch_related fills: `game.seats.all()` then runs no query).

The reference reads are games.selectors.game_get (a seat's view) and games.selectors.game_get_for_update
(a write): the same rows through the ORM, in two statements (the game, then its seats)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Case, F, JSONField, Value, When, prefetch_related_objects

from config.errors import NotFound
from config.prepared import PreparedQuery
from games.models import Game, GameSeat
from games.selectors import BULKY_COLUMNS, parse_game_id, seats_prefetch, user_may_see_game


# One statement: the seats, joined to their game whose row alone is locked, without the game's bulky columns.
def _seats_locking_game(related: tuple[str, ...]) -> PreparedQuery:
    return PreparedQuery(
        lambda pk: GameSeat.objects.select_for_update(of=("game",))
        .select_related("game", *related)
        .defer("game__setup")
        .filter(game_id=pk)
        .order_by("seat"),
        sentinel=uuid.UUID("00000000-0000-4000-8000-00000000c0de"),
    )


# For an action POST that holds a state of the game already (hot_state, kept at some version): the state
# column comes only when the locked row is at another version (another process wrote it since), as the
# annotation `stale_state`, so neither case costs a second statement.
_HELD_VERSION = 2_000_000_011  # the sentinel of the held version (within the column's range: Django drops a
# comparison with a value outside it)


def _seats_locking_game_held(related: tuple[str, ...]) -> PreparedQuery:
    return PreparedQuery(
        lambda pk, version: GameSeat.objects.select_for_update(of=("game",))
        .select_related("game", *related)
        .defer("game__setup", "game__state")
        .annotate(
            stale_state=Case(
                When(game__version=version, then=Value(None)),
                default=F("game__state"),
                output_field=JSONField(),
            )
        )
        .filter(game_id=pk)
        .order_by("seat"),
        sentinel=uuid.UUID("00000000-0000-4000-8000-00000000c0df"),
        extra=(_HELD_VERSION,),
    )


_SEAT_USERS = ("user", "invited_user")
# By whether the seats' users are read: an action POST needs their ids only (a user asked for, `seat.user`,
# would be read on first access).
_SEATS_LOCKING_GAME = {True: _seats_locking_game(_SEAT_USERS), False: _seats_locking_game(())}
_SEATS_LOCKING_GAME_HELD = {True: _seats_locking_game_held(_SEAT_USERS), False: _seats_locking_game_held(())}


def _game_of_seats(seats: list[GameSeat]) -> Game:
    """The game the seats were read with (one statement, seats joined to their game), its seats attached as
    if prefetched (game.seats.all()), each seat pointing at that one game object."""
    game = seats[0].game
    for seat in seats:
        seat.game = game
    cached = game.seats.all()
    cached._result_cache, cached._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": cached}
    return game


def game_get_for_update(
    *, game_id: Any, user: Any, visible_only: bool = True, held_version: int | None = None,
    seat_users: bool = True,
) -> Game:
    """games.selectors.game_get_for_update in one statement: lock the game row (inside the caller's
    transaction) and check the user may see it (else 404; visible_only=False leaves that check to the caller).

    The bulky columns (catalog snapshot, setup) are left out. With `held_version` (the caller holds a state of
    the game at that version) the state column is read only when the row is at another version; otherwise
    `game.state` is deferred (read on first access). The seats come along (game.seats.all()), with their users
    unless seat_users=False."""
    pk = parse_game_id(game_id)
    if held_version is None:
        seats = _SEATS_LOCKING_GAME[seat_users].rows(pk, using=GameSeat.objects.db)
    else:
        seats = _SEATS_LOCKING_GAME_HELD[seat_users].rows(pk, held_version, using=GameSeat.objects.db)
    if seats:
        game = _game_of_seats(seats)
        stale = getattr(seats[0], "stale_state", None)
        if stale is not None:  # the row is not the one held: its state as read (no deferred read later)
            game.state = stale
    else:  # a game has seats from its creation; kept for safety
        deferred = ("setup", "state") if held_version is not None else ("setup",)
        game = Game.objects.select_for_update(of=("self",)).defer(*deferred).filter(pk=pk).first()
        if game is None:
            raise NotFound("No such game.", code="game_not_found")
        prefetch_related_objects([game], seats_prefetch())
    if visible_only and not user_may_see_game(game, list(game.seats.all()), user):
        raise NotFound("No such game.", code="game_not_found")
    return game


# A seat's view reads the game row with its seats in one statement: the seats joined to their game (its bulky
# columns left out; with the state column only when this process has not decoded this row's state yet). The
# seats' users are not read: visibility and the seat need only their ids. A game's own answer (GET of the
# game, a creation's answer: GameSerializer) reads them too (`related`), as seats_prefetch does.
def _seats_with_game(
    deferred: tuple[str, ...], sentinel: uuid.UUID, related: tuple[str, ...] = ()
) -> PreparedQuery:
    return PreparedQuery(
        lambda pk: GameSeat.objects.select_related("game", *related)
        .defer(*(f"game__{c}" for c in deferred))
        .filter(game_id=pk)
        .order_by("seat"),
        sentinel=sentinel,
    )


_SEATS_WITH_GAME = _seats_with_game(BULKY_COLUMNS, uuid.UUID("00000000-0000-4000-8000-0000000051e0"))
_SEATS_WITH_GAME_STATE = _seats_with_game(("setup",), uuid.UUID("00000000-0000-4000-8000-0000000051e1"))
_SEATS_USERS_WITH_GAME = _seats_with_game(
    BULKY_COLUMNS, uuid.UUID("00000000-0000-4000-8000-0000000051e2"), related=_SEAT_USERS
)


def seat_game_get(*, game_id: Any, user: Any, columns: tuple[str, ...] = ()) -> Game:
    """games.selectors.game_get for a seat's view in one statement: the game by its key with its seats
    (game.seats.all(), without their users), visibility checked in Python (user_may_see_game, the twin of
    visible_games_q). `columns`: () or ("state",)."""
    query = _SEATS_WITH_GAME_STATE if "state" in columns else _SEATS_WITH_GAME
    return _game_with_seats(query, game_id=game_id, user=user, columns=columns)


def game_get(*, game_id: Any, user: Any) -> Game:
    """games.selectors.game_get (no bulky column) in one statement: the game by its key with its seats and
    their users (game.seats.all(), seat.user), visibility checked in Python. About 6 ms of CPU less than the
    ORM's two queries, whose SQL (the visibility subqueries, the seats' prefetch) Django builds at every
    call: a game's creation answers with it."""
    return _game_with_seats(_SEATS_USERS_WITH_GAME, game_id=game_id, user=user, columns=())


def _game_with_seats(query: PreparedQuery, *, game_id: Any, user: Any, columns: tuple[str, ...]) -> Game:
    pk = parse_game_id(game_id)
    seats = query.rows(pk, using=GameSeat.objects.db)
    if seats:
        game = _game_of_seats(seats)
    else:  # no such game (a game has seats from its creation; a seatless one is read as before)
        game = (
            Game.objects.filter(pk=pk)
            .defer(*(c for c in BULKY_COLUMNS if c not in columns))
            .prefetch_related(seats_prefetch())
            .first()
        )
    if game is None or not user_may_see_game(game, list(game.seats.all()), user):
        raise NotFound("No such game.", code="game_not_found")
    return game
