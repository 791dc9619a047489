"""Freeze the Battlecards card definitions a game uses into plain JSON (pure Python, no Django).

A Battlecards game stores `snapshot_dicts(catalog, codes)` at creation (games.catalog_snapshot rebuilds the
Catalog from it): the inverse of the `from_dict` constructors in vocabulary.battlecards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vocabulary.battlecards import (
    ArsenalCardDef,
    BattlecardDef,
    Catalog,
    ConflictCardDef,
    Forces,
)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def arsenal_to_dict(card: ArsenalCardDef) -> dict[str, Any]:
    return {
        "code": card.code,
        "name": card.name,
        "nation": card.nation,
        "kind": card.kind,
        "classes": list(card.classes),
        "points": card.points,
        "max_per_deck": card.max_per_deck,
        "attack": card.attack.to_dict(),
        "defense": card.defense.to_dict(),
        "phase": card.phase,
        "abilities": [a.to_dict() for a in card.abilities],
        "ukrainian": card.ukrainian,
        "variant_of": card.variant_of,
        "provenance": dict(card.provenance),
    }


def conflict_to_dict(card: ConflictCardDef) -> dict[str, Any]:
    return {
        "code": card.code,
        "name": card.name,
        "theater": card.theater,
        "set": card.set_code,
        "count": card.count,
        "category": card.category,
        "action_number": card.action_number,
        "effect": card.effect,
        "params": {k: _plain(v) for k, v in card.params},
        "text": card.text,
    }


def _forces_to_dict(forces: Forces) -> dict[str, Any]:
    return {
        "ground": forces.ground,
        "air": forces.air,
        "sea": forces.sea,
        "non_artillery_ground_required": forces.non_artillery_ground_required,
        "optional_ground_classes": list(forces.optional_ground_classes),
    }


def battlecard_to_dict(card: BattlecardDef) -> dict[str, Any]:
    return {
        "code": card.code,
        "name": card.name,
        "theater": card.theater,
        "set": card.set_code,
        "count": card.count,
        "action_number": card.action_number,
        "aggressor": card.aggressor,
        "aggressor_forces": _forces_to_dict(card.aggressor_forces),
        "defender_forces": _forces_to_dict(card.defender_forces),
        "prerequisites": [{"holder": p.holder, "battlecard": p.battlecard} for p in card.prerequisites],
        "victory_points": card.victory_points,
        "homeland_of": card.homeland_of,
        "emergency_deployment": card.emergency_deployment,
        "special_victory": card.special_victory,
        "special_victory_text": card.special_victory_text,
        "text": card.text,
        "provenance": dict(card.provenance),
    }


def snapshot_dicts(catalog: Catalog, codes: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """The keyword arguments of Catalog.from_dicts restricted to `codes` (and what they need).

    Battlecards named as prerequisites are pulled in too, so the snapshot always validates. Every
    nation and theater is kept (they are tiny); sets are left out (a game never reads them).
    """
    wanted = set(codes)
    battles = {c for c in wanted if c in catalog.battlecards}
    pending = list(battles)
    while pending:
        for prereq in catalog.battlecards[pending.pop()].prerequisites:
            if prereq.battlecard not in battles:
                battles.add(prereq.battlecard)
                pending.append(prereq.battlecard)
    return {
        "nations": [
            {"code": n.code, "name": n.name, "side": n.side}
            for n in sorted(catalog.nations.values(), key=lambda n: n.code)
        ],
        "theaters": [{"code": code, "name": name} for code, name in sorted(catalog.theaters.items())],
        "sets": [],
        "arsenal": [arsenal_to_dict(catalog.arsenal[c]) for c in sorted(wanted & set(catalog.arsenal))],
        "conflict_cards": [
            conflict_to_dict(catalog.conflict[c]) for c in sorted(wanted & set(catalog.conflict))
        ],
        "battlecards": [battlecard_to_dict(catalog.battlecards[c]) for c in sorted(battles)],
    }
