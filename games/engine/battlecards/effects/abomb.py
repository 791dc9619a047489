"""The A-bomb (G6, C8-C10) and the V-2 rocket (R1.2, C9): the one home of the A-bomb rule.

C8 "The card can be played any time during phase 2 of a battle": in a seat's own phase-2 turn its plays are
part of the fire decision (phases.fire); outside it, the seat is asked in a decision of its own,
`a_bomb_window` (prompt {"round"}; legal actions `pass`, which closes the window for this phase 2, and the
A-bomb `play_card`s), when phases.fire._p2_out_window opens it: the defender's before the aggressor's phase-2
turn, the aggressor's after the defender's. Logs stored before issue 22 answered the same window, then asked
as a `fire` decision, with the same two actions: they replay unchanged."""
from __future__ import annotations

from ...core.errors import required
from ...core.machine import RuleBook, Stage, emit
from ..actions import Action, Pass, PlayCard
from ..behaviour import PHASE_2, V2, Window, ability, card_effect, window_of, window_options
from ..book import RULES
from ..combat.casualties import check_battle_end, destroy_unit
from ..common import KChoose, KPass, KPlayCard
from ..frames import BattleFrame, DeployFrame, Frame, Phase2Mark, V2Frame
from ..state import Decision, GameState
from ..zones import (
    discard_kept,
    draw_arsenal,
    has_ability_deployed,
    kept_with,
    nonempty_refs,
    remove_deployed,
    stack_at,
)


def step_v2(st: GameState, fr: V2Frame) -> Decision | None:
    seat = fr.seat
    # asked whenever the owner holds any kept card, so the question itself reveals nothing
    if st.team(seat)["kept"] and nonempty_refs(st, st.foe(seat)):
        return Decision(seat, "v2_effect", {"card": fr.card})
    _v2_effect(st, seat)
    RULES.move(fr, "replace")
    return None


def step_v2_replace(st: GameState, fr: V2Frame) -> Decision | None:
    """The rocket is spent: discard it and draw a replacement, deployed at once."""
    seat = fr.seat
    remove_deployed(st, seat, fr.card)
    st.pool_of(fr.card)["discard"].append(fr.card)
    st.frames.pop()
    new = draw_arsenal(st, seat)
    if new is None:
        return None
    if "v2_rocket" in st.abil[new]:
        # R1.2: a V-2 drawn to replace a V-2 is discarded with no effect and no replacement
        st.arsenal(seat)["discard"].append(new)
        emit(st, "v2_rule_1_2", {"seat": seat, "card": new, "code": st.code[new]})
        return None
    st.players[seat]["hand"].append(new)
    emit(st, "drawn", {"seat": seat, "count": 1})
    st.frames.append(DeployFrame(seat, 1, [new], "v2"))
    return None


def _v2_effect(st: GameState, seat: str) -> None:
    enemy = st.foe(seat)
    top = draw_arsenal(st, enemy)
    if top is None:
        emit(st, "v2_no_effect", {"seat": seat})
        return
    st.arsenal(enemy)["removed"].append(top)
    emit(st, "v2_hit", {"seat": seat, "removed": top, "code": st.code[top]})


def legal_v2_effect(st: GameState, fr: V2Frame) -> list[tuple]:
    seat = fr.seat
    return [KChoose(seat, "v2")] + window_options(st, fr, seat, V2)


def act_v2_effect(st: GameState, fr: V2Frame, a: Action) -> None:
    if isinstance(a, PlayCard):
        window_of(st, a.card, V2).resolve(st, fr, a)  # C9: the A-bomb in place of the V-2's effect
    else:
        _v2_effect(st, a.seat)
    RULES.move(fr, "replace")


def _a_bomb(st: GameState, seat: str, card: str, ref: str) -> None:
    """G6, C8-C10: every card in the stack, leaders and generals included, is destroyed (discarded)."""
    enemy = st.foe(seat)
    discard_kept(st, seat, card)
    stack = stack_at(st, enemy, ref)
    emit(st, "a_bomb", {"seat": seat, "stack": ref, "cards": [[c, st.code[c]] for c in stack]})
    for cid in list(stack):
        destroy_unit(st, enemy, cid, "a-bomb")


def _abomb_ok(st: GameState, fr: BattleFrame, seat: str) -> bool:
    """C8: a double-attack bomber in your air stack; the British also need MI or Stolen Plans."""
    if not any("double_attack" in st.abil[c] for s in st.players[seat]["stacks"]["air"] for c in s):
        return False
    if st.players[seat]["nation"] == "GB":
        return (fr.intel_played[seat]
                or bool(kept_with(st, seat, {"military-intelligence", "stolen-plans"}))
                or has_ability_deployed(st, seat, "intelligence"))
    return True


def abomb_plays(st: GameState, fr: BattleFrame, seat: str) -> list[tuple]:
    """C8, C10: `seat`'s A-bomb plays in phase 2, on any non-empty enemy stack."""
    return window_options(st, fr, seat, PHASE_2) if st.team(seat)["kept"] else []


A_BOMB_WINDOW = "a_bomb_window"


def legal_a_bomb_window(st: GameState, fr: BattleFrame) -> list[tuple]:
    """C8: `pass` (close the window), then the asked seat's A-bomb plays on the enemy stacks."""
    seat = required(st.decision, "pending decision").seat
    return [KPass(seat), *abomb_plays(st, fr, seat)]


def act_a_bomb_window(st: GameState, fr: BattleFrame, a: Pass | PlayCard) -> None:
    if isinstance(a, Pass):
        # this window stays closed for this phase 2
        fr.p2_passed.append(Phase2Mark.of(a.seat, Phase2Mark.OUT_PASSED))
        return
    window_of(st, a.card, PHASE_2).resolve(st, fr, a)
    check_battle_end(st, fr)


def _phase_2_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    if not _abomb_ok(st, fr, seat):
        return []
    return [KPlayCard(seat, cid, target=ref) for ref in nonempty_refs(st, st.foe(seat))]


def _v2_options(st: GameState, fr: V2Frame, seat: str, cid: str) -> list[tuple]:
    """C9: the German A-bomb may replace the V-2's "remove the top enemy card" part (no bomber needed)."""
    return [KPlayCard(seat, cid, target=ref) for ref in nonempty_refs(st, st.foe(seat))]


def _drop(st: GameState, fr: Frame, a: PlayCard) -> None:
    assert a.target is not None  # the enemy stack (the A-bomb's options)
    _a_bomb(st, a.seat, a.card, a.target)


card_effect("a-bomb", kept=True, rulings="G6, C8-C10",
            phase_2=Window(_phase_2_options, _drop, discard=False),
            v2=Window(_v2_options, _drop, discard=False))


# The V-2's flow (only RULES.move changes the stage): its effect (or the A-bomb in its place, C9), then the
# rocket's replacement (R1.2), which ends the frame.
V2_STAGES = {
    "start": Stage(step_v2, then=("replace",)),
    "replace": Stage(step_v2_replace),
}


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("v2", stages=V2_STAGES)
    book.decision("v2_effect", legal=legal_v2_effect, act=act_v2_effect)
    book.decision(A_BOMB_WINDOW, legal=legal_a_bomb_window, act=act_a_bomb_window)


ability("v2_rocket", step_v2, rulings="R1.2, C9; triggered by phases.deploy.do_deploy")
