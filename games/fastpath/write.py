"""The fast path's progress write (PostgreSQL): the log rows a transaction appends, the game row's changed
columns and the event bus's pg_notify in one statement, a data-modifying CTE, its parameters bound on the
server (issue 26: one round trip instead of three, no ORM query building, no state JSON escaped into the SQL).

The reference write is the ORM's (games.services.progress.save_progress: bulk_create, then save with
update_fields, then the bus's NOTIFY on commit): the same rows and columns.

The JSON columns (the state, each log row's action and events) are encoded by orjson instead of the json
module psycopg is handed by Django (issue 42: json.dumps of a ~12 KB state was about 7 % of the served
worker's CPU per action POST). jsonb keeps values, not text, so the stored values are the same; a value
orjson refuses (an integer past 64 bits) is encoded by json.dumps as before."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import connections
from psycopg.types.json import Jsonb

from config.prepared import cursor_for
from games.models import Game, GameAction

_INSERTED_FIELDS = ["game", "seq", "kind", "seat", "by_bot", "action", "events", "version", "created_at"]


def write_in_one_statement(
    game: Game, rows: list[GameAction], notify: tuple[str, list] | None, *, changing: list[str]
) -> None:
    """PostgreSQL: `WITH log AS (INSERT the rows), game AS (UPDATE the row) SELECT [pg_notify]`. Values go
    through each field's own pre_save and get_db_prep_save (auto_now stamps, JSON adaptation), as the ORM's
    save and bulk_create would; the new rows get their ids."""
    conn = connections[Game.objects.db]
    qn = conn.ops.quote_name
    params: list[Any] = []
    ctes = []
    if rows:
        fields = [GameAction._meta.get_field(name) for name in _INSERTED_FIELDS]
        values = []
        for row in rows:
            values.append("(" + ", ".join(["%s"] * len(fields)) + ")")
            params += [_prep_save(f, f.pre_save(row, True), conn) for f in fields]
        columns = ", ".join(qn(f.column) for f in fields)
        ctes.append(  # names from the models, every value a parameter
            f"log AS (INSERT INTO {qn(GameAction._meta.db_table)} ({columns}) VALUES {', '.join(values)} "  # noqa: S608
            f"RETURNING {qn('id')})"
        )
    changed = [Game._meta.get_field(name) for name in changing]
    sets = ", ".join(f"{qn(f.column)} = %s" for f in changed)
    params += [_prep_save(f, f.pre_save(game, False), conn) for f in changed]
    params.append(Game._meta.pk.get_db_prep_value(game.pk, conn))
    table = qn(Game._meta.db_table)
    ctes.append(f"game AS (UPDATE {table} SET {sets} WHERE {qn('id')} = %s RETURNING 1)")  # noqa: S608
    selected = ["(SELECT count(*) FROM game)"]
    selected.append("(SELECT array_agg(id ORDER BY id) FROM log)" if rows else "NULL")
    if notify is not None:
        selected.append(notify[0])
        params += notify[1]
    with cursor_for(conn) as cursor:  # server-side binding (issue 26), prepared once run often (issue 42)
        cursor.execute(f"WITH {', '.join(ctes)} SELECT {', '.join(selected)}", params)
        updated, ids = cursor.fetchone()[:2]
    if updated != 1:
        raise Game.DoesNotExist(f"game {game.pk} is gone")
    for row, pk in zip(rows, ids or [], strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, conn.alias


def json_dumps(value: Any) -> bytes:
    """`value` as JSON bytes: orjson's (compact, UTF-8; keys that are not strings written as json.dumps
    writes them), or json.dumps's for what orjson does not take (an integer past 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value).encode()


def _prep_save(field: Any, value: Any, conn: Any) -> Any:
    """field.get_db_prep_save(value, conn), a JSON value of a field without an encoder of its own encoded
    by json_dumps."""
    prepared = field.get_db_prep_save(value, conn)
    if isinstance(prepared, Jsonb) and getattr(field, "encoder", None) is None:
        prepared.dumps = json_dumps
    return prepared


def supported(alias: str) -> bool:
    """Whether the database `alias` takes the one-statement write (PostgreSQL)."""
    return connections[alias].vendor == "postgresql"
