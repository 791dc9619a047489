"""Reads of the games app: which games a user may see, a seat's view, its events, a finished game's replay.

Visibility: a game's players (and its creator) always see it; a finished game that was played (it started)
is public; a game cancelled or expired before anyone joined is never public; an open game is visible to
whoever may take its free seat. Anything else answers 404. What a public replay shows to non-players:
see game_replay (deck lists only when both decks were public or starters).
Hidden information never leaves here: a seat's view comes from the engine's view and events are filtered
by their `visible_to`.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from config.errors import Conflict, Forbidden, NotFound, ValidationFailed
from games import clocks
from games.catalog_snapshot import cached_catalog
from games.engine.core.events import may_see
from games.filters import GameFilter
from games.game_types import game_type_of
from games.models import Game, GameAction, GameSeat, GameStatus, LogKind, SeatKind
from games.options import bots_accept_takebacks
from games.takeback_rules import REQUEST, effective_actions


def parse_game_id(game_id: Any) -> uuid.UUID:
    try:
        return game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound("No such game.", code="game_not_found") from None


def visible_games_q(user: Any) -> Q:
    public = Q(status=GameStatus.FINISHED, started_at__isnull=False)  # played, not cancelled before start
    if user is None or not user.is_authenticated:
        return public
    mine = GameSeat.objects.filter(game=OuterRef("pk"), user=user)
    joinable = GameSeat.objects.filter(game=OuterRef("pk"), kind=SeatKind.HUMAN, user__isnull=True).filter(
        Q(invited_user__isnull=True) | Q(invited_user=user)
    )
    return (
        Q(Exists(mine))
        | Q(created_by=user)
        | public
        | Q(Exists(joinable), status=GameStatus.OPEN)
    )


def seats_prefetch() -> Prefetch:
    seats = GameSeat.objects.select_related("user", "invited_user").order_by("seat")
    return Prefetch("seats", queryset=seats)


def game_list(*, user: Any, filters: Any = None, joinable: bool = False) -> QuerySet[Game]:
    """The user's games (newest first), or with joinable=True the open games they may join.

    `filters` are query parameters of games.filters.GameFilter (status, winner, ...); invalid ones raise 400.
    Two queries whatever the number of games (the games, then their seats with users).
    """
    mine = GameSeat.objects.filter(game=OuterRef("pk"), user=user)
    if joinable:
        free = GameSeat.objects.filter(game=OuterRef("pk"), kind=SeatKind.HUMAN, user__isnull=True).filter(
            Q(invited_user__isnull=True) | Q(invited_user=user)
        )
        qs = Game.objects.filter(
            Exists(free),
            ~Exists(mine),
            status=GameStatus.OPEN,
            created_at__gte=timezone.now() - open_game_ttl(),  # expired games leave the lobby at once
        )
    else:
        qs = Game.objects.filter(Q(Exists(mine)) | Q(created_by=user))
    filterset = GameFilter(filters or {}, queryset=qs)
    if not filterset.is_valid():
        raise ValidationFailed(
            "Invalid filter: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in filterset.errors.items()),
            code="invalid",
            errors=filterset.errors,
        )
    return (
        filterset.qs.defer("state", "setup")
        .prefetch_related(seats_prefetch())
        .order_by("-created_at", "-pk")
    )


BULKY_COLUMNS = ("setup", "state")  # the catalog snapshot (about 54 KB) has its own shared table


def game_get(*, game_id: Any, user: Any, columns: tuple[str, ...] = ()) -> Game:
    """A game the user may see (404 otherwise), with its seats; of the bulky columns only `columns`."""
    game = (
        Game.objects.filter(visible_games_q(user), pk=parse_game_id(game_id))
        .defer(*(c for c in BULKY_COLUMNS if c not in columns))
        .prefetch_related(seats_prefetch())
        .first()
    )
    if game is None:
        raise NotFound("No such game.", code="game_not_found")
    return game


def open_game_ttl() -> timedelta:
    """How long an open game waits for an opponent (settings.GAMES_OPEN_TTL_HOURS) before it expires."""
    return timedelta(hours=float(settings.GAMES_OPEN_TTL_HOURS))


def open_game_expired(game: Game) -> bool:
    """An open game nobody joined in time: hidden from the lobby, refused at join, cancelled by the
    expire_open_games command."""
    return game.status == GameStatus.OPEN and game.created_at < timezone.now() - open_game_ttl()


def open_games_of(*, user: Any) -> QuerySet[Game]:
    """The user's own open games that have not expired (they count against GAMES_MAX_OPEN_PER_USER)."""
    return Game.objects.filter(
        created_by=user, status=GameStatus.OPEN, created_at__gte=timezone.now() - open_game_ttl()
    )


