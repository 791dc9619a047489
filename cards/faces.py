"""Card faces as SVG, drawn from the card rows with Django templates (cards/templates/cards/faces/*.svg).

face_svg(kind, code) renders one face; faces are cached per catalog version (the CatalogVersion hash), so a
cached face costs one small query (the current version). Every estimated value carries a mark and the face
has a legend explaining it. Sizes are a playing card's 2.5 x 3.5 inches (viewBox 250 x 350).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string

from cards.models import ArsenalCard, Battlecard, ConflictCard
from cards.render_cache import RenderedCache
from cards.selectors import (
    arsenal_card_effective_max,
    arsenal_card_list,
    battlecard_list,
    catalog_version_current,
    conflict_card_list,
    get_by_code,
)

FACE_KINDS = ("arsenal", "conflict", "battlecard")
SIDE_COLOURS = {"allies": "#27466e", "axis": "#5b4a3a"}
KIND_LABELS = {"ground": "Ground unit", "air": "Air unit", "sea": "Sea unit"}
TARGETS = ("ground", "air", "sea")
EST_MARK = "*"


def _source(provenance: dict, *paths: str) -> str | None:
    """The source of the most specific of `paths` in the provenance (e.g. defense.air, then defense)."""
    for path in paths:
        item = (provenance or {}).get(path)
        if item is not None:
            return item.get("source") if isinstance(item, dict) else item
    return None


def estimated_in(provenance: dict, *paths: str) -> bool:
    return _source(provenance, *paths) == "estimated"


def wrap_lines(text: str, width: int, lines: int) -> list[str]:
    wrapped = textwrap.wrap(text or "", width=width) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: max(0, width - 1)].rstrip() + "…"
    return wrapped


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def ability_words(ability: dict) -> str:
    """An ability in words, e.g. "Autokill: max defense 4, target kinds ground, requires infantry yes"."""
    kind = str(ability.get("kind", "")).replace("_", " ").capitalize()
    params = [
        k.replace("_", " ") if isinstance(v, bool) else f"{k.replace('_', ' ')} {_words(v)}"
        for k, v in ability.items()
        if k != "kind" and v is not False
    ]
    return f"{kind}: {', '.join(params)}" if params else kind


@dataclass(frozen=True)
class Value:
    text: str
    estimated: bool


def _value(raw: Any, estimated: bool) -> Value:
    return Value("N/A" if raw is None else str(raw), estimated and raw is not None)


def arsenal_context(card: ArsenalCard) -> dict:
    prov = card.provenance or {}
    classes = [link.unit_class.code for link in card.class_links.all()]
    stats = []
    for stat in ("attack", "defense"):
        row = []
        for target in TARGETS:
            raw = getattr(card, f"{stat}_{target}")
            row.append(_value(raw, estimated_in(prov, f"{stat}.{target}", stat)))
        stats.append({"label": stat.title(), "values": row})
    abilities = []
    for ability in card.abilities or ():
        est = estimated_in(prov, f"abilities.{ability.get('kind')}", "abilities")
        abilities.append({"lines": wrap_lines(ability_words(ability), 42, 3), "estimated": est})
    effective_max = arsenal_card_effective_max(card)
    context = {
        "card": card,
        "name_lines": wrap_lines(card.name, 24, 2),
        "colour": SIDE_COLOURS.get(card.nation.side, "#444"),
        "nation": f"{card.nation.name} ({card.nation.code}), {card.nation.side}",
        "kind": Value(KIND_LABELS.get(card.kind, card.kind), estimated_in(prov, "kind")),
        "classes": Value(", ".join(classes) or "-", estimated_in(prov, "classes")),
        "stats": stats,
        "targets": [t.title() for t in TARGETS],
        "phase": Value(
            "never fires" if card.phase is None else f"Phase {card.phase}", estimated_in(prov, "phase")
        ),
        "abilities": abilities[:4],
        "points": Value(str(card.points), estimated_in(prov, "points")),
        "max": Value(
            "no limit" if effective_max is None else f"max {effective_max} per deck",
            estimated_in(prov, "max_per_deck"),
        ),
    }
    return with_legend(context)


def with_legend(context: dict) -> dict:
    def marked(value: Any) -> bool:
        if isinstance(value, Value):
            return value.estimated
        if isinstance(value, dict):
            return any(marked(v) for v in value.values())
        if isinstance(value, list):
            return any(marked(v) for v in value)
        return False

    context["any_estimated"] = any(marked(v) for k, v in context.items() if k != "card")
    context["mark"] = EST_MARK
    return context


def _forces(forces: dict) -> str:
    kinds = [k for k in TARGETS if (forces or {}).get(k)]
    text = " + ".join(kinds) or "none"
    if (forces or {}).get("non_artillery_ground_required"):
        text += " (non-artillery ground required)"
    optional = (forces or {}).get("optional_ground_classes") or []
    if optional:
        text += "; optional " + ", ".join(optional)
    return text


def conflict_context(card: ConflictCard) -> dict:
    prov = card.provenance or {}
    context = {
        "card": card,
        "name_lines": wrap_lines(card.name, 24, 2),
        "colour": "#6b2d2d",
        "action": Value(str(card.action_number), estimated_in(prov, "action_number")),
        "category": Value(card.category.replace("-", " "), estimated_in(prov, "category")),
        "effect": Value(card.effect.replace("-", " "), estimated_in(prov, "effect")),
        "text_lines": wrap_lines(card.text, 40, 9),
        "text_estimated": estimated_in(prov, "text"),
        "set": f"{card.card_set.code} · {card.theater.code}",
        "count": Value(f"{card.count} in set", estimated_in(prov, "count")),
    }
    context = with_legend(context)
    context["any_estimated"] = context["any_estimated"] or context["text_estimated"]
    return context


def battlecard_context(card: Battlecard) -> dict:
    prov = card.provenance or {}
    prerequisites = [
        f"{link.holder} must hold {link.requires.name}" for link in card.prerequisite_links.all()
    ]
    context = {
        "card": card,
        "name_lines": wrap_lines(card.name, 24, 2),
        "colour": "#3d5a2a",
        "action": Value(str(card.action_number), estimated_in(prov, "action_number")),
        "aggressor": Value(card.aggressor, estimated_in(prov, "aggressor")),
        "aggressor_forces": Value(_forces(card.aggressor_forces), estimated_in(prov, "aggressor_forces")),
        "defender_forces": Value(_forces(card.defender_forces), estimated_in(prov, "defender_forces")),
        "prerequisites": Value("; ".join(prerequisites) or "none", estimated_in(prov, "prerequisites")),
        "vp": Value(str(card.victory_points), estimated_in(prov, "victory_points")),
        "homeland": Value(
            f"homeland of {card.homeland_of.code}" if card.homeland_of else "",
            estimated_in(prov, "homeland_of"),
        ),
        "text_lines": wrap_lines(card.text, 40, 5),
        "set": f"{card.card_set.code} · {card.theater.code}",
    }
    context["aggressor_lines"] = wrap_lines(context["aggressor_forces"].text, 36, 2)
    context["defender_lines"] = wrap_lines(context["defender_forces"].text, 36, 2)
    context["prerequisite_lines"] = wrap_lines(context["prerequisites"].text, 40, 2)
    return with_legend(context)


BUILDERS = {
    "arsenal": (arsenal_card_list, arsenal_context, "cards/faces/arsenal.svg", "arsenal card"),
    "conflict": (conflict_card_list, conflict_context, "cards/faces/conflict.svg", "conflict card"),
    "battlecard": (battlecard_list, battlecard_context, "cards/faces/battlecard.svg", "battlecard"),
}


def render_face(kind: str, card) -> str:
    _, build, template, _ = BUILDERS[kind]
    return render_to_string(template, build(card))


_faces = RenderedCache()


def face_version() -> str:
    version = catalog_version_current()
    return version.content_hash if version is not None else ""


def face_svg(kind: str, code: str, *, version: str | None = None) -> str:
    """The SVG face of a card (NotFound for an unknown code), cached per catalog version."""
    version = face_version() if version is None else version
    queryset, _, _, what = BUILDERS[kind]
    return _faces.get_or_render(
        (kind, code), version, lambda: render_face(kind, get_by_code(queryset(), code, what=what))
    )


def faces_for(kind: str, cards) -> dict[str, str]:
    """Faces of many cards at once (cards already fetched), cached like face_svg."""
    version = face_version()
    return {
        card.code: _faces.get_or_render((kind, card.code), version, lambda card=card: render_face(kind, card))
        for card in cards
    }
