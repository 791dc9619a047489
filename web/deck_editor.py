"""The deck pages' read models: rows of the editor (each card with its own violations), the card picker, the
sides a deck can take, starters and a version diff with card names. Reads only (decks.selectors)."""

from __future__ import annotations

from typing import Any

from config.errors import ValidationFailed
from decks.deck_games import deck_game, deck_games
from decks.models import MAX_ENTRY_COUNT, Deck
from decks.rule_results import DeckValidation


def side_label(game: str, side: str) -> str:
    """A deck's nation (Battlecards) or army (The War) by its name, not its code."""
    return deck_game(game).side_name(side)


def side_choices() -> list[tuple[str, str]]:
    return [choice for part in deck_games() for choice in part.side_choices()]


def _cards(game: str) -> dict[str, tuple[str, str | None]]:
    """{code: (name, side)} of the cards a deck of `game` is built from."""
    part = deck_game(game)
    return {code: part.card_row(card) for code, card in part.cards(part.catalog()).items()}


def _face(game: str, code: str) -> str:
    return deck_game(game).face_url(code)


def _page(game: str, code: str) -> str:
    return deck_game(game).page_url(code)


def add_card(deck: Deck, entries: dict[str, int], wanted: str, count: Any) -> dict[str, int]:
    """`entries` with `count` more copies of the card named `wanted` (its code, or its exact name)."""
    cards = _cards(deck.game)
    wanted = wanted.strip()
    code = (
        wanted
        if wanted in cards
        else next((c for c, (name, _) in cards.items() if name.lower() == wanted.lower()), None)
    )
    if code is None:
        raise ValidationFailed(f"No card of this game is named {wanted!r}.", code="unknown_card")
    try:
        count = int(count or 1)
    except ValueError:
        count = 1
    out = dict(entries)
    out[code] = max(1, min(MAX_ENTRY_COUNT, out.get(code, 0) + count))
    return out


def context(deck: Deck, entries: dict[str, int], result: DeckValidation, *, user: Any) -> dict[str, Any]:
    """The editor's page of `deck` with `entries` and their validation by the deck's game's rules."""
    cards = _cards(deck.game)
    validation = result.to_dict()
    violations = validation["violations"]
    rows = [
        {
            "code": code,
            "name": cards.get(code, (code, None))[0],
            "count": count,
            "face": _face(deck.game, code),
            "page": _page(deck.game, code),
            "violations": [v for v in violations if v.get("card") == code],
        }
        for code, count in sorted(
            entries.items(), key=lambda item: (cards.get(item[0], (item[0],))[0], item[0])
        )
    ]
    picker = sorted(
        ((code, name) for code, (name, side) in cards.items() if side in (deck.nation, None)),
        key=lambda item: item[1],
    )
    return {
        "deck": deck,
        "game_label": deck_game(deck.game).title,
        "side_label": side_label(deck.game, deck.nation),
        "rows": rows,
        "validation": validation,
        "general_violations": [v for v in violations if v.get("card") not in entries],
        "picker": picker,
        "is_owner": getattr(user, "pk", None) == deck.owner_id,
        "max_count": MAX_ENTRY_COUNT,
    }


def named_diff(deck: Deck, diff: dict[str, Any]) -> dict[str, Any]:
    cards = _cards(deck.game)
    for key in ("added", "removed", "changed"):
        for item in diff[key]:
            item["name"] = cards.get(item["card"], (item["card"],))[0]
    return diff


def starters() -> list[dict[str, Any]]:
    out = []
    for part in deck_games():
        cat = part.catalog()
        out += [
            {
                "code": s.code,
                "name": s.name,
                "game": part.title,
                "side": part.starter_side_name(cat, s),
                "cards": sum(part.starter_deck(cat, s)[1].values()),
            }
            for s in part.starters(cat)
        ]
    return out
