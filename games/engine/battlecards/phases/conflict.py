"""A drawn conflict card: a battlecard comes up, a kept card goes face down, any other resolves at once
(effects.registry decides which)."""
from __future__ import annotations

from vocabulary.battlecards import BattlecardDef

from ...core.machine import emit
from ..behaviour import EFFECTS
from ..frames import BattlecardFrame
from ..state import GameState


def push_card(st: GameState, seat: str, cid: str) -> None:
    d = st.defs[cid]
    if isinstance(d, BattlecardDef):
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
        st.frames.append(BattlecardFrame(seat, cid, "check", seat))
        return
    effect = EFFECTS[d.effect]
    if effect.kept:
        st.team(seat)["kept"].append(cid)
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "card_kept", {"seat": seat})
            # the side's common kept cards (FAQ OR3): every army of the side sees them
            emit(st, "card_kept_private", {"seat": seat, "card": cid, "code": st.code[cid]}, st.side(seat))
        return
    if st.record_events:  # hot in self-play (events off): skip building the payload
        emit(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
    st.conflict_discard.append(cid)
    if effect.on_draw is not None:
        effect.on_draw(st, seat, d)  # effects.immediate
