"""battlecards.phases.deploy."""
from __future__ import annotations

from ...actions import Action
from ...core.machine import emit
from ...state import Decision, GameState
from ..book import RULES
from ..common import KDeploy
from ..zones import _stack


def _deploy_frame(seat: str, count: int, cards: list[str] | None, reason: str) -> dict:
    return {"kind": "deploy", "seat": seat, "count": count, "cards": cards, "reason": reason}


def _deploy_options(st: GameState, seat: str, cands: list[str]) -> list[tuple]:
    stacks = st.players[seat]["stacks"]
    occupied = st.players[seat]["occupied"]
    acts: list[tuple] = []
    for c in cands:
        kind = st.defs[c].kind
        for i in range(len(stacks[kind])):
            acts.append(KDeploy(seat, c, f"{kind}:{i}"))
        for bc in occupied:  # Optional Rule 5.2: unit types the battlecard calls for
            if getattr(st.defs[bc].aggressor_forces, kind):
                acts.append(KDeploy(seat, c, f"bc:{bc}"))
    return acts


def _deploy_candidates(st: GameState, fr: dict) -> list[str]:
    hand = st.players[fr["seat"]]["hand"]
    if fr["cards"] is None:
        return list(hand)
    return [c for c in fr["cards"] if c in hand]


def step_deploy(st: GameState, fr: dict) -> Decision | None:
    cands = _deploy_candidates(st, fr) if fr["count"] > 0 else []
    if not cands:
        st.frames.pop()
        return None
    seat = fr["seat"]
    forced = len(cands) <= fr["count"] and not st.players[seat]["occupied"]
    if forced:
        stacks = st.players[seat]["stacks"]
        if all(len(stacks[st.defs[c].kind]) == 1 for c in cands):
            c = cands[0]
            _do_deploy(st, fr, seat, c, f"{st.defs[c].kind}:0")
            return None
    kind = "initial_deploy" if fr["reason"] == "initial" else "deploy"
    return Decision(seat, kind, {"count": fr["count"], "reason": fr["reason"]})


def legal_deploy(st: GameState, fr: dict) -> list[tuple]:
    return _deploy_options(st, fr["seat"], _deploy_candidates(st, fr))


def _do_deploy(st: GameState, fr: dict | None, seat: str, cid: str, ref: str) -> None:
    p = st.players[seat]
    p["hand"].remove(cid)
    _stack(st, seat, ref).append(cid)  # type: ignore[union-attr]
    if fr is not None and fr["kind"] == "deploy":
        fr["count"] -= 1
    if st.record_events:
        emit(st, "deployed", {"seat": seat, "stack": ref})
    if st.record_events:
        emit(st, "deployed_card", {"seat": seat, "stack": ref, "card": cid, "code": st.code[cid]}, seat)
    if "v2_rocket" in st.abil[cid]:
        st.frames.append({"kind": "v2", "seat": seat, "card": cid, "stage": "start"})


def act_deploy(st: GameState, fr: dict, a: Action) -> None:
    _do_deploy(st, fr, a.seat, a.card, a.stack)


RULES.frame("deploy", step_deploy)
RULES.decision("initial_deploy", legal=legal_deploy, act=act_deploy)
RULES.decision("deploy", legal=legal_deploy, act=act_deploy)
