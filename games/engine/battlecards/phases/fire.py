"""Firing phases 1-4: the fire decision (fire, autokill, support, hold, the A-bomb plays of the seat's own
phase-2 turn), when the out-of-turn A-bomb window (C8; its decision: effects.abomb) is asked, the defend and
retarget windows (GU1), shot resolution and a submarine's withdrawal after firing (S6)."""
from __future__ import annotations

from typing import Any

from ...core.errors import required
from ...core.machine import RuleBook, emit
from ..actions import Autokill, Fire, Hold, Pass, PlayCard, Support, Withdraw
from ..behaviour import PHASE_2, window_of
from ..book import RULES
from ..combat.casualties import check_battle_end, destroy_unit, withdraw_unit
from ..combat.supports import add_support, can_defend, defense_supports, support_segments
from ..combat.targeting import autokill_targets, exhausted, fire_targets
from ..combat.values import battle_values, hits
from ..common import KAutokill, KFire, KHold, KPass, KWithdraw
from ..effects.abomb import A_BOMB_WINDOW, abomb_plays
from ..frames import BattleFrame, PendingShot, Phase2Mark, SubmarineWithdrawal
from ..state import Decision, GameState
from ..zones import draw_action_number


def seat_on_side(fr: BattleFrame) -> str:
    return fr.aggressor if fr.side == 0 else fr.defender


def _actors(st: GameState, fr: BattleFrame, seat: str) -> list[str]:
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = battle_values(st, fr)
    memo = vals.umemo[seat]
    phase = fr.phase
    done_list = fr.done
    cached = memo.get(("a", phase))  # (done list, its length, actors): the done list only grows
    if cached is not None and cached[0] is done_list and cached[1] == len(done_list):
        return cached[2]
    units = memo.get(phase)  # `seat`'s units that fire in this phase (memoised until the units change)
    if units is None:
        phases = st.phase
        units = memo[phase] = [u for u in fr.units[seat] if phases[u] == phase]
    if not units:
        return units
    done = vals.done()
    out = [u for u in units if u not in done]
    memo[("a", phase)] = (done_list, len(done_list), out)
    return out


def _p2_out_window(st: GameState, fr: BattleFrame, seat: str) -> bool:
    """C8 (the A-bomb any time in phase 2): is `seat`'s window outside its own phase-2 turn open? The
    defender's comes before the aggressor's phase-2 turn, the aggressor's after the defender's, each only
    when that other turn takes place. Opened on public facts like every play window (the seat holds any
    kept card; the units' phases), until the seat passes; `pass` is always legal.
    fr.p2_passed holds the Phase2Marks: the seat passed in its own phase-2 turn (PASSED), passed this
    window (OUT_PASSED), acted in its own phase-2 turn (ACTED)."""
    passed = fr.p2_passed
    if not st.team(seat)["kept"] or Phase2Mark.of(seat, Phase2Mark.OUT_PASSED) in passed:
        return False
    other = st.foe(seat)
    if seat == fr.defender:
        return bool(_actors(st, fr, other)) or (Phase2Mark.of(other, Phase2Mark.PASSED) not in passed
                                                and bool(st.team(other)["kept"]))
    return Phase2Mark.of(other, Phase2Mark.ACTED) in passed


def stage_phase(st: GameState, fr: BattleFrame) -> Decision | None:
    if (wd := fr.sub_wd) is not None:
        return Decision(wd.seat, "sub_withdraw", {"unit": wd.submarine})
    shot = fr.shot
    if shot is not None:
        if shot.stage == "defend":
            return Decision(shot.enemy, "defend", {"unit": shot.unit, "target": shot.target,
                                                      "type": shot.type})
        return Decision(shot.seat, "retarget", {"unit": shot.unit, "target": shot.target,
                                                   "type": shot.type})
    while True:
        seat = fr.aggressor if fr.side == 0 else fr.defender
        if fr.phase == 2 and fr.side == 0 and _p2_out_window(st, fr, fr.defender):
            # C8: the A-bomb any time in phase 2: the defender before the aggressor's phase-2 shots
            return Decision(fr.defender, A_BOMB_WINDOW, {"round": fr.round})
        if _actors(st, fr, seat) or (
                fr.phase == 2 and Phase2Mark.of(seat, Phase2Mark.PASSED) not in fr.p2_passed
                and st.team(seat)["kept"]):
            prev = st.decision  # the same question again: reuse the (immutable) decision
            if prev is not None and prev.kind == "fire" and prev.seat == seat:
                p = prev.prompt
                if p.get("round") == fr.round and p.get("phase") == fr.phase and len(p) == 2:
                    return prev
            return Decision(seat, "fire", {"round": fr.round, "phase": fr.phase})
        if fr.side == 0:
            fr.side = 1
            continue
        if fr.phase == 2 and _p2_out_window(st, fr, fr.aggressor):
            # C8: ... and the aggressor after the defender's phase-2 shots
            return Decision(fr.aggressor, A_BOMB_WINDOW, {"round": fr.round})
        if fr.phase < 4:
            fr.phase += 1
            fr.side = 0
            continue
        break
    if fr.mode.rounds is not None and fr.round >= fr.mode.rounds:  # C15: an Air Raid is one round
        fr.winner = None
        RULES.move(fr, "settle")
        return None
    RULES.move(fr, "withdraw")
    fr.side = 0
    return None


