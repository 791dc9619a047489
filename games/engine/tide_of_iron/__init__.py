"""Tide of Iron's Strategy decks: a pure referee engine on the shared core machinery (games/engine/core).

The server holds what neither player should control in a remote game of the physical board game: the
shuffled Strategy decks (order hidden), every die (contact, drift, area attacks, defense), and the public
HQ and play areas. See README.md in this package (interface, readings table). Nothing here imports another
game's rules.
"""

from __future__ import annotations

from ..core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from ..core.events import Event, events_for
from ..core.machine import Decision
from .actions import ACTION_CLASSES, ACTION_SCHEMA, ACTION_TYPES, REPORT_FIELDS, REPORTS, Action
from .hexes import DIRECTIONS, Board, Hex, HexError, drift, red_die_direction
from .prompts import PROMPT_SCHEMAS
from .rules import (
    DECISION_KINDS,
    RESULTS,
    advance,
    apply,
    effective_cost,
    legal_actions,
    legal_keys,
    new_game,
)
from .selfplay import replay
from .setup import LEGACY_REVISION, RULES_REVISION, SEATS, GameSetup, Options, TideOfIronCatalog
from .state import TideOfIronState
from .view import public_view, view

Catalog = TideOfIronCatalog

__all__ = [
    "ACTION_CLASSES",
    "ACTION_SCHEMA",
    "ACTION_TYPES",
    "DECISION_KINDS",
    "DIRECTIONS",
    "PROMPT_SCHEMAS",
    "REPORTS",
    "REPORT_FIELDS",
    "RESULTS",
    "LEGACY_REVISION",
    "RULES_REVISION",
    "SEATS",
    "Action",
    "Board",
    "Catalog",
    "Decision",
    "EngineError",
    "Event",
    "GameSetup",
    "Hex",
    "HexError",
    "IllegalAction",
    "MalformedAction",
    "Options",
    "SetupError",
    "StateError",
    "TideOfIronCatalog",
    "TideOfIronState",
    "advance",
    "apply",
    "drift",
    "effective_cost",
    "events_for",
    "legal_actions",
    "legal_keys",
    "new_game",
    "red_die_direction",
    "replay",
    "view",
    "public_view",
]
