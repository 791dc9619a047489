"""The deck pages' read models: rows of the editor (each card with its own violations), the card picker, the
sides a deck can take, starters and a version diff with card names. Reads only (decks.selectors)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from config.errors import ValidationFailed
from decks import selectors
from decks.models import MAX_ENTRY_COUNT, Deck, Game
from vocabulary.the_war import Army

ARMY_NAMES = {Army.RED_ARMY: "Red Army", Army.WEHRMACHT: "Wehrmacht"}  # as The War's rules name them


def side_label(game: str, side: str) -> str:
    """A deck's nation (Battlecards) or army (The War) by its name, not its code."""
    if game == Game.THE_WAR:
        return ARMY_NAMES.get(side, side)
    nation = selectors.catalog().nations.get(side)
    return nation.name if nation else side


def side_choices() -> list[tuple[str, str]]:
    nations = [(code, f"{n.name} (Battlecards)") for code, n in sorted(selectors.catalog().nations.items())]
    return nations + [(a.value, f"{ARMY_NAMES[a]} (The War)") for a in Army]


def _cards(game: str) -> dict[str, tuple[str, str | None]]:
    """{code: (name, side)} of the cards a deck of `game` is built from."""
    if game == Game.THE_WAR:
        tw = selectors.the_war_catalog()
        return {c.code: (c.title, c.army.value if c.army else None) for c in tw.cards.values()}
    return {c.code: (c.name, c.nation) for c in selectors.catalog().arsenal.values()}


def _face(game: str, code: str) -> str:
    return reverse("thewarcard-face" if game == Game.THE_WAR else "arsenalcard-face", args=[code])


def _page(game: str, code: str) -> str:
    return reverse("web:card-detail", args=["the-war" if game == Game.THE_WAR else "arsenal", code])


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


def context(deck: Deck, entries: dict[str, int], validation: dict[str, Any], *, user: Any) -> dict[str, Any]:
    cards = _cards(deck.game)
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
        "game_label": Game(deck.game).label if deck.game in Game.values else deck.game,
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
    cat = selectors.catalog()
    out = [
        {
            "code": s.code,
            "name": s.name,
            "game": "Battlecards",
            "side": cat.nations[s.nation].name if s.nation in cat.nations else s.nation,
            "cards": sum(selectors.starter_entries(s, cat).values()),
        }
        for s in selectors.starter_list(cat=cat)
    ]
    out += [
        {
            "code": s.code,
            "name": s.name,
            "game": "The War",
            "side": s.army.value,
            "cards": sum(s.entries.values()),
        }
        for s in selectors.the_war_starter_list()
    ]
    return out
