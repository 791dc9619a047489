"""Scenarios: a game position written by hand (tests, puzzles, bug reports).

Format (JSON object; every list of cards is card codes; decks and the conflict deck are TOP FIRST):
{
  "seed": 7, "options": {...Options fields...},
  "nations": {"axis": "DE", "allies": "GB"},
  "players": {
    "axis": {"hand": [...], "stacks": {"ground": [[...], ...] or [...], "air": ..., "sea": ...},
             "deck": [...], "discard": [...], "kept": [...], "industry": [...], "won": [...],
             "occupied": {battlecard code in "won": [unit codes]}},
    "allies": {...}
  },
  "conflict_deck": [...], "conflict_discard": [...],
  "scorched": [battlecard codes held by a player that are scorched],
  "turn": {"seat": "axis", "number": 5},
  "drawn": "we-battle-of-britain"        # optional: the turn's conflict card, just drawn by turn.seat
  "counterattack": {"card": <counterattack code in turn.seat's kept>, "battlecard": <code held by enemy>}
}
Without "drawn"/"counterattack" the position starts at turn.seat's turn-start decision.
Instance ids are c1, c2... in the order cards appear in the scenario.
"""
from __future__ import annotations

from typing import Any

from vocabulary.battlecards import KINDS, Catalog

from ..core.errors import SetupError
from ..core.order import put_by_id
from .frames import GameFrame, TurnFrame
from .setup import SEATS, GameSetup, Options
from .state import OTHER, GameState, new_army, new_pool, new_side, pool_key


def load_scenario(catalog: Catalog, sc: dict[str, Any]) -> GameState:
    from .machine import advance
    from .phases.conflict import push_card

    counter = iter(range(1, 100000))
    st_codes: dict[str, str] = {}
    owners: dict[str, str] = {}

    def make(code: str, owner: str | None = None) -> str:
        if code not in catalog.arsenal and code not in catalog.conflict and code not in catalog.battlecards:
            raise SetupError(f"unknown card code {code!r}", code="bad_scenario")
        cid = f"c{next(counter)}"
        st_codes[cid] = code
        if owner:
            owners[cid] = owner
        return cid

    players: dict[str, dict[str, Any]] = {}
    pools: dict[str, dict[str, Any]] = {}
    sides: dict[str, dict[str, Any]] = {}
    decks: dict[str, list[str]] = {}
    conflict_codes: list[str] = []
    for seat in SEATS:
        spec = sc["players"].get(seat, {})
        p = new_army(sc["nations"][seat], OTHER[seat])
        pool, side = new_pool(), new_side()
        codes: list[str] = []
        p["hand"] = [make(c, seat) for c in spec.get("hand", [])]
        for kind in KINDS:
            raw = spec.get("stacks", {}).get(kind, [])
            stacks = raw if raw and isinstance(raw[0], list) else [raw]
            p["stacks"][kind] = [[make(c, _owner_of(catalog, c, seat)) for c in s] for s in stacks] or [[]]
        pool["deck"] = [make(c, seat) for c in reversed(spec.get("deck", []))]
        pool["discard"] = [make(c, seat) for c in spec.get("discard", [])]
        for zones, key in ((side, "kept"), (p, "industry"), (side, "won")):
            zones[key] = [make(c) for c in spec.get(key, [])]
            conflict_codes.extend(spec.get(key, []))
        for bc_code, units in spec.get("occupied", {}).items():
            bc_id = next(c for c in side["won"] if st_codes[c] == bc_code)
            put_by_id(p["occupied"], bc_id, [make(c, _owner_of(catalog, c, seat)) for c in units])
        deployed = [c for k in KINDS for s in p["stacks"][k] for c in s]
        deployed += [c for s in p["occupied"].values() for c in s]
        for cid in p["hand"] + pool["deck"] + pool["discard"] + deployed:
            codes.append(st_codes[cid])
        decks[seat] = codes
        players[seat] = p
        pools[pool_key(seat, sc["nations"][seat])] = pool
        sides[seat] = side
    cdeck = [make(c) for c in reversed(sc.get("conflict_deck", []))]
    cdiscard = [make(c) for c in sc.get("conflict_discard", [])]
    conflict_codes.extend(sc.get("conflict_deck", []))
    conflict_codes.extend(sc.get("conflict_discard", []))
    turn = sc.get("turn", {})
    seat = turn.get("seat", "axis")
    drawn = sc.get("drawn")
    drawn_id = make(drawn) if drawn else None
    if drawn:
        conflict_codes.append(drawn)
    setup = GameSetup(seed=int(sc.get("seed", 0)), decks={s: tuple(decks[s]) for s in SEATS},
                      nations=dict(sc["nations"]), conflict_deck=tuple(conflict_codes),
                      options=Options.from_json(sc.get("options")))
    st = GameState(catalog, setup)
    st.code = st_codes
    st.owner = {cid: pool_key(o, sc["nations"][o]) for cid, o in owners.items()}
    st.players = players
    st.pools = pools
    st.sides = sides
    st.conflict_deck = cdeck
    st.conflict_discard = cdiscard
    st.scorched = [c for s in SEATS for c in sides[s]["won"] if st_codes[c] in sc.get("scorched", [])]
    st.rebuild_derived()
    from vocabulary.battlecards import BattlecardDef

    total = sum(d.victory_points for d in st.defs.values() if isinstance(d, BattlecardDef))
    st.vp_threshold = int(sc.get("victory_threshold", (total + 1) // 2))
    st.turn = int(turn.get("number", 1))
    st.active_seat = seat
    st.frames = [GameFrame(OTHER[seat]), TurnFrame(seat, "start" if drawn_id is None else "end")]
    if drawn_id is not None:
        push_card(st, seat, drawn_id)
    elif sc.get("counterattack"):
        ca = sc["counterattack"]
        kept = next(c for c in sides[seat]["kept"] if st_codes[c] == ca["card"])
        target = next(c for c in sides[OTHER[seat]]["won"] if st_codes[c] == ca["battlecard"])
        from .actions import PlayCard

        advance(st)
        from .machine import apply

        apply(st, PlayCard(seat, kept, target=target))
        return st
    st._events = []
    advance(st)
    return st


def _owner_of(catalog: Catalog, code: str, holder: str) -> str:
    card = catalog.arsenal.get(code)
    return card.side if card is not None else holder
