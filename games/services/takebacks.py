"""Takebacks: a seat asks to take back its last action (or its last N), the other side accepts or declines.

Three log entries of kind "takeback", appended like any other (the log stays append-only; each bumps the
version and wakes the event streams):
* the request (action type "takeback_request"): the asking seat, `count`, `undo_from_seq` (the seq of the
  N-th last engine action of that seat still in effect) and `undo_seqs` (every engine action in effect from
  there: that seat's and every other seat's after it, bots' answers included);
* the decline ("takeback_decline"), or
* the takeback itself ("takeback"), when accepted: from it on, the engine actions at or after
  `undo_from_seq` are out of effect; the stored state is the replay of the actions still in effect
  (games.takeback_rules.effective_actions, which the replay endpoint and `verify_games` use too). Its
  event `takeback` carries `reload: true`: a client reloads its view.

A request waits while it is the game's newest entry: any later entry (an action by anyone, a resignation)
ends its wait, so it can no longer be answered (409 no_takeback_pending). The seats of the other side answer
(any one of them; a 1v1 game: the opponent); when none of them is human, the bots answer at once: they
decline, unless the game was created with the option `bots_accept_takebacks`, and always in a rated game
(games.options.bots_accept_takebacks: a rated game's takebacks are those people agree to).

A request is refused (409 takeback_reveals_hidden_information) when the actions it would undo revealed
hidden information to a seat of the asking side (the asking seat or, in a team game, a teammate) or used the
game's random numbers: games.takeback_rules says how that is decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from config.errors import Conflict, Forbidden
from games.fastpath import game_get_for_update
from games.game_types import game_type_of, side_of_seat
from games.models import Game, GameAction, GameSeat, GameStatus, LogKind, SeatKind
from games.options import bots_accept_takebacks
from games.selectors import (
    game_actions_in_effect,
    game_catalog,
    seat_of_user,
    takeback_pending,
)
from games.services.feed import feed_after_write, feed_notify_takeback_request
from games.services.progress import ActionLog, run_bots, save_progress, sync_game_from_state
from games.takeback_rules import ACCEPT, DECLINE, REQUEST, first_reveal

MAX_TAKEBACK_COUNT = 20  # a seat may ask for at most its last 20 actions at once (the API checks it)


@dataclass
class TakebackOutcome:
    """What a takeback request or answer wrote: the game, the seat that asked or answered (whose view the
    API returns), the log entries appended (bots' answers included) and the engine state now."""

    game: Game
    seat: str
    entries: list[GameAction]
    state: Any


def _check_playing(game: Game, user: Any, version: int) -> GameSeat:
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("You do not sit at this game.", code="not_a_player")
    if game.status == GameStatus.FINISHED:
        raise Conflict("The game is over.", code="game_finished")
    if game.status != GameStatus.ACTIVE:
        raise Conflict("The game has not started: a seat is still open.", code="game_not_active")
    if version != game.version:
        raise Conflict(
            f"Stale version {version}: the game is at version {game.version}; reload the view.",
            code="stale_version",
            current_version=game.version,
        )
    return seat


def _other_side(seats: list[GameSeat], seat: str) -> list[GameSeat]:
    side = side_of_seat(seat)
    return [s for s in seats if side_of_seat(s.seat) != side]


@transaction.atomic
def game_takeback_request(*, game_id: Any, user: Any, version: int, count: int = 1) -> TakebackOutcome:
    """Ask to take back the user's seat's last `count` actions still in effect (and every action after the
    first of them) at `version`. Against bots only, the bots answer in the same request.

    Errors (nothing is written): 404; 403 not_a_player; 409 game_finished / game_not_active /
    stale_version / takeback_pending (one request at a time) / nothing_to_take_back (fewer actions of the
    seat in effect) / takeback_reveals_hidden_information (with `seq`: the undone entry that revealed it,
    and `reason`: "card" or "random").
    """
    game = game_get_for_update(game_id=game_id, user=user)
    if not game_type_of(game).live_play:
        raise Conflict(
            f"{game_type_of(game).label} matches have no takebacks (every activation rolls dice).",
            code="takebacks_not_supported",
        )
    seat = _check_playing(game, user, version)
    if takeback_pending(game=game) is not None:
        raise Conflict("A takeback request waits for its answer already.", code="takeback_pending")
    in_effect = game_actions_in_effect(game=game)
    mine = [row for row in in_effect if row[3] == seat.seat]
    if len(mine) < count:
        raise Conflict(
            f"Your seat has {len(mine)} action(s) in effect: you cannot take back {count}.",
            code="nothing_to_take_back",
            actions_in_effect=len(mine),
        )
    undo_from = mine[-count][1]
    kept = [row[2] for row in in_effect if row[1] < undo_from]
    undone = [row for row in in_effect if row[1] >= undo_from]

    kind = game_type_of(game)
    state = kind.replay(game_catalog(game=game), game.setup, kept)
    seats = list(game.seats.all())
    mine = side_of_seat(seat.seat)
    side = [seat.seat] + [s.seat for s in seats if s.seat != seat.seat and side_of_seat(s.seat) == mine]
    reveal = first_reveal(
        engine=kind.engine, state=state, seats=side, actions=[kind.parse_action(row[2]) for row in undone]
    )
    if reveal is not None:
        seq = undone[reveal.index][1]
        if reveal.reason == "random":
            what = "used a random draw"
        elif reveal.seat == seat.seat:
            what = "showed you a hidden card"
        else:
            what = f"showed your teammate {reveal.seat} a hidden card"
        raise Conflict(
            f"Entry {seq} {what}: actions that revealed hidden information cannot be taken back.",
            code="takeback_reveals_hidden_information",
            seq=seq,
            reason=reveal.reason,
            seat=reveal.seat,
        )

    others = _other_side(seats, seat.seat)
    humans = [s for s in others if s.kind == SeatKind.HUMAN]
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.TAKEBACK,
        seat=seat.seat,
        action={
            "type": REQUEST,
            "count": count,
            "undo_from_seq": undo_from,
            "undo_seqs": [row[1] for row in undone],
            "answer_by": [s.seat for s in humans],
        },
        events=[
            {
                "type": "takeback_requested",
                "data": {
                    "seat": seat.seat,
                    "count": count,
                    "undo_from_seq": undo_from,
                    "answer_by": [s.seat for s in humans],
                },
                "visible_to": "all",
            }
        ],
    )
    request = log.rows[-1]
    if humans:
        save_progress(game, log=log)
        # the players of the other side are told in their feed (games.services.feed)
        feed_notify_takeback_request(game=game, requested_by=user, seat=seat.seat, count=count)
        return TakebackOutcome(game=game, seat=seat.seat, entries=log.rows, state=None)
    # Only bots on the other side: they answer at once.
    bot = others[0]
    if bots_accept_takebacks(options=game.options, rated=game.rated):
        state = _accept(game=game, request=request, seat=bot.seat, by_bot=True, log=log, seats=seats)
    else:
        _decline(request=request, seat=bot.seat, by_bot=True, log=log)
        save_progress(game, log=log)
        state = None
    return TakebackOutcome(game=game, seat=seat.seat, entries=log.rows, state=state)


