"""Player views: what one seat may see. Never the opponent's hand (except what a scout party showed its
owner this turn, and the public re-draw reveal) and never any deck order."""
from __future__ import annotations

from typing import Any

from .rules import RULES, card
from .setup import OTHER, SEATS
from .state import PaymentFrame, WarState, frame_to_json


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


def _table(st: WarState, seat: str) -> dict[str, Any]:
    """The public facts of the table that the zones do not show, each seen by both seats as it happened:
    the pending steps (the frame stack: the turn's phase, the assault wave's declarations, a payment in
    progress; a card an opponent pays for while it is still in his hand is not named), the improvements
    and their units in the order they were played, both pools (paid in
    by tapping resources, face up), the turn each unit was built, the breakthrough power gathered, the
    heroes played, the turn a Blitzkrieg-like card was played, the specials in force and the re-draws. A
    search bot rebuilds a full state from them (the_war.determinizer)."""
    frames = []
    for fr in st.frames:
        data = frame_to_json(fr)
        if isinstance(fr, PaymentFrame) and fr.seat != seat and fr.card in st.zones[fr.seat]["hand"]:
            data["card"] = None
        frames.append(data)
    return {
        "frames": frames,
        "pools": {s: list(st.pool[s]) for s in SEATS},
        "attached": [[imp, unit] for imp, unit in st.attached.items()],  # improvements, in play order
        "built_turn": dict(sorted(st.built_turn.items())),
        "power": dict(sorted(st.power.items())),
        "heroes_played": {s: list(st.heroes_played[s]) for s in SEATS},
        "mobile_turn": dict(st.mobile_turn),
        "active": list(st.active),
        "specials_this_turn": list(st.specials_this_turn),
        "redraws": dict(st.redraws),
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
        "deck_list": list(st.setup.decks[seat]),  # the seat's own deck (card ids p1.NN index it from 01)
        "players": {s: _public(st, s) for s in SEATS},
        "table": _table(st, seat),
        "opponent": other,
        "decision": None,
        "legal_actions": [],  # deprecated (issue 37): decision.legal_actions, as in every game; gone in 0.2.0
    }
    if st.decision is not None:
        out["decision"] = {"seat": st.decision.seat, "kind": st.decision.kind}
        if st.decision.seat == seat:
            legal = [a.to_json() for a in RULES.legal_actions(st)]
            out["decision"]["prompt"] = st.decision.prompt
            out["decision"]["legal_actions"] = legal
            out["legal_actions"] = list(legal)
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
        "legal_actions": [],  # deprecated (issue 37), always empty here; gone in 0.2.0
    }
    if st.decision is not None:
        out["decision"] = {"seat": st.decision.seat, "kind": st.decision.kind}
    return out
