"""The battle as a declared table of stages (BATTLE_STAGES): optional forces (GP5, C7, C12) -> stacks (which
of a divided side's stacks fight, C1, C2) -> check (GU3)
-> leaders (G5, C15) -> muster (C13) -> window -> phase0 (OSS sabotage, chemical warfare C11, stalemate)
-> phase (phases.fire) -> withdraw -> settle -> scorch -> done (phases.settle)."""
from __future__ import annotations

from typing import Any

from ...core.machine import RuleBook, Stage, emit
from ..actions import Choose, Pass, Withdraw, split_stack_ref
from ..behaviour import ability
from ..book import RULES
from ..combat.casualties import check_battle_end, destroy_unit, withdraw_unit
from ..combat.stalemate import can_hit, settle_stalemate
from ..combat.values import defense_value, hits, invalidate
from ..common import KChoose, KPass, KWithdraw
from ..effects.sabotage import sabotage_targets
from ..frames import BattleFrame, DeployFrame, PendingSabotage
from ..optional_rules import occupied_defense
from ..state import Decision, GameState
from ..zones import army_map, deployed_cards, draw_action_number, draw_arsenal
from .fire import seat_on_side, stage_phase
from .settle import stage_done, stage_scorch, stage_settle


def _armies(fr: BattleFrame, seat: str) -> tuple[str, ...]:
    """The armies whose forces fight in `seat`'s side: `seat` itself, and in a team game's homeland battle
    the teammates joined under it (frames._join_armies)."""
    joined = fr.joined
    return (seat,) if joined is None else (seat, *joined[seat])


def _optional_units(st: GameState, fr: BattleFrame, seat: str, army: str | None = None) -> list[str]:
    """C7, C12, GP5: classes a battlecard makes optional, and radar in battles without ground forces
    (Optional Rule 5.3: radar may also help defend an occupied battlecard). `army`: a teammate joined under
    `seat` in a homeland battle (its own ground stacks, the battle's classes of `seat`'s side)."""
    occupied = occupied_defense(st, fr, seat)
    if "ground" in fr.kinds[seat] and not occupied:
        return []
    classes = () if occupied else fr.opt_classes[seat]
    out = []
    for s in st.players[army or seat]["stacks"]["ground"]:
        for c in s:
            d = st.defs[c]
            if "radar" in st.abil[c] or any(cl in d.classes for cl in classes):
                out.append(c)
    return out


def _present(st: GameState, fr: BattleFrame, seat: str) -> list[str]:
    if occupied_defense(st, fr, seat):  # Optional Rule 5.3: only the units under the battlecard
        out = list(st.players[seat]["occupied"][fr.card])
        if fr.include[seat]:
            out.extend(_optional_units(st, fr, seat))
        return out
    out = _forces(st, fr, seat, seat)
    if fr.joined is not None:  # a homeland battle: the teammates' forces fight in the commander's side
        for army in fr.joined[seat]:
            out.extend(_forces(st, fr, seat, army))
    return out


def _forces(st: GameState, fr: BattleFrame, seat: str, army: str) -> list[str]:
    """`army`'s deployed cards in `seat`'s side of the battle: its stacks of the kinds called for `seat`
    (the one it chose of a divided kind), and its optional units if committed."""
    stacks = st.players[army]["stacks"]
    chosen = fr.stacks.get(army, {})
    out: list[str] = []
    for kind in fr.kinds[seat]:
        i = chosen.get(kind)
        if i is not None and i < len(stacks[kind]):
            out.extend(stacks[kind][i])  # C2: a divided side fights with the stack it chose
            continue
        for s in stacks[kind]:
            out.extend(s)
    if fr.include[army]:
        out.extend(_optional_units(st, fr, seat, army))
    return out


def _has_forces(st: GameState, fr: BattleFrame, seat: str, present: list[str]) -> bool:
    unit_ids = st.unit_ids
    units = [c for c in present if c in unit_ids]
    if not units:
        return False
    if fr.need_infantry_free[seat]:
        # GU3: a non-artillery ground unit (not a leader, radar or special device) is needed to start
        return any(
            st.defs[c].kind == "ground" and not st.defs[c].is_artillery
            and "special" not in st.defs[c].classes and "radar" not in st.abil[c]
            for c in units
        )
    return True


