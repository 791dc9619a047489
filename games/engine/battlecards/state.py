"""GameState: every zone of the game, the frame stack of pending steps, and the one seeded RNG.

The zones are plain JSON-friendly Python (dicts, lists, str, int, bool) and the frames typed dataclasses
(frames.py) with their own JSON, so `to_json` is a deep copy and `from_json` loses nothing.
Per-card definitions are looked up through `self.defs` (derived from the catalog, never serialised).
"""
from __future__ import annotations

import weakref
from typing import Any

from vocabulary.battlecards import KINDS, ArsenalCardDef, BattlecardDef, Catalog, ConflictCardDef

from ..core.machine import Decision as Decision  # the rule modules import it from here
from ..core.order import by_id
from ..core.plain import plain_copy
from ..core.state import EngineState
from .frames import BattlecardFrame, BattleFrame, Frame, frame_from_json
from .setup import GameSetup, side_of

OTHER = {"axis": "allies", "allies": "axis"}
ARSENAL_ZONES = ("deck", "discard", "removed")  # a nation's arsenal: shared by its armies of one side
SIDE_ZONES = ("kept", "won")  # common to a side (FAQ Optional Rule 3: kept cards, "a common stack")


def new_army(nation: str, across: str) -> dict[str, Any]:
    """One army (a seat): its own reserve hand, deployed stacks, Industrial Complexes and occupied
    battlecards (Optional Rule 5). Its arsenal deck is its nation's (GameState.pools, FAQ Optional Rule 3)
    and its kept cards and battlecards its side's (GameState.sides), in a classic game as in a team game."""
    return {
        "nation": nation,
        "hand": [],        # reserve hand
        "stacks": {k: [[]] for k in KINDS},  # deployed stacks: kind -> list of stacks (bottom first)
        "industry": [],    # Industrial Complex cards in play (face up)
        # Optional Rule 5: battlecard id -> the deployed stack under it, in battlecard id order (core.order:
        # never in the order stored or occupied, so the deploy and transfer actions onto them, and the views,
        # list them alike after a JSON column reordered the keys)
        "occupied": {},
        "across": across,  # the enemy army sitting directly across (the default opponent)
        "out": False,      # eliminated: its nation's homeland was invaded (combined sets)
    }


def new_pool() -> dict[str, list[str]]:
    """A nation's arsenal on one side (ARSENAL_ZONES): deck (top = last), discard (face up), removed (V-2)."""
    return {"deck": [], "discard": [], "removed": []}


def new_side() -> dict[str, list[str]]:
    """A side's common zones (SIDE_ZONES): kept conflict cards (face down) and battlecards held."""
    return {"kept": [], "won": []}


def pool_key(army: str, nation: str) -> str:
    return f"{side_of(army)}:{nation}"


# Per-code lookups derived from a (frozen) catalog, shared by every game on it (read-only).
_PER_CODE: dict[int, tuple[Any, dict[str, tuple]]] = {}


def _per_code(cat: Catalog) -> dict[str, tuple]:
    cached = _PER_CODE.get(id(cat))
    if cached is not None and cached[0]() is cat:
        return cached[1]
    out: dict[str, tuple] = {}
    for code, d in cat.arsenal.items():
        abil = {a.kind: a for a in d.abilities}
        # bit i set: the unit has an attack value against kind i / artillery helps against kind i
        amask = sum(1 << i for i, k in enumerate(KINDS) if getattr(d.attack, k) is not None)
        art = abil.get("artillery_support")
        tkmask = sum(1 << KINDS.index(k) for k in art.get("target_kinds")) if art is not None else None
        carrier = abil.get("carrier_bonus")
        info = ("infantry_support" in abil, tkmask or 0, "ship_support" in abil,
                len(carrier.get("bonuses")) if carrier is not None else 0)
        # (definition, abilities by kind, kind index, phase, attack mask,
        #  supporter info: (infantry, artillery target-kind mask, ship support, carrier bonuses),
        #  a unit in a battle: a combat unit, not a leader)
        out[code] = (d, abil, KINDS.index(d.kind), d.phase, amask, info if any(info) else None,
                     d.is_combat_unit and not d.is_leader)
    for table in (cat.battlecards, cat.conflict):  # a code in both: conflict wins, as in a lookup order
        for code in table:
            if code not in cat.arsenal:
                out[code] = (table[code],)
    if len(_PER_CODE) >= 16:
        _PER_CODE.clear()
    _PER_CODE[id(cat)] = (weakref.ref(cat), out)
    return out


