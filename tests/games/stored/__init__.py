"""Games a server stored (tests/games/stored/<game-type>.json, made once by make_stored_games.py: see
README.md), loaded back into the database as that server left them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.dateparse import parse_datetime

HERE = Path(__file__).resolve().parent
# the files (without .json): only ever add to this (README.md)
STORED_GAMES = ("battlecards", "battlefront", "the-war", "tide-of-iron")
DATETIME_COLUMNS = {"created_at", "updated_at", "started_at", "finished_at", "clock_deadline", "joined_at"}


def stored_data(name: str) -> dict[str, Any]:
    data = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    assert data["format"] == 1, f"{name}.json: unknown format {data['format']}"
    return data


def _columns(row: dict[str, Any], users: dict[str, Any], user_columns: tuple[str, ...]) -> dict[str, Any]:
    values = {}
    for column, value in row.items():
        if column in user_columns:
            values[column] = users[value] if value is not None else None
        elif column in DATETIME_COLUMNS and value is not None:
            values[column] = parse_datetime(value)
        else:
            values[column] = value
    return values


def load_stored_game(name: str) -> Any:
    """Insert the stored game `name` (its users by username, its catalog snapshot, the game row with its
    state, set-up and clocks, its seats and its whole log) and return the game, as read back."""
    from games.models import CatalogSnapshot, Game, GameAction, GameSeat

    data = stored_data(name)
    users = {n: get_user_model().objects.get_or_create(username=n)[0] for n in data["users"]}
    snapshot = data["catalog_snapshot"]
    CatalogSnapshot.objects.get_or_create(hash=snapshot["hash"], defaults={"data": snapshot["data"]})
    row = _columns(data["game"], users, ("created_by",))
    Game(**row).save(force_insert=True)
    Game.objects.filter(pk=row["id"]).update(created_at=row["created_at"], updated_at=row["updated_at"])
    GameSeat.objects.bulk_create(
        GameSeat(game_id=row["id"], **_columns(s, users, ("user", "invited_user"))) for s in data["seats"]
    )
    GameAction.objects.bulk_create(
        GameAction(game_id=row["id"], **_columns(a, users, ())) for a in data["actions"]
    )
    return Game.objects.get(pk=row["id"])
