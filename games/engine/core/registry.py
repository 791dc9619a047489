"""The pure registry of games: one `GameSpec` per game id (no Django).

A spec names what every layer agrees on: the id (the one spelling used by every app, URL and API value),
its label, its seats, its `Engine` (core.engine), the module of its card vocabulary and of its deck rules
(both optional) and the old spellings of its id still read on input (`aliases`, normalised by `canonical`).
The Django side (games.game_types) registers one definition per game under the same id.

`games/engine/registry.py` registers the built-in games; a test (or a plug-in) registers more with
`register` and removes them with `unregister`.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .engine import Engine
from .errors import SetupError


@dataclass(frozen=True)
class GameSpec:
    id: str
    label: str
    engine: Engine
    vocabulary: str | None = None  # import path of the game's card vocabulary (pure)
    deck_rules: str | None = None  # import path of its deck legality rules (pure), when players build decks
    aliases: tuple[str, ...] = field(default=())

    @property
    def seats(self) -> tuple[str, ...]:
        return self.engine.seats


_GAMES: dict[str, GameSpec] = {}
_ALIASES: dict[str, str] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (SetupError when its id or an alias is taken, or its engine names another id)."""
    if spec.engine.id != spec.id:
        raise SetupError(f"game {spec.id!r}: its engine says {spec.engine.id!r}", code="bad_registration")
    for name in (spec.id, *spec.aliases):
        owner = _ALIASES.get(name)
        if owner is not None and owner != spec.id:
            raise SetupError(f"game id {name!r} is taken by {owner!r}", code="bad_registration")
    _GAMES[spec.id] = spec
    for name in (spec.id, *spec.aliases):
        _ALIASES[name] = spec.id
    return spec


def unregister(game_id: str) -> None:
    spec = _GAMES.pop(game_id, None)
    if spec is not None:
        for name in (spec.id, *spec.aliases):
            _ALIASES.pop(name, None)


def canonical(name: str) -> str | None:
    """The id a name means (the id itself or an old alias), None for an unknown name."""
    return _ALIASES.get(name)


def get(game_id: str) -> GameSpec:
    """The spec of an id or alias (SetupError unknown_game_type for any other name)."""
    found = _ALIASES.get(game_id)
    if found is None:
        raise SetupError(f"unknown game {game_id!r}: one of {sorted(_GAMES)}", code="unknown_game_type")
    return _GAMES[found]


def ids() -> list[str]:
    """The registered ids, in registration order."""
    return list(_GAMES)


def games() -> Iterator[GameSpec]:
    return iter(list(_GAMES.values()))
