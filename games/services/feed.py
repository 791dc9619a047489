"""A user's feed: the notifications the games service writes for him, in the transaction of the action that
caused them (an invitation at creation, "your turn" when a decision passes to him, a takeback request, the
end of one of his games). Each write also announces `feed:<user id>` on the game-log channel
(games.event_bus), so the user's feed stream wakes when the transaction commits.

Who is told what (the actor is the user whose request wrote: he learns it from his own answer):
- invitation: the user an open seat is reserved for, when the game is created;
- your_turn: the player of the seat that must decide after a write, unless he is the actor (nothing while
  he plays several decisions in a row, or against bots that answer in the same request);
- takeback_request: the players of the other side (feed_notify_takeback_request, called by the takeback
  service);
- game_end: every player of the game but the actor (the creator of an open game that expired).
"""

from __future__ import annotations

from typing import Any

from games import event_bus
from games.game_types import side_of_seat
from games.models import Game, GameSeat, GameStatus, Notification, NotificationKind, SeatKind

FEED_KEY = "feed:{user_id}"  # the key a user's feed stream waits on (games.event_bus.Listener.signal)


def feed_key(*, user_id: Any) -> str:
    return FEED_KEY.format(user_id=user_id)


def _notify(*, game: Game, kind: str, to: dict[int, dict[str, Any]]) -> list[Notification]:
    """One notification of `kind` for each user id in `to` (its data), announced on commit."""
    if not to:
        return []
    base = {"game_type": game.game_type}
    rows = Notification.objects.bulk_create(
        Notification(user_id=user_id, kind=kind, game=game, data={**base, **data})
        for user_id, data in to.items()
    )
    for user_id in to:
        event_bus.announce(game_id=feed_key(user_id=user_id))
    return rows


def _name(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def feed_notify_invitations(*, game: Game, seats: Any, by: Any) -> list[Notification]:
    """At creation: each user an open seat is reserved for is invited (data: seat, by)."""
    to = {
        s.invited_user_id: {"seat": s.seat, "by": _name(by)}
        for s in seats
        if s.kind == SeatKind.HUMAN and s.user_id is None and s.invited_user_id is not None
    }
    return _notify(game=game, kind=NotificationKind.INVITATION, to=to)


def _seats(game: Game) -> list[GameSeat]:
    return list(game.seats.all())  # prefetched with the game's lock by every writing service


def feed_notify_turn(*, game: Game, actor_id: int | None) -> list[Notification]:
    """After a write: the player whose decision it is now is told, unless he is the actor."""
    if game.status != GameStatus.ACTIVE or not game.current_seat:
        return []
    seat = next((s for s in _seats(game) if s.seat == game.current_seat), None)
    if seat is None or seat.kind != SeatKind.HUMAN or seat.user_id is None or seat.user_id == actor_id:
        return []
    data = {"seat": seat.seat, "version": game.version, "ply": game.ply, "last_seq": game.last_seq}
    return _notify(game=game, kind=NotificationKind.YOUR_TURN, to={seat.user_id: data})


def feed_notify_game_end(*, game: Game, actor_id: int | None) -> list[Notification]:
    """After a write that ended the game: every player but the actor is told (data: winner, end_reason,
    result kind); a game that ended with nobody acting (expired) tells its creator."""
    if game.status != GameStatus.FINISHED:
        return []
    users = {s.user_id: s.seat for s in _seats(game) if s.user_id is not None and s.user_id != actor_id}
    if actor_id is None:
        users.setdefault(game.created_by_id, "")
    data = {
        "winner": game.winner or None,
        "end_reason": game.end_reason,
        "result": (game.result or {}).get("kind"),
    }
    return _notify(
        game=game,
        kind=NotificationKind.GAME_END,
        to={uid: {**data, "seat": seat} for uid, seat in users.items()},
    )


def feed_after_write(*, game: Game, actor_id: int | None) -> list[Notification]:
    """What a write of the game tells its players: the end, else whose decision it is now."""
    if game.status == GameStatus.FINISHED:
        return feed_notify_game_end(game=game, actor_id=actor_id)
    return feed_notify_turn(game=game, actor_id=actor_id)


def feed_notify_takeback_request(
    *, game: Game, requested_by: Any, seat: str, count: int
) -> list[Notification]:
    """A player asked to take back his last `count` actions (for the takeback service, inside its
    transaction): the players of the other side are told (data: seat, by, count; they answer through the
    takeback endpoints)."""
    side = side_of_seat(seat)
    to = {
        s.user_id: {"seat": seat, "by": _name(requested_by), "count": count, "your_seat": s.seat}
        for s in _seats(game)
        if s.kind == SeatKind.HUMAN and s.user_id is not None and side_of_seat(s.seat) != side
    }
    return _notify(game=game, kind=NotificationKind.TAKEBACK_REQUEST, to=to)