@transaction.atomic
def game_takeback_answer(*, game_id: Any, user: Any, version: int, accept: bool) -> TakebackOutcome:
    """Accept or decline the pending takeback request, for a seat of the other side, at `version`.

    Errors (nothing is written): 404; 403 not_a_player / not_the_other_side (the asking side cannot
    answer); 409 game_finished / game_not_active / stale_version / no_takeback_pending.
    """
    game = game_get_for_update(game_id=game_id, user=user)
    seat = _check_playing(game, user, version)
    request = takeback_pending(game=game)
    if request is None:
        raise Conflict("No takeback request waits for an answer.", code="no_takeback_pending")
    if side_of_seat(seat.seat) == side_of_seat(request.seat):
        raise Forbidden("Only the other side answers a takeback request.", code="not_the_other_side")
    log = ActionLog(game=game, rows=[])
    if accept:
        state = _accept(
            game=game, request=request, seat=seat.seat, by_bot=False, log=log, seats=list(game.seats.all())
        )
    else:
        _decline(request=request, seat=seat.seat, by_bot=False, log=log)
        save_progress(game, log=log)
        state = None
    feed_after_write(game=game, actor_id=user.pk)  # whose decision it is now (the feed's "your turn")
    return TakebackOutcome(game=game, seat=seat.seat, entries=log.rows, state=state)


def _decline(*, request: GameAction, seat: str, by_bot: bool, log: ActionLog) -> None:
    log.add(
        kind=LogKind.TAKEBACK,
        seat=seat,
        action={"type": DECLINE, "request_seq": request.seq},
        events=[
            {
                "type": "takeback_declined",
                "data": {"seat": seat, "requested_by": request.seat, "request_seq": request.seq},
                "visible_to": "all",
            }
        ],
        by_bot=by_bot,
    )


def _accept(
    *, game: Game, request: GameAction, seat: str, by_bot: bool, log: ActionLog, seats: list[GameSeat]
) -> Any:
    """Append the takeback, rewind the state to the replay of the actions still in effect, let bots answer
    (none usually: the decision is the asking seat's again), save. Returns the state now."""
    undo_from = request.action["undo_from_seq"]
    kept = [row[2] for row in game_actions_in_effect(game=game) if row[1] < undo_from]
    kind = game_type_of(game)
    state = kind.replay(game_catalog(game=game), game.setup, kept)
    log.add(
        kind=LogKind.TAKEBACK,
        seat=seat,
        action={
            "type": ACCEPT,
            "request_seq": request.seq,
            "requested_by": request.seat,
            "undo_from_seq": undo_from,
            "undone_seqs": request.action["undo_seqs"],
        },
        events=[
            {
                "type": "takeback",
                "data": {
                    "seat": seat,
                    "requested_by": request.seat,
                    "undo_from_seq": undo_from,
                    "undone_seqs": request.action["undo_seqs"],
                    "ply": state.ply,
                    "reload": True,
                },
                "visible_to": "all",
            }
        ],
        by_bot=by_bot,
    )
    run_bots(game=game, state=state, seats={s.seat: s for s in seats}, log=log)
    sync_game_from_state(game, state)
    save_progress(game, log=log)
    return state
