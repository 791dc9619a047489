"""Registers the toy game (both layers, one id) for the tests that ask for it, and removes it after: it is
never in production settings."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.game_types import register_game_type, unregister_game_type

from .definition import SPEC, Toy


@pytest.fixture
def toy_game():
    registry.register(SPEC)
    definition = register_game_type(Toy())
    try:
        yield definition
    finally:
        unregister_game_type(SPEC.id)
        registry.unregister(SPEC.id)
