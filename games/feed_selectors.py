"""Reads of a user's feed (games.services.feed writes it): the paginated list for clients that poll and the
entries after a seq for the feed stream. A user reads only his own notifications."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.models import Notification

FEED_VIEWER = "feed"  # the stream reader of a user's feed (games.fastpath.stream: the key is feed:<user id>)


def notification_payload(row: Notification) -> dict[str, Any]:
    return {
        "seq": row.id,
        "kind": row.kind,
        "game": str(row.game_id),
        "data": row.data,
        "created_at": row.created_at.isoformat(),
    }


def feed_list(*, user: Any, since: int = 0, kind: str | None = None) -> QuerySet[Notification]:
    """The user's notifications, newest first; `since`: only those after this seq; `kind`: only this kind."""
    rows = Notification.objects.filter(user=user, id__gt=since).order_by("-id")
    if kind:
        rows = rows.filter(kind=kind)
    return rows


def feed_read_since(*, user_id: Any, since: int, limit: int = 1000) -> list[dict[str, Any]]:
    """For the feed stream: the user's notifications after seq `since`, oldest first (one query)."""
    rows = Notification.objects.filter(user_id=user_id, id__gt=since).order_by("id")[:limit]
    return [notification_payload(r) for r in rows]
