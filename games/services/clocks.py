"""Clocks of games (games.clocks holds the arithmetic): which side's clock runs after each write, what an
action costs its side, and the refusal of an action made after the side's time ran out.

Every write ends in progress._save_progress, which calls game_clock_sync: the clock of the side whose human
seat must decide (game.current_seat, the engine's decision seat) runs from the moment the write is saved;
every other clock stands. game_action_do first charges the acting side the time it took (game_clock_charge,
with the increment), so the bots' answers in the same request cost nobody anything.
"""

from __future__ import annotations

from datetime import datetime

from config.errors import Conflict
from games import clocks
from games.game_types import game_type_of, side_of_seat
from games.models import EndReason, Game, GameStatus, SeatKind


def _sides(game: Game) -> tuple[str, ...]:
    return tuple(game_type_of(game).seats)


def game_clock(game: Game) -> tuple[clocks.TimeControl, clocks.Clock]:
    """The game's time control and its clock as stored (a fresh clock when none was stored yet)."""
    control = clocks.TimeControl.from_json(game.time_control)
    return control, clocks.Clock.from_json(game.clock, control, _sides(game))


def _deciding_side(game: Game) -> str:
    """The side whose clock must run: the deciding seat's, when the game is active and a human decides."""
    if game.status != GameStatus.ACTIVE or not game.current_seat:
        return ""
    seat = next((s for s in game.seats.all() if s.seat == game.current_seat), None)
    if seat is None or seat.kind == SeatKind.BOT:  # bots never run out of time
        return ""
    return side_of_seat(game.current_seat)


def _store(game: Game, clock: clocks.Clock) -> None:
    game.clock = clock.to_json()
    game.clock_deadline = clock.deadline()


def game_clock_sync(game: Game, *, at: datetime | None = None) -> None:
    """After a write (before it is saved): run the clock of the side that must decide now, stop the others.
    Nothing happens to a game without a time control."""
    if not game.time_control:
        return
    control, clock = game_clock(game)
    clock.settle(control, _deciding_side(game), at or clocks.now())
    _store(game, clock)


def game_clock_charge(game: Game, *, seat: str, at: datetime | None = None) -> None:
    """`seat` has just acted: stop its side's running clock, charging the time spent and adding the
    increment. game_clock_sync starts the next clock when the write is saved."""
    if not game.time_control:
        return
    control, clock = game_clock(game)
    side = side_of_seat(seat)
    if clock.running == side:
        clock.stop(at or clocks.now(), bonus_ms=control.increment_ms)
        _store(game, clock)


def game_clock_check(game: Game, *, at: datetime | None = None) -> None:
    """Refuse an action once the deciding side's time has run out (409 game_finished, end_reason timeout):
    the game is lost on time, whatever reaches the server after the deadline (games.services.timeouts ends
    it)."""
    if game.clock_deadline is None or game.status != GameStatus.ACTIVE:
        return
    _, clock = game_clock(game)
    if clock.expired(at or clocks.now()):
        raise Conflict(
            f"The game is over: the {clock.running} clock ran out.",
            code="game_finished",
            end_reason=EndReason.TIMEOUT,
        )
