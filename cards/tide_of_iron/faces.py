"""Tide of Iron Strategy card faces as SVG, drawn from the card rows with The War's face template
(cards/templates/cards/faces/the_war.svg: title, cost, a corner word, a type line, parameters, text). Every
estimated value carries a mark (*) explained by the legend; cached per catalog cache token."""

from __future__ import annotations

from django.template.loader import render_to_string

from cards.faces import EST_MARK, Value, estimated_in, with_legend, wrap_lines
from cards.render_cache import RenderedCache
from cards.selectors import catalog_cache_token, get_by_code
from cards.tide_of_iron.models import ToiCard
from cards.tide_of_iron.selectors import toi_card_list

DECK_COLOURS = {"Artillery": "#6b4e2e", "Air Support": "#2e4a6b"}


def _keyword_words(k: dict) -> str:
    word = k["keyword"].replace("-", " ")
    if "value" in k:
        word += f" ({k['value']})"
    if k.get("suppressive"):
        word = "suppressive " + word
    if k["keyword"] in ("area-attack", "wide-blast-radius") and k.get("success_on", 5) != 5:
        word += f", hits on {k['success_on']}+"
    return word


def toi_context(card: ToiCard) -> dict:
    prov = card.provenance or {}
    colour = next((c for name, c in DECK_COLOURS.items() if name in card.deck.title), "#4a4a4a")
    params = [
        Value(_keyword_words(k), estimated_in(prov, f"keywords.{i}", "keywords"))
        for i, k in enumerate(card.keywords or ())
    ]
    traits = [
        Value(
            f"{e['card_type']} cards cost {e['amount']} less (min {e.get('minimum', 0)})",
            estimated_in(prov, f"effects.{i}", "effects"),
        )
        for i, e in enumerate(card.effects or ())
    ]
    lines = []
    for i, line in enumerate(card.text or ()):
        lines += [Value(part, estimated_in(prov, f"text.{i}", "text")) for part in wrap_lines(line, 40, 3)]
    context = {
        "card": {"code": card.code, "name": card.title},
        "name_lines": wrap_lines(card.title, 24, 2),
        "title_estimated": estimated_in(prov, "title"),
        "colour": colour,
        "army": Value(card.deck.title, estimated_in(prov, "deck")),
        "category": Value(
            "Action Phase" if card.phase == "action" else "Command Phase", estimated_in(prov, "phase")
        ),
        "kind": Value("place in your play area", estimated_in(prov, "play_area")) if card.play_area else None,
        "line": None,
        "hero": None,
        "cost_label": "command cost",
        "cost": Value(str(card.cost), estimated_in(prov, "cost")),
        "attack": None,
        "defense": None,
        "params": params[:6],
        "traits": traits[:2],
        "footer": "Tide of Iron · Strategy card",
    }
    context["params_y"] = 140
    context["traits_y"] = 140 + 11 * len(context["params"]) + (6 if context["params"] else 0)
    context["text_y"] = context["traits_y"] + 11 * len(context["traits"]) + 6
    context["text_lines"] = lines[: max(0, (318 - context["text_y"]) // 9 + 1)]
    context = with_legend(context)
    context["any_estimated"] = context["any_estimated"] or context["title_estimated"]
    context["mark"] = EST_MARK
    return context


def render_toi_face(card: ToiCard) -> str:
    return render_to_string("cards/faces/the_war.svg", toi_context(card))


_faces = RenderedCache()


def toi_face_token() -> str:
    return catalog_cache_token()


def toi_face_svg(code: str, *, token: str | None = None) -> str:
    """The SVG face of a Strategy card (NotFound for an unknown code), cached per catalog cache token."""
    token = toi_face_token() if token is None else token
    return _faces.get_or_render(
        code, token, lambda: render_toi_face(get_by_code(toi_card_list(), code, what="Tide of Iron card"))
    )
