"""The toy game's Django-side definition (games.game_types.GameType), registered under the same id as its
pure spec (games.engine.core.registry.GameSpec): its options, frozen card snapshot and card definitions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.errors import ValidationFailed
from games.engine.core.engine import ModuleEngine
from games.engine.core.registry import GameSpec
from games.game_types import GameType

from . import engine


def _example(seed: int) -> tuple[Any, Any]:
    return engine.Catalog.from_dicts(cards=engine.CARDS), engine.GameSetup(seed)


SPEC = GameSpec(
    id="toy",
    label="Toy (two cards)",
    engine=ModuleEngine(id="toy", module="tests.toy_game.engine", seats=engine.SEATS, state_class="ToyState",
                        has_bots=False, example_game=_example),
)


class Toy(GameType):
    name = "toy"
    uses_decks = False
    live_play = False

    def options(self, data: Mapping[str, Any]) -> Any:
        if data:
            raise ValidationFailed("The toy game has no options.", code="invalid_options")
        return {}

    def live_snapshot(self) -> dict[str, Any]:
        return {"cards": [dict(c) for c in engine.CARDS]}

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return engine.GameSetup(seed)

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        return {c["code"]: dict(c) for c in engine.CARDS if c["code"] in codes}
