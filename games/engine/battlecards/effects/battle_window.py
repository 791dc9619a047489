"""battlecards.effects.battle_window."""
from __future__ import annotations

from ...actions import Action, Pass
from ...core.machine import emit
from ...state import OTHER, GameState
from ..book import RULES
from ..combat.casualties import _check_battle_end, _destroy, _withdraw
from ..common import KPass, KPlayCard
from ..zones import _discard_kept


def _window_cards(st: GameState, fr: dict, seat: str) -> list[tuple]:
    enemy = OTHER[seat]
    acts: list[tuple] = []
    enemy_units = fr["units"][enemy]
    for c in st.players[seat]["kept"]:
        eff = st.defs[c].effect
        if eff == "mine-fields" and fr["round"] == 1:
            acts.extend(KPlayCard(seat, c, target=t) for t in enemy_units if st.defs[t].kind == "ground")
        elif eff == "lack-of-valor":
            acts.extend(KPlayCard(seat, c, target=t) for t in enemy_units)
        elif ((eff in ("military-intelligence", "stolen-plans") and not fr["intel_played"][seat])
              or (eff == "chemical-warfare" and not fr["chem"][seat]
                  and any(st.defs[t].kind == "ground" for t in enemy_units))):
            acts.append(KPlayCard(seat, c))
    return acts


def legal_battle_window(st: GameState, fr: dict) -> list[tuple]:
    seat = (fr["aggressor"], fr["defender"])[fr["side"]]
    return [KPass(seat)] + _window_cards(st, fr, seat)


def act_battle_window(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        fr["side"] += 1
        return
    seat = a.seat
    enemy = OTHER[seat]
    eff = st.defs[a.card].effect
    _discard_kept(st, seat, a.card)  # C14: discarded after use
    if eff == "mine-fields":  # C13: the player chooses the ground unit (never a leader)
        _destroy(st, enemy, a.target, "mine-fields")
    elif eff == "lack-of-valor":
        _withdraw(st, fr, enemy, a.target, "lack-of-valor")
    elif eff in ("military-intelligence", "stolen-plans"):
        fr["intel"][seat] = True
        fr["intel_played"][seat] = True
        if st.record_events:
            emit(st, "intelligence", {"enemy_hand": [st.code[c] for c in st.players[enemy]["hand"]]}, seat)
        if eff == "stolen-plans" and st.record_events:
            emit(st, "intelligence", {"enemy_kept": [st.code[c] for c in st.players[enemy]["kept"]]}, seat)
    elif eff == "chemical-warfare":
        fr["chem"][seat] = st.defs[a.card].param("attack", 13)
    _check_battle_end(st, fr)


RULES.decision("battle_window", legal=legal_battle_window, act=act_battle_window)
