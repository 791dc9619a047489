"""Writes of the card catalog: loading the fixture data, recording catalog versions."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from cards.battlecards.canonical import normalize_catalog, unknown_keys
from cards.battlecards.selectors import catalog_dicts
from cards.canonical import CatalogDicts, content_hash
from cards.fixture_merge import flag_conflicts, merge_tables, overrides_of
from cards.models import (
    ArsenalCard,
    ArsenalCardClass,
    Battlecard,
    BattlecardPrerequisite,
    CardSet,
    CatalogVersion,
    ConflictCard,
    FixtureState,
    Nation,
    SetMembership,
    Theater,
    UnitClass,
    provenance_is_estimated,
)
from cards.selectors import catalog_cache_forget_token
from config.errors import DomainError
from vocabulary.battlecards import UNIT_CLASSES, Catalog, CatalogError

TABLES = ("nations", "theaters", "sets", "arsenal", "conflict_cards", "battlecards")


class CatalogInvalid(DomainError):
    status = 400
    code = "catalog_invalid"
    default_detail = "The catalog data is invalid."


@dataclass
class TableChanges:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    total: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.deleted)


@dataclass
class GameCardsLoadResult:
    """What loading one game's own cards (Battlefront, The War) did: per table, and the admin edits kept
    (`overrides`) or given up by --reset (`discarded`)."""

    changes: dict[str, TableChanges]
    fixture_changed: bool = True
    overrides: list[dict[str, Any]] = field(default_factory=list)
    discarded: list[dict[str, Any]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(c.changed for c in self.changes.values())


@dataclass
class CatalogLoadResult:
    content_hash: str
    version: CatalogVersion
    changes: dict[str, TableChanges]
    unknown_keys: dict[str, list[str]]
    version_created: bool
    fixture_changed: bool = True
    reset: bool = False
    overrides: list[dict[str, Any]] = field(default_factory=list)
    discarded: list[dict[str, Any]] = field(default_factory=list)

    @property
    def conflicts(self) -> list[dict[str, Any]]:
        return [o for o in self.overrides if o.get("conflict")]

    @property
    def changed(self) -> bool:
        return self.version_created or any(c.changed for c in self.changes.values())


def _check_references(data: CatalogDicts) -> None:
    """References the engine does not check but the database needs (FKs to theaters, sets, nations)."""
    nations = {n["code"] for n in data["nations"]}
    theaters = {t["code"] for t in data["theaters"]}
    sets = {s["code"] for s in data["sets"]}
    problems = []
    for s in data["sets"]:
        if s["nation"] is not None and s["nation"] not in nations:
            problems.append(f"set {s['code']}: unknown nation {s['nation']}")
        if s["theater"] is not None and s["theater"] not in theaters:
            problems.append(f"set {s['code']}: unknown theater {s['theater']}")
        cards = [e["card"] for e in s["entries"]]
        if len(cards) != len(set(cards)):
            problems.append(f"set {s['code']}: a card is listed twice")
    arsenal = {a["code"] for a in data["arsenal"]}
    for a in data["arsenal"]:
        if a["variant_of"] is not None and a["variant_of"] not in arsenal:
            problems.append(f"{a['code']}: variant_of names unknown arsenal card {a['variant_of']}")
    for table in ("conflict_cards", "battlecards"):
        for c in data[table]:
            if c["theater"] not in theaters:
                problems.append(f"{c['code']}: unknown theater {c['theater']}")
            if c["set"] not in sets:
                problems.append(f"{c['code']}: unknown set {c['set']}")
    for b in data["battlecards"]:
        if b["homeland_of"] is not None and b["homeland_of"] not in nations:
            problems.append(f"{b['code']}: homeland_of names unknown nation {b['homeland_of']}")
    for table in TABLES:
        codes = [d["code"] for d in data[table]]
        if len(codes) != len(set(codes)):
            dupes = sorted({c for c in codes if codes.count(c) > 1})
            problems.append(f"{table}: duplicate codes {dupes}")
    if problems:
        raise CatalogInvalid(
            "; ".join(problems[:20]) + (" ..." if len(problems) > 20 else ""), problems=problems
        )


def _diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> tuple[TableChanges, list[dict[str, Any]]]:
    before = {d["code"]: d for d in old}
    after = {d["code"]: d for d in new}
    changes = TableChanges(total=len(after))
    changes.created = sorted(set(after) - set(before))
    changes.deleted = sorted(set(before) - set(after))
    changes.updated = sorted(code for code in set(after) & set(before) if after[code] != before[code])
    todo = [after[code] for code in sorted(set(changes.created) | set(changes.updated))]
    return changes, todo


def _write_nations(rows: list[dict[str, Any]]) -> dict[str, Nation]:
    for d in rows:
        Nation.objects.update_or_create(code=d["code"], defaults={"name": d["name"], "side": d["side"]})
    return {n.code: n for n in Nation.objects.all()}


def _write_theaters(rows: list[dict[str, Any]]) -> dict[str, Theater]:
    for d in rows:
        Theater.objects.update_or_create(code=d["code"], defaults={"name": d["name"]})
    return {t.code: t for t in Theater.objects.all()}


def _write_sets(rows, nations, theaters) -> dict[str, CardSet]:
    for d in rows:
        CardSet.objects.update_or_create(
            code=d["code"],
            defaults={
                "name": d["name"],
                "kind": d["kind"],
                "nation": nations[d["nation"]] if d["nation"] else None,
                "theater": theaters[d["theater"]] if d["theater"] else None,
                "printed_points": d["printed_points"],
                "printed_cards": d["printed_cards"],
                "notes": d["notes"],
            },
        )
    return {s.code: s for s in CardSet.objects.all()}


def _write_arsenal(rows, nations) -> None:
    classes = {c.code: c for c in UnitClass.objects.all()}
    for d in rows:
        card, _ = ArsenalCard.objects.update_or_create(
            code=d["code"],
            defaults={
                "name": d["name"],
                "nation": nations[d["nation"]],
                "kind": d["kind"],
                "points": d["points"],
                "max_per_deck": d["max_per_deck"],
                "attack_ground": d["attack"]["ground"],
                "attack_air": d["attack"]["air"],
                "attack_sea": d["attack"]["sea"],
                "defense_ground": d["defense"]["ground"],
                "defense_air": d["defense"]["air"],
                "defense_sea": d["defense"]["sea"],
                "phase": d["phase"],
                "abilities": d["abilities"],
                "ukrainian": d["ukrainian"],
                "provenance": d["provenance"],
                "estimated": provenance_is_estimated(d["provenance"]),
            },
        )
        ArsenalCardClass.objects.filter(card=card).delete()
        ArsenalCardClass.objects.bulk_create(
            [
                ArsenalCardClass(card=card, unit_class=classes[c], position=i)
                for i, c in enumerate(d["classes"])
            ]
        )
    # Second pass: variants may name cards created later in the same load.
    for d in rows:
        ArsenalCard.objects.filter(code=d["code"]).update(variant_of_id=d["variant_of"])


def _write_memberships(rows, sets) -> None:
    cards = dict(ArsenalCard.objects.values_list("code", "id"))
    for d in rows:
        card_set = sets[d["code"]]
        SetMembership.objects.filter(card_set=card_set).delete()
        SetMembership.objects.bulk_create(
            [
                SetMembership(
                    card_set=card_set,
                    card_id=cards[e["card"]],
                    position=i,
                    printed_name=e["printed_name"],
                    count=e["count"],
                    count_provenance=e["count_provenance"],
                    count_note=e["count_note"],
                )
                for i, e in enumerate(d["entries"])
            ]
        )


def _write_conflict(rows, theaters, sets) -> None:
    for d in rows:
        ConflictCard.objects.update_or_create(
            code=d["code"],
            defaults={
                "name": d["name"],
                "theater": theaters[d["theater"]],
                "card_set": sets[d["set"]],
                "count": d["count"],
                "category": d["category"],
                "action_number": d["action_number"],
                "effect": d["effect"],
                "params": d["params"],
                "text": d["text"],
                "provenance": d["provenance"],
                "estimated": provenance_is_estimated(d["provenance"]),
            },
        )


def _write_battlecards(rows, theaters, sets, nations) -> None:
    for d in rows:
        Battlecard.objects.update_or_create(
            code=d["code"],
            defaults={
                "name": d["name"],
                "theater": theaters[d["theater"]],
                "card_set": sets[d["set"]],
                "count": d["count"],
                "action_number": d["action_number"],
                "aggressor": d["aggressor"],
                "aggressor_forces": d["aggressor_forces"],
                "defender_forces": d["defender_forces"],
                "victory_points": d["victory_points"],
                "homeland_of": nations[d["homeland_of"]] if d["homeland_of"] else None,
                "emergency_deployment": d["emergency_deployment"],
                "special_victory": d["special_victory"],
                "special_victory_text": d["special_victory_text"],
                "text": d["text"],
                "provenance": d["provenance"],
                "estimated": provenance_is_estimated(d["provenance"]),
            },
        )
    battlecards = {b.code: b for b in Battlecard.objects.all()}
    for d in rows:
        card = battlecards[d["code"]]
        BattlecardPrerequisite.objects.filter(battlecard=card).delete()
        BattlecardPrerequisite.objects.bulk_create(
            [
                BattlecardPrerequisite(
                    battlecard=card, requires=battlecards[p["battlecard"]], holder=p["holder"], position=i
                )
                for i, p in enumerate(d["prerequisites"])
            ]
        )


def catalog_validate(*, raw: Mapping[str, Any]) -> tuple[CatalogDicts, Catalog]:
    """Validate fixture dicts: the engine's schema (Catalog.from_dicts) plus the references the DB needs."""
    try:
        definitions = Catalog.from_dicts(**{table: raw.get(table) or [] for table in TABLES})
        data = normalize_catalog(raw)
    except CatalogError as exc:
        raise CatalogInvalid(str(exc)) from exc
    except KeyError as exc:
        raise CatalogInvalid(f"a catalog row lacks the required key {exc.args[0]!r}") from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise CatalogInvalid(f"malformed catalog data: {exc}") from exc
    _check_references(data)
    return data, definitions