def user_may_see_game(game: Game, seats: list[GameSeat], user: Any) -> bool:
    """Python twin of visible_games_q for a game already loaded with its seats."""
    if game.status == GameStatus.FINISHED and game.started_at is not None:
        return True
    if user is None or not user.is_authenticated:
        return False
    if game.created_by_id == user.pk or any(s.user_id == user.pk for s in seats):
        return True
    return game.status == GameStatus.OPEN and any(
        s.kind == SeatKind.HUMAN and s.user_id is None and s.invited_user_id in (None, user.pk) for s in seats
    )


def game_get_for_update(*, game_id: Any, user: Any, visible_only: bool = True) -> Game:
    """Lock the game row (inside the caller's transaction) and check the user may see it (else 404;
    visible_only=False leaves that check to the caller). The bulky setup column is left out; the seats come
    along with their users (prefetched: game.seats.all()). games.fastpath.game_get_for_update reads the same
    in one statement."""
    pk = parse_game_id(game_id)
    game = Game.objects.select_for_update(of=("self",)).defer("setup").filter(pk=pk).first()
    if game is None:
        raise NotFound("No such game.", code="game_not_found")
    prefetch_related_objects([game], seats_prefetch())
    if visible_only and not user_may_see_game(game, list(game.seats.all()), user):
        raise NotFound("No such game.", code="game_not_found")
    return game


def seat_of_user(*, game: Game, user: Any) -> GameSeat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def require_seat(game: Game, user: Any) -> GameSeat:
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("Only the players of this game can see a seat.", code="not_a_player")
    return seat


def game_catalog(*, game: Game) -> Any:
    """The game's frozen Catalog; the snapshot column is read only when this process has not built it yet."""
    return cached_catalog(game.snapshot_hash) or game_type_of(game).catalog_from_snapshot(
        game.snapshot.data, game.snapshot_hash
    )


def game_state(*, game: Game, at_seq: int | None = None) -> Any:
    """The game's current engine state: the stored state, and the engine actions among the `state_lag` log
    entries after it (an action POST leaves the state column as it is for fewer than
    settings.GAMES_STATE_EVERY entries: games.services.progress.save_progress), applied as they were
    played. `at_seq`: the seq of the newest stored entry, when the row's last_seq already counts entries
    not written yet."""
    kind = game_type_of(game)
    state = kind.state_from_json(game.state, game_catalog(game=game))
    if game.state_lag:
        after = (game.last_seq if at_seq is None else at_seq) - game.state_lag
        logged = GameAction.objects.filter(game_id=game.pk, seq__gt=after, kind=LogKind.ACTION)
        for action in logged.order_by("seq").values_list("action", flat=True):
            kind.apply(state, kind.parse_action(action))
    return state


def clock_due(game: Game) -> bool:
    """A game whose running clock is past its deadline (to be settled before it is shown)."""
    return (
        game.status == GameStatus.ACTIVE
        and game.clock_deadline is not None
        and game.clock_deadline <= clocks.now()
    )


