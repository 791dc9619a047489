"""Battlefront self-play and replay on the core machinery (core.selfplay)."""
from __future__ import annotations

from typing import Any

from ..core import selfplay
from .bots import RandomBot
from .cards import BattlefrontCatalog
from .rules import RULES, new_game
from .setup import SEATS, GameSetup
from .state import BattlefrontState
from .view import view


def replay(catalog: BattlefrontCatalog, setup: GameSetup,
           actions_json: list[dict[str, Any]]) -> BattlefrontState:
    """Rebuild a game from its setup (seed) and action log (each action checked)."""
    return selfplay.replay(RULES, new_game(catalog, setup), actions_json)


def play_game(catalog: BattlefrontCatalog, setup: GameSetup, bots: dict[str, Any], max_plies: int = 10_000,
              record_events: bool = False, log: list | None = None) -> BattlefrontState:
    """Let bots play a game to the end (or max_plies). `log`, if given, receives each action's JSON.

    A RandomBot seat gets only its chosen action built (the index RandomBot.choose would pick)."""
    state = new_game(catalog, setup)
    state.record_events = record_events
    pickers = {seat: selfplay.random_pick(state, bot._base, seat == SEATS[0])
               for seat, bot in bots.items() if type(bot) is RandomBot}
    view_for = dict.fromkeys(bots, view)
    return selfplay.play(RULES, state, bots, pickers=pickers, view_for=view_for, max_plies=max_plies, log=log)
