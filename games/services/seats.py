"""Seats: join a game, leave a seat of a team game that has not started."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from config.errors import Conflict, Forbidden, NotFound, ValidationFailed
from games.decks_glue import resolve_deck
from games.fastpath import game_get_for_update
from games.game_types import game_type_of
from games.models import Game, GameSeat, GameStatus, LogKind, SeatKind
from games.selectors import game_state, open_game_expired, user_may_see_game
from games.services.deal import deal_game
from games.services.feed import feed_after_write
from games.services.progress import ActionLog, run_bots, save_progress, sync_game_from_state


def _seat_to_take(*, seats: dict[str, GameSeat], user: Any, seat: str | None) -> GameSeat:
    """The open human seat `user` takes: the one named (`seat`), else the one reserved for him, else the
    first open one in seat order."""
    if seat is not None:
        chosen = seats.get(seat)
        if chosen is None:
            raise ValidationFailed(
                f"This game has no seat {seat!r}: its seats are {sorted(seats)}.",
                code="invalid_seat",
                field="seat",
            )
        if chosen.kind != SeatKind.HUMAN or chosen.user_id is not None:
            raise Conflict(f"Seat {seat} is taken.", code="seat_taken", seat=seat)
        if chosen.invited_user_id is not None and chosen.invited_user_id != user.pk:
            raise Forbidden("This seat is reserved for another player.", code="not_invited")
        return chosen
    ordered = sorted(seats.values(), key=lambda s: s.seat)
    free = [s for s in ordered if s.kind == SeatKind.HUMAN and s.user_id is None]
    if not free:
        raise Conflict("No seat is free.", code="game_full")
    for candidate in free:
        if candidate.invited_user_id == user.pk:
            return candidate
    for candidate in free:
        if candidate.invited_user_id is None:
            return candidate
    raise Forbidden("This seat is reserved for another player.", code="not_invited")


@transaction.atomic
def game_join(
    *, game_id: Any, user: Any, deck: dict[str, Any] | None = None, seat: str | None = None
) -> Game:
    """Take an open seat of a human game: `seat` names it (any game; a team game's seats are its armies:
    axis-1, allies-2, ...), else the one reserved for you, else the first open one.

    A 1v1 Battlecards game: with `deck` ({"deck_id"} or {"starter"}: checked by the matchup rule against the
    creator's deck) or with the deck the creator chose for that seat; the game is dealt when it had no
    opponent deck yet or the joiner brings his own. A team game (created with `armies`) was dealt at
    creation: no deck. One seat per player and game (409 already_joined). The game starts when its last
    open seat is taken (bot armies then move at once)."""
    game = game_get_for_update(game_id=game_id, user=user, visible_only=False)
    seats = {s.seat: s for s in game.seats.all()}  # the game row lock guards its seats too
    if game.status != GameStatus.OPEN and any(s.user_id == user.pk for s in seats.values()):
        raise Conflict("You already sit at this game.", code="already_joined")
    if game.status != GameStatus.OPEN or open_game_expired(game):
        # Also the answer to the losers of a join race: the seat was free when they looked.
        raise Conflict("This game is not waiting for a player.", code="game_not_open")
    if not user_may_see_game(game, list(seats.values()), user):
        raise NotFound("No such game.", code="game_not_found")
    if any(s.user_id == user.pk for s in seats.values()):
        raise Conflict(
            "You already sit at this game: one seat per player and game.", code="already_joined"
        )
    open_seat = _seat_to_take(seats=seats, user=user, seat=seat)
    kind = game_type_of(game)
    if kind.deck_join_deal:  # the game deals a joining seat's deck itself
        import_string(kind.deck_join_deal)(
            game=game, kind=kind, seats=seats, open_seat=open_seat, deck=deck, user=user
        )
    elif deck is not None and (not kind.uses_decks or game.lineup):
        what = (
            f"{kind.label} is played with one shared deck"
            if not kind.uses_decks
            else "Every army of a team game plays the starter decks dealt at creation"
        )
        raise ValidationFailed(f"{what}: join without a deck.", code="deck_not_allowed", field="deck")
    elif deck is not None or not game.setup:
        from cards.selectors import catalog_definitions

        if deck is None:
            raise ValidationFailed(
                "Bring your deck: {\"deck\": {\"deck_id\": id} or {\"starter\": code}}.",
                code="deck_required",
                field="deck",
            )
        live = catalog_definitions()
        creator_seat = next(s for s in seats.values() if s.pk != open_seat.pk)
        creator_deck = resolve_deck(user=creator_seat.user, ref=creator_seat.deck_source, catalog=live)
        theirs = resolve_deck(user=user, ref=deck, catalog=live)
        deal_game(game=game, live=live, mine=creator_deck, theirs=theirs, conflict=game.conflict_choice)
        open_seat.nation = theirs.nation
        open_seat.deck_label = theirs.label
        open_seat.deck_source = theirs.source
        Game.objects.filter(pk=game.pk).update(
            catalog_version=game.catalog_version,
            catalog_hash=game.catalog_hash,
            snapshot=game.snapshot,
            snapshot_hash=game.snapshot_hash,
            conflict_choice=game.conflict_choice,
            setup=game.setup,
        )
    open_seat.user = user
    open_seat.joined_at = timezone.now()
    open_seat.save(update_fields=["user", "joined_at", "nation", "deck_label", "deck_source"])

    full = all(s.kind == SeatKind.BOT or s.user_id is not None for s in seats.values())
    state = game_state(game=game)
    if full:
        game.status = GameStatus.ACTIVE
        game.started_at = timezone.now()
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.JOIN,
        seat=open_seat.seat,
        action={"type": "join"},
        events=[
            {
                "type": "player_joined",
                "data": {"seat": open_seat.seat, "player": user.get_username()},
                "visible_to": "all",
            }
        ],
    )
    if full:
        run_bots(game=game, state=state, seats=seats, log=log)
    sync_game_from_state(game, state)
    save_progress(game, log=log)
    feed_after_write(game=game, actor_id=user.pk)
    return game


def leave_seat(*, game: Game, seat: GameSeat, user: Any) -> Game:
    """A player leaves the seat he took in a team game that has not started: it is open again."""
    seat.user = None
    seat.joined_at = None
    seat.save(update_fields=["user", "joined_at"])
    log = ActionLog(game=game, rows=[])
    log.add(
        kind=LogKind.RESIGN,
        seat=seat.seat,
        action={"type": "leave"},
        events=[
            {
                "type": "player_left",
                "data": {"seat": seat.seat, "player": user.get_username()},
                "visible_to": "all",
            }
        ],
    )
    save_progress(game, log=log)
    return game
