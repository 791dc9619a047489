"""Supports (GU1, S3, carriers): who may still give which support to whom, described once.

`support_offers` is the ONE description; the fire decision (`support_segments`), the defend window
(`defense_supports`), the can-defend check (`can_defend`) and the stalemate check (combat.stalemate) all
read it. `add_support` records an assigned support.
"""
from __future__ import annotations

from collections.abc import Iterator

from ...core.machine import emit
from ..actions import Support
from ..behaviour import ability
from ..common import SUPPORT_KINDS
from ..frames import BattleFrame, SupportRecord
from ..state import GameState
from .values import BattleValues, battle_values

# recipient pools of an offer
SHOOTERS = "shooters"  # the seat's units that can still fire this round (attack support changes nothing else)
UNITS = "units"        # every unit of the seat in the battle
SEA = -1               # an offer's `need`: the recipient must be a sea unit (ship support); > 0: attack mask


def _supporters(st: GameState, fr: BattleFrame, seat: str, vals: BattleValues) -> list[str]:
    """`seat`'s units in the battle with a support ability (memoised until the units change)."""
    memo = vals.umemo[seat]
    out = memo.get("sp")
    if out is None:
        supp = st.supp
        out = memo["sp"] = [c for c in fr.units[seat] if c in supp]
    return out


def support_offers(st: GameState, fr: BattleFrame, seat: str, vals: BattleValues) -> Iterator[tuple]:
    """The supports `seat` may still assign this round, as offers (supporter, mode, pool, excluded, need):
    one support (supporter -> r, mode) for each r in the pool (SHOOTERS or UNITS) other than `excluded`
    whose attack mask meets `need` (0: any; SEA: a sea unit; else artillery's target-kind mask).

    A carrier assigns its bonuses (attack, or air defense) besides its own fire until they are used up;
    any other supporter gives one support instead of firing, until it has fired or held (GU1): infantry
    attack or defense, artillery attack against its target kinds, a support ship attack to a sea unit."""
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return
    supp = st.supp
    done = vals.done()
    phase = fr.phase
    phases = st.phase
    used = fr.carrier_used
    for c in supporters:
        infantry, art_mask, ship, carriers = supp[c]
        if carriers and used.get(c, 0) < carriers:
            yield c, "attack", SHOOTERS, None, 0
            yield c, "air_defense", UNITS, None, 0
        ph = phases[c]
        if c in done or (ph is not None and ph < phase):
            continue
        if infantry:
            yield c, "attack", SHOOTERS, c, 0
            yield c, "defense", UNITS, c, 0
        if art_mask:
            yield c, "attack", SHOOTERS, c, art_mask
        if ship:
            yield c, "attack", SHOOTERS, c, SEA


def offer_bonus(st: GameState, fr: BattleFrame, supporter: str) -> int:
    """The most an offer of `supporter` can add (a carrier: all its unused bonuses to one unit)."""
    ab = st.abil[supporter]
    if "carrier_bonus" in ab:
        return sum(ab["carrier_bonus"].get("bonuses")[fr.carrier_used.get(supporter, 0):])
    return next(ab[k].get("bonus") for k in SUPPORT_KINDS if k in ab)


def support_segments(st: GameState, fr: BattleFrame, seat: str) -> list[tuple]:
    """The supports of a fire decision as segments (supporter, mode, recipients, excluded, memo key, count):
    one action ("support", seat, supporter, r, mode) per r in recipients other than `excluded`, in order
    (`count` of them), so the actions can be counted without building them."""
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    units = fr.units[seat]
    shooters = None
    segs: list[tuple] = []
    for c, mode, pool, excluded, need in support_offers(st, fr, seat, vals):
        if pool is UNITS:  # memoised per supporter until the units change
            segs.append((c, mode, units, excluded, ("sa" if excluded is None else "sd", c),
                         len(units) - (excluded is not None)))  # the excluded supporter is one of the units
            continue
        if shooters is None:
            memo = vals.umemo[seat]
            phase = fr.phase
            eligible = memo.get(("el", phase))  # units that fire in this phase or later
            if eligible is None:
                phases = st.phase
                eligible = memo[("el", phase)] = [r for r in units if (phases[r] or 0) >= phase]
            done = vals.done()
            shooters = [r for r in eligible if r not in done]
        if not need:
            segs.append((c, mode, shooters, excluded, None, len(shooters) - (excluded in shooters)))
            continue
        if need is SEA:
            kidx = st.kidx
            rs = [r for r in shooters if r != excluded and kidx[r] == 2]
        else:
            amask = st.amask
            rs = [r for r in shooters if r != excluded and amask[r] & need]
        segs.append((c, mode, rs, None, None, len(rs)))
    return segs


def _defense_offers(st: GameState, fr: BattleFrame, seat: str, target: str, akind: str) -> Iterator[tuple]:
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    for c, mode, pool, excluded, _ in support_offers(st, fr, seat, vals):
        if pool is UNITS and target != excluded and (mode == "defense" or akind == "air"):
            yield c, mode


def defense_supports(st: GameState, fr: BattleFrame, seat: str, target: str, akind: str) -> list[tuple]:
    """The defend window (GU1): the supports `seat` may add to `target`'s defense against an `akind` shot."""
    return [("support", seat, c, target, mode) for c, mode in _defense_offers(st, fr, seat, target, akind)]


def can_defend(st: GameState, fr: BattleFrame, seat: str, target: str, akind: str) -> bool:
    """Is there a defend window, i.e. any defense support for `target` (without building them)?"""
    vals = st._vcache
    if vals is not None and vals.fr is fr and vals.umemo[seat].get("sp") == []:
        return False  # the seat has no supporter in this battle (the common case: no generator needed)
    return any(True for _ in _defense_offers(st, fr, seat, target, akind))


def add_support(st: GameState, fr: BattleFrame, a: Support) -> None:
    ab = st.abil[a.unit]
    if "carrier_bonus" in ab:
        n = fr.carrier_used.get(a.unit, 0)
        bonus = ab["carrier_bonus"].get("bonuses")[n]
        fr.carrier_used[a.unit] = n + 1
        entry = SupportRecord(a.unit, a.recipient, a.mode, bonus)
    else:
        kind = next(k for k in SUPPORT_KINDS if k in ab)
        tks = ab[kind].get("target_kinds") if kind == "artillery_support" else None
        entry = SupportRecord(a.unit, a.recipient, a.mode, ab[kind].get("bonus"), tuple(tks) if tks else None)
        fr.done.append(a.unit)  # support replaces the supporter's own fire
    fr.supports.append(entry)
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        vals.support_added(entry)
    if st.record_events:  # hot in self-play (events off): skip building the payload
        emit(st, "support", {"seat": a.seat, "unit": a.unit, "recipient": a.recipient, "mode": a.mode})

ability("infantry_support", support_offers, add_support, rulings="GU1, GP4")
ability("artillery_support", support_offers, add_support, rulings="S5, GU2")
ability("ship_support", support_offers, add_support, rulings="S3")
ability("carrier_bonus", support_offers, add_support, rulings="S4, GP7")
