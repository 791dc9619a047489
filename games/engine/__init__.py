"""The game engines: pure Python, no Django. See README.md in this package.

Layout: `core/` holds the game-independent machinery (errors, events, the RNG, the decision machine,
self-play); one folder per game (`battlecards/`, `battlefront/`, `the_war/`, `tide_of_iron/`), each with
its own entry points (`setup`, `state`, `actions`, `view`, `bots`, `selfplay`).

The names below are Battlecards' public API, kept here because the apps, the management commands and the
tests have always imported them from `games.engine` (`from games.engine import new_game, view, ...`); they
are re-exports of `games.engine.battlecards.*` and nothing else lives at this root. The card data
contract (Catalog, card definitions) is the card vocabulary `vocabulary.battlecards`, re-exported here as
`Catalog` and `load_catalog_dir`.
"""
from __future__ import annotations

from vocabulary.battlecards import Catalog, load_catalog_dir

from .battlecards.actions import ACTION_SCHEMA, Action
from .battlecards.bots import HeuristicBot, RandomBot
from .battlecards.determinizer import AnalysisDeterminizer, Determinizer
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
from .battlecards.prompts import PROMPT_SCHEMAS
from .battlecards.scenario import load_scenario
from .battlecards.selfplay import play_game, replay
from .battlecards.setup import SEATS, GameSetup, Options, side_of, starter_setup, team_setup
from .battlecards.state import Decision, GameState
from .battlecards.view import bot_view, public_view, view
from .core.errors import EngineError, IllegalAction, MalformedAction, SetupError, StateError
from .core.events import Event, events_for

__all__ = [
    "ACTION_SCHEMA", "DECISION_KINDS", "PROMPT_SCHEMAS", "SEATS", "Action", "Catalog", "Decision",
    "AnalysisDeterminizer", "Determinizer", "EngineError", "Event", "GameSetup",
    "GameState", "HeuristicBot", "IllegalAction", "MalformedAction", "Options", "RandomBot", "SetupError",
    "StateError", "apply", "apply_legal", "bot_view", "events_for", "legal_actions", "legal_key_at",
    "legal_keys", "load_catalog_dir", "load_scenario", "materialize", "new_game", "play_game", "public_view",
    "replay",
    "side_of", "starter_setup", "team_setup", "view",
]
