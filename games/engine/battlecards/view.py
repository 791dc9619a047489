"""Player views: everything a seat may know, nothing it may not (JSON-safe)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vocabulary.battlecards import KINDS

from .actions import key_to_json
from .inspect import armies_in_battle, battle_frame, current_values, setup_pending
from .machine import legal_keys
from .state import OTHER, GameState
from .table import public_table


def _cards(st: GameState, ids: list[str]) -> list[dict[str, str]]:
    code = st.code
    return [{"id": c, "code": code[c]} for c in ids]


def _own(st: GameState, seat: str) -> dict[str, Any]:
    p = st.players[seat]
    pool, team = st.arsenal(seat), st.team(seat)
    return {
        "nation": p["nation"],
        "hand": _cards(st, p["hand"]),
        "stacks": {k: [_cards(st, s) for s in p["stacks"][k]] for k in KINDS},
        "occupied": {bc: _cards(st, s) for bc, s in p["occupied"].items()},
        "kept": _cards(st, team["kept"]),
        "industry": _cards(st, p["industry"]),
        "discard": _cards(st, pool["discard"]),
        "removed": _cards(st, pool["removed"]),
        "won": _won(st, seat),
        "victory_points": st.vp(seat),
        "deck_size": len(pool["deck"]),
    }


def _won(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"id": c, "code": st.code[c], "scorched": c in st.scorched,
             "victory_points": 0 if c in st.scorched else st.defs[c].victory_points}
            for c in st.team(seat)["won"]]


def _opponent(st: GameState, seat: str, viewer: str | None) -> dict[str, Any]:
    p = st.players[seat]
    pool, team = st.arsenal(seat), st.team(seat)
    if setup_pending(st):
        # "Secretly look at your hands, and Deploy": until both seats have deployed, the opponent is shown as
        # dealt (every card in the reserve hand, no stacks), whatever he has deployed already
        hand_size = len(p["hand"]) + sum(len(s) for k in KINDS for s in p["stacks"][k])
        stacks = {k: [0] * len(p["stacks"][k]) for k in KINDS}
    else:
        hand_size = len(p["hand"])
        stacks = {k: [len(s) for s in p["stacks"][k]] for k in KINDS}
    out = {
        "nation": p["nation"],
        "hand_size": hand_size,
        "stacks": stacks,
        "occupied": {bc: len(s) for bc, s in p["occupied"].items()},
        "kept_count": len(team["kept"]),
        "industry": _cards(st, p["industry"]),
        "discard": _cards(st, pool["discard"]),
        "removed": _cards(st, pool["removed"]),
        "won": _won(st, seat),
        "victory_points": st.vp(seat),
        "deck_size": len(pool["deck"]),
    }
    if not st.classic:
        out["side"] = st.side(seat)
        out["across"] = p["across"]
        out["eliminated"] = p["out"]
        if viewer is not None and st.side(seat) == st.side(viewer):
            out["kept"] = _cards(st, team["kept"])  # OR3: kept cards are common to the side
            return out  # a teammate's hand and stacks stay as private as an enemy's (README, team play)
    # a deployed standing-intelligence unit shows its owner the enemy reserve hand (codes only)
    if viewer is not None and any(
        "intelligence" in st.abil[c] for k in KINDS for s in st.players[viewer]["stacks"][k] for c in s
    ):
        out["hand_codes"] = sorted(st.code[c] for c in p["hand"])
    return out


def _battle_view(st: GameState, seat: str | None) -> dict[str, Any] | None:
    fr = battle_frame(st)
    if fr is None or fr.stage in ("optional", "stacks", "check"):
        if fr is None:
            return None
        return {"card": fr.card, "code": st.code.get(fr.card) if fr.card else None,
                "mode": fr.mode.name, "aggressor": fr.aggressor, "defender": fr.defender,
                "stage": fr.stage}
    sides = {}
    values = current_values(st, fr)
    done = set(fr.done)
    fired = set(fr.fired)
    army_of = None if st.classic else armies_in_battle(st, fr)
    for s in fr.units:
        units = []
        in_battle = set(fr.units[s])
        for c in fr.present[s]:
            d = st.defs[c]
            atk, dfn = values.unit(c)  # (ground, air, sea) each
            units.append({
                "id": c, "code": st.code[c], "kind": d.kind, "phase": d.phase,
                "in_battle": c in in_battle, "done": c in done,
                "hidden_submarine": "submarine" in st.abil[c] and c not in fired,
                "attack": {"ground": atk[0], "air": atk[1], "sea": atk[2]},
                "defense": {"ground": dfn[0], "air": dfn[1], "sea": dfn[2]},
            })
            if army_of is not None:  # team games: the army whose unit it is (a homeland battle's teammates)
                units[-1]["army"] = army_of.get(c, s)
        withdrawn = fr.withdrawn[s]
        sides[s] = {
            "units": units,
            # withdrawn units are flipped face down again (GP1)
            "withdrawn": withdrawn if s == seat else len(withdrawn),
            "intelligence_played": fr.intel_played[s],
            "chemical_warfare": fr.chem[s],
        }
    out: dict[str, Any] = {
        "card": fr.card, "code": st.code.get(fr.card) if fr.card else None, "mode": fr.mode.name,
        "aggressor": fr.aggressor, "defender": fr.defender, "counterattack": fr.counter,
        "stage": fr.stage, "round": fr.round, "phase": fr.phase, "sides": sides,
        "supports": [{"unit": s.supporter, "recipient": s.recipient, "mode": s.mode, "bonus": s.bonus}
                     for s in fr.supports],
        "pending_shot": ({"seat": shot.seat, "unit": shot.unit, "target": shot.target, "type": shot.type}
                         if (shot := fr.shot) is not None else None),
        "winner": fr.winner,
    }
    if not st.classic:  # every army fighting in each side (a homeland battle: the commander's teammates too)
        out["armies"] = {s: [s, *(fr.joined or {}).get(s, ())] for s in fr.units}
    return out


def _decision(st: GameState, seat: str | None) -> dict[str, Any] | None:
    d = st.decision
    if d is None:
        return None
    decision: dict[str, Any] = {"seat": d.seat, "kind": d.kind}
    if d.seat == seat:
        decision["prompt"] = d.prompt
        decision["legal_actions"] = [key_to_json(k) for k in legal_keys(st)]
    return decision


def view(st: GameState, seat: str) -> dict[str, Any]:
    if seat not in st.players:
        raise ValueError(f"seat must be one of {list(st.armies)}")
    out = {
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
        "opponent": _opponent(st, st.foe(seat), seat),
        "conflict": _conflict(st),
        "battle": _battle_view(st, seat),
        "decision": _decision(st, seat),
        "deck_list": list(st.setup.decks[seat]),  # the seat's own arsenal deck list: it built the deck
    }
    if not st.classic:
        out["armies"] = _armies(st, seat)
    else:  # the public table a search bot rebuilds the game from (table.py; classic games)
        out["table"] = public_table(st, seat)
    return out


def _armies(st: GameState, seat: str) -> dict[str, Any]:
    """Team and combined games: every army in turn order, the viewer's own as in "me", the others as an
    opponent is shown (teammates add the side's common kept cards)."""
    return {"turn_order": list(st.armies), "side": st.side(seat),
            "others": {a: _opponent(st, a, seat) for a in st.armies if a != seat}}


def public_view(st: GameState) -> dict[str, Any]:
    """What a spectator may see: only what every seat sees. Each army as an opponent is shown to an enemy
    (hand and stack sizes, kept-card counts; no standing-intelligence hand codes, no side's common kept
    cards), the conflict deck's size and discards, the battle with every side's withdrawn units counted,
    and whose decision it is (no prompt, no legal actions)."""
    out: dict[str, Any] = {
        "seat": None,
        "status": st.status,
        "winner": st.winner,
        "result": st.result,
        "turn": st.turn,
        "ply": st.ply,
        "active_seat": st.active_seat,
        "victory_threshold": st.vp_threshold,
        "max_action_number": st.max_action,
        "players": {army: _opponent(st, army, None) for army in st.armies},
        "conflict": _conflict(st),
        "battle": _battle_view(st, None),
        "decision": _decision(st, None),
    }
    if not st.classic:
        out["turn_order"] = list(st.armies)
    return out


def _conflict(st: GameState) -> dict[str, Any]:
    return {"deck_size": len(st.conflict_deck), "discard": _cards(st, st.conflict_discard),
            "aside": _cards(st, st.aside)}


class _LazyView(dict):
    """A view (or its decision part) whose parts in `makers` are built when first read, with the value
    view() would give at that moment; `keys` are view()'s keys in view()'s order, the other values are
    given at once. play_game hands one to a HeuristicBot, which reads only a few parts and chooses before
    the state changes; it is never handed out otherwise. Whole-view reads (keys/items/values, ==, repr)
    build every part first."""

    __slots__ = ("_keys", "_makers")

    def __init__(self, keys: tuple[str, ...], makers: dict[str, Callable[[], Any]], **values: Any) -> None:
        super().__init__(values)
        self._keys = keys
        self._makers = makers

    def __missing__(self, key: str) -> Any:
        make = self._makers.get(key)
        if make is None:
            raise KeyError(key)
        value = self[key] = make()
        return value

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[key]  # a value, else __missing__
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __bool__(self) -> bool:  # as the built dict (`view.get("decision") or {}`)
        return bool(self._keys)

    def _full(self) -> dict[str, Any]:
        return {key: self[key] for key in self._keys}

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

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


# view()'s keys in view()'s order (keep in step with view())
_VIEW_KEYS = ("seat", "status", "winner", "result", "turn", "ply", "active_seat", "victory_threshold",
              "max_action_number", "me", "opponent", "conflict", "battle", "decision", "deck_list", "table")


def bot_view(st: GameState, seat: str) -> dict[str, Any]:
    """view(st, seat) with the card lists, the battle and the legal actions' JSON built on first read (see
    _LazyView). For a bot that reads a few parts and chooses at once: play_game uses it for HeuristicBot
    seats."""
    if seat not in st.players:
        raise ValueError(f"seat must be one of {list(st.armies)}")
    if not st.classic:
        return view(st, seat)
    return _LazyView(_VIEW_KEYS, {
        "me": lambda: _own(st, seat),
        "opponent": lambda: _opponent(st, OTHER[seat], seat),
        "conflict": lambda: _conflict(st),
        "battle": lambda: _battle_view(st, seat),
        "decision": lambda: _lazy_decision(st, seat),
        "deck_list": lambda: list(st.setup.decks[seat]),
        "table": lambda: public_table(st, seat),
    }, seat=seat, status=st.status, winner=st.winner, result=st.result, turn=st.turn, ply=st.ply,
        active_seat=st.active_seat, victory_threshold=st.vp_threshold, max_action_number=st.max_action)


def _lazy_decision(st: GameState, seat: str) -> dict[str, Any] | None:
    """_decision(st, seat), its legal actions' JSON built on first read (a bot reads the Action list)."""
    d = st.decision
    if d is None:
        return None
    if d.seat != seat:
        return {"seat": d.seat, "kind": d.kind}
    return _LazyView(("seat", "kind", "prompt", "legal_actions"),
                     {"legal_actions": lambda: _decision(st, seat)["legal_actions"]},  # type: ignore[index]
                     seat=d.seat, kind=d.kind, prompt=d.prompt)
