"""Ending games: resign (or cancel), expire open games nobody joined."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import Conflict, Forbidden
from games.fastpath import game_get_for_update
from games.game_types import game_type_of, side_of_seat
from games.models import EndReason, Game, GameStatus, LogKind
from games.selectors import open_game_ttl, seat_of_user
from games.services.feed import feed_after_write
from games.services.progress import ActionLog, save_progress
from games.services.seats import leave_seat


@transaction.atomic
def games_expire_open(*, older_than: timedelta | None = None) -> int:
    """Cancel open games nobody joined within settings.GAMES_OPEN_TTL (or `older_than`): they end without
    a winner (result kind "expired"). Returns how many were cancelled."""
    cutoff = timezone.now() - (older_than if older_than is not None else open_game_ttl())
    expired = 0
    for game in Game.objects.select_for_update().filter(status=GameStatus.OPEN, created_at__lt=cutoff):
        seat = game.seats.filter(user=game.created_by_id).first()
        game.status = GameStatus.FINISHED
        game.winner = ""
        game.current_seat = ""
        game.end_reason = EndReason.UNFINISHED
        game.result = {"kind": "expired"}
        game.finished_at = timezone.now()
        log = ActionLog(game=game, rows=[])
        log.add(
            kind=LogKind.RESIGN,
            seat=seat.seat if seat else "",
            action={"type": "expire"},
            events=[{"type": "expired", "data": {}, "visible_to": "all"}],
        )
        save_progress(game, log=log)
        feed_after_write(game=game, actor_id=None)
        expired += 1
    return expired


@transaction.atomic
def game_resign(*, game_id: Any, user: Any) -> Game:
    """Resign: the other side wins (in a team game one army's resignation concedes for its whole side).
    Resigning a game whose seat is still open cancels it (no winner); in a team game only its creator
    cancels it: another player who took a seat and resigns before the start leaves it (the seat is open
    again, a `player_left` event)."""
    game = game_get_for_update(game_id=game_id, user=user)
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("You do not sit at this game.", code="not_a_player")
    if game.status == GameStatus.FINISHED:
        raise Conflict("The game is over.", code="game_finished")
    if game.status == GameStatus.OPEN and game.lineup and user.pk != game.created_by_id:
        return leave_seat(game=game, seat=seat, user=user)
    other = game_type_of(game).other_seat(side_of_seat(seat.seat))
    cancelled = game.status == GameStatus.OPEN
    game.status = GameStatus.FINISHED
    game.winner = "" if cancelled else other
    game.end_reason = EndReason.UNFINISHED if cancelled else EndReason.RESIGNATION
    game.result = {"kind": "cancelled" if cancelled else "resignation", "resigned": seat.seat}
    game.finished_at = timezone.now()
    game.current_seat = ""
    event = (
        {"type": "cancelled", "data": {"seat": seat.seat}}
        if cancelled
        else {"type": "resigned", "data": {"seat": seat.seat, "winner": other}}
    )
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.RESIGN,
        seat=seat.seat,
        action={"type": "resign"},
        events=[{**event, "visible_to": "all"}],
    )
    save_progress(game, log=log)
    feed_after_write(game=game, actor_id=user.pk)
    return game
