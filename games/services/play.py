"""Play: submit one action (check, then do), let bots answer; rebuild a state from the log."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction

from config import metrics
from config.errors import Conflict, Forbidden, ValidationFailed
from games import fastpath
from games.game_types import game_type_of
from games.models import Game, GameAction, GameStatus, LogKind
from games.selectors import game_actions_in_effect, game_state, parse_game_id, seat_of_user
from games.services.clocks import game_clock_charge, game_clock_check
from games.services.feed import feed_after_write
from games.services.progress import (
    ActionLog,
    EngineRejected,
    event_json,
    run_bots,
    save_progress,
    sync_game_from_state,
)


@dataclass
class ActionOutcome:
    game: Game
    seat: str
    entries: list[GameAction]
    state: Any
    committed: bool = False  # set when the transaction that wrote it has committed


@dataclass
class CheckedAction:
    """An action game_action_check accepted: the parsed action, the engine state after it and its events
    (in memory only: nothing is written until game_action_do)."""

    game: Game
    seat: str
    kind: Any
    action: Any
    state: Any
    events: list[Any]


def game_action_check(*, game: Game, user: Any, version: int, action: Any) -> CheckedAction:
    """Check one action of the user's seat at `version` against a game the caller loaded (and, to write
    it after, locked): who may act, the version, the action's shape, then the engine applies it to an
    in-memory state. Writes nothing.

    Errors: 403 not_a_player / not_your_turn / not_your_seat; 409 game_not_active / game_finished (also
    when the deciding side's clock ran out: end_reason timeout) / stale_version; 400 malformed_action or the
    engine's code.
    """
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("You do not sit at this game.", code="not_a_player")
    if game.status == GameStatus.FINISHED:
        raise Conflict("The game is over.", code="game_finished")
    if game.status != GameStatus.ACTIVE:
        raise Conflict("The game has not started: a seat is still open.", code="game_not_active")
    game_clock_check(game)
    if version != game.version:
        raise Conflict(
            f"Stale version {version}: the game is at version {game.version}; reload the view.",
            code="stale_version",
            current_version=game.version,
        )
    if game.current_seat != seat.seat:
        raise Forbidden("It is not your decision.", code="not_your_turn", waiting_on=game.current_seat)
    if not isinstance(action, dict):
        raise ValidationFailed("The action must be a JSON object with a type.", code="malformed_action")
    if action.get("seat") is None:
        action = {**action, "seat": seat.seat}  # the seat is implied by who asks

    kind = game_type_of(game)
    state = fastpath.take_state_for_write(game)  # the state the last action POST here left for this row
    if state is None:
        state = game_state(game=game)  # the stored state and the engine actions logged after it
    try:
        parsed = kind.parse_action(action)
    except kind.errors as exc:
        raise EngineRejected(exc.message, code=exc.code) from exc
    actor = getattr(parsed, "seat", None)
    if actor not in (None, seat.seat):
        raise Forbidden("This action belongs to the other seat.", code="not_your_seat")
    try:
        events = kind.apply(state, parsed)
    except kind.errors as exc:
        raise EngineRejected(exc.message, code=exc.code) from exc
    return CheckedAction(game=game, seat=seat.seat, kind=kind, action=parsed, state=state, events=events)


def game_action_do(*, checked: CheckedAction) -> ActionOutcome:
    """Write a checked action (its log entry, the bots' answers, the new state and version). The caller
    holds the game row's lock inside one transaction (game_action_submit)."""
    game, state = checked.game, checked.state
    game_clock_charge(game, seat=checked.seat)  # the bots' answers below cost nobody time
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.ACTION,
        seat=checked.seat,
        action=checked.action.to_json(),
        events=[event_json(e) for e in checked.events],
    )
    seats = {s.seat: s for s in game.seats.all()}  # prefetched with the lock
    run_bots(game=game, state=state, seats=seats, log=log)
    sync_game_from_state(game, state, may_defer_state=True)
    save_progress(game, log=log)
    feed_after_write(game=game, actor_id=seats[checked.seat].user_id)
    metrics.action_applied(game_type=checked.kind.name)
    outcome = ActionOutcome(game=game, seat=checked.seat, entries=log.rows, state=state)
    transaction.on_commit(partial(setattr, outcome, "committed", True))
    return outcome


@transaction.atomic
def game_action_submit(*, game_id: Any, user: Any, version: int, action: Any) -> ActionOutcome:
    """Apply one action of the user's seat at `version`, then let bot seats answer: lock the game row,
    check (game_action_check), do (game_action_do).

    Errors (nothing is written): 404 unknown/invisible game, then game_action_check's.
    """
    # A state kept by this process: the state column is read only if the row has been written since.
    held = fastpath.held_version_for_write(parse_game_id(game_id))
    # The seats' users are not read: an action needs only their ids.
    game = fastpath.game_get_for_update(game_id=game_id, user=user, held_version=held, seat_users=False)
    checked = game_action_check(game=game, user=user, version=version, action=action)
    return game_action_do(checked=checked)


def game_action_hand_on(*, outcome: ActionOutcome) -> None:
    """Once the caller has read `outcome.state` for the last time (its response is built): keep it for
    the next action on this game in this process (games.fastpath), if its write has committed. The next
    game_action_submit then neither reads nor decodes the stored state, as long as the row it locks is the
    one written here (any other write, in any process, changes the row's version)."""
    if outcome.committed and fastpath.hand_on_state(outcome.game, outcome.state):
        outcome.state = None  # handed on: not this caller's any more


def game_rebuild_state(*, game: Game) -> Any:
    """Re-run the game from its setup (seed) and its logged engine actions in effect (a takeback entry
    rewinds: games.takeback_rules): equals the stored state."""
    kind = game_type_of(game)
    catalog = kind.catalog_from_snapshot(game.snapshot.data, game.snapshot_hash)
    actions = [row[2] for row in game_actions_in_effect(game=game)]
    return kind.replay(catalog, game.setup, actions)
