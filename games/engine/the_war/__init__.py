"""THE WAR: the Russian WWII card game, a pure engine on the shared core machinery (games/engine/core).

See README.md in this package (interface, rule table, rulings table). Nothing here imports Battlecards.
"""
from __future__ import annotations

from ..core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from ..core.events import Event, events_for
from ..core.machine import Decision
from .actions import ACTION_CLASSES, ACTION_SCHEMA, ACTION_TYPES, Action
from .bots import HeuristicBot, RandomBot
from .determinizer import Determinizer
from .prompts import PROMPT_SCHEMAS
from .rules import (
    DECISION_KINDS,
    RULES,
    TURN_PHASES,
    WAVE_STAGES,
    apply,
    apply_legal,
    legal_actions,
    legal_keys,
    new_game,
)
from .selfplay import play_game, replay, starter_setup
from .setup import LEGACY_RULES_REVISION, OTHER, RULES_REVISION, SEATS, GameSetup
from .state import WarState
from .view import public_view, view

__all__ = [
    "ACTION_CLASSES", "ACTION_SCHEMA", "ACTION_TYPES", "DECISION_KINDS", "LEGACY_RULES_REVISION", "OTHER",
    "PROMPT_SCHEMAS", "RULES",
    "RULES_REVISION", "SEATS", "TURN_PHASES",
    "WAVE_STAGES", "Action", "Decision", "Determinizer", "EngineError", "Event", "GameSetup", "HeuristicBot",
    "IllegalAction", "MalformedAction", "RandomBot", "SetupError", "StateError", "WarState", "apply",
    "apply_legal", "events_for", "legal_actions", "legal_keys", "new_game", "play_game", "replay",
    "starter_setup", "view", "public_view",
]
