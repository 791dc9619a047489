"""Template helpers: a card's values as readable HTML (never raw JSON), names, provenance."""

from __future__ import annotations

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


def _card_chip(card: dict, names: dict, faces: dict) -> SafeString:
    code = card["code"]
    face = faces.get(code)
    image = format_html('<img src="{}" alt="" width="50" height="70" loading="lazy">', face) if face else ""
    return format_html(
        '<span class="card-chip" data-card="{}" data-code="{}">{}<span>{}</span></span>',
        card["id"],
        code,
        image,
        names.get(code, code),
    )


@register.simple_tag
def zone(value: Any, names: dict, faces: dict) -> SafeString:
    """A part of a seat's view: card instances as named faces, stacks as rows, counts and words as text."""
    if isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("code"), str):
        return _card_chip(value, names, faces)
    if isinstance(value, dict):
        if not value:
            return mark_safe("&mdash;")
        return format_html(
            '<dl class="zone">{}</dl>',
            format_html_join(
                "", "<dt>{}</dt><dd>{}</dd>", ((_label(k), zone(v, names, faces)) for k, v in value.items())
            ),
        )
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="empty">none</span>')
        return format_html(
            '<ul class="stack">{}</ul>',
            format_html_join("", "<li>{}</li>", ((zone(v, names, faces),) for v in value)),
        )
    if isinstance(value, str) and value in names:
        return format_html("{}", names[value])
    return show(value)


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
