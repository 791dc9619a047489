"""Template helpers: a card's values as readable HTML (never raw JSON), names, provenance."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Keys a card page shows in their own place (or not at all: links to the API, which the page links itself)
SHOWN_APART = frozenset({"url", "face", "rulings", "provenance", "estimated", "code", "name", "title"})


def _label(key: Any) -> str:
    return str(key).replace("_", " ")


@register.filter
def show(value: Any) -> SafeString:
    """A value of an API answer as text: lists joined, objects as a small definition list, None as a dash."""
    if value is None or value == "" or value == [] or value == {}:
        return mark_safe("&mdash;")
    if isinstance(value, bool):
        return format_html("{}", "yes" if value else "no")
    if isinstance(value, dict):
        return format_html(
            '<dl class="inline">{}</dl>',
            format_html_join("", "<dt>{}</dt><dd>{}</dd>", ((_label(k), show(v)) for k, v in value.items())),
        )
    if isinstance(value, list | tuple):
        if all(not isinstance(v, dict | list) for v in value):
            return format_html("{}", ", ".join(str(v) for v in value))
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((show(v),) for v in value)))
    return format_html("{}", value)


@register.filter
def card_fields(card: dict) -> list[tuple[str, Any]]:
    return [(_label(k), v) for k, v in card.items() if k not in SHOWN_APART]


@register.filter
def card_name(card: dict) -> str:
    return card.get("name") or card.get("title") or card.get("code", "")


@register.filter
def provenance_rows(card: dict) -> list[tuple[str, str, str]]:
    """(field, seed|estimated|printed..., note) of each value whose source the catalog records."""
    rows = []
    for field, source in (card.get("provenance") or {}).items():
        if isinstance(source, dict):
            rows.append(
                (
                    _label(field),
                    str(source.get("source", "")),
                    str(source.get("note") or source.get("quote") or ""),
                )
            )
        else:
            rows.append((_label(field), str(source), ""))
    return rows


@register.filter
def total(entries: dict) -> int:
    """The number of cards of a {code: count} map."""
    return sum((entries or {}).values())


CARD_SHOWN = frozenset({"id", "code", "name", "title"})  # a card on the table: the rest are its marks


def _is_card(value: Any, faces: dict) -> bool:
    """A card on the table: an instance ({"id", "code"}), or a card named by its code alone (Battlefront's
    fronts and hand: {"code", ...} of a card the page has a face or a name for)."""
    if not isinstance(value, dict) or not isinstance(value.get("code"), str):
        return False
    return isinstance(value.get("id"), str) or value["code"] in faces


def _card_values(definition: dict) -> SafeString:
    rows = [(label, show(v)) for label, v in card_fields(definition) if v not in (None, "", [], {})]
    values = format_html_join("", "<dt>{}</dt><dd>{}</dd>", rows)
    rulings = definition.get("rulings") or []
    said = format_html_join(
        "", "<li>{}</li>", ((r.get("text") or r.get("ruling") or show(r) if isinstance(r, dict) else r,)
                           for r in rulings)
    )
    return format_html('<dl class="values">{}</dl>{}', values,
                       format_html('<p class="rulings-h">Rulings</p><ul class="rulings">{}</ul>', said)
                       if rulings else "")


def _card_chip(card: dict, names: dict, faces: dict, context: Any = None) -> SafeString:
    """A card as the table draws it: its face at a readable size with its name and marks (rotated, force...);
    a click or Enter opens it large with its values and rulings (a <details>: no script needed)."""
    code = card["code"]
    ident = card.get("id") or code
    face = faces.get(code)
    name = names.get(ident) or names.get(code, code)
    payload = (context or {}).get("payload") or {}
    definition = (payload.get("cards") or {}).get(code) or {}
    marks = ((context or {}).get("decision") or {}).get("marks") or {}
    image = format_html('<img src="{}" alt="" width="96" height="134" loading="lazy">', face) if face else ""
    large = format_html('<img src="{}" alt="" width="300" height="420" loading="lazy">', face) if face else ""
    extra = format_html_join(
        "", '<span class="badge">{} {}</span>',
        ((_label(k), show(v)) for k, v in card.items() if k not in CARD_SHOWN and v not in (None, False)),
    )
    return format_html(
        '<details class="card{}" data-card="{}" data-code="{}">'
        '<summary>{}<span class="name">{}</span>{}</summary>'
        '<div class="card-large" role="group" aria-label="{}">{}'
        '<div><p class="card-title">{}</p>{}</div></div>'
        "</details>",
        " lit" if ident in marks else "", ident, code, image, name, extra, name, large, name,
        _card_values(definition),
    )


@register.filter
def jsonify(value: Any) -> str:
    """A value as JSON (the decision's fields picked so far, carried in the address)."""
    return json.dumps(value, sort_keys=True)


def _zone(value: Any, names: dict, faces: dict, context: Any) -> SafeString:
    if _is_card(value, faces):
        return _card_chip(value, names, faces, context)
    if isinstance(value, dict):
        if not value:
            return mark_safe("&mdash;")
        plain = [(k, v) for k, v in value.items() if not isinstance(v, dict | list)]
        parts = [(k, v) for k, v in value.items() if isinstance(v, dict | list)]
        badges = format_html_join(
            "", '<span class="badge"><span class="k">{}</span> {}</span>',
            ((_label(k), _zone(v, names, faces, context)) for k, v in plain),
        )
        piles = format_html_join(
            "", '<div class="pile pile-{}"><span class="pile-name">{}</span>{}</div>',
            ((str(k), _label(k), _zone(v, names, faces, context)) for k, v in parts),
        )
        return format_html('<div class="zone">{}{}</div>',
                           format_html('<p class="badges">{}</p>', badges) if plain else "", piles)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="empty">none</span>')
        cards = all(_is_card(v, faces) for v in value)
        return format_html(
            '<ul class="stack{}">{}</ul>', " cards-row" if cards else "",
            format_html_join("", "<li>{}</li>", ((_zone(v, names, faces, context),) for v in value)),
        )
    if isinstance(value, str) and value in names:
        return format_html("{}", names[value])
    return show(value)


@register.simple_tag(takes_context=True)
def zone(context: Any, value: Any, names: dict, faces: dict) -> SafeString:
    """A part of a seat's view: cards as faces (opened large on a click), lists of cards as rows, counts and
    words as small badges, structured parts as named piles; the cards the pending decision offers are lit."""
    shown = {"payload": context.get("payload"), "decision": context.get("decision")}
    return _zone(value, names, faces, shown)


@register.filter
def game_label(game_id: str) -> str:
    """A game's name from the registry of games (a deck's or a game's `game` id), e.g. "The War"."""
    from games.game_types import GAME_TYPES

    kind = GAME_TYPES.get(game_id)
    return kind.label if kind is not None else game_id


@register.filter
def deck_game(deck: Any) -> str:
    """A deck's game by the deck builder's name of it (Battlecards, The War: decks.deck_games)."""
    from decks.deck_games import deck_game as part

    return part(deck.game).title


@register.filter
def deck_side(deck: Any) -> str:
    """A deck's nation (Battlecards) or army (The War) by its name, not its code."""
    from web.deck_editor import side_label

    return side_label(deck.game, deck.nation)


@register.filter
def lookup(mapping: dict, key: Any) -> Any:
    """mapping[key], or the key itself when the mapping lacks it (a card code without a name, a seat)."""
    return (mapping or {}).get(key, key)
