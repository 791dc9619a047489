"""The hot path of play (issue 26), in one place: what makes an action POST and a seat's view fast, beside
the plain reference path the rest of games/ is written as (API -> one service or selector -> serializer).

settings.GAMES_FAST_PATH (default on) selects it; off, every answer comes from the reference path: the ORM's
reads and writes, the selectors' payloads rendered by DRF. Both give the same bytes, the same stored rows and
state (tests/games/test_fastpath_equivalence.py runs both over the same games on SQLite and PostgreSQL).

- rows: the game row with its seats in one prepared statement (locked for a write, or for a seat's view),
  the seats attached as if prefetched;
- write: PostgreSQL's one-statement progress write (log rows, game row, pg_notify in one CTE);
- hot_state: the decoded state and encoded seat views kept per stored row in this process, and the state an
  action POST hands on to the next writer of the game;
- answers: a seat's view and an action's answer as JSON bytes spliced from encoded parts;
- stream: the event streams (polling, pushed under ASGI, their slots).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from config.api_input import validated_input
from games import selectors
from games.fastpath import answers, hot_state, rows, write
from games.models import Game, GameAction


def enabled() -> bool:
    """Whether the fast path answers (settings.GAMES_FAST_PATH); the reference path does otherwise."""
    return bool(getattr(settings, "GAMES_FAST_PATH", True))


def answers_json(request: Request) -> bool:
    """Whether the fast path answers this request with its spliced JSON: the compact JSON JSONRenderer
    would render (no `indent`, not the browsable API)."""
    return (
        enabled()
        and type(request.accepted_renderer) is JSONRenderer
        and "indent" not in (request.accepted_media_type or "")
    )


def action_input(body: Any, serializer: Any) -> dict[str, Any]:
    """`serializer`'s validated data of an action POST's body (ActionSubmitSerializer). A JSON object with a
    non-negative integer version and a non-null action is the serializer's data as it is (IntegerField
    returns such an int, the JSONField a parsed JSON value, other keys are ignored): the fast path skips the
    field machinery (issue 26); anything else goes through the serializer (its errors, its coercions)."""
    if enabled() and type(body) is dict:
        version, action = body.get("version"), body.get("action")
        if type(version) is int and version >= 0 and action is not None:
            return {"version": version, "action": action}
    return validated_input(serializer, body)


def game_get_for_update(
    *, game_id: Any, user: Any, visible_only: bool = True, held_version: int | None = None,
    seat_users: bool = True,
) -> Game:
    """selectors.game_get_for_update, in one prepared statement on the fast path (rows.game_get_for_update:
    the state column only if the row is not at `held_version`, the seats' users only if `seat_users`)."""
    if not enabled():
        return selectors.game_get_for_update(game_id=game_id, user=user, visible_only=visible_only)
    return rows.game_get_for_update(
        game_id=game_id, user=user, visible_only=visible_only, held_version=held_version,
        seat_users=seat_users,
    )


def game_get(*, game_id: Any, user: Any) -> Game:
    """selectors.game_get (no bulky column), in one prepared statement on the fast path (rows.game_get)."""
    if not enabled():
        return selectors.game_get(game_id=game_id, user=user)
    return rows.game_get(game_id=game_id, user=user)


def game_player_view(*, game_id: Any, user: Any, settle_clock: Any = None) -> dict[str, Any]:
    """selectors.game_player_view; on the fast path from the state this process keeps for the row."""
    if not enabled():
        return selectors.game_player_view(game_id=game_id, user=user, settle_clock=settle_clock)
    return answers.game_player_view(game_id=game_id, user=user, settle_clock=settle_clock)


def game_player_view_json(*, game_id: Any, user: Any, settle_clock: Any = None) -> bytes:
    """The fast path's GET .../view/ answer (answers.game_player_view_json)."""
    return answers.game_player_view_json(game_id=game_id, user=user, settle_clock=settle_clock)


def action_answer_json(*, game: Game, seat: str, state: Any, entries: list[GameAction], keep: bool) -> bytes:
    """The fast path's action POST answer (answers.action_answer_json)."""
    return answers.action_answer_json(game=game, seat=seat, state=state, entries=entries, keep=keep)


def writes_in_one_statement(alias: str) -> bool:
    """Whether a progress save goes in one statement (write.write_in_one_statement): the fast path on
    PostgreSQL."""
    return enabled() and write.supported(alias)


def write_in_one_statement(
    game: Game, log_rows: list[GameAction], notify: tuple[str, list] | None, *, changing: list[str]
) -> None:
    """Append `log_rows`, write the game row's `changing` columns and send `notify`, in one statement."""
    write.write_in_one_statement(game, log_rows, notify, changing=changing)


def held_version_for_write(pk: Any) -> int | None:
    """The version of the row whose state this process keeps for the game's next action POST (hot_state),
    or None."""
    return hot_state.held_version(pk) if enabled() else None


def take_state_for_write(game: Game) -> Any | None:
    """The state the last action POST of this process left for this very row (hot_state), or None."""
    return hot_state.take_for_write(game) if enabled() else None


def hand_on_state(game: Game, state: Any) -> bool:
    """Keep a committed write's state for the game's next writer in this process (hot_state); whether it
    was kept (the caller then must not touch it again)."""
    if not enabled():
        return False
    hot_state.keep_for_write(game, state)
    return True
