"""Battlecards' determinizer for the search bot (core.search): full states consistent with one seat's view
(classic two-army games), built from the view ONLY.

Known from the view and kept: every face-up card (ids and codes: the seat's own hand, stacks, kept cards and
occupied stacks, both sides' industry, discards, removed cards and battlecards won, scorched or not, the
conflict discard and the cards set aside, the battle's units), the sizes of everything face down (each
enemy stack, occupied stack, his reserve hand, kept cards and deck, the conflict deck), the seat's own deck
list (`deck_list`: it built its deck), and the view's public `table` (battlecards.table): the frame stack
with every card the seat cannot see named "hidden-N" and the other side's secret choices left out, the
stack each face-up battle unit came from, the theater, the options and the round-capped battles. A
standing-intelligence unit's look at the enemy hand (`hand_codes`) is dealt to him as it is.

Hidden and drawn with the bot's own RNG: the order of both arsenal decks and of the conflict deck, the enemy
reserve hand, the units in his face-down stacks (each of its stack's kind), his kept conflict cards, the
ids of every face-down card (ids are a shuffled numbering: they say nothing), and his secret choices the
table leaves out: FAQ C2's divided-stack choice (when he chose before the seat: the aggressor chooses
first), his answer to "commit your optional forces" (random before the forces show; after, whether his
revealed forces hold ground units he brought), and his set-up deployment while it is secret (when he
deployed before the seat). Those choices are made by uniformly random legal actions of his.

PRIORS (what the view does not show): his deck list is his nation's starter deck for the table's theater
(else any starter of his nation, else one of each of his nation's cards), minus every card of his the view
shows; what it lacks for a stack of one kind comes from the starter's cards of that kind. The conflict deck
is the theater's (every conflict set of the theater, as a standard game deals it: Catalog.conflict_deck),
minus every conflict card shown; his kept cards are drawn from its kept-category cards. A card's owner
(whose discard it goes to) is the army of its nation. The game's RNG is seeded from the bot's RNG.

THE PLAYOUTS (core.search): the heuristic bot is the `policy` on a sampled state, reading the mover's view of
it (`bot_view`), followed epsilon-greedily and preferred by the tree; a playout stops after `rollout_plies`
and is scored by `evaluate` (the share of victory points won).
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from vocabulary.battlecards import KINDS, Catalog, load_catalog_dir

from ..core.determinize import unseen_codes
from ..core.rng import new_rng, rng_to_json
from .bots import HeuristicBot
from .machine import apply_legal, initial_counts, legal_actions, legal_key_at, materialize
from .setup import SEATS, GameSetup
from .state import OTHER, GameState
from .table import PRE_REVEAL, walk
from .view import bot_view


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
    # a playout stops after this many plies (a battle or two) and is scored by `evaluate` (victory points):
    # 50 plies cost a decision about 2.3x less than 150 and played as well (games/engine/README.md)
    rollout_plies = 50
    # playouts per decision at each named level: a Battlecards playout follows the heuristic bot at every
    # ply, so it costs more than the other games' and a level plays fewer of them. search-1's 24 won
    # 26/40 against the heuristic bot where 48 won 24/40 (the same games), at half the time: the 200-game
    # row of games/engine/README.md is this budget's, and its run fits in the 30 minutes.
    budgets = {"search-1": 24, "search-2": 80, "search-3": 250, "search-4": 750}

    def __init__(self, catalog: Catalog | None = None) -> None:
        # The priors come from the PUBLIC card vocabulary (the fixtures' catalog: starters, conflict sets),
        # never from `catalog`: a game's catalog is its snapshot, restricted to the cards of its decks and
        # conflict deck, so its composition would tell the enemy deck and the kept cards. `catalog` only
        # gives the definitions of the game's own codes (its frozen versions) in the states built.
        self.public = public_catalog()
        self.catalog = (self.public if catalog is None or catalog is self.public
                        else _merged(self.public, catalog))
        self._heuristic = HeuristicBot(self.catalog, salt="search-policy")

    def prior_deck(self, nation: str, theater: str | None) -> list[str]:
        """The enemy's assumed deck list: his nation's starter for the theater (codes, by count)."""
        sets = [s for _, s in sorted(self.public.sets.items()) if s.kind == "starter" and s.nation == nation]
        pick = [s for s in sets if s.theater == theater] or sets
        if pick:
            return [c for c, n in sorted(pick[0].arsenal_counts().items()) for _ in range(n)]
        return sorted(c for c, d in self.public.arsenal.items() if d.nation == nation)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> GameState:
        cat = self.catalog
        seat = view["seat"]
        if seat not in SEATS or "armies" in view:
            raise ValueError("the Battlecards search bot plays classic two-army games only")
        opp = OTHER[seat]
        me, them, table = view["me"], view["opponent"], view["table"]
        conflict = view["conflict"]
        shown = _shown({k: v for k, v in view.items() if k not in ("table", "deck_list")}, {})
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

        # the conflict cards not shown: the enemy's kept cards and the conflict deck (PRIOR: the theater's)
        theater = table["theater"]
        shown_conflict = [c for c in shown.values() if c not in arsenal]
        conflict_list = self.conflict_list(theater, shown_conflict)
        pool = unseen_codes(sorted(conflict_list), shown_conflict, rng,
                            size=them["kept_count"] + conflict["deck_size"], refill=conflict_list)
        kept_them = [fresh() for _ in range(them["kept_count"])]
        conflict_deck = [fresh() for _ in range(conflict["deck_size"])]
        keepable = [c for c in pool if cat.conflict.get(c) is not None and cat.conflict[c].category == "kept"]
        for cid in kept_them:  # his kept cards: conflict cards of the kept category
            if keepable:
                code = keepable.pop()
                pool.remove(code)
            else:
                every = sorted(c for c in conflict_list
                               if c in cat.conflict and cat.conflict[c].category == "kept")
                code = every[rng.randrange(len(every))] if every else pool.pop()
            codes[cid] = code
        for cid, code in zip(conflict_deck, pool, strict=False):
            codes[cid] = code

        # the seat's own arsenal: its deck list minus its cards shown, in its deck
        me_list = list(view["deck_list"])
        my_pool = unseen_codes(sorted(me_list), (shown[c] for c, o in owners.items() if o == seat), rng,
                               size=me["deck_size"], refill=me_list)
        my_deck = [fresh() for _ in range(me["deck_size"])]
        for cid, code in zip(my_deck, my_pool, strict=False):
            codes[cid] = code
            owners[cid] = seat

        # the enemy's: the prior minus his cards shown, dealt to his stacks (by kind), occupied stacks,
        # hand and deck
        prior = self.prior_deck(them["nation"], theater)
        opp_pool = unseen_codes(sorted(prior), (shown[c] for c, o in owners.items() if o == opp), rng)
        placeholders = sorted({s for s in walk(table["frames"]) if s.startswith("hidden-")},
                              key=lambda s: int(s.split("-")[1]))

        def take(kind: str | None) -> str:
            for i, code in enumerate(opp_pool):
                if kind is None or arsenal[code].kind == kind:
                    return opp_pool.pop(i)
            same = [c for c in prior if kind is None or arsenal[c].kind == kind]
            if not same:
                same = sorted(c for c, d in self.public.arsenal.items() if kind is None or d.kind == kind)
            return same[rng.randrange(len(same))]

        def deal(kind: str | None) -> str:
            cid = placeholders.pop(0) if placeholders else fresh()
            codes[cid] = take(kind)
            owners[cid] = opp
            return cid

        # his stacks: the battle's face-up units in the stack they came from, the other places dealt
        at: dict[tuple[str, int, int], str] = {}
        for cid, (army, k, i) in table["stacked"].items():
            if army == opp:
                at[(k, i, sum(1 for key in at if key[:2] == (k, i)))] = cid
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
                      "conflict_deck": conflict_list, "options": dict(table["options"])},
            "cards": codes,
            "owners": dict(owners),
            "players": players,
            "conflict_deck": conflict_deck,
            "conflict_discard": _ids(conflict["discard"]),
            "aside": _ids(conflict["aside"]),
            "scorched": scorched,
            "frames": copy.deepcopy(table["frames"]),  # reopened choices change them: not the view's
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
        secret = _open_secret_choices(data, seat, opp, them)
        st = GameState.from_json(data, cat)
        st.record_events = False
        if secret:  # his secret choices the table leaves out: made by random legal actions of his
            for _ in range(200):
                d = st.decision
                if d is None or d.seat != opp:
                    break
                apply_legal(st, materialize(legal_key_at(st, rng.randrange)))
            st.ply, st.turn = view["ply"], view["turn"]
        return st

    def conflict_list(self, theater: str | None, shown: list[str]) -> list[str]:
        """The conflict deck's assumed list: the theater's, from every conflict set of it as a standard game
        deals it (setup.starter_setup; the theater of the conflict cards shown when the table names none)."""
        cat = self.public
        if theater is None:
            seen = Counter(d.theater for c in shown if (d := cat.conflict.get(c) or cat.battlecards.get(c)))
            theater = seen.most_common(1)[0][0] if seen else None
        sets = sorted(c for c, s in cat.sets.items() if s.kind == "conflict" and s.theater == theater)
        codes = cat.conflict_deck(theater, set_codes=sets) if theater is not None else sorted(shown)
        return [c for c in codes if c not in cat.conflict or cat.conflict[c].effect != "battlecard-list"]

    legal_actions = staticmethod(legal_actions)

    @staticmethod
    def apply(state: GameState, action: Any) -> None:
        apply_legal(state, action)  # the search applies only actions taken from legal_actions(state)

    @staticmethod
    def playout_step(state: GameState, rng: random.Random) -> None:
        """One uniformly random legal action, building only the chosen one (self-play's fast path)."""
        apply_legal(state, materialize(legal_key_at(state, rng.randrange)))

    def policy(self, state: GameState, rng: random.Random) -> Any:
        """The heuristic bot's choice on a sampled state (the playouts' policy and the tree's prior), from the
        mover's view of it (`bot_view`: view's values, the parts the bot reads built when read)."""
        assert state.decision is not None
        seat = state.decision.seat
        legal = legal_actions(state)
        if len(legal) == 1:  # the bot's only choice (it plays a legal action): no view to build
            return legal[0]
        return self._heuristic.choose(bot_view(state, seat), legal, seat)

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



class AnalysisDeterminizer(Determinizer):
    """The analysis of a finished game's determinizer (core.engine.determinizer): uniform random playouts,
    no policy. With the heuristic policy a 300-ply game took 356 s of one core at the budget's 141 iterations
    (the probe on the first decision underestimates later plies), over the analysis' 5 minutes."""

    policy = None  # type: ignore[assignment]
    rollout_plies = 150  # uniform random playouts: long ones (the analysis' iterations are its own)


@lru_cache(maxsize=1)
def public_catalog() -> Catalog:
    """The public card vocabulary (the fixtures' catalog), loaded once."""
    return load_catalog_dir()


def _merged(public: Catalog, game: Catalog) -> Catalog:
    """The public catalog with the game's own definitions over it (every code a state may be dealt)."""
    return Catalog(nations={**public.nations, **game.nations}, arsenal={**public.arsenal, **game.arsenal},
                   conflict={**public.conflict, **game.conflict},
                   battlecards={**public.battlecards, **game.battlecards}, sets=public.sets,
                   theaters={**public.theaters, **game.theaters})


def _open_secret_choices(data: dict[str, Any], seat: str, opp: str, them: Mapping[str, Any]) -> bool:
    """Reopen in `data` (a state's JSON built from the view) the enemy's secret choices that he made before
    the seat's decision and that the table leaves out, so that he makes them again (at random); fill in
    his optional-forces answer after the reveal from his revealed forces. True when a choice was reopened."""
    frames = data["frames"]
    reopened = False
    for fr in frames:
        if fr.get("kind") != "battle" or opp not in fr["units"]:
            continue
        if fr["stage"] in PRE_REVEAL:
            if opp in fr["asked"]:  # he answered "commit your optional forces?": ask him again
                fr["asked"].remove(opp)
                reopened = True
            if fr["stage"] == "stacks" and fr["aggressor"] == opp:
                reopened = True  # he chose his divided stacks first (FAQ C2): an empty choice, asked again
        elif opp in fr["asked"]:  # after the reveal: he committed them if ground units he brought show
            occupied = set(data["players"][opp]["occupied"].get(fr["card"] or "", ()))
            ground = _ground(data, opp)
            fr["include"][opp] = any(c in ground and c not in occupied for c in fr["present"][opp])
    kinds = [fr.get("kind") for fr in frames]
    if "setup_reveal" in kinds and not any(fr.get("kind") == "deploy" and fr["seat"] == opp for fr in frames):
        # the secret set-up deployment: he deployed before the seat (the view shows him as dealt)
        setup = GameSetup.from_json(data["setup"])
        frames.append({"kind": "deploy", "seat": opp, "count": initial_counts(setup, opp)[1], "cards": None,
                       "reason": "initial"})
        reopened = True
    return reopened


def _ground(data: dict[str, Any], army: str) -> set[str]:
    """`army`'s cards in its ground stacks."""
    return {c for s in data["players"][army]["stacks"]["ground"] for c in s}
