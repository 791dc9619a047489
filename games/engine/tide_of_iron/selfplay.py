"""Tide of Iron replay: rebuild a match from its setup (seed) and action log, each action checked."""

from __future__ import annotations

from typing import Any

from .rules import apply, new_game
from .setup import GameSetup, TideOfIronCatalog
from .state import TideOfIronState


def replay(
    catalog: TideOfIronCatalog, setup: GameSetup, actions_json: list[dict[str, Any]]
) -> TideOfIronState:
    state = new_game(catalog, setup)
    for data in actions_json:
        apply(state, data)
    return state
