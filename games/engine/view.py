"""Player views: everything a seat may know, nothing it may not (JSON-safe)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import KINDS
from .setup import SEATS
from .state import OTHER, GameState


def _cards(st: GameState, ids: list[str]) -> list[dict[str, str]]:
    code = st.code
    return [{"id": c, "code": code[c]} for c in ids]


def _own(st: GameState, seat: str) -> dict[str, Any]:
    p = st.players[seat]
    return {
        "nation": p["nation"],
        "hand": _cards(st, p["hand"]),
        "stacks": {k: [_cards(st, s) for s in p["stacks"][k]] for k in KINDS},
        "occupied": {bc: _cards(st, s) for bc, s in p["occupied"].items()},
        "kept": _cards(st, p["kept"]),
        "industry": _cards(st, p["industry"]),
        "discard": _cards(st, p["discard"]),
        "removed": _cards(st, p["removed"]),
        "won": _won(st, seat),
        "victory_points": st.vp(seat),
        "deck_size": len(p["deck"]),
    }


def _won(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"id": c, "code": st.code[c], "scorched": c in st.scorched,
             "victory_points": 0 if c in st.scorched else st.defs[c].victory_points}
            for c in st.players[seat]["won"]]


def _opponent(st: GameState, seat: str, viewer: str) -> dict[str, Any]:
    p = st.players[seat]
    out = {
        "nation": p["nation"],
        "hand_size": len(p["hand"]),
        "stacks": {k: [len(s) for s in p["stacks"][k]] for k in KINDS},
        "occupied": {bc: len(s) for bc, s in p["occupied"].items()},
        "kept_count": len(p["kept"]),
        "industry": _cards(st, p["industry"]),
        "discard": _cards(st, p["discard"]),
        "removed": _cards(st, p["removed"]),
        "won": _won(st, seat),
        "victory_points": st.vp(seat),
        "deck_size": len(p["deck"]),
    }
    # a deployed standing-intelligence unit shows its owner the enemy reserve hand (codes only)
    if any("intelligence" in st.abil[c] for k in KINDS for s in st.players[viewer]["stacks"][k] for c in s):
        out["hand_codes"] = sorted(st.code[c] for c in p["hand"])
    return out


def _battle_view(st: GameState, seat: str) -> dict[str, Any] | None:
    from .rules import _battle, _vals

    fr = _battle(st)
    if fr is None or fr["stage"] in ("optional", "check"):
        if fr is None:
            return None
        return {"card": fr["card"], "code": st.code.get(fr["card"]) if fr["card"] else None,
                "mode": fr["mode"], "aggressor": fr["aggressor"], "defender": fr["defender"],
                "stage": fr["stage"]}
    sides = {}
    vals = _vals(st, fr)
    done = set(fr["done"])
    fired = set(fr["fired"])
    for s in SEATS:
        units = []
        in_battle = set(fr["units"][s])
        for c in fr["present"][s]:
            d = st.defs[c]
            atk, dfn = vals.A.get(c), vals.D.get(c)
            units.append({
                "id": c, "code": st.code[c], "kind": d.kind, "phase": d.phase,
                "in_battle": c in in_battle, "done": c in done,
                "hidden_submarine": "submarine" in st.abil[c] and c not in fired,
                # the values tables are in KINDS order (ground, air, sea)
                "attack": ({"ground": atk[0], "air": atk[1], "sea": atk[2]} if atk is not None
                           else {k: vals.attack(s, c, k) for k in KINDS}),
                "defense": ({"ground": dfn[0], "air": dfn[1], "sea": dfn[2]} if dfn is not None
                            else {k: vals.defense(s, c, k) for k in KINDS}),
            })
        withdrawn = fr["withdrawn"][s]
        sides[s] = {
            "units": units,
            # withdrawn units are flipped face down again (GP1)
            "withdrawn": withdrawn if s == seat else len(withdrawn),
            "intelligence_played": fr["intel_played"][s],
            "chemical_warfare": fr["chem"][s],
        }
    return {
        "card": fr["card"], "code": st.code.get(fr["card"]) if fr["card"] else None, "mode": fr["mode"],
        "aggressor": fr["aggressor"], "defender": fr["defender"], "counterattack": fr["counter"],
        "stage": fr["stage"], "round": fr["round"], "phase": fr["phase"], "sides": sides,
        "supports": [{"unit": s[0], "recipient": s[1], "mode": s[2], "bonus": s[3]} for s in fr["supports"]],
        "pending_shot": ({k: fr["shot"][k] for k in ("seat", "unit", "target", "type")}
                         if fr["shot"] else None),
        "winner": fr["winner"],
    }


def _decision(st: GameState, seat: str) -> dict[str, Any] | None:
    from .actions import key_to_json
    from .rules import legal_keys

    d = st.decision
    if d is None:
        return None
    decision: dict[str, Any] = {"seat": d.seat, "kind": d.kind}
    if d.seat == seat:
        decision["prompt"] = d.prompt
        decision["legal_actions"] = [key_to_json(k) for k in legal_keys(st)]
    return decision


def view(st: GameState, seat: str) -> dict[str, Any]:
    if seat not in SEATS:
        raise ValueError("seat must be 'axis' or 'allies'")
    return {
        "seat": seat,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "turn": st.turn,
        "ply": st.ply,
        "active_seat": st.active_seat,
        "victory_threshold": st.vp_threshold,
        "max_action_number": st.max_action,
        "me": _own(st, seat),
        "opponent": _opponent(st, OTHER[seat], seat),
        "conflict": _conflict(st),
        "battle": _battle_view(st, seat),
        "decision": _decision(st, seat),
    }


def _conflict(st: GameState) -> dict[str, Any]:
    return {"deck_size": len(st.conflict_deck), "discard": _cards(st, st.conflict_discard),
            "aside": _cards(st, st.aside)}


_ABSENT = object()


class _LazyView(dict):
    """view(st, seat) with each top-level part built when first read, with the value view() would give
    at that moment (the same keys, in the same order). play_game hands one to a HeuristicBot, which reads
    only a few parts and chooses before the state changes; it is never handed out otherwise. Whole-view
    reads (keys/items/values, ==, repr) build every part first."""

    __slots__ = ("_parts",)

    def __init__(self, parts: dict[str, Callable[[], Any]]) -> None:
        super().__init__()
        self._parts = parts

    def __missing__(self, key: str) -> Any:
        make = self._parts.get(key)
        if make is None:
            raise KeyError(key)
        value = self[key] = make()
        return value

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        make = self._parts.get(key)
        if make is None:
            return default
        return self[key]

    def __contains__(self, key: object) -> bool:
        return key in self._parts

    def __bool__(self) -> bool:  # as the built dict (`view.get("decision") or {}`)
        return bool(self._parts)

    def _full(self) -> dict[str, Any]:
        return {key: self[key] for key in self._parts}

    def __iter__(self):
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)

    def keys(self):  # type: ignore[override]
        return self._full().keys()

    def values(self):  # type: ignore[override]
        return self._full().values()

    def items(self):  # type: ignore[override]
        return self._full().items()

    def __eq__(self, other: object) -> bool:
        return self._full() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._full())


def bot_view(st: GameState, seat: str) -> dict[str, Any]:
    """view(st, seat), each part built on first read (see _LazyView; the keys are view()'s: keep them in
    step). For a bot that reads a few parts and chooses at once: play_game uses it for HeuristicBot seats."""
    if seat not in SEATS:
        raise ValueError("seat must be 'axis' or 'allies'")
    return _LazyView({
        "seat": lambda: seat,
        "status": lambda: st.status,
        "winner": lambda: st.winner,
        "result": lambda: st.result,
        "turn": lambda: st.turn,
        "ply": lambda: st.ply,
        "active_seat": lambda: st.active_seat,
        "victory_threshold": lambda: st.vp_threshold,
        "max_action_number": lambda: st.max_action,
        "me": lambda: _own(st, seat),
        "opponent": lambda: _opponent(st, OTHER[seat], seat),
        "conflict": lambda: _conflict(st),
        "battle": lambda: _battle_view(st, seat),
        "decision": lambda: _lazy_decision(st, seat),
    })


def _lazy_decision(st: GameState, seat: str) -> dict[str, Any] | None:
    """_decision(st, seat), its legal actions' JSON built on first read (a bot reads the Action list)."""
    d = st.decision
    if d is None:
        return None
    parts: dict[str, Callable[[], Any]] = {"seat": lambda: d.seat, "kind": lambda: d.kind}
    if d.seat == seat:
        parts["prompt"] = lambda: d.prompt
        parts["legal_actions"] = lambda: _decision(st, seat)["legal_actions"]  # type: ignore[index]
    return _LazyView(parts)
