"""Spectator listeners: each open spectator stream is a row (games.models.SpectatorStream), so every worker
process and host counts the same spectators (games.spectator_selectors.spectator_count)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import SpectatorStream
from games.spectator_selectors import STREAM_GRACE


@transaction.atomic
def spectator_stream_open(*, game_id: Any, user: Any, timeout: float) -> int:
    """Count the user as a spectator of the game while his stream is open (at most its timeout and a
    minute: a process that dies leaves no spectator behind for longer). Rows of the game that expired are
    deleted now. Returns the row's id for spectator_stream_close."""
    now = timezone.now()
    SpectatorStream.objects.filter(game_id=game_id, expires_at__lte=now).delete()
    row = SpectatorStream.objects.create(
        game_id=game_id, user=user, expires_at=now + timedelta(seconds=timeout) + STREAM_GRACE
    )
    return row.pk


def spectator_stream_close(*, stream_id: int) -> None:
    """The stream ended (its end, its timeout, or the client went away): it no longer counts."""
    SpectatorStream.objects.filter(pk=stream_id).delete()
