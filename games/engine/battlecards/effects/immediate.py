"""Cards resolved when drawn: build-up (with industry), replenish, Divide & Conquer (C1, C2), Reorganize
Forces (C3, C4), Capture (C5, C7)."""
from __future__ import annotations

from typing import Any

from ...core.errors import StateError, required
from ...core.machine import RuleBook, Stage, emit
from ..actions import Choose, Deploy, Pass, Retrieve, Split, Take, split_stack_ref
from ..behaviour import ability, card_effect
from ..book import RULES
from ..common import KChoose, KPass, KRetrieve, KSplit, KTake
from ..frames import CaptureFrame, DeployFrame, DivideFrame, ReorganizeFrame
from ..phases.deploy import deploy_options, do_deploy
from ..state import Decision, GameState
from ..zones import deployed_cards, draw_n, industry_extra, nonempty_refs, remove_deployed, stack_at


def step_divide(st: GameState, fr: DivideFrame) -> Decision | None:
    if not nonempty_refs(st, st.foe(fr.seat), 2, occupied=False):
        st.frames.pop()
        return None
    return Decision(fr.seat, "divide_choose", {})


def step_divide_split(st: GameState, fr: DivideFrame) -> Decision | None:
    src, dst, need = _split(fr)
    if need <= 0:
        st.frames.pop()
        return None
    return Decision(st.foe(fr.seat), "divide_stack", {"stack": src, "new_stack": dst, "remaining": need})


def legal_divide_choose(st: GameState, fr: DivideFrame) -> list[tuple]:
    refs = nonempty_refs(st, st.foe(fr.seat), 2, occupied=False)
    return [KChoose(fr.seat, "stack", stack=ref) for ref in refs]


def act_divide_choose(st: GameState, fr: DivideFrame, a: Choose) -> None:
    enemy, ref = st.foe(fr.seat), a.stack
    assert ref is not None  # legal_divide_choose: a stack choice
    kind = split_stack_ref(ref)[0]
    stacks = st.players[enemy]["stacks"][kind]
    src = stack_at(st, enemy, ref)
    stacks.append([])
    fr.src, fr.dst, fr.need = ref, f"{kind}:{len(stacks) - 1}", len(src) // 2
    RULES.move(fr, "split")
    emit(st, "divide", {"seat": enemy, "stack": ref, "new_stack": fr.dst})


def legal_divide_stack(st: GameState, fr: DivideFrame) -> list[tuple]:
    seat = st.foe(fr.seat)
    return [KSplit(seat, c) for c in stack_at(st, seat, _split(fr)[0])]


def act_divide_stack(st: GameState, fr: DivideFrame, a: Split) -> None:
    seat = a.seat
    src, dst, need = _split(fr)
    stack_at(st, seat, src).remove(a.card)
    stack_at(st, seat, dst).append(a.card)
    fr.need = need - 1


def _split(fr: DivideFrame) -> tuple[str, str, int]:
    """The split stage's stack, new stack and cards still to move (set when the stack was chosen)."""
    if fr.src is None or fr.dst is None or fr.need is None:
        raise StateError("a malformed state: a divide frame splits no stack")
    return fr.src, fr.dst, fr.need


def step_reorganize(st: GameState, fr: ReorganizeFrame) -> Decision | None:
    return Decision(fr.seat, "reorganize", {"hand": len(st.players[fr.seat]["hand"])})


def step_reorganize_swap(st: GameState, fr: ReorganizeFrame) -> Decision | None:
    size, moves, most = _swap(fr)
    return Decision(fr.seat, "reorganize_swap", {"hand_size": size, "moves_left": most - moves})


def _swap(fr: ReorganizeFrame) -> tuple[int, int, int]:
    """The swap stage's hand size to end with, the moves made and the most allowed (set at its start)."""
    if fr.size is None or fr.moves is None or fr.max is None:
        raise StateError("a malformed state: a reorganize frame swaps without its counts")
    return fr.size, fr.moves, fr.max


def legal_reorganize(st: GameState, fr: ReorganizeFrame) -> list[tuple]:
    seat = fr.seat
    if st.players[seat]["hand"]:
        return [KChoose(seat, "swap"), KChoose(seat, "discard_draw")]
    # C3: without a reserve hand, draw 3; or (C2, C4) swap through the empty hand: pull cards from the
    # stacks and redeploy them, ending with no hand again (either/or, never both)
    if deployed_cards(st, seat):
        return [KChoose(seat, "draw"), KChoose(seat, "swap")]
    return [KChoose(seat, "draw")]


def act_reorganize(st: GameState, fr: ReorganizeFrame, a: Choose) -> None:
    seat = fr.seat
    p = st.players[seat]
    if a.option == "swap":
        fr.size, fr.moves = len(p["hand"]), 0
        fr.max = len(p["hand"]) + len(deployed_cards(st, seat))
        RULES.move(fr, "swap")
        return
    if a.option == "discard_draw":
        pool_of = st.pool_of
        for c in p["hand"]:
            # C5: a captured card (in the hand after a Reorganize swap) goes to its OWNER's discard
            pool_of(c)["discard"].append(c)
        emit(st, "hand_discarded", {"seat": seat, "cards": [[c, st.code[c]] for c in p["hand"]]})
        p["hand"] = []
    draw_n(st, seat, 3)
    st.frames.pop()


