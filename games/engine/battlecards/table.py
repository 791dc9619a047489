"""The public table of a classic Battlecards game, as one seat knows it: what the search bot rebuilds a full
state from (battlecards.determinizer), built rule by rule so that it holds nothing the seat may not know.

The view (view.py) shows the cards; the table adds the pending steps and the few public facts the rules
need to go on from them:

- `frames`: the frame stack (the pending steps), each frame's JSON with three redactions:
  * every card id the seat cannot see (a deck's card, the enemy reserve hand, his face-down stacks and
    occupied stacks, his kept cards) is written "hidden-N", numbered in the order the frames name them
    (an enemy unit withdrawn from a battle is face down again, GP1);
  * FAQ C2 (a divided side's stack choice is secret until both sides chose): the other side's entry of a
    battle's `stacks` is empty while the battle has not revealed its forces (stages optional, stacks,
    check); after the reveal the public battle_stacks event has shown it, and it stays;
  * the other side's answer to "commit your optional forces" (`include`) is always written False: it is
    told to nobody (no event), and the forces revealed show only the units it brought. `asked` (who was
    asked, on the public fact of a non-empty ground stack) stays.
- `cards`: the codes of the face-up cards the frames name that the view does not show (a battlecard
  being fought).
- `stacked`: for each face-up unit of the battle, the deployed stack it came from ([army, kind, index]:
  which stack fought is public once the forces are revealed, C2); not its place in the stack.
- `theater`: the theater whose conflict deck the game plays (the box on the table). NOT the conflict
  deck's list: a kept card lies face down, and a list would name it.
- `options`: the game's options (agreed when the game was made); `round_cap_battles`: the battles the
  round cap settled (public: each one was announced).

The seat's own arsenal deck list (`deck_list` in the view) is its own knowledge: it built the deck.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from vocabulary.battlecards import KINDS

from ..core.plain import plain_strings
from .frames import BattleFrame
from .state import GameState

PRE_REVEAL = frozenset({"optional", "stacks", "check"})  # a battle's stages before its forces show


def face_down(st: GameState, seat: str) -> set[str]:
    """The cards `seat` cannot see: every deck, the other armies' reserve hands, deployed and occupying
    stacks, and the enemy side's kept cards."""
    out = set(st.conflict_deck)
    for pool in st.pools.values():
        out.update(pool["deck"])
    for army, p in st.players.items():
        if army == seat:
            continue
        out.update(p["hand"])
        for k in KINDS:
            for stack in p["stacks"][k]:
                out.update(stack)
        for stack in p["occupied"].values():
            out.update(stack)
    for side, team in st.sides.items():
        if side != st.side(seat):
            out.update(team["kept"])
    return out


def theater(st: GameState) -> str | None:
    """The theater of the game's conflict deck (the most common theater among its cards): a function of the
    catalog and the dealt deck alone, so worked out once per pair (every view of the game asks)."""
    cat, deck = st.catalog, st.setup.conflict_deck
    key = (id(cat), deck)
    known = _THEATERS.get(key)
    if known is not None and known[0] is cat:
        return known[1]
    counts = Counter(d.theater for c in deck
                     if (d := cat.conflict.get(c) or cat.battlecards.get(c)) is not None and d.theater)
    found = counts.most_common(1)[0][0] if counts else None
    if len(_THEATERS) >= 256:
        _THEATERS.clear()
    _THEATERS[key] = (cat, found)  # the catalog kept with its id: the id cannot name another catalog
    return found


_THEATERS: dict[tuple[int, tuple[str, ...]], tuple[Any, str | None]] = {}


def _public_frame(fr: Any, seat: str) -> dict[str, Any]:
    data = fr.to_json()
    if isinstance(fr, BattleFrame):
        for other in fr.units:
            if other == seat:
                continue
            if fr.stage in PRE_REVEAL:
                data["stacks"][other] = {}  # FAQ C2: secret until both chose
            data["include"][other] = False  # nobody is told the answer
    return data


