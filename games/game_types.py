"""The game types the service plays: the registered Django-side definitions, one per game id.

The services, selectors and APIs play every game through its definition (games.game_type_base.GameType):
they ask `get_game_type(name)` (or `game_type_of(game)`) and call the same methods whatever the game: load a
state, parse and apply an action, list the legal actions, build a seat's view, make a bot, replay a log,
simulate. What differs between games (seats, options, how the frozen card snapshot is built, which card
definitions a view names, whether players bring decks) lives in games/definitions/<game>.py, one module per
game. Only dealing a Battlecards game from two matched decks stays Battlecards code in games.services
(games.services.deal, with games.decks_glue).
"""

from __future__ import annotations

from typing import Any

from config.errors import ValidationFailed
from games.definitions.battlecards import Battlecards
from games.definitions.battlefront import Battlefront
from games.definitions.the_war import TheWar
from games.definitions.tide_of_iron import TideOfIron
from games.engine import registry
from games.game_type_base import GameType

__all__ = [
    "DEFAULT_GAME_TYPE", "GAME_TYPES", "Battlecards", "Battlefront", "GameType", "TheWar", "TideOfIron",
    "canonical_game_type", "game_type_ids", "game_type_list", "game_type_of", "game_type_or_none",
    "get_game_type", "register_game_type", "side_of_seat", "unregister_game_type",
]


def side_of_seat(seat: str) -> str:
    """The side a seat plays for: an army seat "allies-2" is on side "allies"; a side seat is its own side
    (axis, allies, west, east). The twin of games.engine.battlecards.setup.side_of for stored seat names."""
    return seat.split("-", 1)[0]


GAME_TYPES: dict[str, GameType] = {}  # the registered definitions, by game id (register_game_type)
DEFAULT_GAME_TYPE = "battlecards"


def register_game_type(definition: GameType) -> GameType:
    """Register a game's Django-side definition under its id; the pure registry must know the id."""
    registry.get(definition.name)  # SetupError for an id the pure registry does not know
    if registry.canonical(definition.name) != definition.name:
        raise ValueError(f"{definition.name!r} is an alias: register the definition under its id")
    GAME_TYPES[definition.name] = definition
    return definition


def unregister_game_type(name: str) -> None:
    GAME_TYPES.pop(name, None)


for _definition in (Battlecards(), Battlefront(), TheWar(), TideOfIron()):
    register_game_type(_definition)


def game_type_list() -> list[dict[str, Any]]:
    """Every registered game type, as GET /api/game-types/ lists it (registration order)."""
    return [
        {"id": name, "label": kind.label, "seats": list(kind.seats), "bots": kind.bots_available,
         "bot_kinds": list(kind.bot_kinds), "decks": kind.uses_decks, "live_play": kind.live_play}
        for name, kind in GAME_TYPES.items()
    ]


def game_type_ids() -> list[str]:
    """Every game type's id, in registration order (what an API lists and validates against)."""
    return list(GAME_TYPES)


def canonical_game_type(name: str | None) -> str | None:
    """The id a name means (an old alias, like "the_war", read for one release), None when unknown."""
    found = registry.canonical(name) if name else None
    return found if found in GAME_TYPES else None


def get_game_type(name: str | None) -> GameType:
    """The adapter of a game type by id or old alias (400 unknown_game_type for any other name)."""
    found = canonical_game_type(name or DEFAULT_GAME_TYPE)
    if found is None:
        raise ValidationFailed(
            f"Unknown game type {name!r}: choose one of {sorted(GAME_TYPES)}.",
            code="unknown_game_type",
            field="game_type",
        )
    return GAME_TYPES[found]


def game_type_or_none(name: str | None) -> GameType | None:
    """The definition of a game by id or old alias (the default game for None), None when unknown: for
    input checks that leave an unknown id to the field that reports it."""
    found = canonical_game_type(name or DEFAULT_GAME_TYPE)
    return GAME_TYPES[found] if found else None


def game_type_of(game: Any) -> GameType:
    """The adapter of a stored game (games.models.Game.game_type)."""
    return get_game_type(getattr(game, "game_type", None) or DEFAULT_GAME_TYPE)
