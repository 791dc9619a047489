"""Writes of Battlecards' rulings (fixtures/catalog/rulings.json): loaded by key, merged with the admin's
edits like the catalog (cards.services.catalog_load), each row with the arsenal cards, conflict cards and
battlecards its links resolve to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from cards.battlecards.selectors import ruling_dicts
from cards.canonical import content_hash
from cards.fixture_merge import flag_conflicts, merge_tables, overrides_of
from cards.models import ArsenalCard, Battlecard, ConflictCard, FixtureState, Ruling
from cards.services import catalog_cache_clear, fixture_state_record

RULING_LINK_KEYS = ("cards", "classes", "abilities", "effects", "conflict", "battles")


RULING_FIELDS = ("source", "section", "number", "title", "question", "answer", "estimated")


@dataclass
class RulingLoadResult:
    total: int
    created: list[str]
    deleted: list[str]
    unknown: list[str]
    updated: list[str] = field(default_factory=list)
    fixture_changed: bool = True
    overrides: list[dict[str, Any]] = field(default_factory=list)
    discarded: list[dict[str, Any]] = field(default_factory=list)


def _ruling_rows(rows: list[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The fixture rulings as rows (in order), each with the cards its links resolve to in the database."""
    arsenal = list(
        ArsenalCard.objects.prefetch_related("class_links__unit_class").only("id", "code", "abilities")
    )
    conflict = list(ConflictCard.objects.only("id", "code", "effect"))
    battles = set(Battlecard.objects.values_list("code", flat=True))
    arsenal_codes = {a.code for a in arsenal}
    conflict_codes = {c.code for c in conflict}
    unknown: list[str] = []
    out = []
    for position, row in enumerate(rows):
        links = {k: list(row.get("links", {}).get(k, [])) for k in RULING_LINK_KEYS}
        for key_name, known in (("cards", arsenal_codes), ("conflict", conflict_codes), ("battles", battles)):
            unknown.extend(f"{row['key']}: {code}" for code in links[key_name] if code not in known)
        classes, abilities = set(links["classes"]), set(links["abilities"])
        out.append(
            {
                "key": row["key"],
                **{name: row.get(name, "") for name in ("source", "section", "number", "title", "question")},
                "answer": row["answer"],
                "estimated": bool(row.get("estimated")),
                "position": position,
                "links": links,
                "arsenal_cards": sorted(
                    a.code
                    for a in arsenal
                    if a.code in links["cards"]
                    or classes & {link.unit_class.code for link in a.class_links.all()}
                    or abilities & {ab.get("kind") for ab in a.abilities or () if isinstance(ab, dict)}
                ),
                "conflict_cards": sorted(
                    c.code for c in conflict if c.code in links["conflict"] or c.effect in links["effects"]
                ),
                "battlecards": sorted(code for code in links["battles"] if code in battles),
            }
        )
    return out, unknown


@transaction.atomic
def rulings_load(*, rows: list[Mapping[str, Any]], reset: bool = False) -> RulingLoadResult:
    """Apply the rulings (fixtures/catalog/rulings.json) by key, keeping the edits made in the admin.

    A link names arsenal cards by code, unit class or ability kind, conflict cards by effect or code, and
    battlecards by code; the cards it resolves to are part of the row, so a catalog change that adds a card
    to a ruling is applied like a fixture change. Merged with the rows like the catalog (see catalog_load):
    a ruling edited in the admin (its texts or its cards) is kept, `reset=True` applies the file as it is.
    Codes that name no card are reported (not an error: a catalog loaded from another directory may lack
    them). Idempotent.
    """
    fixture, unknown = _ruling_rows(rows)
    fixture_hash = content_hash({"rulings": fixture})
    state = FixtureState.objects.select_for_update().filter(name="rulings").first()
    current = ruling_dicts()
    discarded = []
    if reset or state is None:
        target, overrides = fixture, []
        if reset:
            discarded = overrides_of(
                local={"rulings": current}, fixture={"rulings": fixture}, tables=["rulings"], key="key"
            )
    else:
        merged = merge_tables(
            base=state.contents, local={"rulings": current}, fixture={"rulings": fixture}, tables=["rulings"],
            key="key",
        )
        target = merged.rows["rulings"]
        overrides = flag_conflicts(merged.overrides, new=merged.conflict_keys, earlier=state.overrides)
    before = {r["key"]: r for r in current}
    after = {r["key"]: r for r in target}
    created = sorted(set(after) - set(before))
    deleted = sorted(set(before) - set(after))
    updated = sorted(k for k in set(after) & set(before) if after[k] != before[k])
    arsenal = dict(ArsenalCard.objects.values_list("code", "id"))
    conflict = dict(ConflictCard.objects.values_list("code", "id"))
    battles = dict(Battlecard.objects.values_list("code", "id"))
    for key in sorted(set(created) | set(updated)):
        row = after[key]
        ruling, _ = Ruling.objects.update_or_create(
            key=key,
            defaults={
                **{name: row[name] for name in RULING_FIELDS},
                "position": row["position"],
                "links": row["links"],
            },
        )
        ruling.arsenal_cards.set([arsenal[c] for c in row["arsenal_cards"] if c in arsenal])
        ruling.conflict_cards.set([conflict[c] for c in row["conflict_cards"] if c in conflict])
        ruling.battlecards.set([battles[c] for c in row["battlecards"] if c in battles])
    Ruling.objects.filter(key__in=deleted).delete()
    if created or updated or deleted:
        transaction.on_commit(catalog_cache_clear)  # cached rulings answers (cards.extra_apis) are dropped
    fixture_changed = state is None or state.content_hash != fixture_hash
    fixture_state_record(
        "rulings", state, "rulings.json", fixture_hash, {"rulings": fixture}, overrides,
        applied=fixture_changed or reset,
    )
    return RulingLoadResult(
        total=len(target),
        created=created,
        deleted=deleted,
        unknown=unknown,
        updated=updated,
        fixture_changed=fixture_changed,
        overrides=overrides,
        discarded=discarded,
    )
