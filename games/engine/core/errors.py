"""Engine errors: one constructor, `Error(message, *, code=None)`, and one class per case a caller handles.

Every error carries a stable machine `code` (rendered by the games app) and a message; a subclass has its
default code, which a raise site may make more specific (e.g. IllegalAction(..., code="not_your_turn")).
`required(value, what)` reads a value the game's flow has set by then (StateError if it is None).
"""
from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


class EngineError(Exception):
    code = "engine_error"

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        if code:
            self.code = code
        self.message = message or self.code
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class MalformedAction(EngineError):
    """An action of a bad shape, an unknown type or missing/mistyped fields."""

    code = "malformed_action"


class IllegalAction(EngineError):
    """Well-formed, but not allowed now (codes: illegal_action, not_your_turn, game_over)."""

    code = "illegal_action"


class SetupError(EngineError):
    """A game setup the catalog cannot play: unknown cards or nations, a card on the wrong side, a second
    copy of a general or leader in one arsenal deck, a bad scenario; also a malformed setup (its JSON, the
    armies, the options: code malformed_setup)."""

    code = "bad_setup"


class StateError(EngineError):
    """Not a serialised game state of this catalog (codes: bad_state, unknown_card)."""

    code = "bad_state"


def required(value: T | None, what: str) -> T:
    """`value`, which the game's own flow has set by now (a frame field an earlier stage filled in, the
    pending decision whose legal actions are asked for): a None there is a malformed state (StateError)."""
    if value is None:
        raise StateError(f"a malformed state: no {what}")
    return value
