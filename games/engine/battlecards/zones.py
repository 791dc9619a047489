"""Where cards are (python-chess BaseBoard's role): decks, hands, stacks, kept cards, the battle frame;
drawing, flipping, moving and discarding helpers, prerequisites (CA3) and the stated aggressor. No combat."""
from __future__ import annotations

from typing import Any

from vocabulary.battlecards import KINDS, ArsenalCardDef

from ..core.errors import StateError
from ..core.machine import emit
from .actions import OCCUPIED, split_stack_ref
from .frames import BattleFrame
from .setup import SEATS, side_of
from .state import GameState


def draw_arsenal(st: GameState, seat: str) -> str | None:
    p = st.arsenal(seat)
    if not p["deck"]:
        if not p["discard"]:
            return None  # GP6: a fully deployed arsenal ignores further deployment
        p["deck"] = p["discard"]
        p["discard"] = []
        st.rng.shuffle(p["deck"])
        emit(st, "arsenal_reshuffled", {"seat": seat, "cards": len(p["deck"])})
    return p["deck"].pop()


def flip_conflict(st: GameState) -> str | None:
    if not st.conflict_deck:
        if not st.conflict_discard:
            return None
        st.conflict_deck = st.conflict_discard
        st.conflict_discard = []
        st.rng.shuffle(st.conflict_deck)
        emit(st, "conflict_reshuffled", {"cards": len(st.conflict_deck)})
    return st.conflict_deck.pop()


def draw_action_number(st: GameState) -> tuple[int, str | None]:
    cid = flip_conflict(st)
    if cid is None:
        return 0, None
    st.conflict_discard.append(cid)
    return st.defs[cid].action_number, cid


def stack_at(st: GameState, seat: str, ref: str) -> list[str]:
    """The stack `ref` names ("<kind>:<i>" or "bc:<battlecard>"): a ref a legal action or a frame holds
    always names one of `seat`'s stacks (StateError if not)."""
    stack = None
    kind, idx = split_stack_ref(ref)
    if kind == OCCUPIED:
        stack = st.players[seat]["occupied"].get(idx)
    else:
        try:
            stacks = st.players[seat]["stacks"][kind]
            i = int(idx)
        except (ValueError, KeyError):
            stacks, i = [], 0
        if 0 <= i < len(stacks):
            stack = stacks[i]
    if stack is None:
        raise StateError(f"{seat} has no stack {ref!r}")
    return stack


def nonempty_refs(st: GameState, seat: str, min_size: int = 1, occupied: bool = True) -> list[str]:
    out = []
    for kind in KINDS:
        for i, s in enumerate(st.players[seat]["stacks"][kind]):
            if len(s) >= min_size:
                out.append(f"{kind}:{i}")
    if occupied:
        out.extend(f"bc:{bc}" for bc, s in st.players[seat]["occupied"].items() if len(s) >= min_size)
    return out


def deployed_cards(st: GameState, seat: str) -> list[str]:
    out: list[str] = []
    for kind in KINDS:
        for s in st.players[seat]["stacks"][kind]:
            out.extend(s)
    for s in st.players[seat]["occupied"].values():
        out.extend(s)
    return out


def remove_deployed(st: GameState, seat: str, cid: str) -> str | None:
    """Take the deployed card `cid` out of `seat`'s stacks; the army it was taken from, None if no army
    of `seat`'s side had it deployed. In a homeland battle (FAQ OR3/OR4, phases.battle) `seat` commands
    its side and the card may be a teammate's, fighting under it: it leaves the stacks of the army that
    holds it."""
    if _take_deployed(st, st.players[seat], cid):
        return seat
    army = _teammate_holding(st, seat, cid)
    return army if army is not None and _take_deployed(st, st.players[army], cid) else None


def _teammate_holding(st: GameState, seat: str, cid: str) -> str | None:
    """The other army of `seat`'s side with `cid` deployed (none in a game of one army a side)."""
    side = side_of(seat)
    for army in st.armies:
        if army != seat and side_of(army) == side and ref_of(st, army, cid) is not None:
            return army
    return None


