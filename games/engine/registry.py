"""The registry of the built-in games: each registers its id, label, seats and engine (core.registry).

A game's engine package is imported only when first used (core.engine.ModuleEngine). The Django side
(games.game_types) registers one definition per id; docs/architecture.md "Adding a game" tells the steps.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core.engine import ModuleEngine
from .core.registry import GameSpec, canonical, games, get, ids, register, unregister


def _the_war_catalog(data: Mapping[str, Any]) -> Any:
    from vocabulary.the_war import parse_catalog

    return parse_catalog(data["cards"], data["starters"])


def _battlecards_example(seed: int) -> tuple[Any, Any]:
    from vocabulary.battlecards import load_catalog_dir

    from .battlecards.setup import starter_setup

    catalog = load_catalog_dir()
    return catalog, starter_setup(catalog, seed=seed)


def _battlefront_example(seed: int) -> tuple[Any, Any]:
    from .battlefront import GameSetup, load_cards

    return load_cards(), GameSetup(seed=seed)


def _the_war_example(seed: int) -> tuple[Any, Any]:
    from vocabulary.the_war import load_catalog

    from .the_war import starter_setup

    catalog = load_catalog()
    return catalog, starter_setup(catalog, seed)


def _tide_of_iron_example(seed: int) -> tuple[Any, Any]:
    from vocabulary.tide_of_iron import read_documents

    from .tide_of_iron import GameSetup, TideOfIronCatalog

    cards, decks = read_documents()
    catalog = TideOfIronCatalog.from_dicts(cards=cards["cards"], decks=decks["decks"],
                                           scenarios=decks["scenarios"])
    return catalog, GameSetup(seed=seed)


BUILT_IN = (
    GameSpec(
        id="battlecards", label="BATTLECARDS: World Conflict",
        engine=ModuleEngine(id="battlecards", module="games.engine", seats=("axis", "allies"),
                            example_game=_battlecards_example),
        vocabulary="vocabulary.battlecards", deck_rules="decks.rules",
    ),
    GameSpec(
        id="battlefront", label="Battlefront",
        engine=ModuleEngine(id="battlefront", module="games.engine.battlefront", seats=("west", "east"),
                            state_class="BattlefrontState", catalog_class="BattlefrontCatalog",
                            example_game=_battlefront_example),
    ),
    GameSpec(
        id="the-war", label="The War",
        engine=ModuleEngine(id="the-war", module="games.engine.the_war", seats=("p1", "p2"),
                            state_class="WarState", catalog_builder=_the_war_catalog,
                            example_game=_the_war_example),
        vocabulary="vocabulary.the_war", deck_rules="decks.rules_the_war", aliases=("the_war",),
    ),
    GameSpec(
        id="tide-of-iron", label="Tide of Iron: Strategy decks",
        engine=ModuleEngine(id="tide-of-iron", module="games.engine.tide_of_iron", seats=("allies", "axis"),
                            state_class="TideOfIronState", catalog_class="TideOfIronCatalog", has_bots=False,
                            example_game=_tide_of_iron_example),
        vocabulary="vocabulary.tide_of_iron",
    ),
)
for _spec in BUILT_IN:
    register(_spec)

__all__ = ["BUILT_IN", "GameSpec", "canonical", "games", "get", "ids", "register", "unregister"]
