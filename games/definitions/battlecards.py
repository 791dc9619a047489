"""Battlecards's Django-side definition (registered by games.game_types)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.game_type_base import ApiSchema, GameType
from games.options import game_options


class Battlecards(GameType):
    name = "battlecards"
    # its components keep the names they had before there were other games: Action, Decision, ...
    api_schema = ApiSchema(prefix="", words="", role="",
                           view="games.view_serializers_battlecards.ViewSerializer")
    lobby_checkboxes = (("larger_standing_armies", "Larger standing armies (optional rule)"),
                        ("occupying_force", "Occupying force (optional rule)"))
    deck_part = "decks.deck_games.BattlecardsDecks"
    team_games = True
    face_routes = (("arsenal", "arsenalcard-face"), ("conflict", "conflictcard-face"),
                   ("battlecard", "battlecard-face"))
    api_links = (
        ("nations", "nation-list"), ("theaters", "theater-list"), ("sets", "cardset-list"),
        ("arsenal_cards", "arsenalcard-list"), ("conflict_cards", "conflictcard-list"),
        ("battlecards", "battlecard-list"),  # the collection of the battlecard cards
    )
    controls = {
        "turn_start": "Start your turn",
        "initial_deploy": "Deploy your initial forces",
        "deploy": "Deploy units",
        "transfer": "Transfer units between stacks",
        "sabotage_victim": "Choose the general or leader the sabotage removes",
        "v2_effect": "Resolve the V-2 rocket",
        "divide_choose": "Choose how to divide a stack",
        "divide_stack": "Divide the stack",
        "reorganize": "Reorganize your reserve hand",
        "reorganize_swap": "Swap cards while reorganizing",
        "capture_browse": "Look at the captured stack",
        "capture_pick": "Pick the captured cards to keep",
        "fight_or_decline": "Fight this battle or decline it",
        "preemptive_choice": "Preemptive strike?",
        "battlecard_response": "Respond to the battlecard",
        "emergency_deploy": "Emergency deployment",
        "scorched_earth": "Scorched earth?",
        "commit_optional": "Commit optional forces to the battle",
        "battle_stack": "Choose the stack that fights",
        "choose_enemy_army": "Choose the enemy army to attack",
        "battle_window": "Battle: play a card or go on",
        "withdraw": "Withdraw from the battle?",
        "sabotage_target": "Choose the unit to sabotage",
        "sub_withdraw": "Submarine: withdraw?",
        "defend": "Defend against the shot",
        "retarget": "Choose a new target",
        "fire": "Fire",
        "a_bomb_window": "Drop the A-bomb now, or pass",
        "army_transfer": "Transfer cards to an allied army",
        "reserve_trade": "Trade reserve cards with an ally",
        "seat_trade": "Trade with an allied seat",
    }
    uses_decks = True

    def options(self, data: Mapping[str, Any]) -> Any:
        """Known names only, each of its default's type: games.options.game_options, the one home of the
        Battlecards option checks."""
        return game_options(dict(data))

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        from cards.battlecards.snapshot import arsenal_to_dict, battlecard_to_dict, conflict_to_dict

        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            if code in catalog.arsenal:
                card = {"type": "arsenal", **arsenal_to_dict(catalog.arsenal[code])}
            elif code in catalog.conflict:
                card = {"type": "conflict", **conflict_to_dict(catalog.conflict[code])}
            elif code in catalog.battlecards:
                card = {"type": "battlecard", **battlecard_to_dict(catalog.battlecards[code])}
            else:
                continue
            card.pop("provenance", None)
            cards[code] = card
        return cards