def player_seat(game: Game, user: Any) -> GameSeat:
    """The user's seat of a game whose cards may be shown: 403 not_a_player, 409 while a seat is open."""
    seat = require_seat(game, user)
    if game.status == GameStatus.OPEN:
        # The deal exists already, but showing it before the other seat is taken would let a creator keep
        # only the games with a good hand and cancel the rest.
        raise Conflict("The game has not started: the cards are shown once every seat is taken.",
                       code="game_not_active")
    return seat


def game_player_view(*, game_id: Any, user: Any, settle_clock: Any = None) -> dict[str, Any]:
    """The engine's view for the user's seat, the pending decision (with legal actions when it is theirs).

    `settle_clock(game_id=...)` (games.services.game_clock_settle) is called when the row read shows a
    running clock past its deadline, and the game is read again: the same answer as settling first.
    games.fastpath.game_player_view answers the same from the state this process keeps."""
    game = game_get(game_id=game_id, user=user, columns=("state",))
    if settle_clock is not None and clock_due(game):
        settle_clock(game_id=game.pk)
        game = game_get(game_id=game_id, user=user, columns=("state",))
    seat = player_seat(game, user).seat
    return seat_view_payload(game=game, seat=seat, state=game_state(game=game))


def seat_view_payload(*, game: Game, seat: str, state: Any = None) -> dict[str, Any]:
    """The JSON a seat gets: `state` is the engine state when the caller already holds it."""
    state = state if state is not None else game_state(game=game)
    view, cards = seat_view_part(game=game, seat=seat, state=state)
    head, tail = seat_view_fields(game=game, seat=seat)
    return {**head, "cards": cards, **tail, "view": view}


