"""battlecards.phases.conflict."""
from __future__ import annotations

from ...cards import BattlecardDef
from ...core.machine import emit
from ...state import GameState
from ..common import KEPT_EFFECTS
from ..zones import _draw_n, _industry_extra
from .deploy import _deploy_frame


def _push_card(st: GameState, seat: str, cid: str) -> None:
    d = st.defs[cid]
    if isinstance(d, BattlecardDef):
        if st.record_events:
            emit(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
        st.frames.append({"kind": "battlecard", "seat": seat, "card": cid, "stage": "check",
                          "aggressor": seat, "counter": False, "pre": False})
        return
    if d.effect in KEPT_EFFECTS:
        st.players[seat]["kept"].append(cid)
        if st.record_events:
            emit(st, "card_kept", {"seat": seat})
        if st.record_events:
            emit(st, "card_kept_private", {"seat": seat, "card": cid, "code": st.code[cid]}, seat)
        return
    if st.record_events:
        emit(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
    st.conflict_discard.append(cid)
    eff = d.effect
    p = st.players[seat]
    if eff == "build-up":
        n = d.param("draw", 0) + _industry_extra(st, seat)
        drawn = _draw_n(st, seat, n)
        st.frames.append(_deploy_frame(seat, min(drawn, d.param("deploy", 0) + (n - d.param("draw", 0))),
                                       None, "build-up"))
    elif eff == "replenish":
        if not p["hand"]:
            _draw_n(st, seat, d.param("draw", 3))
        elif _draw_n(st, seat, 1):
            st.frames.append(_deploy_frame(seat, 1, None, "replenish"))
    elif eff == "divide-and-conquer":
        st.frames.append({"kind": "divide", "seat": seat, "stage": "choose"})
    elif eff == "reorganize-forces":
        st.frames.append({"kind": "reorganize", "seat": seat, "stage": "choose"})
    elif eff == "capture":
        st.frames.append({"kind": "capture", "seat": seat, "stage": "browse"})
