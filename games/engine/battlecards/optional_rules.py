"""Optional Rule 5 (occupying force): transfers between stacks (5.4) and the defence of an occupied
battlecard (5.3). Larger standing armies (Optional Rule 1) is setup.Options.initial_draw/initial_deploy."""
from __future__ import annotations

from ..core.errors import required
from ..core.machine import RuleBook, emit
from .actions import Deploy, Pass
from .common import KPass
from .frames import BattleFrame, TransferFrame
from .phases.deploy import deploy_options
from .state import Decision, GameState
from .zones import deployed_cards, ref_of, stack_at


def can_transfer(st: GameState, seat: str) -> bool:
    """Is there a transfer move (bool(_transfer_moves(st, seat, None, None)), without building them)?"""
    p = st.players[seat]
    if any(p["occupied"].values()):
        return True  # a card under a battlecard may always go back to the usual stack of its kind
    for kind, lst in p["stacks"].items():
        if any(lst) and (len(lst) > 1
                         or any(getattr(st.defs[bc].aggressor_forces, kind) for bc in p["occupied"])):
            return True  # another stack of the kind (divided), or a battlecard calling for it
    return False


def _transfer_moves(st: GameState, seat: str, src: str | None, dst: str | None) -> list[tuple]:
    acts: list[tuple] = []
    for c in (stack_at(st, seat, src) or []) if src else deployed_cards(st, seat):
        here = src or ref_of(st, seat, c)
        for a in deploy_options(st, seat, [c]):
            if a[3] != here and (dst is None or a[3] == dst):
                acts.append(a)
    return acts


def step_transfer(st: GameState, fr: TransferFrame) -> Decision | None:
    if fr.moved >= 3 or (fr.moved and not _transfer_moves(st, fr.seat, fr.src, fr.dst)):
        st.frames.pop()
        return None
    return Decision(fr.seat, "transfer", {"moved": fr.moved, "from": fr.src, "to": fr.dst})


def legal_transfer(st: GameState, fr: TransferFrame) -> list[tuple]:
    return [KPass(fr.seat)] + _transfer_moves(st, fr.seat, fr.src, fr.dst)


def act_transfer(st: GameState, fr: TransferFrame, a: Pass | Deploy) -> None:
    if isinstance(a, Pass):
        st.frames.pop()
        return
    seat = a.seat
    if fr.src is None:
        fr.src = ref_of(st, seat, a.card)
        fr.dst = a.stack
    stack_at(st, seat, required(fr.src, "stack transferred from")).remove(a.card)
    stack_at(st, seat, a.stack).append(a.card)
    fr.moved += 1
    emit(st, "transferred", {"seat": seat, "from": fr.src, "to": a.stack})


def occupied_defense(st: GameState, fr: BattleFrame, seat: str) -> bool:
    return fr.counter and seat == fr.defender and fr.card in st.players[seat]["occupied"]


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.frame("transfer", step_transfer)
    book.decision("transfer", legal=legal_transfer, act=act_transfer)
