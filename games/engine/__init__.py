"""The BATTLECARDS rules core: pure Python, no Django. See README.md in this package."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action
from .bots import _MASK, HeuristicBot, RandomBot
from .cards import Catalog, load_catalog_dir
from .errors import EngineError, IllegalAction, MalformedAction
from .events import Event, events_for
from .rules import (
    _ACTIONS,
    apply,
    apply_legal,
    legal_actions,
    legal_key_at,
    legal_keys,
    materialize,
    new_game,
)
from .scenario import load_scenario
from .setup import SEATS, GameSetup, Options, starter_setup
from .state import Decision, GameState
from .view import bot_view, view

__all__ = [
    "SEATS", "Action", "Catalog", "Decision", "EngineError", "Event", "GameSetup", "GameState",
    "HeuristicBot",
    "IllegalAction", "MalformedAction", "Options", "RandomBot", "apply", "events_for", "legal_actions",
    "load_catalog_dir", "load_scenario", "new_game", "play_game", "replay", "starter_setup", "view",
]


def replay(catalog: Catalog, setup: GameSetup, actions_json: list[dict[str, Any]]) -> GameState:
    """Rebuild a game from its setup (seed) and action log."""
    state = new_game(catalog, setup)
    for data in actions_json:
        apply(state, Action.from_json(data))
    return state


def play_game(catalog: Catalog, setup: GameSetup, bots: dict[str, Any], max_plies: int = 50_000,
              record_events: bool = False, log: list | None = None) -> GameState:
    """Let bots play a game to the end (or max_plies). `log`, if given, receives each action's JSON."""
    state = new_game(catalog, setup)
    state.record_events = record_events
    needs_view = {seat: getattr(bot, "needs_view", True) for seat, bot in bots.items()}
    # a RandomBot's choice needs only the ply and the number of legal actions: pick the same index
    # RandomBot.choose would, and build just that action
    picks = {seat: _random_pick(state, bot._base, seat)
             for seat, bot in bots.items() if type(bot) is RandomBot}
    while state.decision is not None and state.ply < max_plies:
        seat = state.decision.seat
        pick = picks.get(seat)
        if pick is not None:
            key = legal_key_at(state, pick)
            action = _ACTIONS.get(key) or materialize(key)
            if log is not None:
                log.append(action.to_json())
            apply_legal(state, action)
            continue
        bot = bots[seat]
        if needs_view[seat]:
            legal: Sequence[Action] = legal_actions(state)
            # a HeuristicBot reads a few parts of the view: build those only (same values)
            action = bot.choose((bot_view if type(bot) is HeuristicBot else view)(state, seat), legal, seat)
            handed = legal
        else:  # the bot reads only the ply and picks one action: build just that one
            lazy = _LazyActions(legal_keys(state))
            action = bot.choose({"ply": state.ply, "seat": seat}, lazy, seat)
            handed = lazy.handed
        if log is not None:
            log.append(action.to_json())
        # an action object handed out from the legal list is legal by construction; others are checked
        for a in handed:
            if a is action:
                apply_legal(state, action)
                break
        else:
            apply(state, action)
    return state


def _random_pick(state: GameState, base: int, seat: str):
    """n -> the index RandomBot(salt).choose picks among n legal actions of `seat` at the current ply
    (bots._pick_base inlined: this runs once per action)."""
    axis = seat == "axis"
    mask = _MASK

    def pick(n: int) -> int:
        z = (base + (state.ply * 2 + axis) * 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return (z ^ (z >> 31)) % n

    return pick


class _LazyActions(Sequence):
    """The legal actions, materialised one at a time (for bots that pick by index)."""

    __slots__ = ("_keys", "handed")

    def __init__(self, keys: list[tuple]) -> None:
        self._keys = keys
        self.handed: list[Action] = []

    def __len__(self) -> int:
        return len(self._keys)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            out = [materialize(k) for k in self._keys[i]]
            self.handed.extend(out)
            return out
        action = materialize(self._keys[i])
        self.handed.append(action)
        return action
