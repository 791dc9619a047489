"""The War's determinizer for the search bot (core.search): full states consistent with one seat's view.

Known from the view and kept: every card on the table (ids, codes, rotated, damage, improvements; a unit in
the other seat's zones that its id names as ours is captured), the losses (codes), each seat's deck and
hand SIZES, the seat's own hand, its own deck list (`deck_list`: ids p1.NN index it from 01, so every id of
its own has a known code), its pool, its scout's look at the opponent's hand this turn, the public re-draw
reveal, and the view's `table` (the public facts the zones do not show: the frame stack, both pools, the
turn each unit was built, breakthrough power, heroes played, the specials in force, the re-draws).

Hidden and drawn with the bot's own RNG: the order of both decks, the opponent's hand, the ids of the cards
in the losses piles, and the codes of the opponent's unseen cards. The opponent's deck list is not shown
(a player's deck is his own), so the PRIOR is the starter deck of the opponent's army (the army of the
cards it has shown, else the army the seat's own deck does not play), minus every card of his the view
shows; if his shown cards are not all in that starter, the unseen cards are still drawn from what is left
of it, and if it runs short, from the whole starter. The cards its scout showed this turn are dealt to his
hand first. The game's RNG is seeded from the bot's RNG. Whatever the opponent saw with his own scout (his
`scouted`) is taken as nothing (it changes no rule, only his view).
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from vocabulary.the_war import TheWarCatalog, load_catalog

from ..core.determinize import take_known, unseen_codes
from ..core.machine import resume
from .bots import HeuristicBot
from .rules import apply_legal, legal_actions
from .setup import OTHER, SEATS, GameSetup
from .state import ZONES, WarState, frame_from_json

TABLE_ZONES = ("resources", "line1", "line2", "reserve", "conditions")


class Determinizer:
    # a playout stops after this many plies (about two turns) and is scored by `evaluate`: a game lasts
    # about a thousand plies, and random playouts to its end told the search little
    rollout_plies = 40

    def __init__(self, catalog: TheWarCatalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else load_catalog()
        self._heuristic = HeuristicBot(self.catalog, salt="search-policy")

    # --------------------------------------------------------------------------------- the prior
    def prior_deck(self, view: Mapping[str, Any], shown: list[str]) -> list[str]:
        """The opponent's assumed deck list: his army's starter (codes, repeated by count)."""
        cards = self.catalog.cards
        armies = Counter(str(cards[c].army) for c in shown if c in cards and cards[c].army is not None)
        mine = Counter(str(cards[c].army) for c in view["deck_list"] if cards[c].army is not None)
        starters = list(self.catalog.starters.values())
        if armies:
            army = armies.most_common(1)[0][0]
            pick = [s for s in starters if str(s.army) == army]
        else:
            own = mine.most_common(1)[0][0] if mine else None
            pick = [s for s in starters if str(s.army) != own]
        starter = (pick or starters)[0]
        return [c for c, n in sorted(starter.entries.items()) for _ in range(n)]

    # ------------------------------------------------------------------------------ determinize
    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> WarState:
        seat = view["seat"]
        opp = OTHER[seat]
        table = view["table"]
        codes: dict[str, str] = {}
        zones: dict[str, dict[str, list[str]]] = {s: {z: [] for z in ZONES} for s in SEATS}
        rotated: list[str] = []
        damage: dict[str, int] = {}
        attached: dict[str, str] = {}
        control: dict[str, str] = {}
        for s in SEATS:
            pub = view["players"][s]
            for z in TABLE_ZONES:
                for u in pub[z]:
                    cid = u["id"]
                    zones[s][z].append(cid)
                    codes[cid] = u["code"]
                    if u["rotated"]:
                        rotated.append(cid)
                    if "damage" in u:
                        damage[cid] = int(u["damage"])
                    if not cid.startswith(s + "."):
                        control[cid] = s
                    for imp in u.get("improvements", ()):
                        codes[imp["id"]] = imp["code"]
        for imp, unit in table["attached"]:  # in the order they were played (the rules iterate it)
            attached[imp] = unit
        for h in view["hand"]:
            zones[seat]["hand"].append(h["id"])
            codes[h["id"]] = h["code"]
        decks: dict[str, list[str]] = {}
        # the seat's own cards: every id's code is known from its deck list
        own = list(view["deck_list"])
        decks[seat] = own
        self._deal(seat, own, codes, zones, view, rng, first=())
        # the opponent's: how many cards he has, and their codes from the prior
        pub = view["players"][opp]
        seen_ids = [c for c in codes if c.startswith(opp + ".")]
        total = pub["deck_size"] + pub["hand_size"] + len(pub["losses"]) + len(seen_ids)
        shown_codes = [codes[c] for c in seen_ids] + list(pub["losses"])
        prior = self.prior_deck(view, shown_codes)
        unseen = total - len(seen_ids) - len(pub["losses"])
        # more cards than the prior leaves: more of the starter
        pool = unseen_codes(sorted(prior), shown_codes, rng, size=unseen, refill=prior)
        # his scout's look this turn: those codes go to his hand first
        first = take_known(pool, view.get("scouted_hand") or (), pub["hand_size"])
        hidden = pool[:unseen - len(first)]
        opp_list: list[str | None] = [None] * total
        for cid in seen_ids:
            opp_list[int(cid.split(".")[1]) - 1] = codes[cid]
        free = [i for i, c in enumerate(opp_list) if c is None]
        # free slots: his losses (known codes), then his hand (scouted first), then his deck
        fill = list(pub["losses"]) + first + hidden
        rng.shuffle(free)
        for i, code in zip(free, fill, strict=True):
            opp_list[i] = code
        decks[opp] = [c for c in opp_list if c is not None]
        self._deal(opp, decks[opp], codes, zones, view, rng, first=first)
        setup = GameSetup(seed=rng.getrandbits(64), decks={s: tuple(decks[s]) for s in SEATS})
        data = {
            "game": "the-war",
            "setup": setup.to_json(),
            "codes": codes,
            "zones": zones,
            "rotated": sorted(rotated),
            "damage": damage,
            "attached": attached,
            "control": control,
            "built_turn": dict(table["built_turn"]),
            "pool": {s: list(table["pools"][s]) for s in SEATS},
            "power": dict(table["power"]),
            "heroes_played": {s: list(table["heroes_played"][s]) for s in SEATS},
            "mobile_turn": dict(table["mobile_turn"]),
            "scouted": {seat: view.get("scouted_hand"), opp: None},
            "active": list(table["active"]),
            "specials_this_turn": list(table["specials_this_turn"]),
            "revealed": {s: view["players"][s]["revealed_starting_hand"] for s in SEATS},
            "redraws": dict(table["redraws"]),
            "first_seat": view["first_player"],
            "frames": [],
            "turn": view["turn"],
            "ply": view["ply"],
            "status": view["status"],
            "winner": view["winner"],
            "result": view["result"],
        }
        st = WarState(self.catalog, setup)  # its RNG seeded from the setup's seed, drawn by the bot
        _load(st, data)
        st.frames = [frame_from_json(self._frame(f, zones[opp]["hand"])) for f in table["frames"]]
        st.record_events = False
        resume(st)
        return st

    @staticmethod
    def _frame(data: Mapping[str, Any], opp_hand: list[str]) -> dict[str, Any]:
        """A frame of the view's table; a payment for a card the view does not name takes one of the
        opponent's (drawn) hand cards."""
        out = dict(data)
        if out["kind"] == "payment" and out.get("card") is None:
            out["card"] = opp_hand[0] if opp_hand else ""
        return out

    @staticmethod
    def _deal(s: str, deck_list: list[str], codes: dict[str, str], zones: dict[str, dict[str, list[str]]],
              view: Mapping[str, Any], rng: random.Random, *, first: tuple[str, ...] | list[str]) -> None:
        """Give seat `s`'s ids their codes from `deck_list` and deal the ids not on view: its losses (by
        code, in order), its hand (when it is the opponent's: the `first` codes first) and its deck."""
        ids = [f"{s}.{i + 1:02d}" for i in range(len(deck_list))]
        free = [cid for cid in ids if cid not in codes]
        for cid in ids:
            codes[cid] = deck_list[int(cid.split(".")[1]) - 1]
        rng.shuffle(free)
        for code in view["players"][s]["losses"]:
            found = next((c for c in free if codes[c] == code), None)
            if found is None:  # not one of its own (cannot happen with a true deck list): any free id
                found = free[0]
                codes[found] = code
            cid = found
            free.remove(cid)
            zones[s]["losses"].append(cid)
        if s != view["seat"]:
            n = view["players"][s]["hand_size"]
            for code in first:
                cid = next(c for c in free if codes[c] == code)
                free.remove(cid)
                zones[s]["hand"].append(cid)
            while len(zones[s]["hand"]) < n:
                zones[s]["hand"].append(free.pop())
        zones[s]["deck"] = free

    # --------------------------------------------------------------------------------- the game
    legal_actions = staticmethod(legal_actions)

    @staticmethod
    def apply(state: WarState, action: Any) -> None:
        apply_legal(state, action)  # the search applies only actions taken from legal_actions(state)

    @staticmethod
    def playout_step(state: WarState, rng: random.Random) -> None:
        actions = legal_actions(state)
        apply_legal(state, actions[rng.randrange(len(actions))])

    def policy(self, state: WarState, rng: random.Random) -> Any:
        """The heuristic bot's choice on a sampled state (the playouts' policy and the tree's prior); it
        reads the mover's cards and the table's ids, codes and damage, as from his view."""
        bot = self._heuristic
        bot.bind(state)
        assert state.decision is not None
        return bot.choose({}, legal_actions(state), state.decision.seat)

    @staticmethod
    def to_move(state: WarState) -> str | None:
        return state.decision.seat if state.decision is not None else None

    @staticmethod
    def evaluate(state: WarState, seat: str) -> float:
        """A playout stopped by the ply cap: a player who cannot draw loses, and the units in his lines are
        what strikes the other's deck, so a logistic of the margin of (cards left in the deck + half the
        attack and bombing power in the lines), scaled by EVAL_SCALE cards."""
        margin = _material(state, seat) - _material(state, OTHER[seat])
        return 1.0 / (1.0 + math.exp(-margin / EVAL_SCALE))

    @staticmethod
    def reward(state: WarState, seat: str) -> float:
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == seat else 0.0


