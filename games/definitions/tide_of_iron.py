"""Tide of Iron's Django-side definition (registered by games.game_types)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.game_type_base import ApiSchema, GameType


class TideOfIron(GameType):
    """Tide of Iron's Strategy decks (tide-of-iron-strategy-cards.txt): the server referees the off-board
    cards of a physical match played remotely: the shuffled decks (order hidden), every die, the HQ and play
    areas (face up); the players report command points and the board. Seats axis and allies; no bots (a
    referee has no opponent to play). The cards are frozen per match from the catalog rows
    (cards.tide_of_iron, loaded from fixtures/tide_of_iron/)."""

    name = "tide-of-iron"
    api_schema = ApiSchema(prefix="TideOfIron", words="Tide of Iron ", role="toi-",
                           view="games.view_serializers_toi.TideOfIronViewSerializer",
                           legal_help="Send one of these (or, at an act decision, a board report).")
    api_links = (
        ("tide_of_iron_cards", "toicard-list"), ("tide_of_iron_decks", "toideck-list"),
        ("tide_of_iron_scenarios", "toiscenario-list"),
    )
    board_template = "web/play/partials/board_tide-of-iron.html"
    public_board_template = "web/play/partials/toi_public_board.html"
    controls = {
        "act": "Your Strategy cards: activate, retry contact, report the board, pass, or end the phase or "
               "the match",
        "target": "Choose the target hex",
        "target_column": "Choose the target hex: its column",
        "target_row": "Choose the target hex: its row",
        "los": "Who has line of sight to the target: a normal unit or an officer?",
        "confirm": "The other player reports: confirm it, or dispute it",
    }
    # the board reports' fields (name, label); what each takes is the engine's (tide_of_iron.REPORT_FIELDS:
    # the allowed values, the bounds), which the play page's forms offer (web.toi_table)
    reports = {
        "report_command": [("points", "Command points")],
        "place_unit": [("unit", "Unit label"), ("hex", "Hex"), ("side", "Side"), ("kind", "Kind"),
                       ("officer", "Officer in the squad")],
        "remove_unit": [("unit", "Unit label")],
        "set_cover": [("hex", "Hex"), ("cover", "Cover (defense dice)")],
    }
    end_words = {
        "reported": "{by} reported the result ({result}) and {confirmed_by} confirmed it.",
        "no_result": "{by} reported a result ({claimed}); {disputed_by} disputed it, so the match ended "
                     "without a result.",
    }
    uses_decks = False
    live_play = False

    def live_snapshot(self) -> dict[str, Any]:
        from cards.tide_of_iron.selectors import toi_dicts

        rows = toi_dicts()
        return {"cards": rows["toi_cards"], "decks": rows["toi_decks"], "scenarios": rows["toi_scenarios"]}

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return self.package.GameSetup(seed=seed, options=options)

    def lobby_options(self, post: Mapping[str, Any]) -> dict[str, Any] | None:
        """The scenario the lobby's form names, if any."""
        return {"scenario": post["scenario"]} if post.get("scenario") else None

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code)
            if card is not None:
                cards[code] = {k: v for k, v in card.to_dict().items() if k != "provenance"}
        return cards