def seat_view_part(
    *, game: Game, seat: str, state: Any
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The part of a seat's view that depends only on the stored row: the engine's view and the definitions
    of the cards it names."""
    view = seat_engine_view(game=game, seat=seat, state=state)
    return view, view_card_definitions(view, state.catalog, kind=game_type_of(game))


def seat_engine_view(*, game: Game, seat: str, state: Any) -> dict[str, Any]:
    """The engine's view of `seat`, as the game row's status allows."""
    view = game_type_of(game).view(state, seat)
    if game.status != GameStatus.ACTIVE and isinstance(view.get("decision"), dict):
        # open: nobody may act until the seat is taken; finished by resignation: nobody acts any more.
        view = {**view, "decision": {**view["decision"], "legal_actions": []}}
        if "legal_actions" in view:  # The War's deprecated copy beside the decision (issue 37)
            view["legal_actions"] = []
    if game.status == GameStatus.FINISHED and view.get("status") != "finished":
        view = {**view, "status": "finished", "winner": game.winner or None}  # ended by resignation
    return view


def seat_view_fields(*, game: Game, seat: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of a seat's view around its cards (head) and its engine view (tail), read from the row
    and the time now (the clock) at each request."""
    head = {
        "game": str(game.id),
        "game_type": game_type_of(game).name,
        "status": game.status,
        "version": game.version,
        "last_seq": game.last_seq,
    }
    tail = {
        "seat": seat,
        "your_turn": game.status == GameStatus.ACTIVE and game.current_seat == seat,
        "waiting_on": game.current_seat or None,
        "winner": game.winner or None,
        "end_reason": game.end_reason or None,
        "clock": game_clock_view(game),
    }
    return head, tail


def game_clock_view(game: Game) -> dict[str, Any] | None:
    """A game's clocks as every view shows them now (null without a time control; games.clocks)."""
    return clocks.clock_view(
        control_json=game.time_control,
        clock_json=game.clock,
        sides=tuple(game_type_of(game).seats),
        at=clocks.now(),
    )


def view_card_definitions(view: Any, catalog: Any, *, kind: Any = None) -> dict[str, dict[str, Any]]:
    """The frozen definition (name, kind, points, attack, defense, abilities, text...) of every card code the
    view shows, keyed by code: a client needs no second request to know what a card instance does. Only
    codes already in the view are described, so nothing hidden is revealed."""
    if kind is None:
        from games.game_types import get_game_type

        kind = get_game_type(None)
    return kind.card_definitions(kind.card_codes(view), catalog)


def visible_to_seat(visible_to: str, seat: str) -> bool:
    """An event reaches `seat` when it is public ("all"), the seat's own, or its side's (a side name: every
    army of the side, e.g. the side's common kept cards in a team game; in a 1v1 game side == seat): the
    engine's rule (games.engine.core.events.may_see), so a stored log and a live engine agree."""
    return may_see(visible_to, seat)


def log_entry_for_seat(entry: GameAction, seat: str) -> dict[str, Any]:
    """One log entry as `seat` may see it: its own actions in full, only visible events otherwise (a
    teammate's actions too: an army's choices name its hand's cards)."""
    public_action = entry.kind != LogKind.ACTION or entry.seat == seat
    return {
        "seq": entry.seq,
        "version": entry.version,
        "kind": entry.kind,
        "seat": entry.seat,
        "by_bot": entry.by_bot,
        "action": entry.action if public_action else None,
        "events": [e for e in entry.events if visible_to_seat(e.get("visible_to", "all"), seat)],
        "created_at": entry.created_at.isoformat(),
    }


def game_seat_for_events(*, game_id: Any, user: Any) -> tuple[Game, str]:
    game = game_get(game_id=game_id, user=user)
    return game, require_seat(game, user).seat


def game_events_since(*, game_id: Any, seat: str, since: int, limit: int = 1000) -> list[dict[str, Any]]:
    """Log entries after seq `since`, filtered for `seat` (one query)."""
    entries = GameAction.objects.filter(game_id=game_id, seq__gt=since).order_by("seq")[:limit]
    return [log_entry_for_seat(e, seat) for e in entries]


def game_events_for_user(*, game_id: Any, user: Any, since: int) -> dict[str, Any]:
    game, seat = game_seat_for_events(game_id=game_id, user=user)
    entries = game_events_since(game_id=game.pk, seat=seat, since=since)
    return {
        "game": str(game.pk),
        "seat": seat,
        "status": game.status,
        "version": game.version,
        "last_seq": game.last_seq,
        "clock": game_clock_view(game),
        "entries": entries,
    }


def game_status_now(*, game_id: Any) -> tuple[str, int]:
    row = Game.objects.filter(pk=game_id).values_list("status", "last_seq").first()
    return row if row is not None else (GameStatus.FINISHED, 0)


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 of an engine state's canonical JSON: compare a re-run's state.to_json() with it."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _deck_public(seat: GameSeat) -> bool:
    """A starter, or a deck that was public when the game was made (games.decks_glue records it)."""
    source = seat.deck_source or {}
    return bool(source.get("starter")) or source.get("public") is True


PRIVATE_DECK_LABEL = "a private deck"
PRIVATE_DECK_SOURCE: dict[str, Any] = {"public": False}


def _private_deck_id(seat: GameSeat) -> int | None:
    """The id of the user's deck a seat plays when that deck was private when the game was made (its list is
    redacted: game_replay), else None (a starter, a public deck, a shared deck, no deck yet)."""
    source = seat.deck_source or {}
    if _deck_public(seat) or source.get("deck_id") is None:
        return None
    try:
        return int(source["deck_id"])
    except (TypeError, ValueError):
        return -1  # unreadable: private, owned by nobody


def private_deck_owners(*, seats: Any) -> dict[int, int]:
    """The owners of the private decks the seats play: deck id -> owner id (one query; none without a
    private deck). A deck deleted since has no owner here: its name stays hidden from everyone."""
    ids = {deck_id for seat in seats if (deck_id := _private_deck_id(seat)) is not None}
    if not ids:
        return {}
    from decks.models import Deck

    return dict(Deck.objects.filter(pk__in=ids).values_list("pk", "owner_id"))


def seat_deck(seat: GameSeat, *, user: Any, owners: dict[int, int]) -> tuple[str, dict[str, Any]]:
    """A seat's (deck_label, deck_source) as `user` may see them, wherever a game is shown (detail, lists,
    replay). A private deck's name and id are redacted, as its list is (game_replay), for everyone but the
    deck's owner (`owners`: private_deck_owners of the seats shown): the label reads "a private deck" and
    the source is {"public": false}."""
    deck_id = _private_deck_id(seat)
    if deck_id is None:
        return seat.deck_label, seat.deck_source
    if user is not None and user.is_authenticated and owners.get(deck_id) == user.pk:
        return seat.deck_label, seat.deck_source
    return PRIVATE_DECK_LABEL, dict(PRIVATE_DECK_SOURCE)


def game_replay(*, game_id: Any, user: Any) -> dict[str, Any]:
    """Everything needed to re-run a finished game with games.engine.replay (409 before the end).

    Players always get the whole replay. Others get it whole only when both decks were public or
    starters; otherwise the deck lists stay private (and a private deck's name only its owner sees:
    seat_deck): no `setup.decks`, no `catalog` (it names every card
    of both decks), no `actions`, and each log entry carries only its public events (what both players
    saw on the table); `deck_lists_public` says which it is. Games cancelled before they started are
    never public (404, see visible_games_q)."""
    game = game_get(game_id=game_id, user=user, columns=BULKY_COLUMNS)
    if game.status != GameStatus.FINISHED:
        raise Conflict("The replay is published when the game ends.", code="game_not_finished")
    seats = list(game.seats.all())
    full = replay_is_whole(game=game, user=user)
    log = list(game.actions.order_by("seq"))
    replay = _replay_payload(game, log, user=user, owners=private_deck_owners(seats=seats))
    replay["deck_lists_public"] = all(_deck_public(s) for s in seats)
    if not full:
        replay["setup"] = {k: v for k, v in (game.setup or {}).items() if k != "decks"}
        replay["catalog"] = None
        replay["actions"] = None
        replay["log"] = [
            {
                **entry,
                "action": entry["action"] if entry["kind"] != LogKind.ACTION else None,
                "events": [e for e in entry["events"] if e.get("visible_to", "all") == "all"],
            }
            for entry in replay["log"]
        ]
    return replay


def replay_is_whole(*, game: Game, user: Any) -> bool:
    """Whether `user` gets a finished game's replay whole (game_replay): a player, or anyone when both decks
    were public or starters (its seats prefetched). The game's analysis shows its moves on the same rule."""
    return seat_of_user(game=game, user=user) is not None or all(_deck_public(s) for s in game.seats.all())


def replay_seats(game: Game, *, user: Any, owners: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """Who played a game, as its replay names them (its seats prefetched with their users); a private
    deck's name as `user` may see it (seat_deck; `owners`: private_deck_owners of the seats, read when not
    given)."""
    seats = list(game.seats.all())
    if owners is None:
        owners = private_deck_owners(seats=seats)
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "player": s.user.get_username() if s.user else None,
            "bot": s.bot or None,
            "nation": s.nation,
            "deck": seat_deck(s, user=user, owners=owners)[0],
        }
        for s in seats
    ]


