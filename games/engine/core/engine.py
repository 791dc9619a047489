"""The one `Engine` protocol every game implements, and the adapter that wraps a game's engine package.

A game's engine package keeps its own module-level functions (`new_game`, `legal_actions`, `apply`, `view`,
`public_view`, `replay`, its state class, ...); `ModuleEngine` reads them by name, so the four games satisfy
the protocol without changing their folders. Nothing here imports a game: the module is imported lazily,
the first time an engine is used.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .bots import SaltedRandomBot
from .errors import EngineError
from .search import LEVELS, SearchBot


class NoBots(EngineError):
    """The game has no bots (a referee of a physical game): `Engine.bot` refuses."""

    def __init__(self, message: str = "this game has no bots") -> None:
        super().__init__(message, code="no_bots")


@runtime_checkable
class Engine(Protocol):
    """What the platform needs of one game's rules (pure Python, no Django).

    set-up: `new_game(catalog, setup)`, `setup_from_json`, `catalog_from_dicts`;
    play: `legal_actions(state)`, `apply(state, action)` (raises EngineError, state unchanged),
    `parse_action(json)`; views: `view(state, seat)`, `public_view(state)`; bots: `bot(kind, ...)` where
    `has_bots` (NoBots otherwise); self-play: `play_game(catalog, setup, bots, max_plies=)`; state JSON:
    `state_to_json(state)`, `state_from_json(json, catalog)`; replay: `replay(catalog, setup, actions_json)`;
    `example(seed)`: the (catalog, setup) of a sample game from the game's own files (tests, benchmarks);
    schemas: `action_schema` (core.actions.action_schema) and `prompt_schemas` (core.prompts: decision kind ->
    its prompt's JSON Schema), which the API's OpenAPI components are built from.
    """

    @property
    def id(self) -> str: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def has_bots(self) -> bool: ...
    @property
    def decision_kinds(self) -> tuple[str, ...]: ...
    @property
    def action_schema(self) -> list[dict[str, Any]]: ...
    @property
    def prompt_schemas(self) -> Mapping[str, dict[str, Any]]: ...
    def new_game(self, catalog: Any, setup: Any) -> Any: ...
    def setup_from_json(self, data: Mapping[str, Any]) -> Any: ...
    def catalog_from_dicts(self, data: Mapping[str, Any]) -> Any: ...
    def legal_actions(self, state: Any) -> list[Any]: ...
    def apply(self, state: Any, action: Any) -> list[Any]: ...
    def parse_action(self, data: Mapping[str, Any]) -> Any: ...
    def view(self, state: Any, seat: str) -> dict[str, Any]: ...
    def public_view(self, state: Any) -> dict[str, Any]: ...
    def bot(self, kind: str, *, catalog: Any, salt: str | None = None) -> Any: ...
    def play_game(self, catalog: Any, setup: Any, bots: Mapping[str, Any], *, max_plies: int) -> Any: ...
    def state_to_json(self, state: Any) -> dict[str, Any]: ...
    def state_from_json(self, data: Mapping[str, Any], catalog: Any) -> Any: ...
    def replay(self, catalog: Any, setup: Any, actions_json: list[Any]) -> Any: ...
    def example(self, seed: int) -> tuple[Any, Any]: ...


@dataclass(frozen=True)
class ModuleEngine:
    """The `Engine` of a game whose engine package exports the usual names (see the protocol).

    `module` is the package's import path; `state_class` / `setup_class` / `catalog_class` name its
    classes. A game without bots (`has_bots` False) plays itself with seeded random bots through the generic
    loop below (`play_game`), so self-play is there for every game.
    """

    id: str
    module: str
    seats: tuple[str, ...]
    state_class: str = "GameState"
    setup_class: str = "GameSetup"
    catalog_class: str = "Catalog"
    has_bots: bool = True
    catalog_builder: Callable[[Mapping[str, Any]], Any] | None = None  # else catalog_class.from_dicts(**data)
    example_game: Callable[[int], tuple[Any, Any]] | None = None  # seed -> (catalog, setup) of a sample game
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def package(self) -> Any:
        mod = self._cache.get("m")
        if mod is None:
            mod = self._cache["m"] = importlib.import_module(self.module)
        return mod

    @property
    def decision_kinds(self) -> tuple[str, ...]:
        """Every kind of decision the game asks (each has a control on the play page)."""
        return tuple(self.package.DECISION_KINDS)

    @property
    def action_schema(self) -> list[dict[str, Any]]:
        """The action types and their fields (core.actions.action_schema): the package's ACTION_SCHEMA."""
        return list(getattr(self.package, "ACTION_SCHEMA", ()))

    @property
    def prompt_schemas(self) -> Mapping[str, dict[str, Any]]:
        """Decision kind -> the JSON Schema of its prompt (core.prompts): the package's PROMPT_SCHEMAS; a
        kind it does not declare has a prompt of any shape."""
        return dict(getattr(self.package, "PROMPT_SCHEMAS", {}))

    # set-up
    def new_game(self, catalog: Any, setup: Any) -> Any:
        return self.package.new_game(catalog, setup)

    def setup_from_json(self, data: Mapping[str, Any]) -> Any:
        return getattr(self.package, self.setup_class).from_json(data)

    def catalog_from_dicts(self, data: Mapping[str, Any]) -> Any:
        if self.catalog_builder is not None:
            return self.catalog_builder(data)
        return getattr(self.package, self.catalog_class).from_dicts(**data)

    # play
    def legal_actions(self, state: Any) -> list[Any]:
        return self.package.legal_actions(state)

    def apply(self, state: Any, action: Any) -> list[Any]:
        return self.package.apply(state, action)

    def parse_action(self, data: Mapping[str, Any]) -> Any:
        return self.package.Action.from_json(data)

    # views
    def view(self, state: Any, seat: str) -> dict[str, Any]:
        return self.package.view(state, seat)

    def public_view(self, state: Any) -> dict[str, Any]:
        return self.package.public_view(state)

    # bots and self-play
    def bot(self, kind: str, *, catalog: Any, salt: str | None = None) -> Any:
        if not self.has_bots:
            raise NoBots(f"{self.id} has no bots")
        kwargs = {} if salt is None else {"salt": salt}
        if kind == "heuristic":
            return self.package.HeuristicBot(catalog=catalog, **kwargs)
        if kind == "random":
            return self.package.RandomBot(**kwargs)
        determinizer = getattr(self.package, "Determinizer", None)
        if kind in LEVELS and determinizer is not None:
            return SearchBot(determinizer(catalog), level=kind, salt="search" if salt is None else salt)
        raise ValueError(f"unknown bot {kind!r}")

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        """The bots this game offers: random, heuristic and (with a determinizer) the search levels."""
        if not self.has_bots:
            return ()
        search = tuple(LEVELS) if getattr(self.package, "Determinizer", None) is not None else ()
        return ("random", "heuristic", *search)

    def determinizer(self, catalog: Any) -> Any | None:
        """The game's determinizer (core.search.Determinizer) over `catalog`, or None when the game offers
        none: then it has no search bots and no analysis of a finished game (core.analysis). A game may give
        its analysis a cheaper one (its package's `AnalysisDeterminizer`: the analysis has its own budget)."""
        package = self.package
        cls = (getattr(package, "AnalysisDeterminizer", None) or getattr(package, "Determinizer", None)
               if self.has_bots else None)
        return None if cls is None else cls(catalog)

    def random_player(self, salt: str = "random") -> Any:
        """A seeded random player of any game (the bots' salted hash, no RNG of its own)."""
        return _seat_random(self.seats[0])(salt)

    def play_game(self, catalog: Any, setup: Any, bots: Mapping[str, Any], *, max_plies: int) -> Any:
        play = getattr(self.package, "play_game", None)
        if play is not None:
            return play(catalog, setup, dict(bots), max_plies=max_plies)
        state = self.new_game(catalog, setup)
        while state.decision is not None and state.ply < max_plies:
            seat = state.decision.seat
            legal = self.legal_actions(state)
            self.apply(state, bots[seat].choose(self.view(state, seat), legal, seat))
        return state

    # state JSON and replay
    def state_to_json(self, state: Any) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any], catalog: Any) -> Any:
        return getattr(self.package, self.state_class).from_json(data, catalog)

    def replay(self, catalog: Any, setup: Any, actions_json: list[Any]) -> Any:
        return self.package.replay(catalog, setup, actions_json)

    def example(self, seed: int) -> tuple[Any, Any]:
        if self.example_game is None:
            raise NotImplementedError(f"{self.id} names no example game")
        return self.example_game(seed)


_RANDOM: dict[str, type[SaltedRandomBot]] = {}


def _seat_random(first_seat: str) -> type[SaltedRandomBot]:
    cls = _RANDOM.get(first_seat)
    if cls is None:
        cls = _RANDOM[first_seat] = type("SeatRandomBot", (SaltedRandomBot,), {"first_seat": first_seat})
    return cls
