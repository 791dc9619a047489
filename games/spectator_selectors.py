"""Reads for spectators: the public view of a game (optionally some plies behind it), its public log, and
its spectator count. Only what every seat sees leaves here: the engines' public_view, and of the log only the
events shown to all (no engine action of any seat: an action names the cards of a hand).

The delay: while a game is played, a spectator sees it `delay` plies (engine actions in effect) behind: the
log up to just before the `delay`-th last engine action still in effect (actions a takeback undid are no
plies: games.takeback_rules), and the state the first (k - delay) of its k engine actions in effect make
(each process keeps the last such state per game and delay and only applies the newer actions to it;
otherwise it starts from the nearest snapshot of games.replay_states, at most 31 actions away). The delay is
the larger of the creator's (spectators.delay) and the spectator's own ?delay=; it ends with the game: a
finished game is shown whole (it is public then).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import timedelta
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet
from django.utils import timezone

from config.errors import Conflict, Forbidden, NotAuthenticated, NotFound
from games.game_types import game_type_of
from games.models import Game, GameAction, GameSeat, GameStatus, LogKind, SpectatorStream
from games.replay_states import state_after
from games.selectors import (
    game_catalog,
    game_clock_view,
    game_get,
    game_state,
    parse_game_id,
    replay_seats,
    seats_prefetch,
    user_may_see_game,
    view_card_definitions,
)
from games.takeback_rules import ACCEPT as TAKEBACK_ACCEPT
from games.takeback_rules import effective_actions

SPECTATOR_VIEWER = "spectator:"  # the stream reader of spectators at a delay: "spectator:<delay>"
STREAM_GRACE = timedelta(seconds=60)  # a listener row outlives its stream's timeout by this at most


def spectator_viewer(delay: int) -> str:
    return f"{SPECTATOR_VIEWER}{delay}"


def spectator_game(*, game_id: Any, user: Any, with_state: bool = False) -> Game:
    """A game the user may watch (spectator_may_watch: the rule), with its seats; otherwise its error. An
    anonymous visitor may watch nothing: the game is not even read."""
    game = None
    if user is not None and user.is_authenticated:
        game = (
            Game.objects.filter(pk=parse_game_id(game_id))
            .defer("setup", *(() if with_state else ("state",)))
            .prefetch_related(seats_prefetch())
            .first()
        )
    spectator_may_watch(game=game, seats=list(game.seats.all()) if game is not None else [], user=user)
    return game


def spectator_may_watch(*, game: Game | None, seats: list[Any], user: Any) -> None:
    """Who may watch a game: its spectator view, log and stream. The one rule of the API's spectate
    endpoints and the site's watch page (and of any later page that shows a game as a spectator sees it);
    the client guide (8. Watch a game) says the same. Returns when the user may watch, else raises:

    * 401 not_authenticated: watching needs a signed-in user, whatever the game (the site sends an
      anonymous visitor to its login page). A finished game's public replay needs none: the replay
      endpoint and the site's replay page follow games.selectors.game_replay instead.
    * 404 game_not_found: no such game (game None);
    * a player of the game may always watch it;
    * any other user may when the game's creator allowed spectators, else 403 spectators_not_allowed when
      he may see the game at all (games.selectors.user_may_see_game: a finished game, an open one he may
      join), 404 game_not_found when not (a game being played between others);
    * 409 game_not_active while a seat is still open (nothing to watch yet).
    """
    if user is None or not user.is_authenticated:
        raise NotAuthenticated("Sign in to watch a game.", code="not_authenticated")
    if game is None:
        raise NotFound("No such game.", code="game_not_found")
    player = any(s.user_id == user.pk for s in seats)
    if not game.spectators_allowed and not player:
        if not user_may_see_game(game, seats, user):
            raise NotFound("No such game.", code="game_not_found")
        raise Forbidden("The creator of this game allows no spectators.", code="spectators_not_allowed")
    if game.status == GameStatus.OPEN:
        raise Conflict("The game has not started: a seat is still open.", code="game_not_active")


def spectator_delay(*, game: Game, requested: int | None) -> int:
    """The plies a spectator stays behind: the creator's delay or the spectator's, the larger; 0 once the
    game is finished."""
    if game.status == GameStatus.FINISHED:
        return 0
    return max(game.spectator_delay, requested or 0)


def spectator_count(*, game_id: Any) -> int:
    """How many distinct users have a spectator stream of the game open now."""
    return (
        SpectatorStream.objects.filter(game_id=game_id, expires_at__gt=timezone.now())
        .values("user_id")
        .distinct()
        .count()
    )


def spectator_counts(*, game_ids: list[Any]) -> dict[Any, int]:
    """spectator_count of many games in one query (a page of a game list): game id -> count (0: absent)."""
    rows = (
        SpectatorStream.objects.filter(game_id__in=game_ids, expires_at__gt=timezone.now())
        .values("game_id")
        .annotate(users=Count("user_id", distinct=True))
        .values_list("game_id", "users")
    )
    return dict(rows)


def _cutoff(*, game_id: Any, delay: int, last_seq: int) -> int:
    """The last log seq a spectator `delay` plies behind sees: just before the `delay`-th last engine
    action still in effect (all of the log when delay is 0 or there is no engine action yet; the set-up when
    fewer than `delay` are in effect).
    Actions an accepted takeback undid do not count: the live position is the actions in effect, so the
    spectator stays `delay` of them behind it, whatever was taken back."""
    if delay <= 0:
        return last_seq
    takebacks = list(
        GameAction.objects.filter(game_id=game_id, kind=LogKind.TAKEBACK)
        .order_by("seq")
        .values_list("kind", "seq", "action")
    )
    if not any(isinstance(a, dict) and a.get("type") == TAKEBACK_ACCEPT for _k, _s, a in takebacks):
        hidden = list(
            GameAction.objects.filter(game_id=game_id, kind=LogKind.ACTION)
            .order_by("-seq")
            .values_list("seq", flat=True)[:delay]
        )
        return min(hidden) - 1 if hidden else last_seq
    actions = list(
        GameAction.objects.filter(game_id=game_id, kind=LogKind.ACTION).values_list("seq", flat=True)
    )
    entries = sorted([(LogKind.ACTION, seq, None) for seq in actions] + takebacks, key=lambda e: e[1])
    live = effective_actions(entries)
    if len(live) >= delay:
        return live[-delay][1] - 1
    return min(actions) - 1  # fewer actions in effect than the delay: the set-up


def spectator_log_entry(entry: GameAction) -> dict[str, Any]:
    """One log entry as a spectator may see it: no engine action (it names a hand's cards), only the
    events shown to all seats."""
    return {
        "seq": entry.seq,
        "version": entry.version,
        "kind": entry.kind,
        "seat": entry.seat,
        "by_bot": entry.by_bot,
        "action": entry.action if entry.kind != LogKind.ACTION else None,
        "events": [e for e in entry.events if e.get("visible_to", "all") == "all"],
        "created_at": entry.created_at.isoformat(),
    }


def spectator_read_since(
    *, game_id: Any, delay: int, since: int, limit: int = 1000
) -> tuple[list[dict[str, Any]], str, int]:
    """For the spectator stream: the public log entries after `since` up to the delayed cut-off, the game's
    status and the cut-off (the stream ends once it sent the cut-off of a finished game)."""
    row = Game.objects.filter(pk=game_id).values_list("status", "last_seq").first()
    if row is None:
        return [], GameStatus.FINISHED, 0
    status, last_seq = row
    cutoff = _cutoff(game_id=game_id, delay=0 if status == GameStatus.FINISHED else delay, last_seq=last_seq)
    if cutoff <= since:
        return [], status, cutoff
    entries = GameAction.objects.filter(game_id=game_id, seq__gt=since, seq__lte=cutoff).order_by("seq")[
        :limit
    ]
    return [spectator_log_entry(e) for e in entries], status, cutoff


def spectator_events(*, game_id: Any, user: Any, since: int, delay: int | None = None) -> dict[str, Any]:
    """The public log after `since` for a spectator (the polling twin of the spectator stream)."""
    game = spectator_game(game_id=game_id, user=user)
    behind = spectator_delay(game=game, requested=delay)
    entries, status, cutoff = spectator_read_since(game_id=game.pk, delay=behind, since=since)
    return {"game": str(game.pk), "status": status, "delay": behind, "seq": cutoff, "entries": entries}


# ------------------------------------------------------------------------------------------ the view

MAX_CACHED_STATES = 64
_states: OrderedDict[tuple[str, int], tuple[tuple[int, ...], Any]] = OrderedDict()
_states_lock = threading.Lock()


def _delayed_state(*, game: Game, delay: int, cutoff: int) -> Any:
    """The engine state after the engine actions in effect up to `cutoff` (an accepted takeback up to there
    undoes its actions: games.takeback_rules): this process's last one for (game, delay) with the newer
    actions applied when it is a prefix of them, else the nearest shared snapshot with at most
    SNAPSHOT_PLIES - 1 actions applied (games.replay_states)."""
    kind = game_type_of(game)
    log = GameAction.objects.filter(game_id=game.pk, seq__lte=cutoff)
    # the seqs of the engine actions and takebacks, and the actions of the (rare) takebacks only: the
    # engine actions' JSON is read for the few actions applied below
    takebacks = dict(log.filter(kind=LogKind.TAKEBACK).values_list("seq", "action"))
    effective = effective_actions(
        (kind_, seq, takebacks.get(seq))
        for kind_, seq in log.filter(kind__in=(LogKind.ACTION, LogKind.TAKEBACK))
        .order_by("seq")
        .values_list("kind", "seq")
    )
    seqs = tuple(entry[1] for entry in effective)
    key = (str(game.pk), delay)
    with _states_lock:
        cached = _states.pop(key, None)  # taken out: no other request applies actions to it meanwhile
    if cached is not None and seqs[: len(cached[0])] == cached[0]:
        applied, state = cached
        for action in _actions_of(game.pk, seqs[len(applied):]):
            kind.apply(state, kind.parse_action(action))
    else:
        state = state_after(
            kind=kind, game_id=game.pk, catalog=game_catalog(game=game), effective=effective,
            count=len(effective), setup=lambda: _setup_of(game.pk),
            actions_of=lambda wanted: _actions_of(game.pk, wanted),
        )
    with _states_lock:
        _states[key] = (seqs, state)
        while len(_states) > MAX_CACHED_STATES:
            _states.popitem(last=False)
    return state


def _setup_of(game_id: Any) -> Any:
    return Game.objects.filter(pk=game_id).values_list("setup", flat=True).get()


def _actions_of(game_id: Any, seqs: tuple[int, ...] | list[int]) -> list[Any]:
    """The logged actions of these seqs, in their order (one query; none for no seq)."""
    if not seqs:
        return []
    rows = GameAction.objects.filter(game_id=game_id, seq__gte=seqs[0], seq__lte=seqs[-1])
    found = dict(rows.values_list("seq", "action"))
    return [found[seq] for seq in seqs]


def spectator_view(*, game_id: Any, user: Any, delay: int | None = None) -> dict[str, Any]:
    """The public view of a game for a spectator, `delay` plies behind while it is played (see the module):
    who plays, the spectator count, the card definitions the view names, and the engine's public view."""
    game = spectator_game(game_id=game_id, user=user, with_state=True)
    kind = game_type_of(game)
    behind = spectator_delay(game=game, requested=delay)
    if behind == 0:
        state, cutoff = game_state(game=game), game.last_seq
    else:  # the live state is never read: only the log up to the cut-off
        cutoff = _cutoff(game_id=game.pk, delay=behind, last_seq=game.last_seq)
        state = _delayed_state(game=game, delay=behind, cutoff=cutoff)
    view = kind.public_view(state)
    finished = game.status == GameStatus.FINISHED and cutoff >= game.last_seq
    if finished and view.get("status") != "finished":
        view = {**view, "status": "finished", "winner": game.winner or None}  # ended by resignation
    return {
        "game": str(game.pk),
        "game_type": kind.name,
        "status": GameStatus.FINISHED if finished else GameStatus.ACTIVE,
        "delay": behind,
        "seq": cutoff,
        "spectators": spectator_count(game_id=game.pk),
        "players": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "player": s.user.get_username() if s.user else None,
                "bot": s.bot or None,
                "nation": s.nation,
            }
            for s in game.seats.all()
        ],
        "winner": (game.winner or None) if finished else None,
        "end_reason": (game.end_reason or None) if finished else None,
        "clock": game_clock_view(game) if behind == 0 else None,  # a delayed view hides who decides now
        "cards": view_card_definitions(view, state.catalog, kind=kind),
        "view": view,
    }


