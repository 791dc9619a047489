"""The deck part of a game's definition: what the deck builder (decks/, web/deck_editor.py) asks a game whose
players build their own decks, so that one code path serves every such game.

A game's Django-side definition (games.game_types.GameType) names its deck part by import path
(`deck_part`); `deck_game(id)` returns it and `deck_games()` lists them in registration order. A deck part
reads its game's catalog (cached by the cards app), checks a deck's side and cards, validates a deck by the
game's deck rules (the pure module the registry's spec names) into their one result type (`validate`:
decks.rule_results.DeckValidation), counts
its stats, names its cards and lists its official starters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.urls import reverse

from config.errors import ValidationFailed
from decks.rule_results import DeckValidation


def _selectors() -> Any:
    from decks import selectors

    return selectors


class DeckGame:
    """The deck builder's view of one game (a subclass per game sets the names and reads its catalog)."""

    id: str = ""
    title: str = ""  # the game's short name in messages and pages ("Battlecards", "The War")
    side_header: str = "nation"  # the header line of a text list that names the deck's side
    face_route: str = ""  # the URL name of a card's face image
    page_kind: str = ""  # the card page's kind (web:card-detail)
    size_limit: int = 0  # the largest legal deck (always printable); 0: no fixed size
    matchups: bool = False  # its decks go into a matchup check (decks.rules.validate_matchup)

    # ------------------------------------------------------------------------------- catalog

    def catalog(self) -> Any:
        raise NotImplementedError

    def cards(self, cat: Any) -> Mapping[str, Any]:
        """{code: card} of the cards a deck of this game is built from."""
        raise NotImplementedError

    def card_row(self, card: Any) -> tuple[str, str | None]:
        """(name, side) of a card (side None: any deck may hold it)."""
        raise NotImplementedError

    def text_index(self) -> tuple[Any, Any]:
        """(text catalog, name index) for reading and writing text lists."""
        raise NotImplementedError

    # ------------------------------------------------------------------------------- checks

    def check_side(self, nation: str) -> None:
        raise NotImplementedError

    def side_choices(self) -> list[tuple[str, str]]:
        """(side, label) of every side a deck can take (the deck pages name the game in the label)."""
        raise NotImplementedError

    def admin_side_choices(self) -> list[tuple[str, str]]:
        """(side, label) of every side, as the admin's select lists them."""
        raise NotImplementedError

    def side_name(self, side: str) -> str:
        """A deck's side by its name, not its code (the code itself when unknown)."""
        return side

    def unknown_cards_message(self, unknown: list[str]) -> str:
        return f"Unknown {self.title} card code(s): {', '.join(unknown[:10])}."

    def validate(self, cat: Any, *, nation: str, entries: Mapping[str, int]) -> DeckValidation:
        """The deck by its game's rules, in the one result shape of every game's deck rules."""
        raise NotImplementedError

    def stats(self, cat: Any, entries: Mapping[str, int]) -> dict[str, Any]:
        raise NotImplementedError

    def entry_rows(self, cat: Any, entries: Mapping[str, int]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def face_url(self, code: str) -> str:
        return reverse(self.face_route, args=[code])

    def faces(self, codes: list[str]) -> dict[str, str]:
        """{code: face SVG} of the codes this game knows (what a printed deck shows)."""
        raise NotImplementedError

    def page_url(self, code: str) -> str:
        return reverse("web:card-detail", args=[self.page_kind, code])

    # ------------------------------------------------------------------------------- starters

    def starters(self, cat: Any) -> list[Any]:
        raise NotImplementedError

    def starter(self, cat: Any, code: str) -> Any | None:
        """The official starter of this code, None when this game has none."""
        raise NotImplementedError

    def starter_deck(self, cat: Any, starter: Any) -> tuple[str, dict[str, int]]:
        """(side, entries) of a starter."""
        raise NotImplementedError

    def starter_printed(self, starter: Any) -> dict[str, Any]:
        """What a starter's box prints: its theater, cards and points (None: not printed)."""
        return {"theater": None, "printed_cards": None, "printed_points": None}

    def starter_out(self, cat: Any, starter: Any) -> dict[str, Any]:
        """A starter as the starters API answers it."""
        side, entries = self.starter_deck(cat, starter)
        result = self.validate(cat, nation=side, entries=entries)
        return {
            "code": starter.code,
            "name": starter.name,
            "game": self.id,
            "nation": side,
            **self.starter_printed(starter),
            "totals": result.totals.to_dict(),
            "is_valid": result.is_valid,
            "entries": self.entry_rows(cat, entries),
        }

    def starter_side_name(self, cat: Any, starter: Any) -> str:
        return self.starter_deck(cat, starter)[0]


class BattlecardsDecks(DeckGame):
    id = "battlecards"
    title = "Battlecards"
    face_route = "arsenalcard-face"
    page_kind = "arsenal"
    matchups = True

    def catalog(self) -> Any:
        return _selectors().catalog()

    def cards(self, cat: Any) -> Mapping[str, Any]:
        return cat.arsenal

    def card_row(self, card: Any) -> tuple[str, str | None]:
        return card.name, card.nation

    def text_index(self) -> tuple[Any, Any]:
        cat = self.catalog()
        return cat, _selectors().name_index(cat)

    def check_side(self, nation: str) -> None:
        cat = self.catalog()
        if nation not in cat.nations:
            raise ValidationFailed(
                f"Unknown nation {nation!r}.", code="unknown_nation", nations=sorted(cat.nations)
            )

    def side_choices(self) -> list[tuple[str, str]]:
        return [(code, f"{n.name} ({self.title})") for code, n in sorted(self.catalog().nations.items())]

    def side_name(self, side: str) -> str:
        nation = self.catalog().nations.get(side)
        return nation.name if nation else side

    def admin_side_choices(self) -> list[tuple[str, str]]:
        from cards.selectors import nation_list

        return [(n.code, f"{n.name} ({n.code})") for n in nation_list()]

    def unknown_cards_message(self, unknown: list[str]) -> str:
        return f"Unknown arsenal card code(s): {', '.join(unknown[:10])}."

    def validate(self, cat: Any, *, nation: str, entries: Mapping[str, int]) -> DeckValidation:
        from decks import rules

        return rules.validate_deck(cat, nation=nation, entries=entries)

    def stats(self, cat: Any, entries: Mapping[str, int]) -> dict[str, Any]:
        from decks import rules

        return {"game": self.id} | rules.deck_stats(cat, entries)

    def entry_rows(self, cat: Any, entries: Mapping[str, int]) -> list[dict[str, Any]]:
        rows = []
        for code, count in sorted(entries.items()):
            card = cat.arsenal.get(code)
            rows.append(
                {
                    "card": code,
                    "count": count,
                    "name": card.name if card else None,
                    "nation": card.nation if card else None,
                    "kind": card.kind if card else None,
                    "points": card.points if card else None,
                }
            )
        return rows

    def faces(self, codes: list[str]) -> dict[str, str]:
        from cards.faces import faces_for
        from cards.selectors import arsenal_card_list

        return faces_for("arsenal", arsenal_card_list().filter(code__in=set(codes)))

    def starters(self, cat: Any) -> list[Any]:
        return _selectors().starter_list(cat=cat)

    def starter(self, cat: Any, code: str) -> Any | None:
        if code not in cat.sets:
            return None
        return _selectors().starter_get(code=code, cat=cat)

    def starter_deck(self, cat: Any, starter: Any) -> tuple[str, dict[str, int]]:
        return starter.nation, _selectors().starter_entries(starter, cat)

    def starter_side_name(self, cat: Any, starter: Any) -> str:
        return cat.nations[starter.nation].name if starter.nation in cat.nations else starter.nation

    def starter_printed(self, starter: Any) -> dict[str, Any]:
        return {
            "theater": starter.theater,
            "printed_cards": starter.printed_cards,
            "printed_points": starter.printed_points,
        }


class TheWarDecks(DeckGame):
    id = "the-war"
    title = "The War"
    side_header = "army"
    face_route = "thewarcard-face"
    page_kind = "the-war"

    @property
    def size_limit(self) -> int:  # type: ignore[override]
        from vocabulary.the_war import DECK_SIZE

        return DECK_SIZE

    @staticmethod
    def armies() -> list[str]:
        from vocabulary.the_war import Army

        return sorted(a.value for a in Army)

    def catalog(self) -> Any:
        return _selectors().the_war_catalog()

    def cards(self, cat: Any) -> Mapping[str, Any]:
        return cat.cards

    def card_row(self, card: Any) -> tuple[str, str | None]:
        return card.title, card.army.value if card.army else None

    def text_index(self) -> tuple[Any, Any]:
        return _selectors().the_war_text_index()

    def check_side(self, nation: str) -> None:
        armies = self.armies()
        if nation not in armies:
            raise ValidationFailed(
                f"Unknown army {nation!r}: a The War deck fights for {' or '.join(armies)} (give it as "
                "`nation`).",
                code="unknown_army",
                armies=armies,
            )

    # the armies as The War's rules name them
    ARMY_NAMES: ClassVar[dict[str, str]] = {"red-army": "Red Army", "wehrmacht": "Wehrmacht"}

    def side_choices(self) -> list[tuple[str, str]]:
        from vocabulary.the_war import Army

        return [(a.value, f"{self.side_name(a.value)} ({self.title})") for a in Army]

    def side_name(self, side: str) -> str:
        return self.ARMY_NAMES.get(side, side)

    def admin_side_choices(self) -> list[tuple[str, str]]:
        from vocabulary.the_war import Army

        return [(a.value, a.value) for a in Army]

    def validate(self, cat: Any, *, nation: str, entries: Mapping[str, int]) -> DeckValidation:
        from decks import rules_the_war

        return rules_the_war.validate_deck(cat, army=nation, entries=entries)

    def stats(self, cat: Any, entries: Mapping[str, int]) -> dict[str, Any]:
        from decks import rules_the_war

        return {"game": self.id} | rules_the_war.deck_stats(cat, entries)

    def entry_rows(self, cat: Any, entries: Mapping[str, int]) -> list[dict[str, Any]]:
        """Entries of a The War deck: name is the card's title, nation its army, kind its category."""
        rows = []
        for code, count in sorted(entries.items()):
            card = cat.cards.get(code)
            rows.append(
                {
                    "card": code,
                    "count": count,
                    "name": card.title if card else None,
                    "nation": (card.army.value if card.army else None) if card else None,
                    "kind": card.category.value if card else None,
                    "points": None,
                }
            )
        return rows

    def faces(self, codes: list[str]) -> dict[str, str]:
        from cards.the_war.faces import the_war_face_svg
        from cards.the_war.selectors import the_war_card_list

        known = the_war_card_list().filter(code__in=set(codes)).values_list("code", flat=True)
        return {code: the_war_face_svg(code) for code in known}

    def starters(self, cat: Any) -> list[Any]:
        return sorted(cat.starters.values(), key=lambda s: s.code)

    def starter(self, cat: Any, code: str) -> Any | None:
        return cat.starters.get(code)

    def starter_deck(self, cat: Any, starter: Any) -> tuple[str, dict[str, int]]:  # noqa: ARG002
        return starter.army.value, dict(starter.entries)


def deck_games() -> list[DeckGame]:
    """The deck parts of every registered game whose players build decks, in registration order."""
    from games.game_types import GAME_TYPES

    return [kind.decks for kind in GAME_TYPES.values() if kind.decks is not None]


def deck_game(game: str) -> DeckGame:
    """The deck part of a game by id or old alias (400 unknown_game when its players build no decks)."""
    from games.game_types import canonical_game_type, get_game_type

    found = canonical_game_type(game)
    part = get_game_type(found).decks if found else None
    if part is None:
        ids = [g.id for g in deck_games()]
        raise ValidationFailed(
            f"Unknown game {game!r}: decks are built for {', '.join(ids)}.", code="unknown_game", games=ids
        )
    return part
