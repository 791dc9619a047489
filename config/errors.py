"""The one domain error base of the project.

Services and selectors raise subclasses of DomainError; the single DRF exception handler
(config.exceptions.api_exception_handler) turns every error into one response shape:

    {"status": 409, "code": "stale_version", "detail": "human message", ...extra}
"""
from __future__ import annotations

from typing import Any


class DomainError(Exception):
    status: int = 400
    code: str = "invalid"
    default_detail: str = "The request could not be carried out."

    def __init__(self, detail: str | None = None, *, code: str | None = None, status: int | None = None,
                 **extra: Any) -> None:
        self.detail = detail or self.default_detail
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.extra = extra
        super().__init__(self.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "code": self.code, "detail": self.detail, **self.extra}


class ValidationFailed(DomainError):
    status = 400
    code = "invalid"
    default_detail = "Invalid input."


class NotAuthenticated(DomainError):
    """The request needs a signed-in user (the API: a token or a session; the site: its login page)."""

    status = 401
    code = "not_authenticated"
    default_detail = "Authentication credentials were not provided."


class NotFound(DomainError):
    status = 404
    code = "not_found"
    default_detail = "Not found."


class Forbidden(DomainError):
    status = 403
    code = "forbidden"
    default_detail = "You may not do this."


class Conflict(DomainError):
    status = 409
    code = "conflict"
    default_detail = "The resource changed; reload and try again."
