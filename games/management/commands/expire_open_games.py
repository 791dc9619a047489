"""`manage.py expire_open_games`: cancel open games nobody joined within GAMES_OPEN_TTL_HOURS."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.services import games_expire_open


class Command(BaseCommand):
    help = (
        "Cancel open games that waited longer than GAMES_OPEN_TTL_HOURS (or --hours) for an opponent: they "
        "end without a winner. Run it from cron; the lobby already hides such games and join refuses them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=float, help="Override GAMES_OPEN_TTL_HOURS.")

    def handle(self, *args: Any, **opts: Any) -> None:
        older_than = timedelta(hours=opts["hours"]) if opts["hours"] is not None else None
        count = games_expire_open(older_than=older_than)
        self.stdout.write(f"{count} open game(s) expired")