@transaction.atomic
def catalog_load(*, raw: Mapping[str, Any], source: str = "", reset: bool = False) -> CatalogLoadResult:
    """Apply the fixture catalog to the rows, keyed by code, in one transaction, keeping local edits.

    The fixtures are merged three ways (cards.fixture_merge) with the rows and the fixture rows of the last
    load (FixtureState "catalog"): what the admin edited is kept as a local override, what the fixtures
    changed since the last load is applied, and a fixture change meeting an edited field keeps the edit and
    is reported as a conflict. `reset=True` (load_catalog --reset) writes the fixtures as they are. Only
    rows that differ are written, so a second load of the same data changes nothing. A new CatalogVersion is
    recorded whenever the resulting rows' content hash differs from the current version's.
    """
    data, _definitions = catalog_validate(raw=raw)
    fixture_hash = content_hash(data)
    state = FixtureState.objects.select_for_update().filter(name="catalog").first()
    current = catalog_dicts()
    base = None if reset else _catalog_base(state)
    discarded = overrides_of(local=current, fixture=data, tables=TABLES) if reset else []
    if base is None:
        target, overrides = data, []
    else:
        merged = merge_tables(base=base, local=current, fixture=data, tables=TABLES)
        target = normalize_catalog(merged.rows)
        overrides = flag_conflicts(
            merged.overrides, new=merged.conflict_keys, earlier=state.overrides if state else ()
        )
        if overrides:
            _check_merged(target)
    changes: dict[str, TableChanges] = {}
    todo: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        changes[table], todo[table] = _diff(current[table], target[table])

    for code in UNIT_CLASSES:
        UnitClass.objects.get_or_create(code=code)
    nations = _write_nations(todo["nations"])
    theaters = _write_theaters(todo["theaters"])
    sets = _write_sets(todo["sets"], nations, theaters)
    _write_arsenal(todo["arsenal"], nations)
    _write_memberships(todo["sets"], sets)
    _write_conflict(todo["conflict_cards"], theaters, sets)
    _write_battlecards(todo["battlecards"], theaters, sets, nations)

    try:
        BattlecardPrerequisite.objects.filter(battlecard__code__in=changes["battlecards"].deleted).delete()
        Battlecard.objects.filter(code__in=changes["battlecards"].deleted).delete()
        ConflictCard.objects.filter(code__in=changes["conflict_cards"].deleted).delete()
        ArsenalCard.objects.filter(code__in=changes["arsenal"].deleted).delete()
        CardSet.objects.filter(code__in=changes["sets"].deleted).delete()
        Theater.objects.filter(code__in=changes["theaters"].deleted).delete()
        Nation.objects.filter(code__in=changes["nations"].deleted).delete()
    except ProtectedError as exc:
        used = sorted({str(obj) for obj in exc.protected_objects})[:10]
        raise CatalogInvalid(
            f"cannot delete catalog rows still in use: {used}", code="catalog_in_use"
        ) from exc

    transaction.on_commit(catalog_cache_clear)
    new_hash = content_hash(target)
    version = CatalogVersion.objects.defer("contents").order_by("-id").first()
    version_created = version is None or version.content_hash != new_hash
    if version_created:
        kept = len({(o["table"], o["code"]) for o in overrides})
        note = f" + {kept} rows kept from the admin" if kept else ""
        version = CatalogVersion.objects.create(
            content_hash=new_hash,
            source=(source[: 200 - len(note)] + note),
            counts={table: len(target[table]) for table in TABLES},
            contents=target,
        )
    else:
        _backfill_contents(version, target)
    fixture_changed = state is None or state.content_hash != fixture_hash
    fixture_state_record(
        "catalog", state, source, fixture_hash, data, overrides, applied=fixture_changed or reset
    )
    return CatalogLoadResult(
        content_hash=new_hash,
        version=version,
        changes=changes,
        unknown_keys=unknown_keys(raw),
        version_created=version_created,
        fixture_changed=fixture_changed,
        reset=reset,
        overrides=overrides,
        discarded=discarded,
    )