EVAL_SCALE = 4.0  # cards of margin for which a truncated playout scores about 0.73


def _material(st: WarState, s: str) -> float:
    """Cards left in seat s's deck plus half the attack of its 1st line and the bombing power and deck
    hits of its 2nd line (what may strike the other deck in the turns to come)."""
    cards, codes, z = st.catalog.cards, st.codes, st.zones[s]
    power = sum(cards[codes[u]].attack or 0 for u in z["line1"])
    power += sum((cards[codes[u]].bombing_power or 0) + (cards[codes[u]].deck_hit or 0) for u in z["line2"])
    return len(z["deck"]) + 0.5 * power


def _load(st: WarState, data: dict[str, Any]) -> None:
    st.codes = data["codes"]
    st.zones = data["zones"]
    st.rotated = set(data["rotated"])
    st.damage = data["damage"]
    st.attached = data["attached"]
    st.control = data["control"]
    st.built_turn = {k: int(v) for k, v in data["built_turn"].items()}
    st.pool = data["pool"]
    st.power = data["power"]
    st.heroes_played = data["heroes_played"]
    st.mobile_turn = data["mobile_turn"]
    st.scouted = {k: (list(v) if v is not None else None) for k, v in data["scouted"].items()}
    st.active = data["active"]
    st.specials_this_turn = data["specials_this_turn"]
    st.revealed = {k: (list(v) if v is not None else None) for k, v in data["revealed"].items()}
    st.redraws = data["redraws"]
    st.first_seat = data["first_seat"]
    st.turn, st.ply = int(data["turn"]), int(data["ply"])
    st.status, st.winner = data["status"], data["winner"]
    st.result = dict(data["result"])
