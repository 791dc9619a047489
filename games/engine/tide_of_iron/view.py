"""Tide of Iron referee views: everything a seat may know, nothing it may not (JSON-safe).

Shown to both seats: the HQ areas and play areas (face up), the box, command points, the reported board,
round, phase, whose turn it is, the activation being resolved, and each Strategy deck's title and SIZE.
Never: the order or the contents of the undrawn decks, the RNG state. The decision prompt and the legal
actions are shown only to the deciding seat.
"""

from __future__ import annotations

from typing import Any

from .rules import legal_keys, materialize
from .setup import OTHER, SEATS
from .state import TideOfIronState


def _decision(st: TideOfIronState, seat: str) -> dict[str, Any] | None:
    d = st.decision
    if d is None:
        return None
    if d.seat != seat:
        return {"seat": d.seat, "kind": d.kind}
    return {
        "seat": d.seat,
        "kind": d.kind,
        "prompt": d.prompt,
        "legal_actions": [materialize(k).to_json() for k in legal_keys(st)],
    }


def _side(st: TideOfIronState, seat: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "command": st.command[seat],
        "decks": [
            {"code": d, "title": st.catalog.decks[d].title, "size": len(cards)}
            for d, cards in st.decks[seat].items()
        ],
        "hq": [{"code": c} for c in st.hq[seat]],
        "play_area": [
            {
                "code": e["card"],
                "waiting_for_contact": e["pending"],
                "round": e["round"],
                "last_contact_round": e["tried"],
            }
            for e in st.play[seat]
        ],
    }


SPECTATOR = "spectator"


def view(st: TideOfIronState, seat: str) -> dict[str, Any]:
    """What `seat` may see; seat "spectator": what a watcher of the match may see (both sides as `sides`,
    the same public information, never the decision's legal actions)."""
    if seat == SPECTATOR:
        out = _common(st)
        out.update(seat=None, sides={s: _side(st, s) for s in SEATS})
        d = st.decision
        out["decision"] = None if d is None else {"seat": d.seat, "kind": d.kind}
        return out
    if seat not in SEATS:
        raise ValueError(f"seat must be one of {SEATS} or {SPECTATOR!r}")
    out = _common(st)
    out.update(seat=seat, me=_side(st, seat), opponent=_side(st, OTHER[seat]), decision=_decision(st, seat))
    return out


def _common(st: TideOfIronState) -> dict[str, Any]:
    p = st.pending
    scenario = st.catalog.scenarios[st.options.scenario]
    return {
        "game": "tide-of-iron",
        "seat": None,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "round": st.round,
        "phase": st.phase,
        "turn_seat": st.turn_seat,
        "ply": st.ply,
        "options": st.options.to_json(),
        "scenario": {"code": scenario.code, "title": scenario.title},
        "board": {
            **st.options.board.to_json(),
            "marker": st.options.marker,
            "cover": dict(sorted(st.cover.items())),
            "units": [{"unit": k, **v} for k, v in sorted(st.units.items())],
        },
        "box": [{"code": c} for c in st.box],
        # revision 2: the report waiting for the other player's confirm or dispute (public)
        "claim": None if st.claim is None else dict(st.claim),
        "resolving": None
        if p is None
        else {
            "seat": p.seat,
            "code": p.card,
            "target": p.target,
            "los": p.los,
            "final": p.final,
        },
    }


def public_view(st: TideOfIronState) -> dict[str, Any]:
    """What a spectator of the match may see (the games service's spectator view): view(st, "spectator")."""
    return view(st, SPECTATOR)