def _replay_payload(
    game: Game, log: list[GameAction], *, user: Any, owners: dict[int, int]
) -> dict[str, Any]:
    return {
        "game": str(game.id),
        "game_type": game.game_type,
        "setup": game.setup,
        "seed": game.seed,
        "seed_salt": game.seed_salt,
        "seed_hash": game.seed_hash,
        "options": game.options,
        "catalog_version": game.catalog_version,
        "catalog_hash": game.catalog_hash,
        "snapshot_hash": game.snapshot_hash,
        "catalog": game.snapshot.data if game.snapshot_id else None,
        "seats": replay_seats(game, user=user, owners=owners),
        # the engine actions in effect: a takeback entry rewinds (games.takeback_rules)
        "actions": [e[2] for e in effective_actions((e.kind, e.seq, e.action) for e in log)],
        "log": [
            {
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "by_bot": e.by_bot,
                "action": e.action,
                "events": e.events,
                "created_at": e.created_at.isoformat(),
            }
            for e in log
        ],
        "winner": game.winner or None,
        "final_state_sha256": state_digest(game.state),
        "end_reason": game.end_reason,
        "result": game.result,
        "time_control": game.time_control or {"kind": "none"},
        "clock": game_clock_view(game),
        "turn": game.turn,
        "ply": game.ply,
    }


