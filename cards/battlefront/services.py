"""Writes of the Battlefront cards: `battlefront_load` upserts fixtures/battlefront/cards.json by code.

Separate from cards.services.catalog_load (the Battlecards catalog and its CatalogVersion hash are not
touched); load_catalog calls both. Idempotent: only rows that differ are written, so a second load changes
nothing; rows whose codes vanished from the file are deleted. A change drops the cached catalog responses.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError

from cards.battlefront.selectors import (
    battlefront_card_dict,
    battlefront_card_list,
    battlefront_special_use_dict,
    battlefront_special_use_list,
)
from cards.canonical import content_hash
from cards.fixture_merge import flag_conflicts, merge_tables, overrides_of
from cards.models import (
    BATTLEFRONT_FORCE_MAX,
    BATTLEFRONT_FORCE_MIN,
    BATTLEFRONT_NATIONALITIES,
    BATTLEFRONT_OPTIONAL_RULE_CHOICES,
    BATTLEFRONT_TYPES,
    BattlefrontCard,
    BattlefrontCardAbility,
    BattlefrontSpecialUse,
    BattlefrontSpecialUseAbility,
    FixtureState,
    battlefront_ability_problem,
)
from cards.services import (
    CatalogInvalid,
    GameCardsLoadResult,
    TableChanges,
    catalog_cache_clear,
    fixture_state_record,
)

BATTLEFRONT_FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "battlefront" / "cards.json"
BATTLEFRONT_TABLES = ("battlefront_cards", "battlefront_special_uses")


BattlefrontLoadResult = GameCardsLoadResult


def _force_problem(where: str, force: Any, *, required: bool) -> str | None:
    if force is None:
        return f"{where}: force is required" if required else None
    if not isinstance(force, int) or isinstance(force, bool):
        return f"{where}: force must be a whole number"
    if not BATTLEFRONT_FORCE_MIN <= force <= BATTLEFRONT_FORCE_MAX:
        return f"{where}: force {force} is outside {BATTLEFRONT_FORCE_MIN}-{BATTLEFRONT_FORCE_MAX}"
    return None


def _text_problems(where: str, row: Mapping[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [f"{where}: {key} must be a string" for key in keys if not isinstance(row.get(key), str)]


def _ability_problems(where: str, abilities: Any) -> list[str]:
    if not isinstance(abilities, list):
        return [f"{where}: abilities must be a list"]
    return [
        f"{where}: ability #{i}: {problem}"
        for i, ability in enumerate(abilities)
        if (problem := battlefront_ability_problem(ability)) is not None
    ]


def _card_problems(row: Any, *, special: bool) -> list[str]:
    if not isinstance(row, dict):
        return ["a card must be an object"]
    where = str(row.get("code"))
    problems = _text_problems(where, row, ("code", "name", "type", "notes"))
    card_type = row.get("type")
    if special and card_type != "X":
        problems.append(f"{where}: a Special card has type X")
    if not special and (card_type not in BATTLEFRONT_TYPES or card_type == "X"):
        problems.append(f"{where}: unknown card type {card_type!r}")
    if special and row.get("force") is not None:
        problems.append(f"{where}: a Special card has no force of its own")
    elif (problem := _force_problem(where, row.get("force"), required=not special)) is not None:
        problems.append(problem)
    rule = row.get("optional_rule", "")
    if rule not in ("", *dict(BATTLEFRONT_OPTIONAL_RULE_CHOICES)):
        problems.append(f"{where}: unknown optional_rule {rule!r}")
    return problems + _ability_problems(where, row.get("abilities"))


def _use_problems(row: Any) -> list[str]:
    if not isinstance(row, dict):
        return ["a special use must be an object"]
    where = str(row.get("code"))
    problems = _text_problems(where, row, ("code", "name", "text"))
    nationality = row.get("nationality")
    if nationality not in BATTLEFRONT_NATIONALITIES:
        problems.append(f"{where}: unknown nationality {nationality!r}")
    elif row.get("nationality_name", BATTLEFRONT_NATIONALITIES[nationality]) != BATTLEFRONT_NATIONALITIES[
        nationality
    ]:
        problems.append(f"{where}: {nationality} is {BATTLEFRONT_NATIONALITIES[nationality]}")
    if row.get("type") is not None and (row["type"] not in BATTLEFRONT_TYPES or row["type"] == "X"):
        problems.append(f"{where}: unknown card type {row['type']!r}")
    if (problem := _force_problem(where, row.get("force"), required=False)) is not None:
        problems.append(problem)
    return problems + _ability_problems(where, row.get("abilities"))


def battlefront_validate(*, raw: Any) -> dict[str, list[dict[str, Any]]]:
    """The fixture's rows, normalised (each with its printed `position`); or CatalogInvalid (problems)."""
    if not isinstance(raw, dict) or any(
        not isinstance(raw.get(key), list) for key in ("cards", "special_cards", "special_uses")
    ):
        raise CatalogInvalid("The Battlefront file needs the lists cards, special_cards and special_uses.")
    problems = [p for row in raw["cards"] for p in _card_problems(row, special=False)]
    problems += [p for row in raw["special_cards"] for p in _card_problems(row, special=True)]
    problems += [p for row in raw["special_uses"] for p in _use_problems(row)]
    for table in ("cards+special_cards", "special_uses"):
        rows = raw["special_uses"] if table == "special_uses" else raw["cards"] + raw["special_cards"]
        codes = [r.get("code") for r in rows if isinstance(r, dict)]
        dupes = sorted({str(c) for c in codes if codes.count(c) > 1})
        if dupes:
            problems.append(f"battlefront {table}: duplicate codes {dupes}")
    if problems:
        raise CatalogInvalid(
            "; ".join(problems[:20]) + (" ..." if len(problems) > 20 else ""), problems=problems
        )
    cards = [
        {**_card_row(row, special=False), "position": i} for i, row in enumerate(raw["cards"], start=1)
    ]
    cards += [
        {**_card_row(row, special=True), "position": i}
        for i, row in enumerate(raw["special_cards"], start=len(cards) + 1)
    ]
    uses = [{**_use_row(row), "position": i} for i, row in enumerate(raw["special_uses"], start=1)]
    return {"battlefront_cards": cards, "battlefront_special_uses": uses}


