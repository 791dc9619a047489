"""Battlecards' canonical fixture-shaped catalog dicts (pure Python, no Django).

`normalize_catalog(dicts)` takes the keyword arguments of vocabulary.battlecards.Catalog.from_dicts (as read
by read_fixture_dicts) and returns the same data with every known key present, defaults filled in, optional
lists in a stable order and unknown keys dropped. cards.battlecards.selectors.catalog_dicts() serialises the
database rows to exactly this shape, so `normalize_catalog(read_fixture_dicts(dir)) == catalog_dicts()` after
a load, and the content hash (cards.canonical.content_hash) of either is the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.canonical import CatalogDicts
from vocabulary.battlecards import KINDS

NATION_KEYS = ("code", "name", "side")
THEATER_KEYS = ("code", "name")
SET_KEYS = (
    "code",
    "name",
    "kind",
    "nation",
    "theater",
    "printed_points",
    "printed_cards",
    "notes",
    "entries",
)
ENTRY_KEYS = ("card", "printed_name", "count", "count_provenance", "count_note")
ARSENAL_KEYS = (
    "code",
    "name",
    "nation",
    "kind",
    "classes",
    "points",
    "max_per_deck",
    "attack",
    "defense",
    "phase",
    "abilities",
    "ukrainian",
    "variant_of",
    "provenance",
)
CONFLICT_KEYS = (
    "code",
    "name",
    "theater",
    "set",
    "count",
    "category",
    "action_number",
    "effect",
    "params",
    "text",
    "provenance",
)
BATTLECARD_KEYS = (
    "code",
    "name",
    "theater",
    "set",
    "count",
    "action_number",
    "aggressor",
    "aggressor_forces",
    "defender_forces",
    "prerequisites",
    "victory_points",
    "homeland_of",
    "emergency_deployment",
    "special_victory",
    "special_victory_text",
    "text",
    "provenance",
)
FORCES_KEYS = ("ground", "air", "sea", "non_artillery_ground_required", "optional_ground_classes")
PREREQUISITE_KEYS = ("holder", "battlecard")

KNOWN_KEYS = {
    "nations": NATION_KEYS,
    "theaters": THEATER_KEYS,
    "sets": SET_KEYS,
    "arsenal": ARSENAL_KEYS,
    "conflict_cards": CONFLICT_KEYS,
    "battlecards": BATTLECARD_KEYS,
}


def normalize_provenance(value: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    out = {}
    for key, item in (value or {}).items():
        if isinstance(item, Mapping):
            out[key] = {"source": item.get("source"), "note": item.get("note") or ""}
        else:
            out[key] = {"source": item, "note": ""}
    return out


def normalize_stats(value: Mapping[str, Any] | None) -> dict[str, int | None]:
    value = value or {}
    return {k: value.get(k) for k in KINDS}


def normalize_forces(value: Mapping[str, Any] | None) -> dict[str, Any]:
    value = value or {}
    return {
        "ground": bool(value.get("ground")),
        "air": bool(value.get("air")),
        "sea": bool(value.get("sea")),
        "non_artillery_ground_required": bool(value.get("non_artillery_ground_required", False)),
        "optional_ground_classes": list(value.get("optional_ground_classes") or ()),
    }


def normalize_nation(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"code": d["code"], "name": d["name"], "side": d["side"]}


def normalize_theater(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"code": d["code"], "name": d["name"]}


def normalize_set(d: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "code": d["code"],
        "name": d["name"],
        "kind": d["kind"],
        "nation": d.get("nation"),
        "theater": d.get("theater"),
        "printed_points": d.get("printed_points"),
        "printed_cards": d.get("printed_cards"),
        "notes": d.get("notes") or "",
        "entries": [
            {
                "card": e["card"],
                "printed_name": e.get("printed_name") or "",
                "count": e.get("count"),
                "count_provenance": e.get("count_provenance") or "seed",
                "count_note": e.get("count_note") or "",
            }
            for e in d.get("entries") or ()
        ],
    }


def normalize_arsenal(d: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "code": d["code"],
        "name": d["name"],
        "nation": d["nation"],
        "kind": d["kind"],
        "classes": list(d.get("classes") or ()),
        "points": int(d["points"]),
        "max_per_deck": d.get("max_per_deck"),
        "attack": normalize_stats(d.get("attack")),
        "defense": normalize_stats(d.get("defense")),
        "phase": d.get("phase"),
        "abilities": [dict(a) for a in d.get("abilities") or ()],
        "ukrainian": bool(d.get("ukrainian", False)),
        "variant_of": d.get("variant_of"),
        "provenance": normalize_provenance(d.get("provenance")),
    }


def normalize_conflict(d: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "code": d["code"],
        "name": d["name"],
        "theater": d["theater"],
        "set": d["set"],
        "count": int(d["count"]),
        "category": d["category"],
        "action_number": int(d["action_number"]),
        "effect": d["effect"],
        "params": dict(d.get("params") or {}),
        "text": d.get("text") or "",
        "provenance": normalize_provenance(d.get("provenance")),
    }


def normalize_battlecard(d: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "code": d["code"],
        "name": d["name"],
        "theater": d["theater"],
        "set": d["set"],
        "count": int(d.get("count", 1)),
        "action_number": int(d["action_number"]),
        "aggressor": d["aggressor"],
        "aggressor_forces": normalize_forces(d.get("aggressor_forces")),
        "defender_forces": normalize_forces(d.get("defender_forces")),
        "prerequisites": [
            {"holder": p["holder"], "battlecard": p["battlecard"]} for p in d.get("prerequisites") or ()
        ],
        "victory_points": int(d["victory_points"]),
        "homeland_of": d.get("homeland_of"),
        "emergency_deployment": bool(d.get("emergency_deployment", False)),
        "special_victory": d.get("special_victory"),
        "special_victory_text": d.get("special_victory_text") or "",
        "text": d.get("text") or "",
        "provenance": normalize_provenance(d.get("provenance")),
    }


NORMALIZERS = {
    "nations": normalize_nation,
    "theaters": normalize_theater,
    "sets": normalize_set,
    "arsenal": normalize_arsenal,
    "conflict_cards": normalize_conflict,
    "battlecards": normalize_battlecard,
}


def normalize_catalog(dicts: Mapping[str, Any]) -> CatalogDicts:
    """Every table normalised and sorted by code (the engine keys everything by code)."""
    return {
        table: sorted((normalize(d) for d in dicts.get(table) or ()), key=lambda d: d["code"])
        for table, normalize in NORMALIZERS.items()
    }


def _nested(table: str, d: Mapping[str, Any]):
    """(label, dict, known keys) of the nested objects of a fixture row."""
    if table == "sets":
        for e in d.get("entries") or ():
            yield "sets.entries", e, ENTRY_KEYS
    if table == "battlecards":
        for name in ("aggressor_forces", "defender_forces"):
            if isinstance(d.get(name), Mapping):
                yield f"battlecards.{name}", d[name], FORCES_KEYS
        for p in d.get("prerequisites") or ():
            yield "battlecards.prerequisites", p, PREREQUISITE_KEYS
    for item in (d.get("provenance") or {}).values():
        if isinstance(item, Mapping):
            yield f"{table}.provenance", item, ("source", "note")


def unknown_keys(dicts: Mapping[str, Any]) -> dict[str, list[str]]:
    """Keys present in the fixture data that the catalog does not store (reported by load_catalog)."""
    found: dict[str, set[str]] = {}
    for table, keys in KNOWN_KEYS.items():
        for d in dicts.get(table) or ():
            checks = [(table, d, keys), *_nested(table, d)]
            for label, obj, known in checks:
                extra = set(obj) - set(known)
                if extra:
                    found.setdefault(label, set()).update(extra)
    return {label: sorted(keys) for label, keys in found.items()}