def game_replay_step(*, game_id: Any, user: Any, step: int) -> dict[str, Any]:
    """A finished game's public replay at `step` (the site's replay page): the public view after its first
    `step` engine actions in effect (clamped to 0..steps), the public log entries up to there, and the
    number of steps. Only what every seat saw: the engine's public_view and the events shown to all, for
    players too. Errors as games.selectors.game_replay (404 unseen game, 409 game_not_finished). The state
    comes from the nearest snapshot (games.replay_states): at most SNAPSHOT_PLIES - 1 actions applied."""
    game = game_get(game_id=game_id, user=user)  # who may read it, as games.selectors.game_replay
    if game.status != GameStatus.FINISHED:
        raise Conflict("The replay is published when the game ends.", code="game_not_finished")
    kind = game_type_of(game)
    rows = list(GameAction.objects.filter(game_id=game.pk).order_by("seq"))  # the log, read once
    effective = effective_actions(
        (r.kind, r.seq, r.action) for r in rows if r.kind in (LogKind.ACTION, LogKind.TAKEBACK)
    )
    steps = len(effective)
    step = max(0, min(step, steps))
    catalog = game_catalog(game=game)
    state = state_after(
        kind=kind, game_id=game.pk, catalog=catalog, effective=effective, count=step,
        setup=lambda: _setup_of(game.pk),
    )
    upto = effective[step - 1][1] if step else (effective[0][1] - 1 if effective else game.last_seq)
    view = kind.public_view(state)
    return {
        "game": str(game.pk),
        "game_type": kind.name,
        "step": step,
        "steps": steps,
        "winner": game.winner or None,
        "end_reason": game.end_reason or None,
        "players": replay_seats(game, user=user),
        "cards": view_card_definitions(view, state.catalog, kind=kind),
        "view": view,
        "entries": [spectator_log_entry(r) for r in rows if r.seq <= upto],
    }


def watchable_games(*, user: Any) -> QuerySet[Game]:
    """The live games a signed-in user may watch and does not play (spectator_may_watch: the creator allowed
    spectators; the user's own games are his to play), the most recently started first, with their seats.
    Anonymous: 401 not_authenticated, as every spectator read."""
    if user is None or not user.is_authenticated:
        raise NotAuthenticated("Sign in to watch a game.", code="not_authenticated")
    mine = GameSeat.objects.filter(game=OuterRef("pk"), user=user)
    return (
        Game.objects.filter(status=GameStatus.ACTIVE, spectators_allowed=True)
        .exclude(Exists(mine))
        .defer("setup", "state")
        .prefetch_related(seats_prefetch())
        .order_by("-started_at", "-pk")
    )
