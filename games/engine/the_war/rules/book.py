"""The rule book: RULES, the two declared orders (TURN_PHASES, WAVE_STAGES), the only function
moving a frame along them, and the wave's declaration bookkeeping."""
from __future__ import annotations

from typing import Any

from ...core.machine import RuleBook
from .. import actions as A
from ..state import WaveFrame

RULES = RuleBook("the-war", A.ACTION_CLASSES, A.Action)


def next_stage(fr: Any, table: tuple[str, ...]) -> None:
    fr.stage = table[table.index(fr.stage) + 1]


def declared(fr: WaveFrame) -> set[str]:
    return {u for u, _ in fr.targeted} | set(fr.general)


def asked(fr: WaveFrame, has_options: bool) -> bool:
    """Whether to ask at this stage: once asked, a stage is asked until its "done"."""
    if fr.stage in fr.asked:
        return True
    if has_options:
        fr.asked.append(fr.stage)
    return has_options


TURN_PHASES: tuple[str, ...] = ("restore", "draw", "resources", "build", "positions", "attack", "reserves",
                                "end")


WAVE_STAGES: tuple[str, ...] = (
    "targeted",            # units performing targeted attack and their targets; they rotate
    "general",             # units for general attack on the 1st line; they rotate
    "attacker_artillery",  # artillery support for attacking units
    "attacker_abilities",  # special cards and abilities of units (salvo, heavy artillery)
    "block",               # the defender assigns blocking and supporting units; they rotate
    "defender_specials",   # the defending player plays special cards
    "defender_artillery",  # artillery support for blocking (supporting) units
    "interception",        # the attacker's fighters intercept blocking aircraft (after all blocks)
    "engagements",         # jointly fighting units and combat engagements are determined
    "aa_first",            # units with AA-attack facing aircraft and ground units announce which they fight
    "resolve_first",       # results of each engagement; destroyed units to losses
    "after_first",         # breakthrough feature offers
    "strike",              # units attacking the 2nd line, resources, deck; attacked units rotate
    "second_support",      # the defender's 2nd-line supports
    "defender_specials_2", # the defending player plays special cards
    "second_engagements",  # engagements determined
    "aa_second",           # AA announcements (as above)
    "resolve_second",      # results; the deck loses cards
    "close",               # damage cleared, conditions eliminated
)
