"""The BATTLECARDS rules core: pure Python, no Django. See README.md in this package.

Layout: `core/` holds the game-independent machinery (errors, events, the RNG, the decision machine,
self-play); `battlecards/` the rules of this game, one module per rule area; `setup`, `state`, `actions`,
`view`, `bots`, `scenario` and `selfplay` are the entry points. The card data contract (Catalog, card
definitions) is the card vocabulary `vocabulary.battlecards`, re-exported here as `Catalog` and
`load_catalog_dir`.
"""
from __future__ import annotations

from vocabulary.battlecards import Catalog, load_catalog_dir

from .actions import Action
from .battlecards.machine import (
    DECISION_KINDS,
    apply,
    apply_legal,
    legal_actions,
    legal_key_at,
    legal_keys,
    materialize,
    new_game,
)
from .bots import HeuristicBot, RandomBot
from .core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from .core.events import Event, events_for
from .scenario import load_scenario
from .selfplay import play_game, replay
from .setup import SEATS, GameSetup, Options, side_of, starter_setup, team_setup
from .state import Decision, GameState
from .view import bot_view, public_view, view

__all__ = [
    "DECISION_KINDS", "SEATS", "Action", "Catalog", "Decision", "EngineError", "Event", "GameSetup",
    "GameState", "HeuristicBot", "IllegalAction", "MalformedAction", "Options", "RandomBot", "SetupError",
    "StateError", "apply", "apply_legal", "bot_view", "events_for", "legal_actions", "legal_key_at",
    "legal_keys", "load_catalog_dir", "load_scenario", "materialize", "new_game", "play_game", "public_view",
    "replay",
    "side_of", "starter_setup", "team_setup", "view",
]
