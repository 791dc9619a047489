"""Cards resolved when drawn: build-up (with industry), replenish, Divide & Conquer (C1, C2), Reorganize
Forces (C3, C4), Capture (C5, C7)."""
from __future__ import annotations

from typing import Any

from ...actions import Choose, Deploy, Pass, Retrieve, Split, Take, split_stack_ref
from ...core.machine import RuleBook, emit
from ...frames import CaptureFrame, DeployFrame, DivideFrame, ReorganizeFrame
from ...state import Decision, GameState
from ..behaviour import ability, card_effect
from ..common import KChoose, KPass, KRetrieve, KSplit, KTake
from ..phases.deploy import _deploy_options, _do_deploy
from ..zones import _deployed, _draw_n, _industry_extra, _nonempty_refs, _remove_deployed, _stack


def step_divide(st: GameState, fr: DivideFrame) -> Decision | None:
    if fr.stage == "choose":
        if not _nonempty_refs(st, st.foe(fr.seat), 2, occupied=False):
            st.frames.pop()
            return None
        return Decision(fr.seat, "divide_choose", {})
    if fr.need <= 0:
        st.frames.pop()
        return None
    return Decision(st.foe(fr.seat), "divide_stack", {"stack": fr.src, "new_stack": fr.dst,
                                                        "remaining": fr.need})


def legal_divide_choose(st: GameState, fr: DivideFrame) -> list[tuple]:
    refs = _nonempty_refs(st, st.foe(fr.seat), 2, occupied=False)
    return [KChoose(fr.seat, "stack", stack=ref) for ref in refs]


def act_divide_choose(st: GameState, fr: DivideFrame, a: Choose) -> None:
    enemy, ref = st.foe(fr.seat), a.stack
    assert ref is not None  # legal_divide_choose: a stack choice
    kind = split_stack_ref(ref)[0]
    stacks = st.players[enemy]["stacks"][kind]
    src = _stack(st, enemy, ref)
    stacks.append([])
    fr.stage, fr.src, fr.dst, fr.need = "split", ref, f"{kind}:{len(stacks) - 1}", len(src) // 2
    if st.record_events:
        emit(st, "divide", {"seat": enemy, "stack": ref, "new_stack": fr.dst})


def legal_divide_stack(st: GameState, fr: DivideFrame) -> list[tuple]:
    seat = st.foe(fr.seat)
    return [KSplit(seat, c) for c in _stack(st, seat, fr.src)]


def act_divide_stack(st: GameState, fr: DivideFrame, a: Split) -> None:
    seat = a.seat
    _stack(st, seat, fr.src).remove(a.card)
    _stack(st, seat, fr.dst).append(a.card)
    fr.need -= 1


def step_reorganize(st: GameState, fr: ReorganizeFrame) -> Decision | None:
    seat = fr.seat
    if fr.stage == "choose":
        return Decision(seat, "reorganize", {"hand": len(st.players[seat]["hand"])})
    return Decision(seat, "reorganize_swap", {"hand_size": fr.size, "moves_left": fr.max - fr.moves})


def legal_reorganize(st: GameState, fr: ReorganizeFrame) -> list[tuple]:
    seat = fr.seat
    if st.players[seat]["hand"]:
        return [KChoose(seat, "swap"), KChoose(seat, "discard_draw")]
    # C3: without a reserve hand, draw 3; or (C2, C4) swap through the empty hand: pull cards from the
    # stacks and redeploy them, ending with no hand again (either/or, never both)
    if _deployed(st, seat):
        return [KChoose(seat, "draw"), KChoose(seat, "swap")]
    return [KChoose(seat, "draw")]


def act_reorganize(st: GameState, fr: ReorganizeFrame, a: Choose) -> None:
    seat = fr.seat
    p = st.players[seat]
    if a.option == "swap":
        fr.stage, fr.size, fr.moves = "swap", len(p["hand"]), 0
        fr.max = len(p["hand"]) + len(_deployed(st, seat))
        return
    if a.option == "discard_draw":
        pool_of = st.pool_of
        for c in p["hand"]:
            # C5: a captured card (in the hand after a Reorganize swap) goes to its OWNER's discard
            pool_of(c)["discard"].append(c)
        if st.record_events:
            emit(st, "hand_discarded", {"seat": seat, "cards": [[c, st.code[c]] for c in p["hand"]]})
        p["hand"] = []
    _draw_n(st, seat, 3)
    st.frames.pop()


def legal_reorganize_swap(st: GameState, fr: ReorganizeFrame) -> list[tuple]:
    seat = fr.seat
    hand = st.players[seat]["hand"]
    acts: list[tuple] = []
    if len(hand) == fr.size:
        acts.append(KPass(seat))
    if len(hand) > fr.size:
        acts.extend(_deploy_options(st, seat, hand))
    if fr.moves < fr.max:
        acts.extend(KRetrieve(seat, c) for c in _deployed(st, seat))
    return acts


