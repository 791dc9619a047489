"""battlecards.combat.stalemate."""
from __future__ import annotations

from ...cards import KINDS
from ...core.machine import emit
from ...state import OTHER, GameState
from ..common import SUPPORT_KINDS
from .targeting import _autokill_targets, _targetable
from .values import battle_values


def _stalemate(st: GameState, fr: dict) -> None:
    """Stalemate: the aggressor must withdraw and the defender wins (air raids simply end)."""
    if st.record_events:
        emit(st, "stalemate", {"round": fr["round"]})
    fr["winner"] = fr["defender"] if fr["mode"] == "battle" else None
    fr["stage"] = "settle"


def _can_hit(st: GameState, fr: dict, seat: str) -> bool:
    """Could any unit of `seat` hit any enemy unit with the best possible support and action number?"""
    enemy = OTHER[seat]
    targets = fr["units"][enemy]
    if not targets:
        return False
    vals = battle_values(st, fr)
    kidx = st.kidx
    max_action = st.max_action
    chem = fr["chem"][seat]
    if chem:
        for t in targets:
            if kidx[t] == 0:
                d = vals.defense(enemy, t, "air")
                if d is not None and d < chem and d < max_action:
                    return True
    units = fr["units"][seat]
    pool = []  # (source, kind, bonus, target kinds)
    for c in units:
        ab = st.abil[c]
        for k in SUPPORT_KINDS:
            if k in ab:
                pool.append((c, k, ab[k].get("bonus"), ab[k].get("target_kinds")))
        if "carrier_bonus" in ab:
            pool.append((None, "carrier", sum(ab["carrier_bonus"].get("bonuses")), None))
    table_a, table_d = vals.A, vals.D
    abil = st.abil
    phases = st.phase
    for u in units:
        if phases[u] is None:
            continue
        if "autokill" in abil[u] and _autokill_targets(st, fr, seat, u):
            return True
        ui = kidx[u]
        ukind = KINDS[ui]
        au = table_a.get(u)
        extras: dict[int, int] = {}
        for t in targets:
            ti = kidx[t]
            a = au[ti] if au is not None else vals.attack(seat, u, KINDS[ti])
            if a is None:
                continue
            dt = table_d.get(t)
            dv = dt[ui] if dt is not None else vals.defense(enemy, t, ukind)
            if dv is None or dv >= max_action:
                continue
            if "submarine" in abil[t] and not _targetable(st, fr, seat, u, t):
                continue  # S6: a hidden submarine (it fires only if its own side can hit: checked too)
            extra = extras.get(ti)
            if extra is None:
                tk = KINDS[ti]
                extra = 0
                for src, k, bonus, tks in pool:
                    if src == u:
                        continue
                    if k == "artillery_support" and tk not in tks:
                        continue
                    if k == "ship_support" and ukind != "sea":
                        continue
                    extra += bonus
                extras[ti] = extra
            if a + extra > dv:
                return True
    return False
