"""Make the stored-game fixtures of tests/games/stored/ (issue 34, "stored games keep working"): one game per
game type, played part-way through the games services, its stored rows dumped as JSON.

ONLY EVER RUN ONCE, with the code of the commit the fixtures stand for (see README.md): they are games a
server of that commit stored, and the tests check that later code still loads, continues, verifies and
replays them. Never regenerate them; a later issue that changes rules or storage adds new files beside them.

    git archive f2fae7c | tar -x -C /tmp/f2fae7c
    cd /tmp/f2fae7c && PYTHONPATH=/tmp/f2fae7c DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_stored \\
        /work/main/.venv/bin/python /path/to/tests/games/stored/make_stored_games.py --commit f2fae7c \\
        --out /path/to/tests/games/stored

The code imported is whatever `games` the interpreter finds first (PYTHONPATH): the archive's. The database
is a throwaway test database (created, migrated, the catalog loaded, destroyed at the end).

The games: Battlecards (British starter vs the German, alice against the heuristic bot, alice's seat played
by a heuristic bot of her own), Battlefront and The War (alice against the heuristic bot, likewise), each
stopped after --plies engine actions (Battlefront a third of them: its games are short); Tide of Iron
(alice and bob referee a match: each reports his command points and a few units, then both take random
legal actions other than end_match), stopped likewise.
Every action goes through games.services (as the API's POST does), so the rows are what the server stores.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

FORMAT = 1
USERS = ("alice", "bob")


def _setup_database() -> Any:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    call_command("load_catalog", stdout=io.StringIO())
    return lambda: connection.creation.destroy_test_db(old_name, verbosity=0)


def _users() -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    return {name: get_user_model().objects.get_or_create(username=name)[0] for name in USERS}


def _engine_plies(game: Any) -> int:
    from games.models import GameAction, LogKind

    return GameAction.objects.filter(game=game, kind=LogKind.ACTION).count()


def _play_against_bot(game: Any, user: Any, *, plies: int) -> Any:
    """Play the user's seat with a heuristic bot of the game type (it sees only that seat's view) through
    games.services.game_action_submit until the game has `plies` engine actions or ends."""
    from games import services
    from games.game_types import game_type_of
    from games.models import Game
    from games.selectors import game_state

    kind = game_type_of(game)
    bot = None
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != "active" or _engine_plies(game) >= plies:
            return game
        state = game_state(game=game)
        bot = bot or kind.bot("heuristic", catalog=state.catalog, salt="stored-game")
        seat = state.decision.seat
        if hasattr(bot, "bind"):
            bot.bind(state)
        action = bot.choose(kind.view(state, seat), kind.legal_actions(state), seat)
        services.game_action_submit(game_id=game.pk, user=user, version=game.version, action=action.to_json())


def battlecards(users: dict[str, Any], plies: int) -> Any:
    from games import services

    game = services.game_create(
        user=users["alice"], my_deck={"starter": "gb-we-starter"}, opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "bot", "bot": "heuristic"}, seed=20020101, spectators={"allowed": True},
    )
    return _play_against_bot(game, users["alice"], plies=plies)


def battlefront(users: dict[str, Any], plies: int) -> Any:
    from games import services

    game = services.game_create(
        user=users["alice"], game_type="battlefront", opponent={"kind": "bot", "bot": "heuristic"},
        seed=1940, spectators={"allowed": True},
    )
    return _play_against_bot(game, users["alice"], plies=plies // 3)  # a game of about 45 plies


def the_war(users: dict[str, Any], plies: int) -> Any:
    from games import services

    game = services.game_create(
        user=users["alice"], game_type="the-war", opponent={"kind": "bot", "bot": "heuristic"}, seed=1941,
        spectators={"allowed": True},
    )
    return _play_against_bot(game, users["alice"], plies=plies)


TOI_UNITS = [("A", "6,5", "axis", "squad"), ("B", "7,5", "axis", "vehicle"), ("D", "5,5", "allies", "squad")]


def tide_of_iron(users: dict[str, Any], plies: int) -> Any:
    """Both seats humans (no bots in a referee): reports first, then random legal actions but end_match."""
    from games import services
    from games.game_types import game_type_of
    from games.models import Game
    from games.selectors import game_state

    game = services.game_create(
        user=users["alice"], game_type="tide-of-iron", opponent={"kind": "human", "username": "bob"},
        seed=1944, spectators={"allowed": True},
        options={"scenario": "toi-scenario-all-decks", "board_width": 12, "board_height": 10},
    )
    services.game_join(game_id=game.pk, user=users["bob"])
    kind = game_type_of(game)
    seat_user = {s.seat: users[s.user.username] for s in game.seats.all()}
    rng = random.Random(1944)
    reports = {seat: [{"type": "report_command", "points": "12"}] for seat in kind.seats}
    for label, hex_, side, unit in TOI_UNITS:
        reports[side].append({"type": "place_unit", "unit": label, "hex": hex_, "side": side, "kind": unit})
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != "active" or _engine_plies(game) >= plies:
            return game
        state = game_state(game=game)
        seat = state.decision.seat
        if reports[seat] and state.decision.kind not in ("target", "los"):
            action = {**reports[seat].pop(0), "seat": seat}
        else:
            legal = [a for a in kind.legal_actions(state) if a.to_json()["type"] != "end_match"]
            action = rng.choice(legal).to_json()
        services.game_action_submit(
            game_id=game.pk, user=seat_user[seat], version=game.version, action=action
        )


GAMES = {
    "battlecards": battlecards, "battlefront": battlefront, "the-war": the_war, "tide-of-iron": tide_of_iron,
}


def _value(value: Any) -> Any:
    """A column's value as JSON (dates as ISO strings, UUIDs as strings)."""
    import datetime
    import uuid

    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def _row(obj: Any, *, users: tuple[str, ...] = (), skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """A model row's concrete columns; a foreign key to a user by username, others by key."""
    row: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in skip:
            continue
        if field.name in users:
            user = getattr(obj, field.name)
            row[field.name] = user.username if user is not None else None
        elif field.is_relation:
            row[field.attname] = _value(getattr(obj, field.attname))
        else:
            row[field.name] = _value(getattr(obj, field.name))
    return row


def dump(game: Any, *, commit: str) -> dict[str, Any]:
    from games.models import Game

    game = Game.objects.get(pk=game.pk)
    return {
        "format": FORMAT,
        "made_with_commit": commit,
        "game_type": game.game_type,
        "users": list(USERS),
        "catalog_snapshot": {"hash": game.snapshot.hash, "data": game.snapshot.data},
        "game": _row(game, users=("created_by",)),
        "seats": [_row(s, users=("user", "invited_user"), skip=("id", "game")) for s in game.seats.all()],
        "actions": [_row(a, skip=("id", "game")) for a in game.actions.order_by("seq")],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", required=True, help="the commit whose code runs (recorded in the files)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    import games

    print(f"games imported from {Path(games.__file__).parent}", file=sys.stderr)
    destroy = _setup_database()
    try:
        users = _users()
        for name, play in GAMES.items():
            game = play(users, args.plies)
            if game.status != "active":
                raise SystemExit(f"{name}: the game ended ({game.status}): a stored game is a mid-game one")
            data = dump(game, commit=args.commit)
            path = args.out / f"{name}.json"
            path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            print(f"{path}: {game.status}, {len(data['actions'])} log entries, {path.stat().st_size} bytes",
                  file=sys.stderr)
    finally:
        destroy()


if __name__ == "__main__":
    main()
