"""Writes of The War's cards: `the_war_load` upserts fixtures/the_war/ (cards.json + starters.json) by code.

Validated by vocabulary.the_war.parse_catalog (the rulebook's vocabulary, the provenance of every value);
merged with the rows like the other catalogs (cards.fixture_merge): an edit made in the admin is a local
override that the next load keeps and lists, a fixture change to anything not edited is applied,
`reset=True` writes the files as they are. Idempotent: only rows that differ are written. A change drops
the cached catalog responses (cards.services.catalog_cache_clear).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import ProtectedError

from cards.canonical import content_hash
from cards.fixture_merge import merge_plan
from cards.models import FixtureState
from cards.services import (
    CatalogInvalid,
    GameCardsLoadResult,
    TableChanges,
    catalog_cache_clear,
    fixture_state_record,
)
from cards.the_war.models import (
    LIST_FIELDS,
    RESOURCES,
    TheWarCard,
    TheWarStarter,
    TheWarStarterEntry,
    TheWarVersion,
)
from cards.the_war.selectors import the_war_dicts, the_war_version_hash
from vocabulary.the_war import FIXTURE_DIR, TheWarDataError, parse_catalog

THE_WAR_FIXTURE_DIR = FIXTURE_DIR
THE_WAR_TABLES = ("the_war_cards", "the_war_starters")
CARD_KEYS = (
    "code",
    "title",
    "category",
    "army",
    "number",
    "rarity",
    "cost",
    "resource_kind",
    "unit_type",
    "subtype",
    "line",
    "attack",
    "defense",
    "aa_attack",
    "bombing_power",
    "deck_hit",
    *LIST_FIELDS,
    "elimination",
    "location",
    "hero_mode",
    "provenance",
)


TheWarLoadResult = GameCardsLoadResult


def _card_row(raw: dict[str, Any]) -> dict[str, Any]:
    """A cards.json object with every field (TheWarCard.as_dict's shape), costs in depot/plant/fuel order."""
    row: dict[str, Any] = {}
    for key in CARD_KEYS:
        value = raw.get(key)
        if key in LIST_FIELDS or key == "cost":
            value = [dict(v) if isinstance(v, dict) else v for v in value or []]
        elif key == "location":
            value = bool(value)
        elif key == "provenance":
            value = dict(value)
        row[key] = value
    row["cost"].sort(key=lambda item: RESOURCES.index(item["resource"]))
    row["cost"] = [{"resource_cards_only": False, **item} for item in row["cost"]]
    return row


def the_war_validate(*, cards: Any, starters: Any) -> dict[str, list[dict[str, Any]]]:
    """The two documents as loader rows, or CatalogInvalid naming the first bad value."""
    try:
        parse_catalog(cards, starters)
    except TheWarDataError as exc:
        raise CatalogInvalid(str(exc), problems=[str(exc)]) from exc
    return {
        "the_war_cards": [_card_row(raw) for raw in cards["cards"]],
        "the_war_starters": [
            {
                "code": s["code"],
                "name": s["name"],
                "army": s["army"],
                "entries": [{"card": e["card"], "count": e["count"]} for e in s["entries"]],
                "provenance": dict(s["provenance"]),
            }
            for s in starters["starters"]
        ],
    }


def _current() -> dict[str, list[dict[str, Any]]]:
    rows = the_war_dicts()
    return {"the_war_cards": rows["cards"], "the_war_starters": rows["starters"]}


def _diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> TableChanges:
    before = {d["code"]: d for d in old}
    after = {d["code"]: d for d in new}
    changes = TableChanges(total=len(after))
    changes.created = sorted(set(after) - set(before))
    changes.deleted = sorted(set(before) - set(after))
    changes.updated = sorted(c for c in set(after) & set(before) if after[c] != before[c])
    return changes


def _positioned(rows: list[dict[str, Any]]) -> dict[str, tuple[int, dict[str, Any]]]:
    return {row["code"]: (i, row) for i, row in enumerate(rows, start=1)}


def _card_fields(row: dict[str, Any], position: int) -> dict[str, Any]:
    costs = {item["resource"]: item for item in row["cost"]}
    elimination = row.get("elimination") or {}
    out: dict[str, Any] = {
        "title": row["title"],
        "category": row["category"],
        "army": row["army"] or "",
        "number": row["number"] or "",
        "rarity": row["rarity"] or "",
        "resource_kind": row["resource_kind"] or "",
        "unit_type": row["unit_type"] or "",
        "subtype": row["subtype"] or "",
        "hero_mode": row["hero_mode"] or "",
        "elimination_deck_cards": elimination.get("deck_cards"),
        "elimination_breakthrough_power": elimination.get("breakthrough_power"),
        "location": row["location"],
        "provenance": row["provenance"],
        "position": position,
        **{k: row[k] for k in ("line", "attack", "defense", "aa_attack", "bombing_power", "deck_hit")},
        **{k: row[k] for k in LIST_FIELDS},
    }
    for resource in RESOURCES:
        item = costs.get(resource)
        out[f"cost_{resource}"] = item["amount"] if item else None
        out[f"cost_{resource}_resource_cards_only"] = bool(item and item.get("resource_cards_only"))
    return out


def _write(target: dict[str, list[dict[str, Any]]], current: dict[str, list[dict[str, Any]]]) -> None:
    """Write the rows (and positions) that differ; titles are unique: renamed cards are moved aside first."""
    old_cards = _positioned(current["the_war_cards"])
    new_cards = _positioned(target["the_war_cards"])
    todo = [(code, pos, row) for code, (pos, row) in new_cards.items() if old_cards.get(code) != (pos, row)]
    moved = [
        code for code, _, row in todo if code in old_cards and old_cards[code][1]["title"] != row["title"]
    ]
    for code in moved:
        TheWarCard.objects.filter(code=code).update(title=f"~{code}~ (renaming)")
    for code, pos, row in todo:
        card = TheWarCard.objects.filter(code=code).first() or TheWarCard(code=code)
        for name, value in _card_fields(row, pos).items():
            setattr(card, name, value)
        card.save()
    old_starters = _positioned(current["the_war_starters"])
    ids = dict(TheWarCard.objects.values_list("code", "id"))
    for code, (pos, row) in _positioned(target["the_war_starters"]).items():
        if old_starters.get(code) == (pos, row):
            continue
        missing = sorted({e["card"] for e in row["entries"]} - set(ids))
        if missing:
            raise CatalogInvalid(f"The War starter {code} lists cards that are not loaded: {missing}")
        starter, _ = TheWarStarter.objects.update_or_create(
            code=code,
            defaults={
                "name": row["name"],
                "army": row["army"],
                "provenance": row["provenance"],
                "position": pos,
            },
        )
        TheWarStarterEntry.objects.filter(starter=starter).delete()
        TheWarStarterEntry.objects.bulk_create(
            [
                TheWarStarterEntry(starter=starter, card_id=ids[e["card"]], count=e["count"], position=i)
                for i, e in enumerate(row["entries"])
            ]
        )


def _delete(changes: dict[str, TableChanges]) -> None:
    try:
        TheWarStarter.objects.filter(code__in=changes["the_war_starters"].deleted).delete()
        TheWarCard.objects.filter(code__in=changes["the_war_cards"].deleted).delete()
    except ProtectedError as exc:
        used = sorted({str(obj) for obj in exc.protected_objects})[:10]
        raise CatalogInvalid(
            f"cannot delete The War cards still in use: {used}", code="catalog_in_use"
        ) from exc


@transaction.atomic
def the_war_load(*, cards: Any, starters: Any, reset: bool = False, source: str = "") -> TheWarLoadResult:
    """Apply The War's cards.json and starters.json documents, keyed by code, in one transaction."""
    data = the_war_validate(cards=cards, starters=starters)
    fixture_hash = content_hash(data)
    state = FixtureState.objects.select_for_update().filter(name="the_war").first()
    current = _current()
    target, overrides, discarded = merge_plan(
        base=state.contents if state is not None else None, base_overrides=state.overrides if state else None,
        local=current, fixture=data, tables=THE_WAR_TABLES, reset=reset,
    )
    changes = {table: _diff(current[table], target[table]) for table in THE_WAR_TABLES}
    _delete(changes)
    _write(target, current)
    fixture_changed = state is None or state.content_hash != fixture_hash
    fixture_state_record(
        "the_war",
        state,
        source or str(THE_WAR_FIXTURE_DIR.name),
        fixture_hash,
        data,
        overrides,
        applied=fixture_changed or reset,
    )
    the_war_version_record()
    result = TheWarLoadResult(
        changes=changes, fixture_changed=fixture_changed, overrides=overrides, discarded=discarded
    )
    if result.changed or _moved(current, target):
        transaction.on_commit(catalog_cache_clear)
    return result


def _moved(current: dict[str, list[dict[str, Any]]], target: dict[str, list[dict[str, Any]]]) -> bool:
    return any([r["code"] for r in current[t]] != [r["code"] for r in target[t]] for t in THE_WAR_TABLES)


def the_war_version_record() -> TheWarVersion | None:
    """Record the rows as a new TheWarVersion when they differ from the last one (the change feed)."""
    rows = the_war_dicts()
    digest = the_war_version_hash(rows)
    last = TheWarVersion.objects.defer("contents").order_by("-id").first()
    if last is not None and last.content_hash == digest:
        return None
    return TheWarVersion.objects.create(content_hash=digest, contents=rows)


@transaction.atomic
def the_war_after_admin_edit() -> None:
    """After an edit in the admin: a new version for the change feed, and the cached catalog answers
    (The War ones included) are dropped."""
    the_war_version_record()
    transaction.on_commit(catalog_cache_clear)
