"""Battlecards' determinizer for the search bot (core.search): full states consistent with one seat's view
(classic two-army games).

Known from the view and kept: every face-up card (ids and codes: the seat's own hand, stacks, kept cards and
occupied stacks, both sides' industry, discards, removed cards and battlecards won, scorched or not, the
conflict discard and the cards set aside, the battle's units), the sizes of everything face down (each
enemy stack, occupied stack, his reserve hand, kept cards and deck, the conflict deck), the seat's own deck
list (`deck_list`), and the view's `table`: the frame stack (a card the view does not show named
"hidden-N": an enemy unit withdrawn from the battle, face down again), the conflict deck's list (the
theater's, public: the battlecard list lies face up), the options and the round-capped battles. A
standing-intelligence unit's look at the enemy hand (`hand_codes`) is dealt to him as it is.

Hidden and drawn with the bot's own RNG: the order of both arsenal decks and of the conflict deck, the enemy
reserve hand, the units in his face-down stacks (each of its stack's kind), his kept conflict cards, and the
ids of every face-down card (ids are a shuffled numbering: they say nothing). The enemy deck list is not
shown (a player's deck is his own), so the PRIOR is his nation's starter deck for the conflict deck's
theater (else any starter of his nation, else one of each of his nation's cards), minus every card of his
the view shows; what it lacks for a stack of one kind comes from the starter's cards of that kind. The
unseen conflict cards are the conflict list minus every conflict card shown. A card's owner (whose discard
it goes to) is the army of its nation. During the secret set-up deployment the enemy is taken as not yet
deployed (the view shows him as dealt). The game's RNG is seeded from the bot's RNG.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from vocabulary.battlecards import KINDS, Catalog, load_catalog_dir

from ..core.rng import new_rng, rng_to_json
from .machine import apply_legal, legal_actions, legal_key_at, materialize
from .setup import SEATS
from .state import OTHER, GameState


def _shown(value: Any, out: dict[str, str]) -> dict[str, str]:
    """Every card the view shows: id -> code (dicts with "id" and "code", and the battle's card)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            cid, code = item.get("id"), item.get("code")
            if isinstance(cid, str) and isinstance(code, str):
                out[cid] = code
            card = item.get("card")
            if isinstance(card, str) and isinstance(code, str) and "mode" in item:
                out[card] = code
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _ids(cards: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for c in cards]


class Determinizer:
    # a playout stops after this many plies (a battle or two) and is scored by `evaluate` (victory points)
    rollout_plies = 150

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else load_catalog_dir()

    def prior_deck(self, nation: str, theater: str | None) -> list[str]:
        """The enemy's assumed deck list: his nation's starter for the theater (codes, by count)."""
        sets = [s for _, s in sorted(self.catalog.sets.items()) if s.kind == "starter" and s.nation == nation]
        pick = [s for s in sets if s.theater == theater] or sets
        if pick:
            return [c for c, n in sorted(pick[0].arsenal_counts().items()) for _ in range(n)]
        return sorted(c for c, d in self.catalog.arsenal.items() if d.nation == nation)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> GameState:
        cat = self.catalog
        seat = view["seat"]
        if seat not in SEATS or "armies" in view:
            raise ValueError("the Battlecards search bot plays classic two-army games only")
        opp = OTHER[seat]
        me, them, table = view["me"], view["opponent"], view["table"]
        conflict = view["conflict"]
        shown = _shown({k: v for k, v in view.items() if k != "table"}, {})
        arsenal = cat.arsenal
        used = set(shown)
        next_id = [0]

        def fresh() -> str:
            while True:
                next_id[0] += 1
                cid = f"c{next_id[0]}"
                if cid not in used:
                    used.add(cid)
                    return cid

        shown.update(table["cards"])  # cards the frames name (a battlecard being fought)
        used.update(table["cards"])
        codes: dict[str, str] = dict(shown)
        nation = {seat: me["nation"], opp: them["nation"]}

        def owner_of(cid: str, zone_seat: str | None) -> str:
            d = arsenal[codes[cid]]
            if nation[seat] != nation[opp] and d.nation in (nation[seat], nation[opp]):
                return seat if d.nation == nation[seat] else opp
            return zone_seat or seat

        # where the view shows each seat's face-up cards (their owner, when the nations do not tell)
        zone_seat: dict[str, str] = {}
        for s, part in ((seat, me), (opp, them)):
            for z in ("industry", "discard", "removed", "won"):
                for c in part[z]:
                    zone_seat[c["id"]] = s
        for k in KINDS:
            for stack in me["stacks"][k]:
                for c in stack:
                    zone_seat[c["id"]] = seat
        for cards in me["occupied"].values():
            for c in cards:
                zone_seat[c["id"]] = seat
        battle = view.get("battle") or {}
        for s, side in (battle.get("sides") or {}).items():
            for u in side["units"]:
                zone_seat.setdefault(u["id"], s)
        owners = {cid: owner_of(cid, zone_seat.get(cid)) for cid in shown if shown[cid] in arsenal}

        # the conflict cards not shown: the enemy's kept cards and the conflict deck
        theater = next((cat.conflict[c].theater for c in table["conflict_deck_list"] if c in cat.conflict),
                       None)
        left = Counter(table["conflict_deck_list"])
        left.subtract(code for cid, code in shown.items() if code not in arsenal)
        pool = [c for c, n in sorted(left.items()) if n > 0 for _ in range(n)]
        rng.shuffle(pool)
        while len(pool) < them["kept_count"] + conflict["deck_size"]:
            pool.append(table["conflict_deck_list"][rng.randrange(len(table["conflict_deck_list"]))])
        kept_them = [fresh() for _ in range(them["kept_count"])]
        conflict_deck = [fresh() for _ in range(conflict["deck_size"])]
        keepable = [c for c in pool if cat.conflict.get(c) is not None and cat.conflict[c].category == "kept"]
        for cid in kept_them:  # his kept cards: conflict cards of the kept category
            if keepable:
                code = keepable.pop()
                pool.remove(code)
            else:
                every = sorted(c for c in table["conflict_deck_list"]
                               if c in cat.conflict and cat.conflict[c].category == "kept")
                code = every[rng.randrange(len(every))] if every else pool.pop()
            codes[cid] = code
        for cid, code in zip(conflict_deck, pool, strict=False):
            codes[cid] = code

        # the seat's own arsenal: its deck list minus its cards shown, in its deck
        mine = Counter(me_list := list(view["deck_list"]))
        mine.subtract(shown[c] for c, o in owners.items() if o == seat)
        my_pool = [c for c, n in sorted(mine.items()) if n > 0 for _ in range(n)]
        rng.shuffle(my_pool)
        while len(my_pool) < me["deck_size"]:
            my_pool.append(me_list[rng.randrange(len(me_list))])
        my_deck = [fresh() for _ in range(me["deck_size"])]
        for cid, code in zip(my_deck, my_pool, strict=False):
            codes[cid] = code
            owners[cid] = seat

        # the enemy's: the prior minus his cards shown, dealt to his stacks (by kind), occupied stacks,
        # hand and deck
        prior = self.prior_deck(them["nation"], theater)
        theirs = Counter(prior)
        theirs.subtract(shown[c] for c, o in owners.items() if o == opp)
        opp_pool = [c for c, n in sorted(theirs.items()) if n > 0 for _ in range(n)]
        rng.shuffle(opp_pool)
        placeholders = sorted({s for s in _walk(table["frames"]) if s.startswith("hidden-")},
                              key=lambda s: int(s.split("-")[1]))

        def take(kind: str | None) -> str:
            for i, code in enumerate(opp_pool):
                if kind is None or arsenal[code].kind == kind:
                    return opp_pool.pop(i)
            same = [c for c in prior if kind is None or arsenal[c].kind == kind]
            if not same:
                same = sorted(c for c, d in arsenal.items() if kind is None or d.kind == kind)
            return same[rng.randrange(len(same))]

        def deal(kind: str | None) -> str:
            cid = placeholders.pop(0) if placeholders else fresh()
            codes[cid] = take(kind)
            owners[cid] = opp
            return cid

        # his stacks: the battle's face-up units where they lie, the other places dealt
        at = {(k, i, j): cid for cid, (army, k, i, j) in table["stacked"].items() if army == opp}
        decision = view.get("decision") or {}
        browsed = (decision.get("prompt") or {}) if decision.get("kind") == "capture_pick" else {}
        occupied_at: dict[str, list[str]] = {}
        if browsed:  # Capture: the enemy stack the seat browses, as its prompt shows it
            kind, _, index = str(browsed["stack"]).partition(":")
            ids = [c["id"] for c in browsed["cards"]]
            if kind == "bc":
                occupied_at[index] = ids
            else:
                at.update({(kind, int(index), j): cid for j, cid in enumerate(ids)})
        opp_stacks = {k: [[at.get((k, i, j)) or deal(k) for j in range(n)]
                          for i, n in enumerate(them["stacks"][k])] for k in KINDS}
        opp_occupied = {bc: occupied_at.get(bc) or [deal(None) for _ in range(n)]
                        for bc, n in them["occupied"].items()}
        hand_codes = list(them.get("hand_codes") or ())
        opp_hand = []
        for code in hand_codes[:them["hand_size"]]:
            if code in opp_pool:
                opp_pool.remove(code)
            cid = fresh()
            codes[cid] = code
            owners[cid] = opp
            opp_hand.append(cid)
        opp_hand += [deal(None) for _ in range(them["hand_size"] - len(opp_hand))]
        opp_deck = [deal(None) for _ in range(them["deck_size"])]
        for cid in placeholders:  # a withdrawn unit no stack holds (cannot happen): somewhere to be
            codes[cid] = take(None)
            owners[cid] = opp
        rng.shuffle(opp_hand)

        players = {
            seat: {
                "nation": me["nation"], "deck": my_deck, "hand": _ids(me["hand"]),
                "stacks": {k: [_ids(s) for s in me["stacks"][k]] for k in KINDS},
                "kept": _ids(me["kept"]), "industry": _ids(me["industry"]), "discard": _ids(me["discard"]),
                "removed": _ids(me["removed"]), "won": _ids(me["won"]),
                "occupied": {bc: _ids(s) for bc, s in me["occupied"].items()},
            },
            opp: {
                "nation": them["nation"], "deck": opp_deck, "hand": opp_hand, "stacks": opp_stacks,
                "kept": kept_them, "industry": _ids(them["industry"]), "discard": _ids(them["discard"]),
                "removed": _ids(them["removed"]), "won": _ids(them["won"]), "occupied": opp_occupied,
            },
        }
        decks = {s: [codes[c] for c, o in sorted(owners.items()) if o == s] for s in SEATS}
        decks[seat] = me_list
        scorched = [c["id"] for part in (me, them) for c in part["won"] if c.get("scorched")]
        data = {
            "setup": {"seed": rng.getrandbits(64), "decks": {s: decks[s] for s in SEATS},
                      "nations": {s: nation[s] for s in SEATS},
                      "conflict_deck": list(table["conflict_deck_list"]), "options": dict(table["options"])},
            "cards": codes,
            "owners": dict(owners),
            "players": players,
            "conflict_deck": conflict_deck,
            "conflict_discard": _ids(conflict["discard"]),
            "aside": _ids(conflict["aside"]),
            "scorched": scorched,
            "frames": table["frames"],
            "turn": view["turn"],
            "ply": view["ply"],
            "active_seat": view["active_seat"],
            "status": view["status"],
            "winner": view["winner"],
            "result": view["result"],
            "vp_threshold": view["victory_threshold"],
            "round_cap_battles": table["round_cap_battles"],
        }
        data["rng"] = rng_to_json(new_rng(rng.getrandbits(64)))
        st = GameState.from_json(data, cat)
        st.record_events = False
        return st

    legal_actions = staticmethod(legal_actions)

    @staticmethod
    def apply(state: GameState, action: Any) -> None:
        apply_legal(state, action)  # the search applies only actions taken from legal_actions(state)

    @staticmethod
    def playout_step(state: GameState, rng: random.Random) -> None:
        """One uniformly random legal action, building only the chosen one (self-play's fast path)."""
        apply_legal(state, materialize(legal_key_at(state, rng.randrange)))

    @staticmethod
    def to_move(state: GameState) -> str | None:
        return state.decision.seat if state.decision is not None else None

    @staticmethod
    def evaluate(state: GameState, seat: str) -> float:
        """A playout stopped by the ply cap: the seat's share of the victory points won (0.5 when none)."""
        mine, theirs = state.vp(seat), state.vp(OTHER[seat])
        return 0.5 if mine + theirs == 0 else mine / (mine + theirs)

    @staticmethod
    def reward(state: GameState, seat: str) -> float:
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == seat else 0.0


def _walk(value: Any) -> list[str]:
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out