def _card_row(row: Mapping[str, Any], *, special: bool) -> dict[str, Any]:
    out = {k: row[k] for k in ("code", "name", "type", "notes")}
    out["force"] = row.get("force")
    out["abilities"] = [dict(a) for a in row.get("abilities") or ()]
    if special or row.get("optional_rule"):
        out["optional_rule"] = row.get("optional_rule", "")
    return out


def _use_row(row: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: row[k] for k in ("code", "nationality", "name", "text")}
    out["nationality_name"] = BATTLEFRONT_NATIONALITIES[row["nationality"]]
    out["type"] = row.get("type")
    out["force"] = row.get("force")
    out["abilities"] = [dict(a) for a in row.get("abilities") or ()]
    return out


def _current() -> dict[str, list[dict[str, Any]]]:
    return {
        "battlefront_cards": [
            {**battlefront_card_dict(c), "position": c.position} for c in battlefront_card_list()
        ],
        "battlefront_special_uses": [
            {**battlefront_special_use_dict(u), "position": u.position}
            for u in battlefront_special_use_list()
        ],
    }


def _diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> tuple[TableChanges, list[dict[str, Any]]]:
    before = {d["code"]: d for d in old}
    after = {d["code"]: d for d in new}
    changes = TableChanges(total=len(after))
    changes.created = sorted(set(after) - set(before))
    changes.deleted = sorted(set(before) - set(after))
    changes.updated = sorted(c for c in set(after) & set(before) if after[c] != before[c])
    return changes, [after[c] for c in sorted(set(changes.created) | set(changes.updated))]


def _ability_fields(ability: Mapping[str, Any], position: int) -> dict[str, Any]:
    return {
        "position": position,
        "kind": ability["kind"],
        "card_type": ability.get("type") or "",
        "wording": ability.get("wording") or "",
        "count": ability.get("count"),
    }


