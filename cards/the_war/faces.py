"""The War's card faces as SVG (cards/templates/cards/faces/the_war.svg), drawn from the card rows.

Like cards.faces for the Battlecards catalog: a playing card's 2.5 x 3.5 inches (viewBox 250 x 350); every
value whose provenance is estimated carries a mark (*) and the face has a legend explaining it. Faces are
cached per catalog cache token (cards.selectors.catalog_cache_token), which changes with every load or admin
edit, The War's too.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from cards.faces import EST_MARK, Value, estimated_in, with_legend, wrap_lines
from cards.render_cache import RenderedCache
from cards.selectors import catalog_cache_token, get_by_code
from cards.the_war.models import TheWarCard
from cards.the_war.selectors import the_war_card_list

ARMY_COLOURS = {"red-army": "#6e1b1b", "wehrmacht": "#4a4a4a", "": "#5b4a3a"}
ARMY_NAMES = {"red-army": "Red Army", "wehrmacht": "Wehrmacht", "": "no army"}
RESOURCE_LETTERS = {"depot": "D", "plant": "P", "fuel": "F"}


def _words(value: str) -> str:
    return (value or "").replace("-", " ")


def _costs(items: list[dict[str, Any]]) -> str:
    """ "1D 5P 1F"; an amount that must come from resource cards only is followed by "!" (the red symbol)."""
    return " ".join(
        f"{i['amount']}{RESOURCE_LETTERS[i['resource']]}{'!' if i.get('resource_cards_only') else ''}"
        for i in items
    )


def _effect_words(effect: dict[str, Any]) -> str:
    target = effect.get("target") or {}
    who = " ".join(
        [
            target.get("side", "own"),
            *map(_words, target.get("subtypes") or target.get("unit_types") or ["units"]),
        ]
    )
    kind = effect["kind"]
    if kind == "modify":
        return f"{effect.get('attack', 0):+d}/{effect.get('defense', 0):+d} to {who}"
    if kind == "forbid":
        return f"{who}: no {_words(effect.get('action', ''))}"
    if kind == "grant-feature":
        return f"{who} gain {_words(effect.get('feature', ''))}"
    if kind in ("damage", "deck-hit"):
        return f"{_words(kind)} {effect.get('amount')} ({who})"
    return f"{_words(kind)} ({who})"


def the_war_context(card: TheWarCard) -> dict:
    prov = card.provenance or {}

    def val(text: Any, *paths: str) -> Value:
        return Value(
            "-" if text in (None, "") else str(text), text not in (None, "") and estimated_in(prov, *paths)
        )

    kind = _words(card.subtype) or _words(card.resource_kind and f"{card.resource_kind} resource") or ""
    params = []
    for name, label in (("aa_attack", "AA"), ("bombing_power", "bombing"), ("deck_hit", "deck hit")):
        if getattr(card, name) is not None:
            params.append(val(f"{label} {getattr(card, name)}", name))
    if card.attack_cost:
        params.append(val(f"attack costs {_costs(card.attack_cost)}", "attack_cost"))
    if card.yields:
        params.append(val(f"yields {_costs(card.yields)}", "yields"))
    if card.maintenance:
        params.append(val(f"upkeep {_costs(card.maintenance)}", "maintenance"))
    elimination = card.elimination() or {}
    if elimination:
        parts = [f"{elimination['deck_cards']} deck cards"] if "deck_cards" in elimination else []
        parts += (
            [f"breakthrough {elimination['breakthrough_power']}"]
            if "breakthrough_power" in elimination
            else []
        )
        params.append(val("eliminated by " + " or ".join(parts), "elimination", "elimination.deck_cards"))
    traits = [val(_words(f), f"features.{f}", "features") for f in card.features or ()]
    traits += [val(_words(r), f"restrictions.{r}", "restrictions") for r in card.restrictions or ()]
    traits += [
        val(
            f"+{b.get('attack', 0)}/{b.get('defense', 0)} vs {', '.join(map(_words, b['against']))}",
            "bonuses",
        )
        for b in card.bonuses or ()
    ]
    traits += [
        val(_words(a["kind"]) + (f" {a['value']}" if a.get("value") else ""), "abilities")
        for a in card.abilities or ()
    ]
    traits += [val(_effect_words(e), f"effects.{i}", "effects") for i, e in enumerate(card.effects or ())]
    lines = []
    for i, line in enumerate(card.text or ()):
        est = estimated_in(prov, f"text.{i}", "text")
        lines += [Value(part, est) for part in wrap_lines(line, 40, 2)]
    footer = " · ".join(x for x in (card.number, card.rarity, "The War") if x)
    context = {
        "card": {"code": card.code, "name": card.title},
        "name_lines": wrap_lines(card.title, 24, 2),
        "title_estimated": estimated_in(prov, "title"),
        "colour": ARMY_COLOURS.get(card.army, "#5b4a3a"),
        "army": val(ARMY_NAMES.get(card.army, card.army), "army"),
        "category": val(_words(card.category), "category"),
        "kind": val(kind, "subtype", "resource_kind") if kind else None,
        "line": val(f"line {card.line}", "line") if card.line else None,
        "cost_label": "cost (depot plant fuel"
        + (
            "; ! only from resource cards)"
            if any(i["resource_cards_only"] for i in card.cost_list())
            else ")"
        ),
        "cost": val(_costs(card.cost_list()) or "free", "cost", "cost.depot", "cost.plant", "cost.fuel"),
        "attack": val(card.attack, "attack") if card.attack is not None else None,
        "defense": val(card.defense, "defense") if card.defense is not None else None,
        "params": params[:4],
        "traits": traits[:4],
        "text_lines": lines[:6],
        "footer": footer,
        "hero": val(f"as {_words(card.hero_mode)}", "hero_mode") if card.hero_mode else None,
    }
    # the blocks follow each other down the card: parameters, traits, then the text (up to the footer)
    top = 198 if card.attack is not None or card.defense is not None else 140
    context["params_y"] = top
    context["traits_y"] = top + 11 * len(context["params"]) + (6 if context["params"] else 0)
    context["text_y"] = context["traits_y"] + 11 * len(context["traits"]) + 6
    context["text_lines"] = context["text_lines"][: max(0, (318 - context["text_y"]) // 9 + 1)]
    context = with_legend(context)
    context["any_estimated"] = context["any_estimated"] or context["title_estimated"]
    context["mark"] = EST_MARK
    return context


def render_the_war_face(card: TheWarCard) -> str:
    return render_to_string("cards/faces/the_war.svg", the_war_context(card))


_faces = RenderedCache()


def the_war_face_token() -> str:
    return catalog_cache_token()


def the_war_face_svg(code: str, *, token: str | None = None) -> str:
    """The SVG face of a The War card (NotFound for an unknown code), cached per catalog cache token."""
    token = the_war_face_token() if token is None else token
    return _faces.get_or_render(
        code, token, lambda: render_the_war_face(get_by_code(the_war_card_list(), code, what="The War card"))
    )