def _stage_optional(st: GameState, fr: BattleFrame) -> Decision | None:
    for seat in (fr.aggressor, fr.defender):
        # asked on public facts (a non-empty ground stack): what the stack holds stays secret
        optional = "ground" not in fr.kinds[seat] or occupied_defense(st, fr, seat)
        if seat not in fr.asked and optional and any(st.players[seat]["stacks"]["ground"]):
            fr.asking = seat
            return Decision(seat, "commit_optional", {"classes": fr.opt_classes[seat] + ["radar"]})
        if fr.joined is not None and optional and not occupied_defense(st, fr, seat):
            # a homeland battle: each joined army commits its own optional forces (its stacks are its own)
            for army in fr.joined[seat]:
                if army not in fr.asked and any(st.players[army]["stacks"]["ground"]):
                    fr.asking = army
                    return Decision(army, "commit_optional", {"classes": fr.opt_classes[seat] + ["radar"],
                                                              "commander": seat})
    RULES.move(fr, "stacks")
    return None


def legal_commit_optional(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat = fr.asking
    return [KChoose(seat, "include"), KChoose(seat, "exclude")]


def act_commit_optional(st: GameState, fr: BattleFrame, a: Choose) -> None:
    fr.asked.append(a.seat)
    fr.include[a.seat] = a.option == "include"


def _stack_choices(st: GameState, fr: BattleFrame, seat: str, kind: str) -> list[int]:
    """The non-empty stacks of `kind` a side may fight with (sizes are public: a choice between one says
    nothing)."""
    return [i for i, s in enumerate(st.players[seat]["stacks"][kind]) if s]


def _pending_stack(st: GameState, fr: BattleFrame) -> tuple[str, str] | None:
    """The next (army, kind) whose owner must choose which of his divided stacks fights (aggressor first;
    in a homeland battle each joined army chooses its own after its commander, frames._join_armies)."""
    chosen = fr.stacks
    for seat in (fr.aggressor, fr.defender):
        if occupied_defense(st, fr, seat):
            continue  # Optional Rule 5.3: only the units under the battlecard defend
        for army in _armies(fr, seat):
            for kind in fr.kinds[seat]:
                if kind not in chosen[army] and len(_stack_choices(st, fr, army, kind)) > 1:
                    return army, kind
    return None


def _stage_stacks(st: GameState, fr: BattleFrame) -> Decision | None:
    """C1, C2 (estimated reading): divided stacks are "forevermore treated as separate stacks", so a battle
    calling a kind is fought by ONE stack of it: each side with several non-empty stacks of a called kind
    chooses one, secretly (the choice is a private event; the views show no battle forces before both
    chose), aggressor first. The leader still draws from any stack (G5: phases.battle._stage_leaders)."""
    pending = _pending_stack(st, fr)
    if pending is not None:
        return Decision(pending[0], "battle_stack", {"kind": pending[1]})
    chosen = fr.stacks
    if any(chosen.values()):
        emit(st, "battle_stacks", {"card": fr.card, "stacks": {
            s: {k: f"{k}:{i}" for k, i in chosen[s].items()} for s in chosen if chosen[s]}})
    RULES.move(fr, "check")
    return None


def legal_battle_stack(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat, kind = _pending_stack(st, fr)  # type: ignore[misc]
    return [KChoose(seat, "stack", stack=f"{kind}:{i}") for i in _stack_choices(st, fr, seat, kind)]


def act_battle_stack(st: GameState, fr: BattleFrame, a: Choose) -> None:
    assert a.stack is not None  # legal_battle_stack: a stack choice
    kind, idx = split_stack_ref(a.stack)
    fr.stacks[a.seat][kind] = int(idx)
    # secret until both chose (then the public battle_stacks event)
    emit(st, "battle_stack_chosen", {"seat": a.seat, "stack": a.stack}, a.seat)


def _stage_check(st: GameState, fr: BattleFrame) -> Decision | None:
    agg, dfd = fr.aggressor, fr.defender
    has = {s: _has_forces(st, fr, s, _present(st, fr, s)) for s in fr.units}
    if not has[agg] or not has[dfd]:
        if not has[agg] and not has[dfd]:
            emit(st, "battle_ignored", {"card": fr.card})
            fr.winner = None
            RULES.move(fr, "settle")
            fr.ignored = True
            return None
        fr.winner = (agg if has[agg] else dfd) if fr.mode.decides_winner else None
        emit(st, "battle_uncontested", {"card": fr.card, "winner": fr.winner})
        RULES.move(fr, "settle")
        return None
    RULES.move(fr, "leaders")
    _reveal(st, fr)
    return None


def _reveal(st: GameState, fr: BattleFrame) -> None:
    invalidate(st)
    for seat in fr.units:
        fr.present[seat] = _present(st, fr, seat)
    data: dict[str, Any] = {
        "card": fr.card, "code": st.code.get(fr.card) if fr.card else None, "mode": fr.mode.name,
        "aggressor": fr.aggressor,
        "forces": {s: [[c, st.code[c]] for c in fr.present[s]] for s in fr.units},
    }
    if fr.joined is not None:  # a homeland battle: whose each revealed card is
        armies = army_map(st, fr)
        data["joined"] = {s: list(a) for s, a in fr.joined.items()}
        data["armies"] = {c: armies[c] for s in fr.units for c in fr.present[s]}
    emit(st, "battle_revealed", data)


def _stage_leaders(st: GameState, fr: BattleFrame) -> Decision | None:
    """G5, C15: each deployed leader draws and deploys cards at the start of any battle."""
    RULES.move(fr, "muster")
    pushes = []
    for side_seat in (fr.aggressor, fr.defender):
        # a homeland battle: the joined armies' leaders too, each into its own army (frames._join_armies)
        for seat in _armies(fr, side_seat):
            for c in deployed_cards(st, seat):
                ab = st.abil[c].get("leader")
                if ab is None:
                    continue
                drawn = []
                for _ in range(ab.get("draw")):
                    new = draw_arsenal(st, seat)
                    if new is None:
                        break
                    st.players[seat]["hand"].append(new)
                    drawn.append(new)
                if drawn:
                    emit(st, "leader_draw", {"seat": seat, "count": len(drawn)})
                    pushes.append(DeployFrame(seat, len(drawn), drawn, "leader"))
    st.frames.extend(reversed(pushes))
    return None


def _stage_muster(st: GameState, fr: BattleFrame) -> Decision | None:
    invalidate(st)
    sea = False
    for seat in fr.units:
        present = _present(st, fr, seat)
        fr.present[seat] = present
        fr.units[seat] = [c for c in present if c in st.unit_ids]
        sea = sea or any(st.defs[c].kind == "sea" for c in fr.units[seat])
    for seat in fr.units:
        deployed = deployed_cards(st, seat)
        if fr.joined is not None:  # a homeland battle: the joined armies' codebreakers and intelligence count
            for army in fr.joined[seat]:
                deployed = deployed + deployed_cards(st, army)
        cb = sum(st.abil[c]["codebreaker"].get("attack_bonus")
                 for c in deployed if "codebreaker" in st.abil[c])
        if sea and cb:  # C13: any battle with a sea unit
            fr.codebreak[seat] = cb
            fr.intel[seat] = True
        if any("intelligence" in st.abil[c] for c in deployed):
            fr.intel[seat] = True
    agg = fr.aggressor
    fr.had_ground = any(st.defs[c].kind == "ground" for c in fr.units[agg])
    for seat in (agg, fr.defender):
        for c in fr.units[seat]:
            if "sabotage" in st.abil[c]:
                fr.sab_queue.append(PendingSabotage(seat, c))
    RULES.move(fr, "window")
    fr.side = 0
    emit(st, "battle_started", {"card": fr.card, "units": {s: [[c, st.code[c]] for c in fr.present[s]]
                                                             for s in fr.units}})
    return None


def _stage_window(st: GameState, fr: BattleFrame) -> Decision | None:
    while fr.side < 2:
        seat = (fr.aggressor, fr.defender)[fr.side]
        if st.team(seat)["kept"]:
            return Decision(seat, "battle_window", {"round": fr.round})
        fr.side += 1
    RULES.move(fr, "phase0")
    fr.p0 = False
    return None


def _stage_phase0(st: GameState, fr: BattleFrame) -> Decision | None:
    """Phase 0: OSS sabotage before the first round (GU4 note), chemical warfare every round (C11)."""
    if fr.round == 1:
        while fr.sab_queue:
            pending = fr.sab_queue[0]
            targets = sabotage_targets(st, fr, pending.seat, pending.unit)
            if len(targets) > 1:
                return Decision(pending.seat, "sabotage_target", {"unit": pending.unit})
            fr.sab_queue.pop(0)
            if targets:
                destroy_unit(st, st.foe(pending.seat), targets[0], "sabotage")
                if check_battle_end(st, fr):
                    return None
    if not fr.p0:
        fr.p0 = True
        for seat in (fr.aggressor, fr.defender):
            attack = fr.chem[seat]
            if not attack:
                continue
            enemy = st.foe(seat)
            for t in [t for t in fr.units[enemy] if st.defs[t].kind == "ground"]:
                d = defense_value(st, fr, enemy, t, "air")
                n, _ = draw_action_number(st)
                hit = hits(d, n, attack)
                emit(st, "chemical_attack", {"seat": seat, "target": t, "number": n, "hit": hit})
                if hit:
                    destroy_unit(st, enemy, t, "chemical-warfare")
                    if check_battle_end(st, fr):
                        return None
    if not can_hit(st, fr, fr.aggressor) and not can_hit(st, fr, fr.defender):
        settle_stalemate(st, fr)
        return None
    RULES.move(fr, "phase")
    fr.phase, fr.side = 1, 0
    return None


def _stage_withdraw(st: GameState, fr: BattleFrame) -> Decision | None:
    while fr.side < 2:
        seat = seat_on_side(fr)
        if fr.units[seat]:
            prev = st.decision  # the same question again: reuse the (immutable) decision
            if prev is not None and prev.kind == "withdraw" and prev.seat == seat \
                    and prev.prompt.get("round") == fr.round and len(prev.prompt) == 1:
                return prev
            return Decision(seat, "withdraw", {"round": fr.round})
        fr.side += 1
    if check_battle_end(st, fr):
        return None
    fr.round += 1
    cap = st.setup.options.max_battle_rounds
    if cap is not None and fr.round > cap:  # an explicit self-play / simulation option, never the rules
        st.round_cap_battles += 1
        settle_stalemate(st, fr, round_cap=True)
        return None
    RULES.move(fr, "window")
    fr.side, fr.phase = 0, 0
    fr.done, fr.shots, fr.supports, fr.carrier_used, fr.p2_passed = [], {}, [], {}, []
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        vals.new_round()  # keeps the values of the units without support (see BattleValues.new_round)
    return None


def legal_withdraw(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat = seat_on_side(fr)
    return [KPass(seat)] + [KWithdraw(seat, u) for u in fr.units[seat]]



def withdraw_key_at(st: GameState, fr: BattleFrame, pick: Any) -> tuple:
    """legal_withdraw(st, fr)[pick(n)] without building the list: pass, then one per unit."""
    seat = seat_on_side(fr)
    units = fr.units[seat]
    i = pick(1 + len(units))
    return ("pass", seat) if i == 0 else ("withdraw", seat, units[i - 1])


def act_withdraw(st: GameState, fr: BattleFrame, a: Pass | Withdraw) -> None:
    if isinstance(a, Pass):
        fr.side += 1
        return
    withdraw_unit(st, fr, a.seat, a.unit, "withdrawal")
    if check_battle_end(st, fr):
        return


# The battle flow, top to bottom: each stage and the stages it may hand the battle to (checked when the table
# is registered and on every move: RULES.move). "settle" is reached from every fighting stage when the battle
# ends (combat.casualties.check_battle_end, combat.stalemate.settle_stalemate, an Air Raid's one round).
BATTLE_STAGES = {
    "optional": Stage(_stage_optional, then=("stacks",)),  # GP5, C7, C12: commit optional forces
    "stacks": Stage(_stage_stacks, then=("check",)),  # C1, C2: which of a divided kind's stacks fights
    "check": Stage(_stage_check, then=("leaders", "settle")),  # GU3: forces to start (else uncontested)
    "leaders": Stage(_stage_leaders, then=("muster",)),  # G5, C15: leaders draw and deploy
    "muster": Stage(_stage_muster, then=("window",)),  # C13: the forces, codebreakers, intelligence
    "window": Stage(_stage_window, then=("phase0", "settle")),  # each round: kept cards (battle_window)
    "phase0": Stage(_stage_phase0, then=("phase", "settle")),  # OSS sabotage, chemical warfare, stalemate
    "phase": Stage(stage_phase, then=("withdraw", "settle")),  # firing phases 1-4 (phases.fire)
    "withdraw": Stage(_stage_withdraw, then=("window", "settle")),  # GP1: withdrawals, then the next round
    "settle": Stage(stage_settle, then=("done", "scorch")),  # the card to the winner, OR5.1 (phases.settle)
    "scorch": Stage(stage_scorch, then=("done",)),  # C17: the loser's Scorched Earth
    "done": Stage(stage_done),  # the battle frame ends
}


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("battle", stages=BATTLE_STAGES)
    book.decision("commit_optional", legal=legal_commit_optional, act=act_commit_optional)
    book.decision("battle_stack", legal=legal_battle_stack, act=act_battle_stack)
    book.decision("withdraw", legal=legal_withdraw, act=act_withdraw, key_at=withdraw_key_at)


ability("leader", _stage_leaders, rulings="G5, C15")
ability("intelligence", _stage_muster, rulings="standing intelligence (also effects.abomb._abomb_ok, view)")