FireParts = tuple[str, list[str], list[tuple], list[tuple], list[tuple], int]


def _fire_parts(st: GameState, fr: BattleFrame) -> FireParts:
    """A fire decision's legal actions in parts: the actors, then per actor (unit, fire targets, autokill
    targets): its fire actions, autokills and hold ("pass" first when there is no actor: only the seat's
    own phase-2 window is open); then the support segments (see _support_segments) and the A-bomb plays;
    last the number of legal actions."""
    seat = fr.aggressor if fr.side == 0 else fr.defender
    actors = _actors(st, fr, seat)
    abil = st.abil
    heads = []
    n = 0 if actors else 1  # "pass" when there is no actor
    if actors:
        # the memo hit of fire_targets inlined (the common case: the same shots, fired submarines,
        # intelligence and enemy units as when the list was built); anything else goes through it
        vals = st._vcache  # _actors just made sure it is this battle's
        memo = vals.ftargets[seat]
        shots_of = fr.shots
        nf = len(fr.fired)
        intel = fr.intel[seat]
        ngone = len(vals.gone[st.foe(seat)])
        for u in actors:
            entry = memo.get(u)
            shots = shots_of.get(u)
            if (entry is not None and entry[0] == (len(shots) if shots else 0) and entry[1] == nf
                    and entry[2] == intel and entry[4] == ngone):
                targets = entry[3]
            else:
                targets = fire_targets(st, fr, seat, u)
            if "autokill" in abil[u]:
                autokills = autokill_targets(st, fr, seat, u)
                n += len(autokills)
            else:
                autokills = None
            heads.append((u, targets, autokills))
            n += len(targets) + 1  # its fire actions and hold
    sp = st._vcache.umemo[seat].get("sp")  # _supporters' memo: known to be empty, no segments
    segs = support_segments(st, fr, seat) if sp is None or sp else []
    for seg in segs:
        n += seg[5]
    if fr.phase == 2:
        tail = abomb_plays(st, fr, seat)
        n += len(tail)
    else:
        tail = []
    return seat, actors, heads, segs, tail, n


def legal_fire(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat, actors, heads, segs, tail, _ = _fire_parts(st, fr)
    acts: list[tuple] = [] if actors else [("pass", seat)]
    memo = battle_values(st, fr).fkeys[seat]
    for u, targets, autokills in heads:
        # the fire actions of u and its hold, memoised with its target list
        entry = memo.get(u)
        if entry is not None and entry[0] is targets:
            keys = entry[1]
        else:
            keys = [("fire", seat, u, t) for t in targets]
            keys.append(("hold", seat, u))
            memo[u] = (targets, keys)
        if autokills is not None:
            acts.extend(keys[:-1])
            acts.extend(("autokill", seat, u, t) for t in autokills)
            acts.append(keys[-1])
        else:
            acts.extend(keys)
    if segs:
        memo = battle_values(st, fr).umemo[seat]
        for c, mode, recipients, excluded, key, _ in segs:
            if key is None:
                acts.extend([("support", seat, c, r, mode) for r in recipients if r != excluded])
                continue
            keys = memo.get(key)
            if keys is None:
                keys = memo[key] = [("support", seat, c, r, mode) for r in recipients if r != excluded]
            acts.extend(keys)
    if tail:
        acts.extend(tail)
    return acts



def fire_key_at(st: GameState, fr: BattleFrame, pick: Any) -> tuple:
    """legal_fire(st, fr)[pick(n)] building only that key (n = the number of legal actions)."""
    seat, actors, heads, segs, tail, n = _fire_parts(st, fr)
    i = pick(n)
    if not actors:
        if i == 0:
            return ("pass", seat)
        i -= 1
    for u, targets, autokills in heads:
        if i < len(targets):
            return ("fire", seat, u, targets[i])
        i -= len(targets)
        if autokills is not None:
            if i < len(autokills):
                return ("autokill", seat, u, autokills[i])
            i -= len(autokills)
        if i == 0:
            return ("hold", seat, u)
        i -= 1
    for c, mode, recipients, excluded, _, count in segs:
        if i < count:
            if excluded is not None and excluded in recipients and i >= recipients.index(excluded):
                i += 1
            return ("support", seat, c, recipients[i], mode)
        i -= count
    return tail[i]


def act_fire(st: GameState, fr: BattleFrame, a: Fire | Autokill | Support | Hold | Pass | PlayCard) -> None:
    seat = a.seat
    if fr.phase == 2 and fr.side == 1 and seat == fr.defender:
        mark = Phase2Mark.of(seat, Phase2Mark.ACTED)
        if mark not in fr.p2_passed:
            fr.p2_passed.append(mark)  # C8: the aggressor's A-bomb window follows this turn
    if isinstance(a, (Fire, Autokill)):
        _declare(st, fr, a)
    elif isinstance(a, Support):
        add_support(st, fr, a)
    elif isinstance(a, Hold):
        fr.done.append(a.unit)
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "hold", {"seat": seat, "unit": a.unit})
    elif isinstance(a, Pass):
        # the seat's own phase-2 window (its out-of-turn one: effects.abomb)
        fr.p2_passed.append(Phase2Mark.of(seat, Phase2Mark.PASSED))
    elif isinstance(a, PlayCard):
        window_of(st, a.card, PHASE_2).resolve(st, fr, a)  # the A-bomb (effects.abomb)
        check_battle_end(st, fr)


