"""Stream tickets: a short-lived, single-use secret that lets `EventSource` on another origin open one game's
event stream without a header (a browser's EventSource sends none, and cookies only to the same site).

An authenticated user asks for a ticket for one game (POST /api/games/{id}/events/stream-ticket/); the stream
(GET .../events/stream/?ticket=...) redeems it once, within GAMES_STREAM_TICKET_SECONDS, as that user and for
that game only. The API token never goes into a URL (proxies and browser histories log URLs): a ticket that
leaks is worth one stream of one game for a minute, and only if nobody used it yet.

Tickets live in the shared cache (CACHE_URL), so any worker redeems a ticket another issued. Redeeming is a
get then a delete whose answer decides: of two requests racing with one ticket, only the one whose delete
removed the key gets the stream.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games import selectors

KEY = "stream_ticket:{}"


def _ttl() -> int:
    return max(1, int(getattr(settings, "GAMES_STREAM_TICKET_SECONDS", 60)))


def stream_ticket_issue(*, user: Any, game_id: Any) -> dict[str, Any]:
    """A ticket for `user`'s stream of one game; refused (404/403) unless the user may follow it now."""
    game, _seat = selectors.game_seat_for_events(game_id=game_id, user=user)
    ticket = secrets.token_urlsafe(32)
    cache.set(KEY.format(ticket), {"user": user.pk, "game": str(game.pk)}, timeout=_ttl())
    return {"ticket": ticket, "game": str(game.pk), "expires_in": _ttl()}


def stream_ticket_redeem(*, ticket: str, game_id: Any) -> int | None:
    """The id of the user a ticket was issued to, once: None when it is unknown, used, expired or another
    game's (an unknown game's ticket is used up all the same)."""
    if not ticket or len(ticket) > 100:
        return None
    key = KEY.format(ticket)
    held = cache.get(key)
    if held is None or not cache.delete(key):
        return None
    return held["user"] if held["game"] == str(game_id) else None
