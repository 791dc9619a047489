"""API token authentication with an expiry (settings.AUTH_TOKEN_TTL_HOURS; 0 = tokens never expire).

An expired token answers 401 `token_expired` (in the common error shape); POST /api/auth/token/ then issues a
new one, and POST /api/auth/logout/ revokes the current one at any time.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from config.prepared import PreparedQuery


class TokenExpired(AuthenticationFailed):
    default_detail = "This token has expired: ask POST /api/auth/token/ for a new one."
    default_code = "token_expired"


class InvalidTicket(AuthenticationFailed):
    """A stream ticket (games.stream_ticket_apis) that is unknown, used, expired or for another game."""

    default_detail = "This stream ticket is unknown, used or expired: ask for a new one."
    default_code = "invalid_ticket"


def token_ttl() -> timedelta | None:
    hours = float(getattr(settings, "AUTH_TOKEN_TTL_HOURS", 0) or 0)
    return timedelta(hours=hours) if hours > 0 else None


def token_expired(token: Any) -> bool:
    ttl = token_ttl()
    return ttl is not None and token.created < timezone.now() - ttl


def _token_with_user() -> PreparedQuery:
    """The token by its key with its user (DRF's own query, compiled once: config.prepared)."""
    global _TOKEN_WITH_USER
    if _TOKEN_WITH_USER is None:
        from rest_framework.authtoken.models import Token

        _TOKEN_WITH_USER = PreparedQuery(
            lambda key: Token.objects.select_related("user").filter(key=key), sentinel="prepared-token-key"
        )
    return _TOKEN_WITH_USER


_TOKEN_WITH_USER: PreparedQuery | None = None


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """DRF's checks (unknown token, inactive user), then the expiry."""
        found = _token_with_user().rows(key)
        if not found:
            raise AuthenticationFailed(_("Invalid token."))
        token = found[0]
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        if token_expired(token):
            raise TokenExpired()
        return token.user, token
