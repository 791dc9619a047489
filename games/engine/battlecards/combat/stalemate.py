"""Stalemate: no unit of either side can hit any enemy unit even with the best support and action number;
the aggressor withdraws and the defender wins (air raids simply end)."""
from __future__ import annotations

from vocabulary.battlecards import KINDS

from ...core.machine import emit
from ..book import RULES
from ..frames import BattleFrame
from ..state import GameState
from .supports import SEA, offer_bonus, support_offers
from .targeting import autokill_targets, targetable
from .values import battle_values, hits


def settle_stalemate(st: GameState, fr: BattleFrame, *, round_cap: bool = False) -> None:
    """Stalemate: the aggressor must withdraw and the defender wins (air raids simply end). `round_cap`:
    settled the same way by the Options.max_battle_rounds cap of self-play (not a rule; see the README)."""
    emit(st, "stalemate", {"round": fr.round, "round_cap": True} if round_cap else {"round": fr.round})
    fr.winner = fr.defender if fr.mode.decides_winner else None
    RULES.move(fr, "settle")


def can_hit(st: GameState, fr: BattleFrame, seat: str) -> bool:
    """Could any unit of `seat` hit any enemy unit with the best possible support and action number?

    Checked at the start of a round (phase 0), when every support offer is open: the best action number
    against an attack value is min(attack, the highest number in the conflict deck)."""
    enemy = st.foe(seat)
    targets = fr.units[enemy]
    if not targets:
        return False
    vals = battle_values(st, fr)
    kidx = st.kidx
    max_action = st.max_action
    chem = fr.chem[seat]
    if chem:  # C11: chemical warfare attacks every enemy ground unit with this attack value
        best = min(chem, max_action)
        for t in targets:
            if kidx[t] == 0 and hits(vals.defense(enemy, t, "air"), best, chem):
                return True
    units = fr.units[seat]
    # the attack supports that could be allocated: (excluded recipient, bonus, need) (combat.supports)
    pool = [(excluded, offer_bonus(st, fr, c), need)
            for c, mode, _, excluded, need in support_offers(st, fr, seat, vals) if mode == "attack"]
    table_a, table_d = vals.A, vals.D
    abil = st.abil
    phases = st.phase
    for u in units:
        if phases[u] is None:
            continue
        if "autokill" in abil[u] and autokill_targets(st, fr, seat, u):
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
            if not targetable(st, fr, seat, u, t):
                continue  # S6: a hidden submarine (it fires only if its own side can hit: checked too)
            extra = extras.get(ti)
            if extra is None:
                bit = 1 << ti
                extra = extras[ti] = sum(
                    bonus for excluded, bonus, need in pool
                    if excluded != u and (not need or (ui == 2 if need is SEA else need & bit)))
            if hits(dv, min(a + extra, max_action), a + extra):
                return True
    return False
