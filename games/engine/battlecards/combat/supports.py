"""battlecards.combat.supports."""
from __future__ import annotations

from typing import Any

from ...actions import Support
from ...core.machine import emit
from ...state import GameState
from ..common import SUPPORT_KINDS
from .values import BattleValues, battle_values


def _supporters(st: GameState, fr: dict, seat: str, vals: BattleValues) -> list[str]:
    """`seat`'s units in the battle with a support ability (memoised until the units change)."""
    memo = vals.umemo[seat]
    out = memo.get("sp")
    if out is None:
        supp = st.supp
        out = memo["sp"] = [c for c in fr["units"][seat] if c in supp]
    return out


def _support_actions(st: GameState, fr: dict, seat: str, *, only_recipient: str | None = None,
                     defense_vs: str | None = None) -> list[tuple]:
    """Supports `seat` may still assign this round (GU1: any time before the supporter fires).

    Attack support is only offered to units that can still fire this round (it would change nothing else).
    """
    acts: list[tuple] = []
    units = fr["units"][seat]
    supp = st.supp
    vals = battle_values(st, fr)
    memo = vals.umemo[seat]
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return acts
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    used = fr["carrier_used"]
    # the supporters that may still assign something (the loop below checks each one in full)
    supporters = [c for c in supporters
                  if (c not in done and (phases[c] is None or phases[c] >= phase))
                  or (supp[c][3] and used.get(c, 0) < supp[c][3])]
    if not supporters:
        return acts
    if only_recipient is not None:
        recipients: Any = (only_recipient,)
        shooters: Any = ()
    else:
        recipients = None  # all units: the per-supporter lists below are memoised
        eligible = memo.get(("el", phase))  # units that fire in this phase or later
        if eligible is None:
            eligible = memo[("el", phase)] = [r for r in units if (phases[r] or 0) >= phase]
        shooters = [r for r in eligible if r not in done]
    amask = st.amask
    kidx = st.kidx
    attack = defense_vs is None
    for c in supporters:
        infantry, art_mask, ship, carriers = supp[c]
        if carriers and fr["carrier_used"].get(c, 0) < carriers:
            if attack:
                acts.extend([("support", seat, c, r, "attack") for r in shooters])
            if defense_vs in (None, "air"):
                if recipients is None:
                    keys = memo.get(("sa", c))
                    if keys is None:
                        keys = memo[("sa", c)] = [("support", seat, c, r, "air_defense") for r in units]
                    acts.extend(keys)
                else:
                    acts.extend([("support", seat, c, r, "air_defense") for r in recipients])
        if c in done:
            continue
        ph = phases[c]
        if ph is not None and ph < phase:
            continue
        if infantry:
            if attack:
                acts.extend([("support", seat, c, r, "attack") for r in shooters if r != c])
            if recipients is None:
                keys = memo.get(("sd", c))
                if keys is None:
                    keys = memo[("sd", c)] = [("support", seat, c, r, "defense") for r in units if r != c]
                acts.extend(keys)
            else:
                acts.extend([("support", seat, c, r, "defense") for r in recipients if r != c])
        if not attack:
            continue
        if art_mask:
            acts.extend([("support", seat, c, r, "attack") for r in shooters
                         if r != c and amask[r] & art_mask])
        if ship:
            acts.extend([("support", seat, c, r, "attack") for r in shooters if r != c and kidx[r] == 2])
    return acts


def _support_segments(st: GameState, fr: dict, seat: str) -> list[tuple]:
    """The supports of a fire decision (as _support_actions builds them) in segments
    (supporter, mode, recipients, excluded, memo key, count): one action ("support", seat, supporter, r, mode)
    per r in recipients other than `excluded`, in order (`count` of them). Lets the actions be counted
    without building them."""
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return []
    supp = st.supp
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    used = fr["carrier_used"]
    units = fr["units"][seat]
    shooters = None
    segs: list[tuple] = []
    for c in supporters:
        infantry, art_mask, ship, carriers = supp[c]
        # a carrier assigns its bonuses besides its own fire; any other supporter until it fires (GU1)
        carrier = carriers and used.get(c, 0) < carriers
        ph = phases[c]
        own = c not in done and (ph is None or ph >= phase)
        if not (carrier or own):
            continue
        if shooters is None:
            memo = vals.umemo[seat]
            eligible = memo.get(("el", phase))  # units that fire in this phase or later
            if eligible is None:
                eligible = memo[("el", phase)] = [r for r in units if (phases[r] or 0) >= phase]
            shooters = [r for r in eligible if r not in done]
        if carrier:
            segs.append((c, "attack", shooters, None, None, len(shooters)))
            segs.append((c, "air_defense", units, None, ("sa", c), len(units)))
        if not own:
            continue
        if infantry:
            segs.append((c, "attack", shooters, c, None, len(shooters) - (c in shooters)))
            segs.append((c, "defense", units, c, ("sd", c), len(units) - 1))  # c is one of the units
        if art_mask:
            amask = st.amask
            rs = [r for r in shooters if r != c and amask[r] & art_mask]
            segs.append((c, "attack", rs, None, None, len(rs)))
        if ship:
            kidx = st.kidx
            rs = [r for r in shooters if r != c and kidx[r] == 2]
            segs.append((c, "attack", rs, None, None, len(rs)))
    return segs


def _add_support(st: GameState, fr: dict, a: Support) -> None:
    ab = st.abil[a.unit]
    if "carrier_bonus" in ab:
        n = fr["carrier_used"].get(a.unit, 0)
        bonus = ab["carrier_bonus"].get("bonuses")[n]
        fr["carrier_used"][a.unit] = n + 1
        entry = [a.unit, a.recipient, a.mode, bonus, None]
    else:
        kind = next(k for k in SUPPORT_KINDS if k in ab)
        tks = ab[kind].get("target_kinds") if kind == "artillery_support" else None
        entry = [a.unit, a.recipient, a.mode, ab[kind].get("bonus"), list(tks) if tks else None]
        fr["done"].append(a.unit)  # support replaces the supporter's own fire
    fr["supports"].append(entry)
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        vals.support_added(entry)
    if st.record_events:
        emit(st, "support", {"seat": a.seat, "unit": a.unit, "recipient": a.recipient, "mode": a.mode})


def _can_defend(st: GameState, fr: dict, seat: str, target: str, akind: str) -> bool:
    """Has `seat` unassigned support that could still shore up `target`'s defense (same as the defend
    window's support actions, without building them)?"""
    vals = st._vcache  # battle_values(st, fr), inlined on this hot path
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return False
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    supp = st.supp
    used = fr["carrier_used"]
    for c in supporters:
        infantry, _, _, carriers = supp[c]
        if carriers and akind == "air" and used.get(c, 0) < carriers:
            return True
        if infantry and c != target and c not in done and (phases[c] or 9) >= phase:
            return True
    return False
