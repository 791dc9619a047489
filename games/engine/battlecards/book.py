"""The Battlecards rule book: the one registry of frames and decisions (see core.machine).

Each rule module registers its frame steps and decisions here, next to the functions themselves;
`battlecards.machine` imports every rule module, so the book is complete once it is imported.
"""
from __future__ import annotations

from ..core.machine import RuleBook, emit
from .actions import ACTION_TYPES, Action

RULES = RuleBook("battlecards", ACTION_TYPES, Action)

__all__ = ["RULES", "emit"]