def army_map(st: GameState, fr: BattleFrame) -> dict[str, str]:
    """Card id -> the army holding it, for every card deployed by the armies fighting in battle `fr` (the
    two named in it and, in a homeland battle, the teammates joined under them)."""
    out: dict[str, str] = {}
    joined = fr.joined or {}
    for s in fr.units:
        for army in (s, *joined.get(s, ())):
            p = st.players[army]
            for k in KINDS:
                for stack in p["stacks"][k]:
                    out.update(dict.fromkeys(stack, army))
            for stack in p["occupied"].values():
                out.update(dict.fromkeys(stack, army))
    return out


def _take_deployed(st: GameState, p: dict[str, Any], cid: str) -> bool:
    for s in p["occupied"].values():
        if cid in s:
            s.remove(cid)
            return True
    d = st.defs[cid]
    stacks = p["stacks"]
    lst = stacks.get(d.kind) if isinstance(d, ArsenalCardDef) else None
    if lst is not None:  # a card sits in a stack of its own kind: look there first
        for i, s in enumerate(lst):
            if cid in s:
                s.remove(cid)
                if not s and len(lst) > 1:
                    del lst[i]  # C1: a divided stack ends when it is completely destroyed
                return True
    for lst in stacks.values():
        for i, s in enumerate(lst):
            if cid in s:
                s.remove(cid)
                if not s and len(lst) > 1:
                    del lst[i]  # C1: a divided stack ends when it is completely destroyed
                return True
    return False


def kept_with(st: GameState, seat: str, effects: frozenset[str] | set[str]) -> list[str]:
    return [c for c in st.team(seat)["kept"] if st.defs[c].effect in effects]


def battle_frame(st: GameState) -> BattleFrame | None:
    """The battle in progress (the innermost battle frame), or None."""
    for fr in reversed(st.frames):
        if type(fr) is BattleFrame:
            return fr
    return None


def industry_extra(st: GameState, seat: str) -> int:
    p = st.players[seat]
    extra = sum(st.defs[c].param("extra", 0) for c in p["industry"])
    for cid in deployed_cards(st, seat):
        ab = st.abil[cid].get("industry")
        if ab is not None:
            extra += ab.get("extra")
    return extra


def has_ability_deployed(st: GameState, seat: str, kind: str) -> bool:
    return any(kind in st.abil[c] for c in deployed_cards(st, seat))


def prereqs_met(st: GameState, bc: str) -> bool:
    """FAQ CA3: each prerequisite names who must hold which battlecard, whoever attacks."""
    for pr in st.defs[bc].prerequisites:
        seat = pr.holder if pr.holder in SEATS else st.side_of_nation(pr.holder)
        if seat is None:
            return False
        if not any(st.code[w] == pr.battlecard for w in st.team(seat)["won"]):
            return False
    return True


def stated_aggressor(st: GameState, bc: str) -> str | None:
    agg = st.defs[bc].aggressor
    if agg == "drawing-player":
        return None
    return st.side_of_nation(agg)


def discard_kept(st: GameState, seat: str, cid: str) -> None:
    st.team(seat)["kept"].remove(cid)
    st.conflict_discard.append(cid)
    emit(st, "card_played", {"seat": seat, "card": cid, "code": st.code[cid]})


def destroy_industry(st: GameState, seat: str) -> None:
    ic = st.players[seat]["industry"].pop(0)
    st.conflict_discard.append(ic)
    emit(st, "industry_destroyed", {"seat": seat, "card": ic, "code": st.code[ic]})


def ref_of(st: GameState, seat: str, cid: str) -> str | None:
    for bc, s in st.players[seat]["occupied"].items():
        if cid in s:
            return f"bc:{bc}"
    for kind in KINDS:
        for i, s in enumerate(st.players[seat]["stacks"][kind]):
            if cid in s:
                return f"{kind}:{i}"
    return None


def draw_n(st: GameState, seat: str, n: int) -> int:
    got = 0
    hand = st.players[seat]["hand"]
    for _ in range(n):
        cid = draw_arsenal(st, seat)
        if cid is None:
            break
        hand.append(cid)
        got += 1
        if st.record_events:  # hot in self-play (events off): skip building the payload
            emit(st, "drawn_card", {"seat": seat, "card": cid, "code": st.code[cid]}, seat)
    if got and st.record_events:  # hot in self-play (events off): skip building the payload
        emit(st, "drawn", {"seat": seat, "count": got})
    return got