class GameState(EngineState[Catalog, GameSetup]):
    """The whole game. Mutated only through `games.engine.apply`. Its stored JSON has no "game" tag."""

    SETUP = GameSetup

    def __init__(self, catalog: Catalog, setup: GameSetup) -> None:
        super().__init__(catalog, setup)
        self.code: dict[str, str] = {}
        self.owner: dict[str, str] = {}
        # One shape for every game (README, "State shape"); a classic game is two armies, one a side:
        self.players: dict[str, dict[str, Any]] = {}  # army (seat) -> its own zones (new_army)
        self.pools: dict[str, dict[str, Any]] = {}  # "side:nation" -> the nation's arsenal (ARSENAL_ZONES)
        self.sides: dict[str, dict[str, Any]] = {}  # side -> its common zones (SIDE_ZONES)
        self.conflict_deck: list[str] = []
        self.conflict_discard: list[str] = []
        self.aside: list[str] = []
        self.scorched: list[str] = []
        self.frames: list[Frame] = []  # typed frames (frames.py), the top one last
        self.turn = 0
        self.active_seat = "axis"
        self.vp_threshold = 0
        self.round_cap_battles = 0  # battles settled by the Options.max_battle_rounds cap (self-play only)
        # derived, not serialised
        self.classic = setup.classic  # two armies named "axis" and "allies": rules and views, never zones
        self.armies: tuple[str, ...] = setup.armies  # turn order
        # each side's armies in turn order, and the enemy army of an army whose enemy side has only one
        # (every army of a classic game): the army it always faces (foe)
        self._side_armies = {s: tuple(a for a in self.armies if side_of(a) == s) for s in OTHER}
        self._sole_foe = {a: enemies[0] if len(enemies := self._side_armies[OTHER[side_of(a)]]) == 1 else None
                          for a in self.armies}
        # each army's teammates (none in a classic game) and the armies after it in turn order (turn start's
        # hot path: friends, the next army)
        self._mates = {a: tuple(m for m in self._side_armies[side_of(a)] if m != a) for a in self.armies}
        self._after = {a: self.armies[i + 1:] + self.armies[:i + 1] for i, a in enumerate(self.armies)}
        self._arsenal: dict[str, dict[str, Any]] = {}
        self._team: dict[str, dict[str, Any]] = {}
        self.defs: dict[str, Any] = {}
        self.abil: dict[str, dict[str, Any]] = {}
        self.kidx: dict[str, int] = {}
        self.phase: dict[str, int | None] = {}
        self.amask: dict[str, int] = {}
        self.supp: dict[str, tuple] = {}
        self.unit_ids: set[str] = set()
        self.max_action = 0
        self.n_battlecards = 0
        # a rule cache (derived, never serialised; dropped by rebuild_derived with the machine's legal keys):
        # the combat values of the battle in progress (combat.values)
        self._vcache: Any = None

    # ---- derived ----------------------------------------------------------------------------
    def link_zones(self) -> None:
        """Point each army at the dicts holding its arsenal and its side's zones (derived, not serialised)."""
        self._arsenal = {a: self.pools[pool_key(a, p["nation"])] for a, p in self.players.items()}
        self._team = {a: self.sides[side_of(a)] for a in self.players}
        self._team.update(self.sides)

    def arsenal(self, army: str) -> dict[str, Any]:
        """The dict with the army's arsenal zones: deck, discard, removed."""
        return self._arsenal[army]

    def pool_of(self, cid: str) -> dict[str, Any]:
        """The arsenal an arsenal card belongs to (its owner's discard is where it goes, FAQ C5)."""
        return self.pools[self.owner[cid]]

    def team(self, who: str) -> dict[str, Any]:
        """The dict with the side's common zones (kept, won) of an army or a side."""
        return self._team[who]

    def side(self, army: str) -> str:
        return side_of(army)

    def armies_of(self, side: str, *, alive: bool = True) -> list[str]:
        return [a for a in self._side_armies[side] if not (alive and self.players[a]["out"])]

    def friends(self, army: str) -> list[str]:
        """The other armies of `army`'s side still in the game, in turn order (none in a classic game)."""
        mates = self._mates[army]
        return [a for a in mates if not self.players[a]["out"]] if mates else []

    def next_army(self, army: str) -> str:
        """The army after `army` in the turn order (setup.army_order) still in the game (else `army`)."""
        players = self.players
        for nxt in self._after[army]:
            if not players[nxt]["out"]:
                return nxt
        return army

    def foe(self, army: str) -> str:
        """The enemy army `army` faces: the other army of the battle in progress, else the one across (the
        enemy side's only army, when it has one)."""
        sole = self._sole_foe[army]  # a subscript: foe is among the hottest calls
        if sole is not None:
            return sole
        for fr in reversed(self.frames):
            if isinstance(fr, (BattleFrame, BattlecardFrame)) and fr.defender:
                if army == fr.aggressor:
                    return fr.defender
                if army == fr.defender:
                    return fr.aggressor
        return self.players[army]["across"]

    def rebuild_derived(self) -> None:
        self.link_zones()
        per_code = _per_code(self.catalog)
        defs: dict[str, Any] = {}
        abil: dict[str, dict[str, Any]] = {}
        kidx: dict[str, int] = {}
        phase: dict[str, int | None] = {}
        amask: dict[str, int] = {}
        supp: dict[str, tuple] = {}
        unit_ids: set[str] = set()
        max_action = 0
        for cid, code in self.code.items():
            entry = per_code.get(code)
            if entry is None:
                raise self.unknown_card(code)
            d = entry[0]
            defs[cid] = d
            if len(entry) > 1:
                _, abil[cid], kidx[cid], phase[cid], amask[cid], info, is_unit = entry
                if is_unit:
                    unit_ids.add(cid)
                if info is not None:
                    supp[cid] = info
            elif d.action_number > max_action:
                max_action = d.action_number
        self.defs = defs
        self.abil = abil
        self.kidx = kidx
        self.phase = phase
        self.amask = amask
        self.supp = supp
        self.unit_ids = unit_ids  # cards that fight in a battle: combat units, not leaders
        self.n_battlecards = sum(1 for d in defs.values() if isinstance(d, BattlecardDef))
        self.max_action = max_action
        self.drop_caches()

    def drop_caches(self) -> None:
        super().drop_caches()
        self._vcache = None

    def arsenal_def(self, cid: str) -> ArsenalCardDef:
        return self.defs[cid]

    def conflict_def(self, cid: str) -> ConflictCardDef | BattlecardDef:
        return self.defs[cid]

    def side_of_nation(self, nation: str) -> str | None:
        for seat in self.armies:
            if self.players[seat]["nation"] == nation:
                return side_of(seat)
        n = self.catalog.nations.get(nation)
        return n.side if n else None

    def vp(self, seat: str) -> int:
        """The victory points of a side (of an army's side)."""
        total = 0
        scorched = self.scorched
        for cid in self._team[seat]["won"]:
            if cid not in scorched:
                total += self.defs[cid].victory_points
        return total

    # ---- serialisation ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._json_head(),
            "cards": dict(self.code),
            **(self._classic_zones_json() if self.classic else {
                "owners": dict(self.owner),
                "players": plain_copy(self.players),
                "pools": plain_copy(self.pools),
                "sides": plain_copy(self.sides)}),
            "conflict_deck": list(self.conflict_deck),
            "conflict_discard": list(self.conflict_discard),
            "aside": list(self.aside),
            "scorched": list(self.scorched),
            "frames": [fr.to_json() for fr in self.frames],
            "turn": self.turn,
            "ply": self.ply,
            "active_seat": self.active_seat,
            **self._json_outcome(),
            "vp_threshold": self.vp_threshold,
            "round_cap_battles": self.round_cap_battles,
        }

    def _read_json(self, data: dict[str, Any]) -> None:
        self.code = dict(data["cards"])
        if self.classic:
            self._read_classic_zones(data)
        else:
            self.owner = dict(data["owners"])
            self.players = plain_copy(data["players"])
            for army in self.players.values():  # id order (new_army)
                army["occupied"] = by_id(army["occupied"])
            self.pools = plain_copy(data["pools"])
            self.sides = plain_copy(data["sides"])
        self.conflict_deck = list(data["conflict_deck"])
        self.conflict_discard = list(data["conflict_discard"])
        self.aside = list(data["aside"])
        self.scorched = list(data["scorched"])
        self.frames = [frame_from_json(fr) for fr in data["frames"]]
        self.turn = data["turn"]
        self.active_seat = data["active_seat"]
        self.vp_threshold = data["vp_threshold"]
        self.round_cap_battles = int(data.get("round_cap_battles", 0))  # absent in states saved before it

    def _loaded(self) -> None:
        self.rebuild_derived()  # the per-card lookups (an unknown card code: StateError unknown_card)

    # A classic game's zones are stored as they always were (README, "State shape"): one dict per seat with
    # every zone of that seat (its nation's arsenal and its side's kept cards and battlecards included), and
    # each arsenal card's owner as the seat. These two translate that JSON to and from the one shape.
    def _classic_zones_json(self) -> dict[str, Any]:
        players = {}
        for seat, p in self.players.items():
            pool, side = self._arsenal[seat], self._team[seat]
            players[seat] = {
                "nation": p["nation"],
                "deck": list(pool["deck"]),
                "hand": list(p["hand"]),
                "stacks": {k: [list(s) for s in v] for k, v in p["stacks"].items()},
                "kept": list(side["kept"]),
                "industry": list(p["industry"]),
                "discard": list(pool["discard"]),
                "removed": list(pool["removed"]),
                "won": list(side["won"]),
                "occupied": {bc: list(s) for bc, s in p["occupied"].items()},
            }
        return {"owners": {cid: o.partition(":")[0] for cid, o in self.owner.items()}, "players": players}

    def _read_classic_zones(self, data: dict[str, Any]) -> None:
        stored = data["players"]
        nations = self.setup.nations
        for seat in self.armies:
            p = stored[seat]
            army = self.players[seat] = new_army(p["nation"], OTHER[seat])
            army["hand"] = list(p["hand"])
            army["stacks"] = {k: [list(s) for s in v] for k, v in p["stacks"].items()}
            army["industry"] = list(p["industry"])
            army["occupied"] = by_id({bc: list(s) for bc, s in p["occupied"].items()})
            self.pools[pool_key(seat, nations[seat])] = {z: list(p[z]) for z in ARSENAL_ZONES}
            self.sides[seat] = {z: list(p[z]) for z in SIDE_ZONES}
        self.owner = {cid: pool_key(o, nations[o]) for cid, o in data["owners"].items()}
