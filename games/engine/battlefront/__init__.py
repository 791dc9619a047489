"""BATTLEFRONT: the 70-card front-line game, a pure engine on the shared core machinery (games/engine/core).

See README.md in this package (interface, rulings table). Nothing here imports the Battlecards rules.
"""
from __future__ import annotations

from ..core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from ..core.events import Event, events_for
from ..core.machine import Decision
from .actions import ACTION_CLASSES, ACTION_SCHEMA, ACTION_TYPES, Action, Discard, Pass, Play, PlaySpecial
from .bots import HeuristicBot, RandomBot
from .cards import NATIONALITIES, TYPES, Ability, BattlefrontCatalog, Card, SpecialUse, load_cards
from .determinizer import Determinizer
from .prompts import PROMPT_SCHEMAS
from .rules import (
    DECISION_KINDS,
    apply,
    apply_legal,
    front_forces,
    legal_actions,
    legal_key_at,
    legal_keys,
    materialize,
    new_game,
    resolve_front,
)
from .selfplay import play_game, replay
from .setup import FRONT_NAMES, FRONTS, SEATS, GameSetup, Options
from .state import BattlefrontState
from .view import public_view, view

__all__ = [
    "ACTION_CLASSES", "ACTION_SCHEMA", "ACTION_TYPES", "DECISION_KINDS", "FRONTS", "FRONT_NAMES",
    "NATIONALITIES", "PROMPT_SCHEMAS", "SEATS",
    "TYPES", "Ability", "Action", "BattlefrontCatalog", "BattlefrontState", "Card", "Decision",
    "Determinizer", "Discard", "EngineError", "Event", "GameSetup", "HeuristicBot", "IllegalAction",
    "MalformedAction", "Options", "Pass", "Play", "PlaySpecial", "RandomBot", "SetupError", "SpecialUse",
    "StateError", "apply", "apply_legal", "events_for", "front_forces", "legal_actions", "legal_key_at",
    "legal_keys", "load_cards", "materialize", "new_game", "play_game", "public_view", "replay",
    "resolve_front", "view",
]
