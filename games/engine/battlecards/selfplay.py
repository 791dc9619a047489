"""Battlecards self-play and replay on the core machinery (core.selfplay)."""
from __future__ import annotations

from typing import Any

from vocabulary.battlecards import Catalog

from ..core import selfplay
from .bots import HeuristicBot, RandomBot
from .machine import RULES, new_game
from .setup import SEATS, GameSetup
from .state import GameState
from .view import bot_view, view


def random_pick(state: GameState, base: int, seat: str):
    """n -> the index RandomBot(salt).choose picks among n legal actions of `seat` at the current ply."""
    return selfplay.random_pick(state, base, seat == SEATS[0])  # as RandomBot.choose (first_seat "axis")


def replay(catalog: Catalog, setup: GameSetup, actions_json: list[dict[str, Any]]) -> GameState:
    """Rebuild a game from its setup (seed) and action log."""
    return selfplay.replay(RULES, new_game(catalog, setup), actions_json)


def play_game(catalog: Catalog, setup: GameSetup, bots: dict[str, Any], max_plies: int = 50_000,
              record_events: bool = False, log: list | None = None) -> GameState:
    """Let bots play a game to the end (or max_plies). `log`, if given, receives each action's JSON.

    A RandomBot seat gets only its chosen action built (the index RandomBot.choose would pick); a
    HeuristicBot seat gets `bot_view` (view's values, parts built when read)."""
    state = new_game(catalog, setup)
    state.record_events = record_events
    pickers = {seat: random_pick(state, bot._base, seat)
               for seat, bot in bots.items() if type(bot) is RandomBot}
    view_for = {seat: bot_view if type(bot) is HeuristicBot else view for seat, bot in bots.items()}
    return selfplay.play(RULES, state, bots, pickers=pickers, view_for=view_for, max_plies=max_plies, log=log)
