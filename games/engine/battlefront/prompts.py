"""The prompt of every Battlefront decision kind (core.prompts; the API's BattlefrontDecision components are
built from it, and tests/engine/test_view_shape.py checks every prompt the engine asks against it)."""
from __future__ import annotations

from ..core.prompts import Schema, boolean, integer, mapping, prompt, string
from .setup import SEATS

PROMPT_SCHEMAS: dict[str, Schema] = {
    "deploy": prompt({
        "turn": integer(),
        "first": string("Who deploys first this turn (the coin flip).", enum=SEATS),
        "placed": mapping(integer(), "Front -> cards you assigned there this turn."),
        "opponent_passed": boolean("Two passes in a row end the deployment."),
    }),
    "discard": prompt({"excess": integer(), "hand_limit": integer()}),
}
