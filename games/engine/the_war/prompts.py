"""The prompt of every The War decision kind (core.prompts; the API's TheWarDecision components are built
from it, and the conformance suite checks every prompt the engine asks against it)."""
from __future__ import annotations

from ..core.prompts import Schema, array, integer, mapping, prompt, string
from .setup import TYPES

_CARDS = array(string(), "Card ids (e.g. p1.16).")
_PAIRS = array(array(string()), "[attacker, target] pairs of card ids.")
_NOTHING = prompt()  # the legal actions say it all

PROMPT_SCHEMAS: dict[str, Schema] = {
    "pay": prompt({
        "for": string("What the payment is for (build, improve, maintain, attack, salvo, location)."),
        "card": string(),
        "cost": mapping(integer(), f"What is left to pay: {', '.join(TYPES)}."),
        "pool": array(integer(), "Your pool: depot, plant, fuel."),
        "converted": array(integer(), "Converted resources in your pool: depot, plant, fuel."),
    }),
    "redraw": prompt({"new_hand_size": integer("The hand size a re-draw gives (null: keep this hand).",
                                               nullable=True)}),
    "resources": prompt({"played": integer("Resource cards played this turn."), "max": integer()}),
    "maintenance": prompt({"card": string("The battlefield condition to maintain."), "code": string()}),
    "build": _NOTHING,
    "positions": _NOTHING,
    "attack_phase": _NOTHING,
    "end_of_turn": _NOTHING,
    "declare_targeted": prompt({"declared": _PAIRS}),
    "declare_general": prompt({"declared": _CARDS}),
    "attacker_artillery": _NOTHING,
    "attacker_abilities": _NOTHING,
    "block": prompt({"attackers": _CARDS, "targeted": _PAIRS}),
    "defender_specials": _NOTHING,
    "defender_artillery": _NOTHING,
    "interception": _NOTHING,
    "aa_mode": prompt({"unit": string(), "engagement": integer()}),
    "damage": prompt({"points": integer("Damage points to assign."), "engagement": integer(),
                      "attackers": _CARDS, "defenders": _CARDS}),
    "strike": prompt({"through": _CARDS, "breakthrough": _CARDS}),
    "second_line_support": prompt({"strikes": _PAIRS}),
}