# ------------------------------------------------------------------------------------------ takebacks


def game_actions_in_effect(*, game: Game) -> list[tuple[str, int, Any, str, bool]]:
    """The game's engine actions in effect after its takebacks, in seq order: (kind, seq, action, seat,
    by_bot) tuples (games.takeback_rules.effective_actions); they replay the stored state."""
    rows = (
        GameAction.objects.filter(game=game, kind__in=(LogKind.ACTION, LogKind.TAKEBACK))
        .order_by("seq")
        .values_list("kind", "seq", "action", "seat", "by_bot")
    )
    return effective_actions(rows)


def takeback_pending(*, game: Game) -> GameAction | None:
    """The takeback request waiting for an answer: the game's newest log entry when it is one and the game
    goes on. Any later entry (an action, an answer, a resignation) ends its wait."""
    if game.status != GameStatus.ACTIVE:
        return None
    last = GameAction.objects.filter(game=game, seq=game.last_seq).first()
    if last is None or last.kind != LogKind.TAKEBACK or last.action.get("type") != REQUEST:
        return None
    return last


def takeback_pending_payload(*, game: Game, entry: GameAction | None) -> dict[str, Any] | None:
    """A pending request as the API shows it (public: both sides see it whole)."""
    if entry is None:
        return None
    return {
        "seq": entry.seq,
        "version": entry.version,
        "requested_by": entry.seat,
        "count": entry.action["count"],
        "undo_from_seq": entry.action["undo_from_seq"],
        "undo_seqs": entry.action["undo_seqs"],
        "answer_by": entry.action["answer_by"],
        "created_at": entry.created_at.isoformat(),
    }


def game_takeback_status(*, game_id: Any, user: Any) -> dict[str, Any]:
    """For a player: the pending takeback request of the game (or null) and the game's takeback option."""
    game = game_get(game_id=game_id, user=user)
    seat = require_seat(game, user)
    return {
        "game": str(game.pk),
        "seat": seat.seat,
        "version": game.version,
        "bots_accept_takebacks": bots_accept_takebacks(options=game.options, rated=game.rated),
        "pending": takeback_pending_payload(game=game, entry=takeback_pending(game=game)),
    }


def player_finished_games(*, username: str) -> QuerySet[Game]:
    """A user's finished games (played, not cancelled before the start: public once over, as visible_games_q
    says), the most recently finished first, with their seats. 404 unknown_user."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("No user has this username.", code="unknown_user", username=username)
    played = GameSeat.objects.filter(game=OuterRef("pk"), user=user)
    return (
        Game.objects.filter(Exists(played), status=GameStatus.FINISHED, started_at__isnull=False)
        .defer(*BULKY_COLUMNS)
        .prefetch_related(seats_prefetch())
        .order_by("-finished_at", "-pk")
    )


def game_card_names(*, game_id: Any, codes: set[str]) -> dict[str, str]:
    """The names of those of `codes` that are card codes of the game's frozen catalog (the others are left
    out): a page names the cards its log's events give by code. The catalog is public, and only codes the
    caller already holds are named, so nothing hidden is revealed."""
    game = Game.objects.only("id", "game_type", "snapshot_hash", "snapshot").filter(pk=parse_game_id(game_id))
    game = game.first()
    if game is None or not game.snapshot_hash or not codes:
        return {}
    definitions = game_type_of(game).card_definitions(codes, game_catalog(game=game))
    return {code: d.get("name") or d.get("title") or code for code, d in definitions.items()}
