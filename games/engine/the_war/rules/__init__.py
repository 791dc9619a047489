"""THE WAR rules: RULES = a RuleBook over typed frames; set-up, the seven phases, payments, assault waves.

The turn's phase order is declared once (TURN_PHASES) and so is an assault wave's order of declarations
(WAVE_STAGES, the rulebook's "The order of each wave should be as follows"); only `next_stage` moves a
frame along its table. Rulings the text leaves open are numbered R1.. in README.md.

One module per rule area, layered (pyproject.toml, "The War rule modules"): `flow` (the step tables, the
registrations, the entry points) over `breakthrough` over `combat` over `blocks` over `declarations` over
`air`, `attack`, `build`, `positions`, `end` over `specials`, `turn`, `start` over `resources`, `values` over
`cards` over `book` (RULES, TURN_PHASES, WAVE_STAGES).
"""
from __future__ import annotations

from .book import RULES, TURN_PHASES, WAVE_STAGES
from .cards import card, destroy
from .flow import (
    DECISION_KINDS,
    PAID,
    TURN_STEPS,
    WAVE_STEPS,
    apply,
    apply_legal,
    legal_actions,
    legal_keys,
)
from .start import new_game

__all__ = [
    "DECISION_KINDS", "PAID", "RULES", "TURN_PHASES", "TURN_STEPS", "WAVE_STAGES", "WAVE_STEPS",
    "apply", "apply_legal", "card", "destroy", "legal_actions", "legal_keys", "new_game",
]
