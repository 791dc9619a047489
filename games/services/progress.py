"""What every write shares: the log rows a transaction appends, syncing the game row from the engine
state, saving progress (and waking the event streams), letting bot seats answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from config.errors import Conflict, DomainError
from games import event_bus, fastpath
from games.game_types import game_type_of
from games.models import EndReason, Game, GameAction, GameSeat, GameStatus, LogKind, SeatKind
from games.options import spectator_settings
from games.selectors import game_state
from games.services.clocks import game_clock_sync
from games.services.feed import feed_notify_invitations
from games.services.ratings import game_ratings_apply
from games.services.seeds import bot_salt, seed_commitment

MAX_BOT_PLIES_PER_REQUEST = 20_000  # a safety net: the engine's own turn limit ends games far sooner


class EngineRejected(DomainError):
    """The engine refused an action (400): the code is the engine's own (illegal_action, ...)."""

    status = 400
    code = "illegal_action"


def event_json(event: Any) -> dict[str, Any]:
    to_json = getattr(event, "to_json", None)
    if callable(to_json):
        data = to_json()
        data.setdefault("visible_to", event.visible_to)
        return data
    return {"type": event.type, "data": event.data, "visible_to": event.visible_to}


def _decision_seat(state: Any) -> str:
    decision = state.decision
    return decision.seat if decision is not None else ""


_CHANGING_FIELDS = [
    "status",
    "state",
    "state_lag",
    "version",
    "last_seq",
    "turn",
    "ply",
    "current_seat",
    "winner",
    "end_reason",
    "result",
    "started_at",
    "finished_at",
    "updated_at",
    "clock",
    "clock_deadline",
]


def save_progress(game: Game, *, log: ActionLog | None = None, at: datetime | None = None) -> None:
    """Append `log`'s rows and write only what play changes (never the bulky, immutable snapshot and
    setup); the clock of the side that must decide now runs from `at` (default now, games.services.clocks);
    on commit, the game's event streams are woken (games.event_bus). Every write that ends a game passes
    here, whatever ended it (the rules, a resignation, a timeout): a finished rated game is rated here, once
    (games.services.ratings).

    On the fast path on PostgreSQL the log rows, the game row and the bus's pg_notify go in one statement
    (games.fastpath.write); otherwise through the ORM, as separate statements. The caller holds the row's
    lock inside its transaction either way."""
    game_clock_sync(game, at=at)
    rows = log.rows if log is not None else []
    changing = _CHANGING_FIELDS
    played = game.__dict__.pop(_PLAYED_STATE, None)
    if played is not None and _state_may_wait(game, played, appended=len(rows)):
        game.state_lag += len(rows)
        changing = [f for f in _CHANGING_FIELDS if f != "state"]  # the stored state stays as it is
    elif played is not None:
        game.state, game.state_lag = played.to_json(), 0
    elif game.state_lag and game.status == GameStatus.FINISHED:
        # ended by a resignation or the clock while its stored state lagged: a finished game's is current
        game.state, game.state_lag = game_state(game=game, at_seq=game.last_seq - len(rows)).to_json(), 0
    elif game.state_lag:  # the state as it is; these entries (a takeback asked...) count after it
        game.state_lag += len(rows)
    notify = event_bus.pg_notify_call(game_id=game.pk)
    if fastpath.writes_in_one_statement(Game.objects.db):
        fastpath.write_in_one_statement(game, rows, notify, changing=changing)
    else:
        if rows:
            GameAction.objects.bulk_create(rows)
        game.save(update_fields=changing)
        notify = None
    if game.rated and game.status == GameStatus.FINISHED:
        game_ratings_apply(game=game)
    if notify is None:
        event_bus.announce(game_id=game.pk)


_PLAYED_STATE = "_played_state"  # the state sync_game_from_state left for save_progress to store, or not


def sync_game_from_state(game: Game, state: Any, *, may_defer_state: bool = False) -> None:
    """The game row's columns from the engine state, after the log rows of this write were added.

    The state column is written with them (state_lag 0), unless `may_defer_state` (an action played,
    games.services.play): save_progress then leaves it as it is while the game goes on with fewer than
    settings.GAMES_STATE_EVERY log entries after it, and a read applies the engine actions logged since
    (games.selectors.game_state)."""
    if may_defer_state:
        game.__dict__[_PLAYED_STATE] = state
    else:
        game.state, game.state_lag = state.to_json(), 0
    game.turn = state.turn
    game.ply = state.ply
    # Nobody is "current" while a seat is still open (or after the end).
    playing = state.status == "active" and game.status == GameStatus.ACTIVE
    game.current_seat = _decision_seat(state) if playing else ""
    if state.status == "finished" and game.status != GameStatus.FINISHED:
        game.status = GameStatus.FINISHED
        game.winner = state.winner or ""
        game.result = dict(state.result or {})
        # The engine finished it: a win, or a draw by the rules (equal points); never "unfinished".
        game.end_reason = EndReason.VICTORY if state.winner else EndReason.DRAW
        if game.result.get("kind") == "no_result":  # a Tide of Iron result disputed: stopped, no winner
            game.end_reason = EndReason.UNFINISHED
        game.finished_at = timezone.now()


