"""The fast path's answers: a seat's view and an action POST's answer as the JSON bytes DRF's JSONRenderer
makes of the reference payloads (games.selectors.game_player_view, seat_view_payload, log_entry_for_seat),
spliced from encoded parts: the seat's engine view and its cards' definitions are encoded once per stored row
and seat and kept in this process (games.fastpath.hot_state), each card's definition once per frozen catalog;
only the row's header fields and its clock, which changes with time, are encoded per request.

An engine view is encoded by orjson (view_json): the same bytes as JSONRenderer's for JSON of strings,
integers, booleans, None, lists and string-keyed objects, which is all a view holds (the conformance
suite's `json_types` property, for every registered game); anything orjson refuses goes to JSONRenderer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import partial
from typing import Any

import orjson
from rest_framework.renderers import JSONRenderer

from games import selectors
from games.fastpath import hot_state
from games.fastpath.rows import seat_game_get
from games.game_types import game_type_of
from games.models import Game, GameAction, GameSeat


def render_json(data: Any) -> bytes:
    return JSONRenderer().render(data)


def view_json(view: Any) -> bytes:
    """render_json(view) for an engine view, by orjson (the module's docstring); U+2028 and U+2029 escaped
    as JSONRenderer escapes them."""
    try:
        encoded = orjson.dumps(view)
    except orjson.JSONEncodeError:  # e.g. a key that is not a string: JSONRenderer's rules
        return render_json(view)
    if b"\xe2\x80\xa8" in encoded or b"\xe2\x80\xa9" in encoded:
        encoded = encoded.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return encoded


def game_player_view(*, game_id: Any, user: Any, settle_clock: Any = None) -> dict[str, Any]:
    """selectors.game_player_view from the state (and the seat's view part) this process keeps for the row
    read: the state column is read and decoded only when this process does not hold this row's state yet."""
    game, seat = _player_view_row(game_id=game_id, user=user, settle_clock=settle_clock)
    game, seat_name, state = _player_view_state(game=game, seat=seat, game_id=game_id, user=user)
    view, cards = hot_state.seat_part(
        game, seat_name, partial(selectors.seat_view_part, game=game, seat=seat_name, state=state)
    )
    head, tail = selectors.seat_view_fields(game=game, seat=seat_name)
    return {**head, "cards": cards, **tail, "view": view}


def game_player_view_json(*, game_id: Any, user: Any, settle_clock: Any = None) -> bytes:
    """game_player_view as the JSON bytes JSONRenderer makes of it (GET .../view/)."""
    game, seat_row = _player_view_row(game_id=game_id, user=user, settle_clock=settle_clock)
    seat = seat_row.seat
    # Kept for this row and seat by an earlier GET, or by the action POST of this process that wrote it.
    encoded = hot_state.kept_seat_json(game, seat)
    if encoded is None:
        game, seat, state = _player_view_state(game=game, seat=seat_row, game_id=game_id, user=user)
        encoded = hot_state.seat_json(game, seat, partial(_seat_part_json, game=game, seat=seat, state=state))
    return _seat_view_json(game=game, seat=seat, encoded=encoded)


def action_answer_json(*, game: Game, seat: str, state: Any, entries: list[GameAction], keep: bool) -> bytes:
    """An action POST's answer ({"entries": [...], "state": seat view}) as JSONRenderer makes it. keep=True:
    `game` is the row as a committed write of this process left it and `state` the state it wrote; the
    encoded seat part is then kept for that row and seat, for the seat's next GET of its view."""
    encoded = _seat_part_json(game=game, seat=seat, state=state)
    if keep:
        hot_state.keep_seat_json(game, seat, encoded)
    view = _seat_view_json(game=game, seat=seat, encoded=encoded)
    logged = render_json([selectors.log_entry_for_seat(e, seat) for e in entries])
    return b"".join((b'{"entries":', logged, b',"state":', view, b"}"))


def _player_view_row(*, game_id: Any, user: Any, settle_clock: Any) -> tuple[Game, GameSeat]:
    """The game row (with seats, without its state column) and the user's seat, once a clock past its
    deadline is settled (then the row is read again); 409 while a seat is open."""
    game = seat_game_get(game_id=game_id, user=user)
    if settle_clock is not None and selectors.clock_due(game):
        settle_clock(game_id=game.pk)
        game = seat_game_get(game_id=game_id, user=user)
    return game, selectors.player_seat(game, user)


def _player_view_state(*, game: Game, seat: GameSeat, game_id: Any, user: Any) -> tuple[Game, str, Any]:
    """The decoded state of the row read (read-only, hot_state); when this process has not decoded it yet,
    the row read again with its state column (then possibly a newer row, and the user's seat in it)."""
    state = hot_state.cached_state(game)
    if state is None:  # not decoded in this process yet: read the row again with its state column
        game = seat_game_get(game_id=game_id, user=user, columns=("state",))
        seat = selectors.require_seat(game, user)
        state = hot_state.remember_state(game, selectors.game_state(game=game))
    return game, seat.seat, state


def _seat_part_json(*, game: Game, seat: str, state: Any) -> tuple[bytes, bytes]:
    """The encoded (cards, view) of selectors.seat_view_part, the cards from their encoded definitions."""
    view = selectors.seat_engine_view(game=game, seat=seat, state=state)
    cards = view_cards_json(view, state.catalog, kind=game_type_of(game), digest=game.snapshot_hash)
    return cards, view_json(view)


def _seat_view_json(*, game: Game, seat: str, encoded: tuple[bytes, bytes]) -> bytes:
    """A seat's view from its encoded seat part and the fields read per request (seat_view_fields)."""
    cards_json, view_json = encoded
    head, tail = selectors.seat_view_fields(game=game, seat=seat)
    # {head..., "cards": ..., tail..., "view": ...}: the key order of seat_view_payload
    head_json, tail_json = render_json(head)[:-1], render_json(tail)[1:-1]
    return b"".join((head_json, b',"cards":', cards_json, b",", tail_json, b',"view":', view_json, b"}"))


# Per game catalog, by its snapshot hash (a game's catalog is frozen: games.catalog_snapshot), each card
# code's `"code":{definition}` as JSONRenderer encodes it (None: a code the catalog does not know). As many
# catalogs as games.catalog_snapshot keeps built, least recently used out first.
_CARDS_JSON: OrderedDict[str, dict[str, bytes | None]] = OrderedDict()
_CARDS_JSON_CATALOGS = 64
_CARDS_JSON_LOCK = threading.Lock()


def _cards_json_of(digest: str) -> dict[str, bytes | None]:
    with _CARDS_JSON_LOCK:
        known = _CARDS_JSON.get(digest)
        if known is None:
            known = _CARDS_JSON[digest] = {}
            while len(_CARDS_JSON) > _CARDS_JSON_CATALOGS:
                _CARDS_JSON.popitem(last=False)
        else:
            _CARDS_JSON.move_to_end(digest)
        return known


def view_cards_json(view: Any, catalog: Any, *, kind: Any, digest: str) -> bytes:
    """selectors.view_card_definitions(view, catalog, kind=kind) as the JSON bytes JSONRenderer makes of it,
    from each card's encoded definition, built once per catalog (`digest`: its snapshot hash) and code (a
    definition is a pure function of its code and the frozen catalog: GameType.card_definitions). Only codes
    the view shows are described."""
    known = _cards_json_of(digest)
    parts = []
    for code in sorted(kind.card_codes(view)):
        if code in known:
            encoded = known[code]
        else:
            card = kind.card_definitions({code}, catalog).get(code)
            encoded = known[code] = None if card is None else render_json({code: card})[1:-1]
        if encoded is not None:
            parts.append(encoded)
    return b"{" + b",".join(parts) + b"}"