def _catalog_base(state: FixtureState | None) -> CatalogDicts | None:
    """The fixture rows of the last load; before FixtureState existed every load wrote the fixtures as they
    were, so the newest version recorded by a load (not by the admin) is that base. None: nothing loaded."""
    if state is not None:
        return state.contents
    version = (
        CatalogVersion.objects.exclude(source__startswith="admin:")
        .exclude(contents__isnull=True)
        .order_by("-id")
        .first()
    )
    return version.contents if version is not None else None


def _check_merged(target: CatalogDicts) -> None:
    """The fixtures merged with local overrides must still be a valid catalog (e.g. no reference to a row
    deleted in the admin)."""
    try:
        Catalog.from_dicts(**target)
        _check_references(target)
    except (CatalogError, CatalogInvalid) as exc:
        detail = exc.detail if isinstance(exc, CatalogInvalid) else str(exc)
        raise CatalogInvalid(
            f"the fixture change does not fit the rows edited in the admin ({detail}); undo the edit in the "
            "admin or run load_catalog --reset to apply the fixtures as they are",
            code="catalog_override_conflict",
        ) from exc


def fixture_state_record(
    name: str,
    state: FixtureState | None,
    source: str,
    fixture_hash: str,
    contents: Mapping[str, Any],
    overrides: list[dict[str, Any]],
    *,
    applied: bool,
) -> FixtureState:
    """Record the fixture rows just applied (the next load's merge base) and the overrides kept."""
    now = timezone.now()
    if state is None:
        state = FixtureState(name=name, applied_at=now)
    if applied:
        state.applied_at = now
    state.source = source[:300]
    state.content_hash = fixture_hash
    state.contents = contents
    state.checked_at = now
    state.overrides = overrides
    state.save()
    return state