def state_every() -> int:
    """settings.GAMES_STATE_EVERY: at most this many log entries lie after a going game's stored state."""
    return int(getattr(settings, "GAMES_STATE_EVERY", 1))


def _state_may_wait(game: Game, state: Any, *, appended: int) -> bool:
    """Whether this write may leave the stored state as it is: the game goes on, and fewer than
    settings.GAMES_STATE_EVERY log entries will lie after it."""
    return (
        state.status == "active"
        and game.status == GameStatus.ACTIVE
        and game.state_lag + appended < state_every()
    )


@dataclass
class ActionLog:
    """Collects the log rows one transaction appends."""

    game: Game
    rows: list[GameAction]

    def add(self, *, kind: str, seat: str, action: dict, events: list[dict], by_bot: bool = False) -> None:
        self.game.last_seq += 1
        self.game.version += 1
        self.rows.append(
            GameAction(
                game=self.game,
                seq=self.game.last_seq,
                kind=kind,
                seat=seat,
                by_bot=by_bot,
                action=action,
                events=events,
                version=self.game.version,
            )
        )


def run_bots(*, game: Game, state: Any, seats: dict[str, GameSeat], log: ActionLog) -> None:
    """Bot seats act until the game waits on a human (or ends)."""
    kind = game_type_of(game)
    plies = 0
    bots: dict[str, Any] = {}
    while state.status == "active" and game.status == GameStatus.ACTIVE:
        seat_name = _decision_seat(state)
        seat = seats.get(seat_name)
        if seat is None or seat.kind != SeatKind.BOT:
            return
        bot = bots.get(seat_name)
        if bot is None:
            # A bot sees only its seat's view; its choices hash (salt, ply, seat): no second RNG.
            bot = bots[seat_name] = kind.bot(seat.bot, catalog=state.catalog, salt=bot_salt(game.seed_salt))
        legal = kind.legal_actions(state)
        seen = kind.view(state, seat_name) if getattr(bot, "needs_view", True) else {"ply": state.ply}
        action = bot.choose(seen, legal, seat_name)
        events = kind.apply(state, action)
        log.add(
            kind=LogKind.ACTION,
            seat=seat_name,
            action=action.to_json(),
            events=[event_json(e) for e in events],
            by_bot=True,
        )
        plies += 1
        if plies >= MAX_BOT_PLIES_PER_REQUEST:  # a safety net: engine games end far sooner
            raise Conflict("The bots did not reach a human decision.", code="bot_stuck")


def start_if_active(*, game: Game, state: Any, seats: dict[str, GameSeat]) -> None:
    """Against a bot the game starts at creation: the bot moves at once when the first decision is its."""
    if game.status == GameStatus.ACTIVE:
        log = ActionLog(game=game, rows=[])
        run_bots(game=game, state=state, seats=seats, log=log)
        sync_game_from_state(game, state)
        save_progress(game, log=log)


def seats_save_and_start(
    *, game: Game, state: Any, seats: dict[str, GameSeat], other: str, now: datetime, bot: str | None,
    invitee: Any, by: Any,
) -> Game:
    """A two-seat game's creation, once its seats are built: the other seat taken by `bot` (the game then
    starts at once) or left to the invited user, the seats written, the bot's first move if it is its, and
    the invitations in the feed."""
    if bot is not None:
        seats[other].kind, seats[other].joined_at, seats[other].bot = SeatKind.BOT, now, bot
    else:
        seats[other].kind, seats[other].invited_user = SeatKind.HUMAN, invitee
    GameSeat.objects.bulk_create(seats.values())
    start_if_active(game=game, state=state, seats=seats)
    feed_notify_invitations(game=game, seats=seats.values(), by=by)
    return game


def game_row(
    *, kind_name: str, user: Any, status: str, seed: int, salt: str, spectators: dict[str, Any] | None,
    against_bot: bool, **fields: Any,
) -> Game:
    """A new game row of any creation flow: its seed commitment and who may watch it (games.options); `fields`
    are the flow's own columns (options, clock, rated, setup...)."""
    game = Game(
        game_type=kind_name, created_by=user, status=status, seed=seed, seed_salt=salt,
        seed_hash=seed_commitment(seed, salt), **fields,
    )
    game.spectators_allowed, game.spectator_delay = spectator_settings(spectators, against_bot=against_bot)
    return game
