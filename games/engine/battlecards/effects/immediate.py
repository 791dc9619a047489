"""battlecards.effects.immediate."""
from __future__ import annotations

from ...actions import Action, Pass, Retrieve
from ...core.machine import emit
from ...state import OTHER, Decision, GameState
from ..book import RULES
from ..common import KChoose, KPass, KRetrieve, KSplit, KTake
from ..phases.deploy import _deploy_options, _do_deploy
from ..zones import _deployed, _draw_n, _nonempty_refs, _remove_deployed, _stack


def step_divide(st: GameState, fr: dict) -> Decision | None:
    if fr["stage"] == "choose":
        if not _nonempty_refs(st, OTHER[fr["seat"]], 2, occupied=False):
            st.frames.pop()
            return None
        return Decision(fr["seat"], "divide_choose", {})
    if fr["need"] <= 0:
        st.frames.pop()
        return None
    return Decision(OTHER[fr["seat"]], "divide_stack", {"stack": fr["src"], "new_stack": fr["dst"],
                                                        "remaining": fr["need"]})


def legal_divide_choose(st: GameState, fr: dict) -> list[tuple]:
    return [KChoose(fr["seat"], ref) for ref in _nonempty_refs(st, OTHER[fr["seat"]], 2, occupied=False)]


def act_divide_choose(st: GameState, fr: dict, a: Action) -> None:
    enemy = OTHER[fr["seat"]]
    kind = a.option.split(":")[0]
    stacks = st.players[enemy]["stacks"][kind]
    src = _stack(st, enemy, a.option)
    stacks.append([])
    fr.update(stage="split", src=a.option, dst=f"{kind}:{len(stacks) - 1}", need=len(src) // 2)
    if st.record_events:
        emit(st, "divide", {"seat": enemy, "stack": a.option, "new_stack": fr["dst"]})


def legal_divide_stack(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["seat"]]
    return [KSplit(seat, c) for c in _stack(st, seat, fr["src"])]


def act_divide_stack(st: GameState, fr: dict, a: Action) -> None:
    seat = a.seat
    _stack(st, seat, fr["src"]).remove(a.card)
    _stack(st, seat, fr["dst"]).append(a.card)
    fr["need"] -= 1


def step_reorganize(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    if fr["stage"] == "choose":
        return Decision(seat, "reorganize", {"hand": len(st.players[seat]["hand"])})
    return Decision(seat, "reorganize_swap", {"hand_size": fr["size"], "moves_left": fr["max"] - fr["moves"]})


def legal_reorganize(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    if st.players[seat]["hand"]:
        return [KChoose(seat, "swap"), KChoose(seat, "discard_draw")]
    return [KChoose(seat, "draw")]


def act_reorganize(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    p = st.players[seat]
    if a.option == "swap":
        fr.update(stage="swap", size=len(p["hand"]), moves=0, max=len(p["hand"]) + len(_deployed(st, seat)))
        return
    if a.option == "discard_draw":
        players, owner = st.players, st.owner
        for c in p["hand"]:
            # C5: a captured card (in the hand after a Reorganize swap) goes to its OWNER's discard
            players[owner[c]]["discard"].append(c)
        if st.record_events:
            emit(st, "hand_discarded", {"seat": seat, "cards": [[c, st.code[c]] for c in p["hand"]]})
        p["hand"] = []
    _draw_n(st, seat, 3)
    st.frames.pop()


def legal_reorganize_swap(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    hand = st.players[seat]["hand"]
    acts: list[tuple] = []
    if len(hand) == fr["size"]:
        acts.append(KPass(seat))
    if len(hand) > fr["size"]:
        acts.extend(_deploy_options(st, seat, hand))
    if fr["moves"] < fr["max"]:
        acts.extend(KRetrieve(seat, c) for c in _deployed(st, seat))
    return acts


def act_reorganize_swap(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    if isinstance(a, Pass):
        st.frames.pop()
    elif isinstance(a, Retrieve):
        _remove_deployed(st, seat, a.card)
        st.players[seat]["hand"].append(a.card)
        fr["moves"] += 1
        if st.record_events:
            emit(st, "retrieved", {"seat": seat})
    else:
        _do_deploy(st, fr, seat, a.card, a.stack)


def step_capture(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    if fr["stage"] == "browse":
        if not _nonempty_refs(st, OTHER[seat]):
            st.frames.pop()
            return None
        return Decision(seat, "capture_browse", {})
    stack = _stack(st, OTHER[seat], fr["ref"]) or []
    return Decision(seat, "capture_pick", {"stack": fr["ref"], "cards": [
        {"id": c, "code": st.code[c]} for c in stack]})


def legal_capture_browse(st: GameState, fr: dict) -> list[tuple]:
    return [KChoose(fr["seat"], ref) for ref in _nonempty_refs(st, OTHER[fr["seat"]])]


def act_capture_browse(st: GameState, fr: dict, a: Action) -> None:
    fr.update(stage="pick", ref=a.option)
    if st.record_events:
        emit(st, "capture_browse", {"seat": a.seat, "stack": a.option})


def legal_capture_pick(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    stacks = st.players[seat]["stacks"]
    acts: list[tuple] = []
    for c in _stack(st, OTHER[seat], fr["ref"]) or []:
        kind = st.defs[c].kind
        acts.extend(KTake(seat, c, f"{kind}:{i}") for i in range(len(stacks[kind])))
    return acts


def act_capture_pick(st: GameState, fr: dict, a: Action) -> None:
    enemy = OTHER[a.seat]
    _remove_deployed(st, enemy, a.card)
    _stack(st, a.seat, a.stack).append(a.card)
    st.frames.pop()
    emit(st, "captured", {"seat": a.seat, "from": enemy, "card": a.card, "code": st.code[a.card],
                         "stack": a.stack})


RULES.frame("divide", step_divide)
RULES.frame("reorganize", step_reorganize)
RULES.frame("capture", step_capture)
RULES.decision("divide_choose", legal=legal_divide_choose, act=act_divide_choose)
RULES.decision("divide_stack", legal=legal_divide_stack, act=act_divide_stack)
RULES.decision("reorganize", legal=legal_reorganize, act=act_reorganize)
RULES.decision("reorganize_swap", legal=legal_reorganize_swap, act=act_reorganize_swap)
RULES.decision("capture_browse", legal=legal_capture_browse, act=act_capture_browse)
RULES.decision("capture_pick", legal=legal_capture_pick, act=act_capture_pick)
