"""Positions for The War tests: a state built from named zones, then driven only through `apply`."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from games.engine import the_war as tw
from games.engine.the_war.rules import RULES
from games.engine.the_war.state import TurnFrame, WarState
from vocabulary.the_war import TheWarCatalog, load_catalog


@lru_cache(maxsize=1)
def catalog() -> TheWarCatalog:
    return load_catalog()


def position(*, seat: str = "p1", stage: str = "attack", turn: int = 3,
             p1: dict[str, list[str]] | None = None, p2: dict[str, list[str]] | None = None,
             rotated: tuple[str, ...] = (), deck: int = 20, cat: TheWarCatalog | None = None) -> WarState:
    """A state at `stage` of `seat`'s turn. Zones are lists of card codes (ids are p1.01.. in the order
    given); each deck holds `deck` basic depots unless given. `rotated`: codes (seat.code) rotated.
    `cat`: a catalog with synthetic cards (`with_cards`), the stored one unless given."""
    cat = cat or catalog()
    decks = {}
    zones = {"p1": p1 or {}, "p2": p2 or {}}
    for s in tw.SEATS:
        z = zones[s]
        codes = [c for name in ("hand", "resources", "line1", "line2", "reserve", "conditions", "losses")
                 for c in z.get(name, [])]
        codes += z.get("deck", ["tw-depot"] * deck)
        decks[s] = tuple(codes)
    st = WarState(cat, tw.GameSetup(7, decks))
    for s in tw.SEATS:
        z = zones[s]
        i = 0
        for name in ("hand", "resources", "line1", "line2", "reserve", "conditions", "losses", "deck"):
            default = ["tw-depot"] * deck if name == "deck" else []
            for code in z.get(name, default):
                i += 1
                cid = f"{s}.{i:02d}"
                st.codes[cid] = code
                st.zones[s][name].append(cid)
                st.built_turn[cid] = 0
    for key in rotated:
        s, code = key.split(":")
        st.rotated.add(uid(st, s, code))
    st.turn = turn
    st.first_seat = "p1"
    st.frames = [TurnFrame(seat, stage=stage)]
    RULES.advance(st)
    return st


def with_cards(**changes: dict[str, Any]) -> TheWarCatalog:
    """The stored catalog plus synthetic cards: `new_code={"base": "tw-x", field: value, ...}` copies
    card tw-x under the new code (code with "tw-" and underscores as dashes) with those fields changed."""
    cat = catalog()
    cards = dict(cat.cards)
    for name, fields in changes.items():
        code = "tw-" + name.replace("_", "-")
        fields = dict(fields)
        base = cards[fields.pop("base")]
        cards[code] = replace(base, code=code, title=code, **fields)
    return replace(cat, cards=cards)


def uid(st: WarState, seat: str, code: str, n: int = 0) -> str:
    """The n-th card id of `seat` with this code (code without the "tw-" prefix accepted), any zone."""
    code = code if code.startswith("tw-") else "tw-" + code
    ids = [c for c, k in sorted(st.codes.items()) if k == code and c.startswith(seat + ".")]
    return ids[n]


# Windows the rules (revision 3, issue 36 items 3-5) offer from public facts only, so they are often empty:
# a test that does not address one passes it ("done"; an AA unit facing aircraft only uses its AA attack, the
# only choice before revision 3), as a player with nothing to play there would.
PASS_WINDOWS = ("attacker_abilities", "defender_specials", "redraw")


def _window(st: WarState) -> tuple:
    fr = st.frames[-1]
    return fr, getattr(fr, "index", None) if fr.kind == "setup" else fr.stage


def _entered(st: WarState) -> bool:
    """Whether an action was already played in the pending window (it is then asked until its pass)."""
    fr, where = _window(st)
    return any(f is fr and w == where for f, w in st.__dict__.get("_test_windows", ()))


def _passes(st: WarState) -> tuple | None:
    """The pass of the pending window when it offers nothing but a pass (and scout parties) and nothing was
    played in it yet, else None."""
    if st.decision is None or _entered(st):
        return None
    ks = tw.legal_keys(st)
    seat = st.decision.seat
    if st.decision.kind in PASS_WINDOWS:
        rest = [k for k in ks if k[0] not in ("scout", "done", "keep")]
        if not rest:
            return ("keep", seat) if st.decision.kind == "redraw" else ("done", seat)
    if st.decision.kind == "aa_mode":
        modes = {k[3] for k in ks if k[0] == "aa_mode"}
        if "ground" not in modes:
            return ("aa_mode", seat, st.decision.prompt["unit"], "air")
    return None


def pass_windows(st: WarState) -> list:
    """Pass the pending windows that offer nothing but a pass (`_passes`), through `apply`."""
    events: list = []
    while st.status == "active" and (key := _passes(st)) is not None:
        names = {"keep": (), "done": (), "aa_mode": ("unit", "mode")}[key[0]]
        events += tw.apply(st, {"type": key[0], "seat": key[1], **dict(zip(names, key[2:], strict=True))})
    return events


def act(st: WarState, seat: str, type_: str, **fields: Any) -> list:
    """Apply one action through `apply`, passing the windows offered with nothing to play there
    (`_passes`) before it (unless it is for that window) and after it: the flow of the rules before
    revision 3, which did not ask them."""
    action = tw.Action.from_json({"type": type_, "seat": seat, **fields})
    events: list = []
    if st.decision is not None and action.key() not in tw.legal_keys(st):
        events += pass_windows(st)
    if st.decision is not None and st.decision.kind in PASS_WINDOWS:
        st.__dict__.setdefault("_test_windows", []).append(_window(st))
    events += tw.apply(st, action)
    return events + pass_windows(st)

def zone(st: WarState, cid: str) -> str | None:
    for s in tw.SEATS:
        for name, cards in st.zones[s].items():
            if cid in cards:
                return name
    return None


def kinds(st: WarState) -> str | None:
    return st.decision.kind if st.decision else None


def keys(st: WarState) -> list[tuple]:
    return tw.legal_keys(st)