def _write_cards(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        card, _ = BattlefrontCard.objects.update_or_create(
            code=row["code"],
            defaults={
                "name": row["name"],
                "card_type": row["type"],
                "force": row["force"],
                "notes": row["notes"],
                "is_special": row["type"] == "X",
                "optional_rule": row.get("optional_rule", ""),
                "position": row["position"],
            },
        )
        BattlefrontCardAbility.objects.filter(card=card).delete()
        BattlefrontCardAbility.objects.bulk_create(
            [
                BattlefrontCardAbility(card=card, **_ability_fields(a, i))
                for i, a in enumerate(row["abilities"])
            ]
        )


def _write_uses(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        use, _ = BattlefrontSpecialUse.objects.update_or_create(
            code=row["code"],
            defaults={
                "nationality": row["nationality"],
                "name": row["name"],
                "card_type": row["type"] or "",
                "force": row["force"],
                "text": row["text"],
                "position": row["position"],
            },
        )
        BattlefrontSpecialUseAbility.objects.filter(special_use=use).delete()
        BattlefrontSpecialUseAbility.objects.bulk_create(
            [
                BattlefrontSpecialUseAbility(special_use=use, **_ability_fields(a, i))
                for i, a in enumerate(row["abilities"])
            ]
        )


@transaction.atomic
def battlefront_load(*, raw: Any, reset: bool = False) -> BattlefrontLoadResult:
    """Apply the Battlefront cards and special uses of a fixture dict, keyed by code, in one transaction.

    Merged with the rows like the Battlecards catalog (cards.services.catalog_load): a row edited in the
    admin is kept (FixtureState "battlefront" holds the file as last loaded), a change of the file to
    anything not edited is applied, a change meeting an edit keeps the edit and is reported as a conflict;
    `reset=True` writes the file as it is.
    """
    data = battlefront_validate(raw=raw)
    fixture_hash = content_hash(data)
    state = FixtureState.objects.select_for_update().filter(name="battlefront").first()
    current = _current()
    discarded = overrides_of(local=current, fixture=data, tables=BATTLEFRONT_TABLES) if reset else []
    if reset or state is None:
        target, overrides = data, []
    else:
        merged = merge_tables(base=state.contents, local=current, fixture=data, tables=BATTLEFRONT_TABLES)
        target = merged.rows
        overrides = flag_conflicts(merged.overrides, new=merged.conflict_keys, earlier=state.overrides)
    changes: dict[str, TableChanges] = {}
    todo: dict[str, list[dict[str, Any]]] = {}
    for table in BATTLEFRONT_TABLES:
        changes[table], todo[table] = _diff(current[table], target[table])
    try:
        BattlefrontCard.objects.filter(code__in=changes["battlefront_cards"].deleted).delete()
        BattlefrontSpecialUse.objects.filter(code__in=changes["battlefront_special_uses"].deleted).delete()
    except ProtectedError as exc:
        used = sorted({str(obj) for obj in exc.protected_objects})[:10]
        raise CatalogInvalid(
            f"cannot delete Battlefront rows still in use: {used}", code="catalog_in_use"
        ) from exc
    # positions are not unique, so rows can move in any order
    _write_cards(todo["battlefront_cards"])
    _write_uses(todo["battlefront_special_uses"])
    fixture_changed = state is None or state.content_hash != fixture_hash
    fixture_state_record(
        "battlefront", state, str(BATTLEFRONT_FIXTURE.name), fixture_hash, data, overrides,
        applied=fixture_changed or reset,
    )
    result = BattlefrontLoadResult(
        changes=changes, fixture_changed=fixture_changed, overrides=overrides, discarded=discarded
    )
    if result.changed:
        transaction.on_commit(catalog_cache_clear)
    return result


def battlefront_after_admin_edit() -> None:
    """After an edit in the admin: the cached catalog answers (Battlefront ones included) are dropped."""
    transaction.on_commit(catalog_cache_clear)
