"""Deploying reserve-hand cards onto own stacks (initial, build-up, replenish, emergency, leader draws, a
V-2's replacement), forced deployment, Optional Rule 5.2 stacks under a battlecard."""
from __future__ import annotations

from vocabulary.battlecards import KINDS

from ...core.machine import RuleBook, emit
from ..actions import Deploy
from ..common import KDeploy
from ..frames import DeployFrame, Frame, SetupRevealFrame, V2Frame
from ..state import Decision, GameState
from ..zones import stack_at


def deploy_options(st: GameState, seat: str, cands: list[str]) -> list[tuple]:
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


def _deploy_candidates(st: GameState, fr: DeployFrame) -> list[str]:
    hand = st.players[fr.seat]["hand"]
    if fr.cards is None:
        return list(hand)
    return [c for c in fr.cards if c in hand]


def step_deploy(st: GameState, fr: DeployFrame) -> Decision | None:
    cands = _deploy_candidates(st, fr) if fr.count > 0 else []
    if not cands:
        st.frames.pop()
        return None
    seat = fr.seat
    forced = len(cands) <= fr.count and not st.players[seat]["occupied"]
    if forced:
        stacks = st.players[seat]["stacks"]
        if all(len(stacks[st.defs[c].kind]) == 1 for c in cands):
            c = cands[0]
            do_deploy(st, fr, seat, c, f"{st.defs[c].kind}:0")
            return None
    kind = "initial_deploy" if fr.reason == "initial" else "deploy"
    return Decision(seat, kind, {"count": fr.count, "reason": fr.reason})


def legal_deploy(st: GameState, fr: DeployFrame) -> list[tuple]:
    return deploy_options(st, fr.seat, _deploy_candidates(st, fr))


def do_deploy(st: GameState, fr: Frame | None, seat: str, cid: str, ref: str) -> None:
    p = st.players[seat]
    p["hand"].remove(cid)
    stack_at(st, seat, ref).append(cid)
    initial = isinstance(fr, DeployFrame) and fr.reason == "initial"
    if isinstance(fr, DeployFrame):
        fr.count -= 1
    # a set-up deployment is secret until both seats are done (step_setup_reveal)
    if st.record_events:  # hot in self-play (events off): skip building the payload
        emit(st, "deployed", {"seat": seat, "stack": ref}, seat if initial else "all")
        emit(st, "deployed_card", {"seat": seat, "stack": ref, "card": cid, "code": st.code[cid]}, seat)
    if "v2_rocket" in st.abil[cid] and not initial:  # a V-2 deployed at set-up fires at the reveal
        st.frames.append(V2Frame(seat, cid, "start"))


def act_deploy(st: GameState, fr: DeployFrame, a: Deploy) -> None:
    do_deploy(st, fr, a.seat, a.card, a.stack)


def step_setup_reveal(st: GameState, fr: SetupRevealFrame) -> Decision | None:
    """Both seats have deployed at set-up: the stacks are revealed (face down: their sizes) together, then
    any V-2 deployed at set-up takes effect (the German seat's first, in stack order)."""
    st.frames.pop()
    emit(st, "setup_revealed", {"stacks": {s: {k: [len(x) for x in st.players[s]["stacks"][k]]
                                               for k in KINDS} for s in st.armies}})
    v2s = [(s, c) for s in st.armies for k in KINDS for x in st.players[s]["stacks"][k] for c in x
           if "v2_rocket" in st.abil[c]]
    for s, c in reversed(v2s):  # frames are a stack: the first V-2 is resolved first
        st.frames.append(V2Frame(s, c, "start"))
    return None


def setup_pending(st: GameState) -> bool:
    """True while the set-up deployment is still secret (some seat has not finished deploying)."""
    return any(type(f) is SetupRevealFrame for f in st.frames)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("deploy", step_deploy)
    book.frame("setup_reveal", step_setup_reveal)
    book.decision("initial_deploy", legal=legal_deploy, act=act_deploy)
    book.decision("deploy", legal=legal_deploy, act=act_deploy)
