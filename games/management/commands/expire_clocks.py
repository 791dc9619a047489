"""`manage.py expire_clocks`: end on time every game whose running clock has run out."""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import clock_timer


class Command(BaseCommand):
    help = (
        "End on time every active game whose running clock has run out (the side that must decide loses, "
        "end_reason timeout). Once, or with --loop every --interval seconds (default "
        "GAMES_CLOCK_SWEEP_SECONDS) until stopped: the periodic job of a server without a Celery broker "
        "(GAMES_CLOCK_RUNNER=command)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="Sweep again and again until stopped.")
        parser.add_argument("--interval", type=float, help="Seconds between sweeps with --loop.")
        parser.add_argument(
            "--loops", type=int, default=0, help="With --loop: stop after this many sweeps (0: never)."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        loops = opts["loops"] if opts["loop"] else 1
        try:
            ended = clock_timer.run_loop(
                stop=threading.Event(), interval=opts["interval"], loops=loops, close_connection=opts["loop"]
            )
        except KeyboardInterrupt:
            return
        self.stdout.write(f"{ended} game(s) lost on time")