def _declare(st: GameState, fr: BattleFrame, a: Fire | Autokill) -> None:
    """GU1: the target may strengthen its defense with unassigned support; then the shooter may switch."""
    enemy = st.foe(a.seat)
    akind = st.defs[a.unit].kind
    if can_defend(st, fr, enemy, a.target, akind):
        fr.shot = PendingShot(a.seat, enemy, a.unit, a.target, a.type, "defend")
        emit(st, "target_declared", {"seat": a.seat, "unit": a.unit, "target": a.target, "type": a.type})
        return
    _resolve(st, fr, a)


def legal_defend(st: GameState, fr: BattleFrame) -> list[tuple]:
    shot = required(fr.shot, "pending shot")
    enemy = shot.enemy
    return [KPass(enemy)] + defense_supports(st, fr, enemy, shot.target,
                                       st.defs[shot.unit].kind)


def act_defend(st: GameState, fr: BattleFrame, a: Pass | Support) -> None:
    shot = required(fr.shot, "pending shot")
    if isinstance(a, Support):
        add_support(st, fr, a)
        fr.shot = shot.supported()
        return
    if shot.assigned:
        fr.shot = shot.to_retarget()
        return
    fr.shot = None
    cls = Fire if shot.type == "fire" else Autokill
    _resolve(st, fr, cls(shot.seat, shot.unit, shot.target))


def legal_retarget(st: GameState, fr: BattleFrame) -> list[tuple]:
    shot = required(fr.shot, "pending shot")
    seat, unit = shot.seat, shot.unit
    if shot.type == "fire":
        acts: list[tuple] = [KFire(seat, unit, t) for t in fire_targets(st, fr, seat, unit)]
    else:
        acts = [KAutokill(seat, unit, t) for t in autokill_targets(st, fr, seat, unit)]
    return acts + [KHold(seat, unit)]


def act_retarget(st: GameState, fr: BattleFrame, a: Fire | Autokill | Hold) -> None:
    fr.shot = None
    if isinstance(a, Hold):
        fr.done.append(a.unit)
        return
    # GU1: no card is pulled yet, so the new target may in turn be shored up by unassigned support
    _declare(st, fr, a)


def _resolve(st: GameState, fr: BattleFrame, a: Fire | Autokill) -> None:
    seat, u, t = a.seat, a.unit, a.target
    enemy = st.foe(seat)
    if u not in fr.fired and "submarine" in st.abil[u]:
        fr.fired.append(u)  # S7: a submarine that has fired is no longer hidden
    if isinstance(a, Autokill):
        fr.shots[u] = ["autokill"]
        fr.done.append(u)
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "autokill", {"seat": seat, "unit": u, "target": t, "code": st.code[t]})
        destroy_unit(st, enemy, t, "autokill")
    else:
        tk = st.defs[t].kind
        vals = st._vcache  # battle_values(st, fr), inlined on this hot path
        if vals is None or vals.fr is not fr:
            vals = battle_values(st, fr)
        attack = vals.attack(seat, u, tk)
        defense = vals.defense(enemy, t, st.defs[u].kind)
        n, card = draw_action_number(st)
        hit = hits(defense, n, attack)
        fr.shots.setdefault(u, []).append(tk)
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "shot", {"seat": seat, "unit": u, "target": t, "attack": attack, "defense": defense,
                             "number": n, "card": card, "hit": hit})
        if hit:
            destroy_unit(st, enemy, t, "shot")
        if exhausted(st, fr, seat, u):
            fr.done.append(u)
    if check_battle_end(st, fr):
        return
    if "submarine" in st.abil[u] and u in fr.units[seat]:
        fr.sub_wd = SubmarineWithdrawal(seat, u)  # S6: may withdraw right after firing


def legal_sub_withdraw(st: GameState, fr: BattleFrame) -> list[tuple]:
    wd = required(fr.sub_wd, "submarine that may withdraw")
    return [KWithdraw(wd.seat, wd.submarine), KPass(wd.seat)]


def act_sub_withdraw(st: GameState, fr: BattleFrame, a: Withdraw | Pass) -> None:
    fr.sub_wd = None
    if isinstance(a, Withdraw):
        withdraw_unit(st, fr, a.seat, a.unit, "submarine")
        check_battle_end(st, fr)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.decision("fire", legal=legal_fire, act=act_fire, key_at=fire_key_at)
    book.decision("defend", legal=legal_defend, act=act_defend)
    book.decision("retarget", legal=legal_retarget, act=act_retarget)
    book.decision("sub_withdraw", legal=legal_sub_withdraw, act=act_sub_withdraw)
