"""Battlefront's Django-side definition (registered by games.game_types)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.errors import ValidationFailed
from games.game_type_base import ApiSchema, GameType, every_string


class Battlefront(GameType):
    lobby_checkboxes = (("two_front_victory", "Two-front victory conditions (optional rule)"),)
    # the lobby's selects of Battlefront's other optional rules: the Blitzkrieg attacker and Special cards
    LOBBY_SEATS = (("west", "West"), ("east", "East"))
    LOBBY_NATIONALITIES = (("DE", "Germany"), ("RU", "Soviet Union"), ("US", "United States"),
                           ("GB", "Great Britain"), ("JP", "Japan"))

    def lobby_selects(self) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
        none = (("", "none"),)
        return [("opt_blitzkrieg_attacker", "Battlefront: Blitzkrieg attacker (optional rule)",
                 none + self.LOBBY_SEATS),
                *((f"opt_special_{seat}", f"Battlefront: Special cards of {label} (optional rule)",
                   none + self.LOBBY_NATIONALITIES) for seat, label in self.LOBBY_SEATS)]

    def lobby_rule_options(self, post: Mapping[str, Any]) -> dict[str, Any]:
        options = super().lobby_rule_options(post)
        if post.get("opt_blitzkrieg_attacker") in dict(self.LOBBY_SEATS):
            options["blitzkrieg_attacker"] = post["opt_blitzkrieg_attacker"]
        special = {seat: post.get(f"opt_special_{seat}") for seat, _ in self.LOBBY_SEATS}
        if all(value in dict(self.LOBBY_NATIONALITIES) for value in special.values()):
            options["special_cards"] = special
        elif any(special.values()):
            raise ValidationFailed("Special cards: choose a nationality for both seats, or for neither.",
                                   code="invalid_options")
        return options

    """Battlefront (battlefront-rules.txt): one shared 70-card deck (75 with the Special cards), seats
    west and east, five fronts. The cards are frozen per game from fixtures/battlefront/cards.json."""

    name = "battlefront"
    api_schema = ApiSchema(prefix="Battlefront", words="Battlefront ", role="battlefront-",
                           view="games.view_serializers_battlefront.BattlefrontViewSerializer")
    api_links = (
        ("battlefront_cards", "battlefrontcard-list"),
        ("battlefront_special_uses", "battlefrontspecialuse-list"),
    )
    bulk_section = ("battlefront", "cards.battlefront.selectors.battlefront_dicts")
    controls = {
        "deploy": "Play a card on a front, or pass",
        "discard": "Discard down to your hand limit",
    }
    uses_decks = False

    def live_snapshot(self) -> dict[str, Any]:
        catalog = self.package.load_cards()
        return {
            "cards": [card.to_dict() for card in catalog.cards.values()],
            "special_cards": [card.to_dict() for card in catalog.special_cards.values()],
            "special_uses": [use.to_dict() for uses in catalog.special_uses.values() for use in uses],
        }

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return self.package.GameSetup(seed=seed, options=options)

    def seat_nations(self, options: Any) -> dict[str, str]:
        return dict(options.special_cards or {})

    def face_route(self, definition: Mapping[str, Any]) -> str | None:  # noqa: ARG002
        return "battlefrontcard-face"  # every card of the shared deck has its face

    card_codes = every_string  # hand and fronts name cards in {"code"} objects, discards as bare codes

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code) or catalog.special_cards.get(code)
            if card is None:
                continue
            cards[code] = card.to_dict()
            if card.type == "X":  # a Special card: how each nationality may use it
                cards[code]["uses"] = [u.to_dict() for uses in catalog.special_uses.values() for u in uses]
        return cards
