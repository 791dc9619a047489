"""battlecards.effects.abomb."""
from __future__ import annotations

from ...actions import Action, PlayCard
from ...core.machine import emit
from ...state import OTHER, Decision, GameState
from ..book import RULES
from ..combat.casualties import _destroy
from ..common import _A_BOMB, KChoose, KPlayCard
from ..phases.deploy import _deploy_frame
from ..zones import (
    _discard_kept,
    _draw_arsenal,
    _has_ability_deployed,
    _kept_with,
    _nonempty_refs,
    _remove_deployed,
    _stack,
)


def _abombs(st: GameState, seat: str) -> list[str]:
    return _kept_with(st, seat, _A_BOMB)


def step_v2(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    enemy = OTHER[seat]
    if fr["stage"] == "start":
        # asked whenever the owner holds any kept card, so the question itself reveals nothing
        if st.players[seat]["kept"] and _nonempty_refs(st, enemy):
            return Decision(seat, "v2_effect", {"card": fr["card"]})
        _v2_effect(st, seat)
        fr["stage"] = "replace"
        return None
    # the rocket is spent: discard it and draw a replacement, deployed at once
    _remove_deployed(st, seat, fr["card"])
    st.players[st.owner[fr["card"]]]["discard"].append(fr["card"])
    st.frames.pop()
    new = _draw_arsenal(st, seat)
    if new is None:
        return None
    if "v2_rocket" in st.abil[new]:
        # R1.2: a V-2 drawn to replace a V-2 is discarded with no effect and no replacement
        st.players[seat]["discard"].append(new)
        if st.record_events:
            emit(st, "v2_rule_1_2", {"seat": seat, "card": new, "code": st.code[new]})
        return None
    st.players[seat]["hand"].append(new)
    if st.record_events:
        emit(st, "drawn", {"seat": seat, "count": 1})
    st.frames.append(_deploy_frame(seat, 1, [new], "v2"))
    return None


def _v2_effect(st: GameState, seat: str) -> None:
    enemy = OTHER[seat]
    top = _draw_arsenal(st, enemy)
    if top is None:
        if st.record_events:
            emit(st, "v2_no_effect", {"seat": seat})
        return
    st.players[enemy]["removed"].append(top)
    if st.record_events:
        emit(st, "v2_hit", {"seat": seat, "removed": top, "code": st.code[top]})


def legal_v2_effect(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    acts: list[tuple] = [KChoose(seat, "v2")]
    for bomb in _abombs(st, seat):
        for ref in _nonempty_refs(st, OTHER[seat]):
            acts.append(KPlayCard(seat, bomb, target=ref))
    return acts


def act_v2_effect(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, PlayCard):
        _a_bomb(st, a.seat, a.card, a.target)  # C9: the A-bomb in place of the V-2's effect
    else:
        _v2_effect(st, a.seat)
    fr["stage"] = "replace"


def _a_bomb(st: GameState, seat: str, card: str, ref: str) -> None:
    """G6, C8-C10: every card in the stack, leaders and generals included, is destroyed (discarded)."""
    enemy = OTHER[seat]
    _discard_kept(st, seat, card)
    stack = _stack(st, enemy, ref)
    if st.record_events:
        emit(st, "a_bomb", {"seat": seat, "stack": ref, "cards": [[c, st.code[c]] for c in stack]})
    for cid in list(stack):
        _destroy(st, enemy, cid, "a-bomb")


def _abomb_ok(st: GameState, fr: dict, seat: str) -> bool:
    """C8: a double-attack bomber in your air stack; the British also need MI or Stolen Plans."""
    if not any("double_attack" in st.abil[c] for s in st.players[seat]["stacks"]["air"] for c in s):
        return False
    if st.players[seat]["nation"] == "GB":
        return (fr["intel_played"][seat]
                or bool(_kept_with(st, seat, {"military-intelligence", "stolen-plans"}))
                or _has_ability_deployed(st, seat, "intelligence"))
    return True


def _abomb_plays(st: GameState, fr: dict, seat: str) -> list[tuple]:
    """C8, C10: `seat`'s A-bomb plays in phase 2, on any non-empty enemy stack."""
    tail: list[tuple] = []
    if st.players[seat]["kept"]:
        bombs = _abombs(st, seat)
        if bombs and _abomb_ok(st, fr, seat):
            for bomb in bombs:
                tail.extend(KPlayCard(seat, bomb, target=ref) for ref in _nonempty_refs(st, OTHER[seat]))
    return tail


RULES.frame("v2", step_v2)
RULES.decision("v2_effect", legal=legal_v2_effect, act=act_v2_effect)