def legal_reorganize_swap(st: GameState, fr: ReorganizeFrame) -> list[tuple]:
    seat = fr.seat
    hand = st.players[seat]["hand"]
    size, moves, most = _swap(fr)
    acts: list[tuple] = []
    if len(hand) == size:
        acts.append(KPass(seat))
    if len(hand) > size:
        acts.extend(deploy_options(st, seat, hand))
    if moves < most:
        acts.extend(KRetrieve(seat, c) for c in deployed_cards(st, seat))
    return acts


def act_reorganize_swap(st: GameState, fr: ReorganizeFrame, a: Pass | Retrieve | Deploy) -> None:
    seat = fr.seat
    if isinstance(a, Pass):
        st.frames.pop()
    elif isinstance(a, Retrieve):
        remove_deployed(st, seat, a.card)
        st.players[seat]["hand"].append(a.card)
        fr.moves = _swap(fr)[1] + 1
        emit(st, "retrieved", {"seat": seat})
    else:
        do_deploy(st, fr, seat, a.card, a.stack)


def step_capture(st: GameState, fr: CaptureFrame) -> Decision | None:
    if not nonempty_refs(st, st.foe(fr.seat)):
        st.frames.pop()
        return None
    return Decision(fr.seat, "capture_browse", {})


def step_capture_pick(st: GameState, fr: CaptureFrame) -> Decision | None:
    seat = fr.seat
    stack = stack_at(st, st.foe(seat), required(fr.ref, "stack picked from"))
    return Decision(seat, "capture_pick", {"stack": fr.ref, "cards": [
        {"id": c, "code": st.code[c]} for c in stack]})


def legal_capture_browse(st: GameState, fr: CaptureFrame) -> list[tuple]:
    return [KChoose(fr.seat, "stack", stack=ref) for ref in nonempty_refs(st, st.foe(fr.seat))]


def act_capture_browse(st: GameState, fr: CaptureFrame, a: Choose) -> None:
    fr.ref = a.stack
    RULES.move(fr, "pick")
    emit(st, "capture_browse", {"seat": a.seat, "stack": a.stack})


def legal_capture_pick(st: GameState, fr: CaptureFrame) -> list[tuple]:
    seat = fr.seat
    stacks = st.players[seat]["stacks"]
    acts: list[tuple] = []
    for c in stack_at(st, st.foe(seat), required(fr.ref, "stack picked from")):
        kind = st.defs[c].kind
        acts.extend(KTake(seat, c, f"{kind}:{i}") for i in range(len(stacks[kind])))
    return acts


def act_capture_pick(st: GameState, fr: CaptureFrame, a: Take) -> None:
    enemy = st.foe(a.seat)
    remove_deployed(st, enemy, a.card)
    stack_at(st, a.seat, a.stack).append(a.card)
    st.frames.pop()
    data = {"seat": a.seat, "from": enemy, "card": a.card, "code": st.code[a.card], "stack": a.stack}
    if st.classic:
        emit(st, "captured", data)
        return
    # team games: the card goes face down into the captor's stack; only the two armies involved know it
    emit(st, "captured", {k: v for k, v in data.items() if k not in ("card", "code")})
    for army in (a.seat, enemy):
        emit(st, "captured_card", data, army)


# The drawn cards' flows (only RULES.move changes a stage): each frame ends by popping itself.
DIVIDE_STAGES = {  # C1, C2: the drawer picks an enemy stack, then the enemy splits it
    "choose": Stage(step_divide, then=("split",)),
    "split": Stage(step_divide_split),
}
REORGANIZE_STAGES = {  # C3, C4: swap (then the swaps) or discard and draw
    "choose": Stage(step_reorganize, then=("swap",)),
    "swap": Stage(step_reorganize_swap),
}
CAPTURE_STAGES = {  # C5, C7: browse an enemy stack, then take one card of it
    "browse": Stage(step_capture, then=("pick",)),
    "pick": Stage(step_capture_pick),
}


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("divide", stages=DIVIDE_STAGES)
    book.frame("reorganize", stages=REORGANIZE_STAGES)
    book.frame("capture", stages=CAPTURE_STAGES)
    book.decision("divide_choose", legal=legal_divide_choose, act=act_divide_choose)
    book.decision("divide_stack", legal=legal_divide_stack, act=act_divide_stack)
    book.decision("reorganize", legal=legal_reorganize, act=act_reorganize)
    book.decision("reorganize_swap", legal=legal_reorganize_swap, act=act_reorganize_swap)
    book.decision("capture_browse", legal=legal_capture_browse, act=act_capture_browse)
    book.decision("capture_pick", legal=legal_capture_pick, act=act_capture_pick)


# ---- cards resolved when drawn (military build-up and immediate cards) -------------------------------------
def _build_up(st: GameState, seat: str, d: Any) -> None:
    """Draw N (plus industry extras) into the reserve hand, then deploy as many."""
    n = d.param("draw", 0) + industry_extra(st, seat)
    drawn = draw_n(st, seat, n)
    st.frames.append(DeployFrame(seat, min(drawn, d.param("deploy", 0) + (n - d.param("draw", 0))),
                                   None, "build-up"))


def _replenish(st: GameState, seat: str, d: Any) -> None:
    """An empty reserve hand: draw N (3); otherwise draw 1 and deploy 1."""
    if not st.players[seat]["hand"]:
        draw_n(st, seat, d.param("draw", 3))
    elif draw_n(st, seat, 1):
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

ability("industry", _build_up, rulings="build-ups draw and deploy `extra` more (zones.industry_extra)")
