"""Who may shoot at whom: fire targets (N/A values, attack against defense, big/heavy guns S1/S3, double
attack), autokill targets (G2, GU4, GU5) and the one submarine-stealth rule (S6, S7)."""
from __future__ import annotations

from vocabulary.battlecards import KINDS

from ..behaviour import ability
from ..frames import BattleFrame
from ..state import GameState
from .values import BattleValues, battle_values


def targetable(st: GameState, fr: BattleFrame, seat: str, u: str, t: str) -> bool:
    """S6, S7: before a submarine fires only destroyers and submarines may target it, unless intelligence;
    an aggressor's submarine not even they (S6 NOTE: "If the submarine is the aggressor, it may fire and
    retreat from battle without fear of enemy reprisal")."""
    if "submarine" in st.abil[t] and t not in fr.fired and not fr.intel[seat]:
        if fr.aggressor != seat:  # t belongs to the aggressor
            return False
        classes = st.defs[u].classes
        return "destroyer" in classes or "submarine" in classes
    return True


def _is_big(st: GameState, u: str) -> bool:
    ab = st.abil[u]
    return "big_guns" in ab or "heavy_guns" in ab or "ship_support" in ab


def _shot_allowed(st: GameState, fr: BattleFrame, u: str, tkind: str) -> bool:
    shots = fr.shots.get(u)
    if not shots:
        return True
    ab = st.abil[u]
    if "double_attack" in ab:
        return len(shots) < 2
    if _is_big(st, u):
        if tkind not in shots:
            return True
        return "heavy_guns" in ab and len(shots) == len(set(shots))  # S1: one more shot at any group
    return False


def exhausted(st: GameState, fr: BattleFrame, seat: str, u: str) -> bool:
    shots = fr.shots.get(u, ())
    ab = st.abil[u]
    if "double_attack" in ab:
        return len(shots) >= 2
    if _is_big(st, u):
        groups = {st.defs[t].kind for t in fr.units[st.foe(seat)]}
        if any(g not in shots for g in groups):
            return False
        return not ("heavy_guns" in ab and len(shots) == len(set(shots)))
    return len(shots) >= 1


def fire_targets(st: GameState, fr: BattleFrame, seat: str, u: str) -> list[str]:
    vals = st._vcache  # battle_values(st, fr), inlined on this hot path
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    shots = fr.shots.get(u)
    intel = fr.intel[seat]
    fired = fr.fired
    # shots and fired (submarines that gave their position away) only grow within a battle, and any
    # change of values or units clears the memo
    n = len(shots) if shots else 0
    nf = len(fired)
    memo = vals.ftargets[seat]
    entry = memo.get(u)
    gone = vals.gone[st.foe(seat)]
    if entry is not None and entry[0] == n and entry[1] == nf and entry[2] == intel:
        out = entry[3]
        if entry[4] != len(gone):
            # enemy units that left since: nothing else about u's targets changed (values changes drop
            # the entry), so the list is the same without them
            left = gone[entry[4]:]
            out = [t for t in out if t not in left]
            memo[u] = (n, nf, intel, out, len(gone))
        return out
    out = _compute_fire_targets(st, fr, seat, u, vals, shots, intel, fired)
    memo[u] = (n, nf, intel, out, len(gone))
    return out


def _compute_fire_targets(st: GameState, fr: BattleFrame, seat: str, u: str, vals: BattleValues,
                          shots: list | None, intel: bool, fired: list) -> list[str]:
    au = vals.A[u]
    table = vals.D
    kidx = st.kidx
    ki = kidx[u]
    abil = st.abil
    out = []
    allowed = [_shot_allowed(st, fr, u, k) for k in KINDS] if shots else None
    for t in fr.units[st.foe(seat)]:
        tk = kidx[t]
        if allowed is not None and not allowed[tk]:
            continue
        a = au[tk]
        if a is None:
            continue
        d = table[t][ki]
        if d is None or a < d:
            continue
        if "submarine" in abil[t] and not targetable(st, fr, seat, u, t):
            continue
        out.append(t)
    return out


def _has_infantry(st: GameState, fr: BattleFrame, seat: str) -> bool:
    # GU5: anything that says "Infantry" (class infantry: SS, SAS, rangers... too) enables armour autokills;
    # special forces that do not (the OSS saboteurs) do not
    return any("infantry" in st.defs[c].classes for c in fr.units[seat])


def autokill_targets(st: GameState, fr: BattleFrame, seat: str, u: str) -> list[str]:
    ak = st.abil[u].get("autokill")
    if ak is None or fr.shots.get(u):
        return []
    if ak.get("first_round_only") and fr.round != 1:
        return []
    if ak.get("requires_infantry") and not _has_infantry(st, fr, seat):
        return []  # G2: generals need none
    enemy = st.foe(seat)
    # memoised beside u's fire targets (vals.ftargets[seat], cleared when an enemy defense changes) for
    # the same round, fired submarines, intelligence and enemy units (they only leave: vals.gone)
    vals = battle_values(st, fr)
    memo = vals.ftargets[seat]
    sig = (fr.round, len(fr.fired), fr.intel[seat], len(vals.gone[enemy]))
    entry = memo.get(("ak", u))
    if entry is not None and entry[0] == sig:
        return entry[1]
    ukind = st.defs[u].kind
    kinds = ak.get("target_kinds")
    limit = ak.get("max_defense")
    out = []
    for t in fr.units[enemy]:
        if st.defs[t].kind not in kinds:
            continue
        d = vals.defense(enemy, t, ukind)  # G2: bonuses count when checking the threshold
        if d is not None and d <= limit and targetable(st, fr, seat, u, t):
            out.append(t)
    memo[("ak", u)] = (sig, out)
    return out

ability("autokill", autokill_targets, rulings="G2, GU4, GU5")
ability("big_guns", _shot_allowed, exhausted, rulings="S1, S3")
ability("heavy_guns", _shot_allowed, exhausted, rulings="S1")
ability("submarine", targetable, rulings="S6, S7; withdrawal after firing: phases.fire._resolve")
ability("double_attack", _shot_allowed, exhausted, rulings="C8 (the A-bomb delivery: effects.abomb)")
