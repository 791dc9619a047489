"""The War self-play and replay on the core machinery (core.selfplay)."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import TheWarCatalog

from ..core import selfplay
from .bots import HeuristicBot, RandomBot
from .rules import RULES, new_game
from .setup import SEATS, GameSetup
from .state import WarState
from .view import view


def replay(catalog: TheWarCatalog, setup: GameSetup, actions_json: list[dict[str, Any]]) -> WarState:
    """Rebuild a game from its setup (seed) and action log (each action checked)."""
    return selfplay.replay(RULES, new_game(catalog, setup), actions_json)


def play_game(catalog: TheWarCatalog, setup: GameSetup, bots: dict[str, Any], max_plies: int = 20_000,
              record_events: bool = False, log: list | None = None) -> WarState:
    state = new_game(catalog, setup)
    state.record_events = record_events
    for bot in bots.values():
        if isinstance(bot, HeuristicBot):
            bot.bind(state)
    pickers = {seat: selfplay.random_pick(state, bot._base, seat == SEATS[0])
               for seat, bot in bots.items() if type(bot) is RandomBot}
    view_for: dict[str, Any] = dict.fromkeys(bots, view)
    return selfplay.play(RULES, state, bots, pickers=pickers, view_for=view_for, max_plies=max_plies, log=log)


def starter_setup(catalog: TheWarCatalog, seed: int, first: str = "tw-starter-red-army",
                  second: str = "tw-starter-wehrmacht") -> GameSetup:
    decks = {}
    for seat, code in zip(SEATS, (first, second), strict=True):
        starter = catalog.starters[code]
        decks[seat] = tuple(c for c, n in sorted(starter.entries.items()) for _ in range(n))
    return GameSetup(seed, decks)
