"""Lost on time: end a game whose running clock has run out, one game (the read path, the API) or every
due game (the periodic job: Celery beat task games.expire_clocks, `manage.py expire_clocks --loop`, or the
in-process timer of games.clock_timer).

Each game ends in its own transaction under its row lock, after checking again that its clock has run out:
an action that was committed in time moved the deadline, and the job then leaves the game alone. The side
whose clock ran out loses (end_reason timeout, result {"kind": "timeout", "timed_out": seat, "side": side});
the log gets a `timeout` entry (never replayed: like a resignation it is no engine action) with a public
`timed_out` event, and the game's event streams are woken as by any write.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import clocks
from games.game_types import game_type_of, side_of_seat
from games.models import EndReason, Game, GameSeat, GameStatus, LogKind
from games.services.clocks import game_clock
from games.services.feed import feed_notify_game_end
from games.services.progress import ActionLog, save_progress

MAX_GAMES_PER_SWEEP = 500  # one sweep's work; the next sweep (seconds later) takes the rest


@transaction.atomic
def game_clock_expire(*, game_id: Any, at: datetime | None = None) -> Game | None:
    """End the game on time if its running clock has run out at `at` (default now); None when it has not
    (or the game is not active any more)."""
    game = Game.objects.select_for_update(of=("self",)).defer("setup").filter(pk=game_id).first()
    if game is None or game.status != GameStatus.ACTIVE or game.clock_deadline is None:
        return None
    at = at or clocks.now()
    _, clock = game_clock(game)
    if not clock.expired(at):
        return None
    seat = game.current_seat
    side = clock.running or side_of_seat(seat)
    winner = game_type_of(game).other_seat(side)
    game.status = GameStatus.FINISHED
    game.winner = winner
    game.end_reason = EndReason.TIMEOUT
    game.result = {"kind": "timeout", "timed_out": seat, "side": side}
    game.finished_at = timezone.now()
    game.current_seat = ""
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.TIMEOUT,
        seat=seat,
        action={"type": "timeout"},
        events=[
            {
                "type": "timed_out",
                "data": {"seat": seat, "side": side, "winner": winner},
                "visible_to": "all",
            }
        ],
    )
    save_progress(game, log=log, at=clock.deadline())  # the clock stops at its deadline: 0 left, not less
    feed_notify_game_end(game=game, actor_id=None)  # every player's feed: the game ended on time
    return game


def games_clocks_expire_due(*, at: datetime | None = None, limit: int = MAX_GAMES_PER_SWEEP) -> int:
    """The periodic job: end on time every active game whose clock ran out by `at` (default now), oldest
    deadline first. Returns how many ended."""
    at = at or clocks.now()
    # Only an active game's clock has a deadline (games.services.clocks): the partial index on it finds
    # the due games without reading the others; game_clock_expire checks each again under its lock.
    due = (
        Game.objects.filter(clock_deadline__lte=at)
        .order_by("clock_deadline")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(1 for pk in list(due) if game_clock_expire(game_id=pk, at=at) is not None)


def game_clock_settle(*, game_id: Any) -> None:
    """Before answering a request about one game: end it on time if its clock ran out, so that a read never
    shows a game the periodic job would end (one indexed query when nothing is due)."""
    try:
        pk = game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except ValueError:
        return  # the selector answers 404
    at = clocks.now()
    if Game.objects.filter(pk=pk, status=GameStatus.ACTIVE, clock_deadline__lte=at).exists():
        game_clock_expire(game_id=pk, at=at)


def games_clocks_settle_for_user(*, user: Any) -> None:
    """Before listing a user's games: end those of his games whose clock ran out."""
    at = clocks.now()
    mine = GameSeat.objects.filter(user=user).values("game_id")
    due = Game.objects.filter(
        Q(pk__in=mine) | Q(created_by=user), status=GameStatus.ACTIVE, clock_deadline__lte=at
    ).values_list("pk", flat=True)
    for pk in list(due[:MAX_GAMES_PER_SWEEP]):
        game_clock_expire(game_id=pk, at=at)
