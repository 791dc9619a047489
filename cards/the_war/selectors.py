"""Reads of The War's cards and starters: the API querysets and the rows in the loader's shape."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Prefetch, QuerySet, Value
from django.db.models.functions import Coalesce

from cards.canonical import content_hash
from cards.selectors import version_by_hash
from cards.the_war.models import TheWarCard, TheWarStarter, TheWarStarterEntry, TheWarVersion


def the_war_card_list() -> QuerySet[TheWarCard]:
    """Every card in file order, annotated with its total cost (`cost_sum`, for filters and ordering)."""
    total = Coalesce(F("cost_depot"), Value(0)) + Coalesce(F("cost_plant"), Value(0))
    total = total + Coalesce(F("cost_fuel"), Value(0))
    return TheWarCard.objects.annotate(cost_sum=total).order_by("position", "code")


def the_war_starter_list() -> QuerySet[TheWarStarter]:
    """Every starter with its entries and their cards: two queries whatever the number."""
    entries = TheWarStarterEntry.objects.select_related("card").order_by("position", "id")
    return TheWarStarter.objects.prefetch_related(Prefetch("entries", queryset=entries)).order_by(
        "position", "code"
    )


def the_war_card_row(card: TheWarCard) -> dict[str, Any]:
    return card.as_dict()


def the_war_starter_row(starter: TheWarStarter) -> dict[str, Any]:
    """A starter in the loader's shape (uses the prefetched entries)."""
    return {
        "code": starter.code,
        "name": starter.name,
        "army": starter.army,
        "entries": [{"card": e.card.code, "count": e.count} for e in starter.entries.all()],
        "provenance": dict(starter.provenance or {}),
    }


def the_war_dicts() -> dict[str, list[dict[str, Any]]]:
    """The cards and starters as the loader's rows, in file order (three queries whatever the size)."""
    return {
        "cards": [the_war_card_row(c) for c in TheWarCard.objects.order_by("position", "code")],
        "starters": [the_war_starter_row(s) for s in the_war_starter_list()],
    }


def the_war_version_hash(rows: dict[str, list[dict[str, Any]]] | None = None) -> str:
    """The content hash of The War's rows now (the `version` of the bulk file's `the_war` part)."""
    return content_hash(the_war_dicts() if rows is None else rows)


def the_war_bulk_section() -> dict[str, Any]:
    """The bulk file's `the_war` section: the rows and their version hash (cards.bulk)."""
    rows = the_war_dicts()
    return {"version": the_war_version_hash(rows), **rows}


def _changes(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    old = {row["code"]: row for row in before}
    new = {row["code"]: row for row in after}
    changed = {
        code: sorted(k for k in set(old[code]) | set(new[code]) if old[code].get(k) != new[code].get(k))
        for code in sorted(set(old) & set(new))
        if old[code] != new[code]
    }
    return {"added": sorted(set(new) - set(old)), "changed": changed, "removed": sorted(set(old) - set(new))}


def the_war_changes(*, since: str) -> dict[str, Any]:
    """What changed in The War's cards and starters from version `since` (a hash or a prefix of one)."""
    old = version_by_hash(TheWarVersion, since, noun="The War version")
    now = the_war_dicts()
    tables = {
        "cards": _changes(old.contents.get("cards", []), now["cards"]),
        "starters": _changes(old.contents.get("starters", []), now["starters"]),
    }
    return {
        "from_version": old.content_hash,
        "to_version": the_war_version_hash(now),
        "changed": any(t["added"] or t["changed"] or t["removed"] for t in tables.values()),
        "tables": tables,
    }