@transaction.atomic
def catalog_version_record(*, source: str) -> CatalogVersion:
    """Record the rows' current content as a new CatalogVersion if it differs (after edits in the admin)."""
    data = catalog_dicts()
    new_hash = content_hash(data)
    version = CatalogVersion.objects.select_for_update().defer("contents").order_by("-id").first()
    if version is not None and version.content_hash == new_hash:
        _backfill_contents(version, data)
        return version
    return CatalogVersion.objects.create(
        content_hash=new_hash,
        source=source,
        counts={table: len(data[table]) for table in TABLES},
        contents=data,
    )


def _backfill_contents(version: CatalogVersion, data: CatalogDicts) -> None:
    """Versions recorded before CatalogVersion.contents existed get their contents when seen again."""
    CatalogVersion.objects.filter(pk=version.pk, contents__isnull=True).update(contents=data)


@transaction.atomic
def catalog_after_admin_edit(*, source: str) -> CatalogVersion:
    """After an edit in the admin: refresh the derived `estimated` flags, record the new content version."""
    transaction.on_commit(catalog_cache_clear)
    for model in (ArsenalCard, ConflictCard, Battlecard):
        for pk, provenance, estimated in model.objects.values_list("pk", "provenance", "estimated"):
            if provenance_is_estimated(provenance) != estimated:
                model.objects.filter(pk=pk).update(estimated=not estimated)
    return catalog_version_record(source=source)


def catalog_cache_clear() -> None:
    """Drop every cached catalog response (in every worker): a new generation makes a new version token."""
    cache.set("catalog:generation", uuid.uuid4().hex, None)
    catalog_cache_forget_token()


# ------------------------------------------------------------------------------------------------ rulings


def rulings_after_admin_edit() -> None:
    """After an edit of a ruling in the admin: the cached rulings answers and bulk file are dropped (the
    rulings load: cards.battlecards.rulings)."""
    transaction.on_commit(catalog_cache_clear)
