"""Writes of Tide of Iron's Strategy cards: `tide_of_iron_load` upserts fixtures/tide_of_iron/ (cards.json +
decks.json) by code.

Validated by vocabulary.tide_of_iron.parse_catalog (the text's vocabulary, the provenance of every value);
merged with the rows like the other catalogs (cards.fixture_merge): an edit made in the admin is a local
override that the next load keeps and lists, a fixture change to anything not edited is applied,
`reset=True` writes the files as they are. Idempotent: only rows that differ are written. A change drops the
cached catalog responses (cards.services.catalog_cache_clear).
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
from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiDeckEntry, ToiScenario
from cards.tide_of_iron.selectors import toi_dicts
from vocabulary.tide_of_iron import FIXTURE_DIR, TideOfIronDataError, parse_catalog

TIDE_OF_IRON_FIXTURE_DIR = FIXTURE_DIR
TIDE_OF_IRON_TABLES = ("toi_decks", "toi_cards", "toi_scenarios")
CARD_KEYS = (
    "code",
    "title",
    "deck",
    "cost",
    "phase",
    "play_area",
    "keywords",
    "effects",
    "text",
    "provenance",
)


def tide_of_iron_validate(*, cards: Any, decks: Any) -> dict[str, list[dict[str, Any]]]:
    """The two documents as loader rows, or CatalogInvalid naming the first bad value."""
    try:
        parse_catalog(cards, decks)
    except TideOfIronDataError as exc:
        raise CatalogInvalid(str(exc), problems=[str(exc)]) from exc
    return {
        "toi_decks": [
            {
                "code": d["code"],
                "title": d["title"],
                "entries": [{"card": e["card"], "count": e["count"]} for e in d["entries"]],
                "provenance": dict(d["provenance"]),
            }
            for d in decks["decks"]
        ],
        "toi_cards": [
            {
                **{k: raw.get(k) for k in CARD_KEYS},
                "play_area": bool(raw.get("play_area", False)),
                "keywords": [dict(k) for k in raw.get("keywords") or []],
                "effects": [dict(e) for e in raw.get("effects") or []],
                "text": list(raw.get("text") or []),
            }
            for raw in cards["cards"]
        ],
        "toi_scenarios": [
            {
                "code": s["code"],
                "title": s["title"],
                "seats": dict(s["seats"]),
                "provenance": dict(s["provenance"]),
            }
            for s in decks.get("scenarios") or []
        ],
    }


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


def _write(target: dict[str, list[dict[str, Any]]], current: dict[str, list[dict[str, Any]]]) -> None:
    """Write the rows (and positions) that differ: decks, then cards, then the decks' entries, scenarios."""
    old_decks = _positioned(current["toi_decks"])
    new_decks = _positioned(target["toi_decks"])
    for code, (pos, row) in new_decks.items():
        if old_decks.get(code) != (pos, row):
            ToiDeck.objects.update_or_create(
                code=code, defaults={"title": row["title"], "provenance": row["provenance"], "position": pos}
            )
    deck_ids = dict(ToiDeck.objects.values_list("code", "id"))
    old_cards = _positioned(current["toi_cards"])
    for code, (pos, row) in _positioned(target["toi_cards"]).items():
        if old_cards.get(code) == (pos, row):
            continue
        if row["deck"] not in deck_ids:
            raise CatalogInvalid(f"Tide of Iron card {code} names a deck that is not loaded: {row['deck']}")
        card = ToiCard.objects.filter(code=code).first() or ToiCard(code=code)
        for name in ("title", "cost", "phase", "play_area", "keywords", "effects", "text", "provenance"):
            setattr(card, name, row[name])
        card.deck_id = deck_ids[row["deck"]]
        card.position = pos
        card.save()
    card_ids = dict(ToiCard.objects.values_list("code", "id"))
    for code, (_, row) in new_decks.items():
        if old_decks.get(code, (0, {}))[1].get("entries") == row["entries"]:
            continue
        missing = sorted({e["card"] for e in row["entries"]} - set(card_ids))
        if missing:
            raise CatalogInvalid(f"Tide of Iron deck {code} lists cards that are not loaded: {missing}")
        ToiDeckEntry.objects.filter(deck_id=deck_ids[code]).delete()
        ToiDeckEntry.objects.bulk_create(
            [
                ToiDeckEntry(
                    deck_id=deck_ids[code], card_id=card_ids[e["card"]], count=e["count"], position=i
                )
                for i, e in enumerate(row["entries"])
            ]
        )
    old_scenarios = _positioned(current["toi_scenarios"])
    for code, (pos, row) in _positioned(target["toi_scenarios"]).items():
        if old_scenarios.get(code) != (pos, row):
            ToiScenario.objects.update_or_create(
                code=code,
                defaults={
                    "title": row["title"],
                    "seats": row["seats"],
                    "provenance": row["provenance"],
                    "position": pos,
                },
            )


def _delete(changes: dict[str, TableChanges]) -> None:
    try:
        ToiScenario.objects.filter(code__in=changes["toi_scenarios"].deleted).delete()
        ToiDeckEntry.objects.filter(card__code__in=changes["toi_cards"].deleted).delete()
        ToiCard.objects.filter(code__in=changes["toi_cards"].deleted).delete()
        ToiDeck.objects.filter(code__in=changes["toi_decks"].deleted).delete()
    except ProtectedError as exc:
        used = sorted({str(obj) for obj in exc.protected_objects})[:10]
        raise CatalogInvalid(
            f"cannot delete Tide of Iron decks still holding cards: {used}", code="catalog_in_use"
        ) from exc


@transaction.atomic
def tide_of_iron_load(
    *, cards: Any, decks: Any, reset: bool = False, source: str = ""
) -> GameCardsLoadResult:
    """Apply Tide of Iron's cards.json and decks.json documents, keyed by code, in one transaction."""
    data = tide_of_iron_validate(cards=cards, decks=decks)
    fixture_hash = content_hash(data)
    state = FixtureState.objects.select_for_update().filter(name="tide_of_iron").first()
    current = toi_dicts()
    target, overrides, discarded = merge_plan(
        base=state.contents if state is not None else None, base_overrides=state.overrides if state else None,
        local=current, fixture=data, tables=TIDE_OF_IRON_TABLES, reset=reset,
    )
    changes = {table: _diff(current[table], target[table]) for table in TIDE_OF_IRON_TABLES}
    _delete(changes)
    _write(target, current)
    fixture_changed = state is None or state.content_hash != fixture_hash
    fixture_state_record(
        "tide_of_iron",
        state,
        source or str(TIDE_OF_IRON_FIXTURE_DIR.name),
        fixture_hash,
        data,
        overrides,
        applied=fixture_changed or reset,
    )
    result = GameCardsLoadResult(
        changes=changes, fixture_changed=fixture_changed, overrides=overrides, discarded=discarded
    )
    if result.changed:
        transaction.on_commit(catalog_cache_clear)
    return result


def tide_of_iron_after_admin_edit() -> None:
    """After an edit in the admin: the cached catalog answers are dropped."""
    transaction.on_commit(catalog_cache_clear)
