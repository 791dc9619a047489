"""Fighters: free fighters, interception, escorts."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    UnitSubtype,
)

from ...core.machine import emit
from ..state import WarState, WaveFrame
from .book import declared
from .cards import alive, card


def interceptors(st: WarState, fr: WaveFrame, b: str) -> list[str]:
    return [f for f, x in fr.intercepts if x == b and alive(st, f)]


def escorts_of(st: WarState, fr: WaveFrame, b: str) -> list[str]:
    return [f for f, x in fr.escorts if x == b and alive(st, f)]


def free_fighters(st: WarState, fr: WaveFrame, seat: str) -> list[str]:
    used = ({f for f, _ in fr.escorts} | {f for f, _ in fr.intercepts} | {u for u, _ in fr.supports}
            | declared(fr) | {u for u, _ in fr.strikes})
    return [u for u in st.zones[seat]["line2"] if card(st, u).subtype == UnitSubtype.FIGHTER
            and u not in st.rotated and u not in used]


def act_intercept(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.intercepts.append([action.unit, action.aircraft])
    st.rotated.add(action.unit)  # "The intercepting fighter rotates."
    emit(st, "intercepted", {"seat": action.seat, "unit": action.unit, "aircraft": action.aircraft})
