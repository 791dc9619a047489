"""Card behaviour keyed by the data vocabulary (fireplace's CardDB.merge idea: data in
vocabulary/battlecards/, behaviour here): every conflict-card effect in `CONFLICT_EFFECTS` and every unit
ability in `ABILITY_SCHEMA` there has one registered behaviour; tests/engine/test_card_behaviour.py fails
when a vocabulary key has none.

A conflict-card effect says whether the card is kept face down when drawn (else it resolves at once:
`on_draw`), and in which play windows a kept card may be played, each window with its legal options and
its resolution. The windows are read by the phase that opens them (a loop over the registry, no
per-card branches there).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .frames import Frame

# play windows of kept cards
TURN_START = "turn_start"        # before drawing (phases.turn)
RESPONSE = "response"            # after the aggressor chose to fight a drawn battlecard (phases.battlecard)
BATTLE_WINDOW = "battle_window"  # at the start of every battle round (effects.battle_window)
PHASE_2 = "phase_2"              # C8: during phase 2 (phases.fire; effects.abomb)
V2 = "v2"                        # C9: in place of a V-2's effect (effects.abomb)
SCORCHED = "scorched_earth"      # right after losing a battle for a battlecard (phases.settle)


@dataclass(frozen=True, slots=True)
class Window:
    """options(st, fr, seat, card) -> legal action keys; resolve(st, fr, action) plays it. The card goes
    to the conflict discard first unless `discard` is False (an Industrial Complex stays in play)."""

    options: Callable[..., list[tuple]]
    resolve: Callable[..., None]
    discard: bool = True


@dataclass(frozen=True, slots=True)
class CardEffect:
    key: str
    kept: bool
    windows: dict[str, Window] = field(default_factory=dict)
    on_draw: Callable[..., None] | None = None  # (st, seat, definition): an immediate / build-up card
    rulings: str = ""


@dataclass(frozen=True, slots=True)
class Ability:
    """A unit ability: the functions that apply it (abilities act through the rules of their windows)."""

    key: str
    homes: tuple[Callable[..., Any], ...]
    rulings: str = ""


EFFECTS: dict[str, CardEffect] = {}
ABILITIES: dict[str, Ability] = {}


def card_effect(key: str, *, kept: bool, on_draw: Callable[..., None] | None = None, rulings: str = "",
                **windows: Window) -> CardEffect:
    if key in EFFECTS:
        raise ValueError(f"conflict effect {key!r} has two behaviours")
    effect = EFFECTS[key] = CardEffect(key, kept, dict(windows), on_draw, rulings)
    return effect


def ability(key: str, *homes: Callable[..., Any], rulings: str = "") -> Ability:
    if key in ABILITIES:
        raise ValueError(f"ability {key!r} has two behaviours")
    if not homes:
        raise ValueError(f"ability {key!r}: name the functions that apply it")
    out = ABILITIES[key] = Ability(key, homes, rulings)
    return out


def window_options(st: Any, fr: Frame, seat: str, window: str) -> list[tuple]:
    """The play options of `seat`'s kept cards in `window`, in the order the cards are kept."""
    acts: list[tuple] = []
    defs = st.defs
    for cid in st.team(seat)["kept"]:
        w = EFFECTS[defs[cid].effect].windows.get(window)
        if w is not None:
            acts.extend(w.options(st, fr, seat, cid))
    return acts


def window_of(st: Any, card: str, window: str) -> Window:
    return EFFECTS[st.defs[card].effect].windows[window]
