"""Battlefront player views: everything a seat may know, nothing it may not (JSON-safe).

Shown: own hand, own discards, both sides' cards on every front (played face up) with their Force and
whether they are negated, markers, captures, the last battle, the deck SIZE, the opponent's hand and
discard SIZES, and what one's own scout showed this turn. Never: the opponent's hand (except the scout's
snapshot, to the scout's owner), the deck order, the RNG state. The decision prompt and the legal actions
are shown only to the deciding seat.
"""
from __future__ import annotations

from typing import Any

from .rules import front_forces, legal_keys, materialize, profile_of
from .setup import FRONT_NAMES, FRONTS, HAND_LIMIT, OTHER, SEATS
from .state import BattlefrontState


def _hand_card(st: BattlefrontState, code: str) -> dict[str, Any]:
    card = st.catalog.card(code)
    return {"code": code, "type": card.type, "force": card.force}


def _front(st: BattlefrontState, front: str) -> dict[str, Any]:
    forces, negated = front_forces(st, front)
    cards = {}
    for seat in SEATS:
        row = []
        for i, code in enumerate(st.fronts[front][seat]):
            p = profile_of(st, seat, code)
            entry = {"code": code, "type": p[0], "force": p[1], "negated": i in negated[seat]}
            if code in st.uses:
                entry["use"] = st.uses[code]
            row.append(entry)
        cards[seat] = row
    return {"front": front, "name": FRONT_NAMES[front], "cards": cards, "force": forces,
            "markers": dict(st.markers[front]), "captured_by": st.captured[front]}


def _legal_json(st: BattlefrontState) -> list[dict[str, Any]]:
    return [materialize(k).to_json() for k in legal_keys(st)]


def _decision(st: BattlefrontState, seat: str | None) -> dict[str, Any] | None:
    d = st.decision
    if d is None:
        return None
    if d.seat != seat:
        return {"seat": d.seat, "kind": d.kind}
    return {"seat": d.seat, "kind": d.kind, "prompt": d.prompt, "legal_actions": _legal_json(st)}


def view(st: BattlefrontState, seat: str) -> dict[str, Any]:
    """What `seat` may see (JSON-safe)."""
    if seat not in SEATS:
        raise ValueError(f"seat must be one of {SEATS}")
    opp = OTHER[seat]
    captured = {s: [f for f in FRONTS if st.captured[f] == s] for s in SEATS}
    scouted = st.scouted[seat]
    return {
        "game": "battlefront",
        "seat": seat,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "turn": st.turn,
        "ply": st.ply,
        "first_seat": st.first_seat,
        "options": st.setup.options.to_json(),
        "hand_limit": HAND_LIMIT,
        "deck_size": len(st.deck),
        "fronts": [_front(st, f) for f in FRONTS],
        "last_battle": st.last_battle,
        "me": {
            "seat": seat,
            "nationality": st.nationality(seat),
            "hand": [_hand_card(st, c) for c in st.hands[seat]],
            "discards": list(st.discards[seat]),
            "captured": captured[seat],
            "scouted": list(scouted) if scouted is not None else None,
        },
        "opponent": {
            "seat": opp,
            "nationality": st.nationality(opp),
            "hand_size": len(st.hands[opp]),
            "discard_size": len(st.discards[opp]),
            "captured": captured[opp],
        },
        "decision": _decision(st, seat),
    }


def public_view(st: BattlefrontState) -> dict[str, Any]:
    """What a spectator may see: only what both seats see (the fronts, markers, captures, the last battle,
    the deck size, each seat's hand and discard sizes, whose decision it is); no hand, no face-down discard,
    no scout's snapshot, no prompt nor legal actions."""
    captured = {s: [f for f in FRONTS if st.captured[f] == s] for s in SEATS}
    return {
        "game": "battlefront",
        "seat": None,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "turn": st.turn,
        "ply": st.ply,
        "first_seat": st.first_seat,
        "options": st.setup.options.to_json(),
        "hand_limit": HAND_LIMIT,
        "deck_size": len(st.deck),
        "fronts": [_front(st, f) for f in FRONTS],
        "last_battle": st.last_battle,
        "players": {
            seat: {
                "seat": seat,
                "nationality": st.nationality(seat),
                "hand_size": len(st.hands[seat]),
                "discard_size": len(st.discards[seat]),
                "captured": captured[seat],
            }
            for seat in SEATS
        },
        "decision": _decision(st, None),
    }