def public_table(st: GameState, seat: str) -> dict[str, Any]:
    """The table `seat` knows (see the module docstring)."""
    # keys sorted: a state stored in PostgreSQL's jsonb comes back with its dicts' keys reordered, and the
    # table (and the hidden-N numbering, in the order the frames name the cards) must not depend on it
    code = st.code
    shown = {c for fr in st.frames if isinstance(fr, BattleFrame) and fr.stage not in PRE_REVEAL
             for units in fr.present.values() for c in units}
    placed: dict[str, list[Any]] = {}
    if shown:
        for army, p in st.players.items():
            for k in KINDS:
                for i, stack in enumerate(p["stacks"][k]):
                    for c in stack:
                        if c in shown:
                            placed[c] = [army, k, i]
    naming = TableNaming(code, lambda: face_down(st, seat) - shown)
    frames = naming.canonical([_public_frame(fr, seat) for fr in st.frames])
    cards = naming.cards
    return {"frames": frames, "cards": dict(sorted(cards.items())), "stacked": dict(sorted(placed.items())),
            "theater": theater(st), "options": st.setup.options.to_json(),
            "round_cap_battles": st.round_cap_battles}


class TableNaming:
    """canonical(frames), then every card id in it that `down` holds renamed "hidden-N" (N in the order the
    canonical frames name them, keys included, depth first: `walk`'s order) and the other card ids' codes
    collected in `cards`: what rename(canonical(frames), names) with the names numbered over walk(...) gives,
    in one pass over the frames instead of three. `down` (the ids the seat cannot see) is worked out at the
    first card id met."""

    def __init__(self, code: dict[str, str], down: Any) -> None:
        self.code, self._down_of = code, down
        self._down: set[str] | None = None
        self.names: dict[str, str] = {}
        self.cards: dict[str, str] = {}

    def name(self, s: str) -> str:
        if s not in self.code:
            return s
        down = self._down
        if down is None:
            down = self._down = self._down_of()
        if s in down:
            found = self.names.get(s)
            if found is None:
                found = self.names[s] = f"hidden-{len(self.names) + 1}"
            return found
        self.cards[s] = self.code[s]
        return s

    def canonical(self, value: Any) -> Any:
        if isinstance(value, dict):
            keys = sorted(value)
            keys.sort(key=len)  # canonical's order
            out = {}
            for k in keys:
                v = value[k]
                k = self.name(k) if isinstance(k, str) else k
                if isinstance(v, str):
                    v = self.name(v)
                elif isinstance(v, (dict, list)):
                    v = self.canonical(v)
                out[k] = v
            return out
        if isinstance(value, list):
            return [self.name(v) if isinstance(v, str) else self.canonical(v) if isinstance(v, (dict, list))
                    else v for v in value]
        return self.name(value) if isinstance(value, str) else value


def canonical(value: Any) -> Any:
    """A JSON value with every dict's keys in one order whatever order it was built in: jsonb's (shorter
    keys first, then by code point), the order a state loaded from PostgreSQL has ("axis" before "allies")."""
    if isinstance(value, dict):
        keys = sorted(value)
        keys.sort(key=len)  # stable: by length, then by code point (jsonb's order)
        return {k: canonical(v) if isinstance(v := value[k], (dict, list)) else v for k in keys}
    if isinstance(value, list):
        return [canonical(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def walk(value: Any) -> list[str]:
    """Every string of a JSON value (dict keys included), depth first in document order."""
    return plain_strings(value)


def rename(value: Any, names: dict[str, str]) -> Any:
    """A JSON value with each string (dict keys included) in `names` replaced by its new name. With canonical
    and walk, the definition public_table's one pass (TableNaming) is tested against
    (tests/engine/test_public_table_naming.py)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {names.get(k, k): rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [rename(v, names) for v in value]
    return value


__all__ = ["PRE_REVEAL", "TableNaming", "canonical", "face_down", "public_table", "rename", "theater", "walk"]
