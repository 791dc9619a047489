"""The prompt of every Battlecards decision kind (core.prompts; the API's Decision components are built from
it, and tests/engine/test_view_shape.py checks every prompt the engine asks against it)."""
from __future__ import annotations

from ..core.prompts import Schema, array, integer, mapping, obj, prompt, string, with_description

CARD_REF = obj({"id": string("The card instance id in this game, e.g. c17."),
                "code": string("The catalog code of the card.")}, title="CardRef")
_BATTLECARD = prompt({"battlecard": string("The battlecard instance id."), "code": string()})
_ROUND = prompt({"round": integer()})
_UNIT = prompt({"unit": string()})
_SHOT = prompt({"unit": string(), "target": string(), "type": string(enum=("fire", "autokill"))})
_DEPLOY = prompt({"count": integer("Cards to deploy."), "reason": string()})

# every decision kind of the engine and the shape of its prompt (the order of the API's Decision component)
PROMPT_SCHEMAS: dict[str, Schema] = {
    "turn_start": prompt({"turn": integer()}),
    "initial_deploy": _DEPLOY,
    "deploy": _DEPLOY,
    # Optional Rule 5.4: the stacks of the transfer, once its first card moved (null before)
    "transfer": prompt({"moved": integer(),
                        "from": string("The stack the cards come from (null until the first move).",
                                       nullable=True),
                        "to": string("The stack they go to (null until the first move).", nullable=True)}),
    "sabotage_victim": prompt({"class": string("general/leader")}),
    "v2_effect": prompt({"card": string()}),
    "divide_choose": prompt(),
    "divide_stack": prompt({"stack": string(), "new_stack": string(), "remaining": integer()}),
    "reorganize": prompt({"hand": integer()}),
    "reorganize_swap": prompt({"hand_size": integer(), "moves_left": integer()}),
    "capture_browse": prompt(),
    "capture_pick": prompt({"stack": string(), "cards": array(CARD_REF)}),
    "fight_or_decline": _BATTLECARD,
    "preemptive_choice": _BATTLECARD,
    "battlecard_response": _BATTLECARD,
    "emergency_deploy": _BATTLECARD,
    "scorched_earth": _BATTLECARD,
    "commit_optional": prompt({"classes": array(string())}),
    "battle_stack": prompt({"kind": string("ground/air/sea: choose which of your stacks of it fights")}),
    "choose_enemy_army": prompt({
        "battlecard": string("The battlecard instance id."),
        "code": string(),
        "armies": array(string(), "Team games: the enemy armies you may fight."),
    }),
    "battle_window": _ROUND,
    "withdraw": _ROUND,
    "sabotage_target": _UNIT,
    "sub_withdraw": _UNIT,
    "defend": _SHOT,
    "retarget": _SHOT,
    "fire": prompt({"round": integer(), "phase": integer()}),
    # C8: the A-bomb window of the seat whose phase-2 turn it is not (pass, or play the A-bomb)
    "a_bomb_window": _ROUND,
    # team games, FAQ Optional Rule 3 (engine README, "Team play, uneven teams and combined sets")
    "army_transfer": prompt({
        "to": string("The friendly army receiving the forces."),
        "moved": integer(),
        "max": integer(),
    }),
    "reserve_trade": prompt({
        "from": string("The friendly army offering a card."),
        "card": with_description(CARD_REF, "The card it offers; choose the one you send back."),
    }),
    "seat_trade": prompt({
        "from": string("The friendly army proposing to trade seats."),
        "across": mapping(string(), "The enemy army each of the two sits across from."),
    }),
}
