"""Reads of Battlecards' catalog rows as plain dicts: the canonical fixture shape of its tables
(cards.battlecards.canonical) and its rulings, what the bulk file, the catalog versions and the engine's
frozen Catalog are built from."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from cards.canonical import CatalogDicts
from cards.models import (
    ArsenalCard,
    ArsenalCardClass,
    Battlecard,
    BattlecardPrerequisite,
    CardSet,
    ConflictCard,
    Nation,
    Ruling,
    SetMembership,
    Theater,
)


def class_prefetch() -> Prefetch:
    return Prefetch(
        "class_links",
        queryset=ArsenalCardClass.objects.select_related("unit_class").order_by("position", "id"),
    )


def prerequisite_prefetch() -> Prefetch:
    return Prefetch(
        "prerequisite_links",
        queryset=BattlecardPrerequisite.objects.select_related("requires").order_by("position", "id"),
    )


def _provenance(value: Any) -> dict[str, dict[str, Any]]:
    return {
        k: {"source": v.get("source"), "note": v.get("note") or ""}
        if isinstance(v, dict)
        else {"source": v, "note": ""}
        for k, v in (value or {}).items()
    }


def catalog_dicts() -> CatalogDicts:
    """The catalog rows serialised to the canonical fixture shape (see cards.battlecards.canonical), sorted by
    code.

    A fixed number of queries whatever the size of the catalog.
    """
    nations = [{"code": n.code, "name": n.name, "side": n.side} for n in Nation.objects.order_by("code")]
    theaters = [{"code": t.code, "name": t.name} for t in Theater.objects.order_by("code")]
    sets = []
    for s in (
        CardSet.objects.select_related("nation", "theater")
        .prefetch_related(
            Prefetch(
                "memberships",
                queryset=SetMembership.objects.select_related("card").order_by("position", "id"),
            )
        )
        .order_by("code")
    ):
        sets.append(
            {
                "code": s.code,
                "name": s.name,
                "kind": s.kind,
                "nation": s.nation.code if s.nation else None,
                "theater": s.theater.code if s.theater else None,
                "printed_points": s.printed_points,
                "printed_cards": s.printed_cards,
                "notes": s.notes,
                "entries": [
                    {
                        "card": m.card.code,
                        "printed_name": m.printed_name,
                        "count": m.count,
                        "count_provenance": m.count_provenance,
                        "count_note": m.count_note,
                    }
                    for m in s.memberships.all()
                ],
            }
        )
    arsenal = []
    for c in (
        ArsenalCard.objects.select_related("nation").prefetch_related(class_prefetch()).order_by("code")
    ):
        arsenal.append(
            {
                "code": c.code,
                "name": c.name,
                "nation": c.nation.code,
                "kind": c.kind,
                "classes": [link.unit_class.code for link in c.class_links.all()],
                "points": c.points,
                "max_per_deck": c.max_per_deck,
                "attack": {"ground": c.attack_ground, "air": c.attack_air, "sea": c.attack_sea},
                "defense": {"ground": c.defense_ground, "air": c.defense_air, "sea": c.defense_sea},
                "phase": c.phase,
                "abilities": list(c.abilities or ()),
                "ukrainian": c.ukrainian,
                "variant_of": c.variant_of_id,
                "provenance": _provenance(c.provenance),
            }
        )
    conflict_cards = [
        {
            "code": c.code,
            "name": c.name,
            "theater": c.theater.code,
            "set": c.card_set.code,
            "count": c.count,
            "category": c.category,
            "action_number": c.action_number,
            "effect": c.effect,
            "params": dict(c.params or {}),
            "text": c.text,
            "provenance": _provenance(c.provenance),
        }
        for c in ConflictCard.objects.select_related("theater", "card_set").order_by("code")
    ]
    battlecards = [
        {
            "code": b.code,
            "name": b.name,
            "theater": b.theater.code,
            "set": b.card_set.code,
            "count": b.count,
            "action_number": b.action_number,
            "aggressor": b.aggressor,
            "aggressor_forces": b.aggressor_forces,
            "defender_forces": b.defender_forces,
            "prerequisites": [
                {"holder": p.holder, "battlecard": p.requires.code} for p in b.prerequisite_links.all()
            ],
            "victory_points": b.victory_points,
            "homeland_of": b.homeland_of.code if b.homeland_of else None,
            "emergency_deployment": b.emergency_deployment,
            "special_victory": b.special_victory,
            "special_victory_text": b.special_victory_text,
            "text": b.text,
            "provenance": _provenance(b.provenance),
        }
        for b in Battlecard.objects.select_related("theater", "card_set", "homeland_of")
        .prefetch_related(prerequisite_prefetch())
        .order_by("code")
    ]
    return {
        "nations": nations,
        "theaters": theaters,
        "sets": sets,
        "arsenal": arsenal,
        "conflict_cards": conflict_cards,
        "battlecards": battlecards,
    }


def ruling_dicts() -> list[dict[str, Any]]:
    """The rulings as rows (cards.battlecards.rulings.rulings_load's shape): texts, links and the cards they
    concern."""
    rulings = Ruling.objects.prefetch_related(
        Prefetch("arsenal_cards", queryset=ArsenalCard.objects.only("id", "code")),
        Prefetch("conflict_cards", queryset=ConflictCard.objects.only("id", "code")),
        Prefetch("battlecards", queryset=Battlecard.objects.only("id", "code")),
    ).order_by("position", "id")
    return [
        {
            "key": r.key,
            "source": r.source,
            "section": r.section,
            "number": r.number,
            "title": r.title,
            "question": r.question,
            "answer": r.answer,
            "estimated": r.estimated,
            "position": r.position,
            "links": r.links,
            "arsenal_cards": sorted(c.code for c in r.arsenal_cards.all()),
            "conflict_cards": sorted(c.code for c in r.conflict_cards.all()),
            "battlecards": sorted(c.code for c in r.battlecards.all()),
        }
        for r in rulings
    ]
