"""Player views: what one seat may see. Never the opponent's hand (except what a scout party showed its
owner this turn, and the public re-draw reveal) and never any deck order."""
from __future__ import annotations

from typing import Any

from .rules import RULES, card
from .setup import OTHER, SEATS
from .state import WarState


def _unit(st: WarState, cid: str) -> dict[str, Any]:
    c = card(st, cid)
    out: dict[str, Any] = {"id": cid, "code": c.code, "rotated": cid in st.rotated}
    if cid in st.damage:
        out["damage"] = st.damage[cid]
    imps = [{"id": i, "code": st.codes[i]} for i, u in st.attached.items() if u == cid]
    if imps:
        out["improvements"] = imps
    return out


def _public(st: WarState, seat: str) -> dict[str, Any]:
    z = st.zones[seat]
    return {
        "deck_size": len(z["deck"]),
        "hand_size": len(z["hand"]),
        "resources": [_unit(st, c) for c in z["resources"]],
        "line1": [_unit(st, c) for c in z["line1"]],
        "line2": [_unit(st, c) for c in z["line2"]],
        "reserve": [_unit(st, c) for c in z["reserve"]],
        "conditions": [_unit(st, c) for c in z["conditions"]],
        "losses": [st.codes[c] for c in z["losses"]],
        "revealed_starting_hand": st.revealed[seat],
    }


def view(st: WarState, seat: str) -> dict[str, Any]:
    other = OTHER[seat]
    out: dict[str, Any] = {
        "game": "the-war",
        "seat": seat,
        "turn": st.turn,
        "ply": st.ply,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "first_player": st.first_seat,
        "hand": [{"id": c, "code": st.codes[c]} for c in st.zones[seat]["hand"]],
        "pool": {"raw": st.pool[seat][:3], "converted": st.pool[seat][3:]},
        "scouted_hand": st.scouted[seat],
        "players": {s: _public(st, s) for s in SEATS},
        "opponent": other,
        "decision": None,
        "legal_actions": [],
    }
    if st.decision is not None:
        out["decision"] = {"seat": st.decision.seat, "kind": st.decision.kind}
        if st.decision.seat == seat:
            out["decision"]["prompt"] = st.decision.prompt
            out["legal_actions"] = [a.to_json() for a in RULES.legal_actions(st)]
    return out


def public_view(st: WarState) -> dict[str, Any]:
    """What a spectator may see: only what every seat sees (both sides' public zones, hand and deck sizes,
    the public re-draw reveal), whose decision it is with no prompt and no legal actions; never a hand, a
    scouted hand or any deck order."""
    out: dict[str, Any] = {
        "game": "the-war",
        "seat": None,
        "turn": st.turn,
        "ply": st.ply,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "first_player": st.first_seat,
        "players": {s: _public(st, s) for s in SEATS},
        "decision": None,
        "legal_actions": [],
    }
    if st.decision is not None:
        out["decision"] = {"seat": st.decision.seat, "kind": st.decision.kind}
    return out