def act_reorganize_swap(st: GameState, fr: ReorganizeFrame, a: Pass | Retrieve | Deploy) -> None:
    seat = fr.seat
    if isinstance(a, Pass):
        st.frames.pop()
    elif isinstance(a, Retrieve):
        _remove_deployed(st, seat, a.card)
        st.players[seat]["hand"].append(a.card)
        fr.moves += 1
        if st.record_events:
            emit(st, "retrieved", {"seat": seat})
    else:
        _do_deploy(st, fr, seat, a.card, a.stack)


def step_capture(st: GameState, fr: CaptureFrame) -> Decision | None:
    seat = fr.seat
    if fr.stage == "browse":
        if not _nonempty_refs(st, st.foe(seat)):
            st.frames.pop()
            return None
        return Decision(seat, "capture_browse", {})
    stack = _stack(st, st.foe(seat), fr.ref) or []
    return Decision(seat, "capture_pick", {"stack": fr.ref, "cards": [
        {"id": c, "code": st.code[c]} for c in stack]})


def legal_capture_browse(st: GameState, fr: CaptureFrame) -> list[tuple]:
    return [KChoose(fr.seat, "stack", stack=ref) for ref in _nonempty_refs(st, st.foe(fr.seat))]


def act_capture_browse(st: GameState, fr: CaptureFrame, a: Choose) -> None:
    fr.stage, fr.ref = "pick", a.stack
    if st.record_events:
        emit(st, "capture_browse", {"seat": a.seat, "stack": a.stack})


def legal_capture_pick(st: GameState, fr: CaptureFrame) -> list[tuple]:
    seat = fr.seat
    stacks = st.players[seat]["stacks"]
    acts: list[tuple] = []
    for c in _stack(st, st.foe(seat), fr.ref) or []:
        kind = st.defs[c].kind
        acts.extend(KTake(seat, c, f"{kind}:{i}") for i in range(len(stacks[kind])))
    return acts


def act_capture_pick(st: GameState, fr: CaptureFrame, a: Take) -> None:
    enemy = st.foe(a.seat)
    _remove_deployed(st, enemy, a.card)
    _stack(st, a.seat, a.stack).append(a.card)
    st.frames.pop()
    data = {"seat": a.seat, "from": enemy, "card": a.card, "code": st.code[a.card], "stack": a.stack}
    if st.classic:
        emit(st, "captured", data)
        return
    # team games: the card goes face down into the captor's stack; only the two armies involved know it
    emit(st, "captured", {k: v for k, v in data.items() if k not in ("card", "code")})
    for army in (a.seat, enemy):
        emit(st, "captured_card", data, army)


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("divide", step_divide)
    book.frame("reorganize", step_reorganize)
    book.frame("capture", step_capture)
    book.decision("divide_choose", legal=legal_divide_choose, act=act_divide_choose)
    book.decision("divide_stack", legal=legal_divide_stack, act=act_divide_stack)
    book.decision("reorganize", legal=legal_reorganize, act=act_reorganize)
    book.decision("reorganize_swap", legal=legal_reorganize_swap, act=act_reorganize_swap)
    book.decision("capture_browse", legal=legal_capture_browse, act=act_capture_browse)
    book.decision("capture_pick", legal=legal_capture_pick, act=act_capture_pick)


# ---- cards resolved when drawn (military build-up and immediate cards) -------------------------------------
def _build_up(st: GameState, seat: str, d: Any) -> None:
    """Draw N (plus industry extras) into the reserve hand, then deploy as many."""
    n = d.param("draw", 0) + _industry_extra(st, seat)
    drawn = _draw_n(st, seat, n)
    st.frames.append(DeployFrame(seat, min(drawn, d.param("deploy", 0) + (n - d.param("draw", 0))),
                                   None, "build-up"))


def _replenish(st: GameState, seat: str, d: Any) -> None:
    """An empty reserve hand: draw N (3); otherwise draw 1 and deploy 1."""
    if not st.players[seat]["hand"]:
        _draw_n(st, seat, d.param("draw", 3))
    elif _draw_n(st, seat, 1):
        st.frames.append(DeployFrame(seat, 1, None, "replenish"))


def _push(frame: type[DivideFrame | ReorganizeFrame | CaptureFrame], stage: str):
    def on_draw(st: GameState, seat: str, d: Any) -> None:
        st.frames.append(frame(seat, stage))
    return on_draw


card_effect("battlecard-list", kept=False, rulings="set aside face up at set-up; never in play")
card_effect("build-up", kept=False, on_draw=_build_up, rulings="industry")
card_effect("replenish", kept=False, on_draw=_replenish)
card_effect("divide-and-conquer", kept=False, on_draw=_push(DivideFrame, "choose"), rulings="C1, C2")
card_effect("reorganize-forces", kept=False, on_draw=_push(ReorganizeFrame, "choose"), rulings="C3, C4")
card_effect("capture", kept=False, on_draw=_push(CaptureFrame, "browse"), rulings="C5, C7")

ability("industry", _build_up, rulings="build-ups draw and deploy `extra` more (zones._industry_extra)")
