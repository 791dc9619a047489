"""Engine errors. Every error carries a stable `code` (rendered by the games app) and a message."""
from __future__ import annotations


class EngineError(Exception):
    code = "engine_error"

    def __init__(self, code: str | None = None, message: str = "") -> None:
        if code:
            self.code = code
        self.message = message or self.code
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class MalformedAction(EngineError):
    """Bad shape, unknown type or missing/mistyped fields."""

    code = "malformed_action"

    def __init__(self, message: str = "malformed action", code: str | None = None) -> None:
        super().__init__(code or "malformed_action", message)


class IllegalAction(EngineError):
    """Well-formed, but not allowed now (code may be more specific, e.g. not_your_turn)."""

    code = "illegal_action"

    def __init__(self, message: str = "illegal action", code: str | None = None) -> None:
        super().__init__(code or "illegal_action", message)
