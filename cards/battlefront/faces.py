"""Battlefront card faces as SVG (cards/templates/cards/faces/battlefront.svg), drawn from the card rows.

Like cards.faces for the Battlecards catalog: a playing card's 2.5 x 3.5 inches (viewBox 250 x 350), every
value as printed in the rules (Battlefront has no estimated values, so no marks). A Special card (type X,
no force of its own) lists what each nationality may use it as. Faces are cached per catalog cache token
(cards.selectors.catalog_cache_token), which changes with every load or admin edit, Battlefront ones too.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from cards.battlefront.selectors import battlefront_card_list, battlefront_special_use_list
from cards.faces import wrap_lines
from cards.models import BattlefrontCard
from cards.render_cache import RenderedCache
from cards.selectors import catalog_cache_token, get_by_code

TYPE_COLOURS = {
    "L": "#4a3b6b",
    "I": "#3d5a2a",
    "P": "#27466e",
    "T": "#5b4a3a",
    "A": "#6b2d2d",
    "S": "#2f5d62",
    "F": "#555555",
    "X": "#6e5616",
}


def battlefront_context(card: BattlefrontCard, uses=()) -> dict:
    uses_text = [f"{use.get_nationality_display()}: {use.text}" for use in uses]
    use_lines = [line for text in uses_text for line in wrap_lines(text, 42, 2)]
    footer = f"Battlefront · card {card.position} of 70"
    return {
        "card": card,
        "name_lines": wrap_lines(card.name, 24, 2),
        "colour": TYPE_COLOURS.get(card.card_type, "#444"),
        "type_letter": card.card_type,
        "type_name": card.get_card_type_display(),
        "force": card.force,
        "notes_lines": wrap_lines(card.notes, 36, 3) if card.notes else [],
        "use_lines": use_lines[:16],
        "footer": "optional special cards rules" if card.optional_rule else footer,
        "any_estimated": False,
    }


def render_battlefront_face(card: BattlefrontCard) -> str:
    uses = list(battlefront_special_use_list()) if card.is_special else ()
    return render_to_string("cards/faces/battlefront.svg", battlefront_context(card, uses))


_faces = RenderedCache()


def battlefront_face_token() -> str:
    return catalog_cache_token()


def battlefront_face_svg(code: str, *, token: str | None = None) -> str:
    """The SVG face of a Battlefront card (NotFound for an unknown code), cached per catalog cache token."""
    token = battlefront_face_token() if token is None else token
    return _faces.get_or_render(
        code,
        token,
        lambda: render_battlefront_face(get_by_code(battlefront_card_list(), code, what="Battlefront card")),
    )
