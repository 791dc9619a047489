"""Battlefront's determinizer for the search bot (core.search): full states consistent with one seat's view.

Known from the view and kept: the fronts (cards, uses, markers, captures), the turn, who deploys first,
the options, the last battle, the seat's own hand and discards, the opponent's hand and discard SIZES, the
deck SIZE, and (at a `deploy` decision) the seat's own cards placed this turn and whether the opponent just
passed. The deck list is public (one copy of every card, plus the 5 Special cards when the option is on),
so the unseen cards are that list minus every card the view shows; they are shuffled with the bot's own
RNG and dealt to the opponent's hand (cards its scout showed this turn first), the opponent's discards and
the deck. The game's RNG is replaced by one seeded from the bot's RNG.

Priors where the view is silent: the opponent's cards placed this turn are taken as none (it may place up
to 2 on each front), and the turn is taken as "changed" (the stalled-game ending looks only at a turn in
which nothing was dealt, played or won, which a search rarely reaches).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core.determinize import deal, take_known, unseen_codes
from ..core.machine import resume
from .bots import HeuristicBot
from .cards import BattlefrontCatalog, load_cards
from .rules import apply_legal, legal_actions, legal_key_at, materialize
from .setup import FRONTS, OTHER, SEATS, GameSetup, Options
from .state import BattlefrontState, DeployFrame, GameFrame


class Determinizer:
    # progressive widening (core.search): a deploy decision has up to (hand x fronts + 1) legal actions,
    # more than search-1's playouts
    widening = 1.0

    def __init__(self, catalog: BattlefrontCatalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else load_cards()
        self._heuristic = HeuristicBot(self.catalog, salt="search-policy")

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> BattlefrontState:
        cat = self.catalog
        seat = view["seat"]
        opp = OTHER[seat]
        options = Options.from_json(view["options"])
        st = BattlefrontState(cat, GameSetup(seed=rng.getrandbits(64), options=options))
        st.record_events = False
        me, them = view["me"], view["opponent"]
        st.hands[seat] = [c["code"] for c in me["hand"]]
        st.discards[seat] = list(me["discards"])
        seen = set(st.hands[seat]) | set(st.discards[seat])
        for fr in view["fronts"]:
            f = fr["front"]
            for s in SEATS:
                row = fr["cards"][s]
                st.fronts[f][s] = [c["code"] for c in row]
                seen.update(st.fronts[f][s])
                for c in row:
                    if "use" in c:
                        st.uses[c["code"]] = c["use"]
            st.markers[f] = {s: int(fr["markers"][s]) for s in SEATS}
            st.captured[f] = fr["captured_by"]
        deck = list(cat.cards)
        if options.special_cards is not None:
            deck += list(cat.special_cards)
        unseen = unseen_codes(deck, seen, rng)
        first = take_known(unseen, me.get("scouted") or [], them["hand_size"])
        dealt = deal(unseen, {"hand": them["hand_size"] - len(first), "discards": them["discard_size"],
                              "deck": None})
        st.hands[opp] = first + dealt["hand"]
        st.discards[opp] = dealt["discards"]
        st.deck = dealt["deck"]
        st.scouted[seat] = list(me["scouted"]) if me.get("scouted") is not None else None
        st.last_battle = view.get("last_battle")
        st.first_seat = view["first_seat"]
        st.turn = int(view["turn"])
        st.ply = int(view["ply"])
        st.status = view["status"]
        st.winner = view["winner"]
        decision = view.get("decision") or {}
        if decision.get("kind") == "deploy":
            prompt = decision.get("prompt") or {}
            placed: dict[str, dict[str, int]] = {seat: dict(prompt.get("placed") or {}), opp: {}}
            st.frames = [GameFrame("battle", changed=True, opening=view["first_seat"]),
                         DeployFrame(seat, passes=1 if prompt.get("opponent_passed") else 0, placed=placed)]
        else:  # the hand limit's discard (the only other decision)
            st.frames = [GameFrame("hand_limit", changed=True, opening=view["first_seat"])]
        resume(st)
        return st

    legal_actions = staticmethod(legal_actions)

    @staticmethod
    def apply(state: BattlefrontState, action: Any) -> None:
        apply_legal(state, action)  # the search applies only actions taken from legal_actions(state)

    @staticmethod
    def playout_step(state: BattlefrontState, rng: random.Random) -> None:
        """One uniformly random legal action, building only the chosen one (self-play's fast path)."""
        apply_legal(state, materialize(legal_key_at(state, rng.randrange)))

    def policy(self, state: BattlefrontState, rng: random.Random) -> Any:
        """The heuristic bot's choice on a sampled state (the playouts' policy and the tree's prior), from
        the part of the mover's view it reads (`policy_view`: the same values as view.view, built cheaply)."""
        assert state.decision is not None
        seat = state.decision.seat
        return self._heuristic.choose(policy_view(state, seat), legal_actions(state), seat)

    @staticmethod
    def to_move(state: BattlefrontState) -> str | None:
        return state.decision.seat if state.decision is not None else None

    @staticmethod
    def reward(state: BattlefrontState, seat: str) -> float:
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == seat else 0.0


def policy_view(st: BattlefrontState, seat: str) -> dict[str, Any]:
    """The fields of `view(st, seat)` the heuristic bot reads, with the same values: the decision's kind,
    the ply, the options, both nationalities, the seat's captures and each front's cards (code and use),
    markers and capture. Rollouts ask it at every ply, where the whole view (forces, legal actions as
    JSON) cost more than the rules."""
    opp = OTHER[seat]
    uses = st.uses
    fronts = []
    for f in FRONTS:
        row = st.fronts[f]
        fronts.append({"front": f, "markers": st.markers[f], "captured_by": st.captured[f], "cards": {
            s: [{"code": c, "use": uses[c]} if c in uses else {"code": c} for c in row[s]] for s in SEATS}})
    decision = st.decision
    return {
        "ply": st.ply,
        "options": {"two_front_victory": st.setup.options.two_front_victory},
        "fronts": fronts,
        "me": {"nationality": st.nationality(seat),
               "captured": [f for f in FRONTS if st.captured[f] == seat]},
        "opponent": {"nationality": st.nationality(opp)},
        "decision": {"kind": decision.kind} if decision is not None else None,
    }


__all__ = ["FRONTS", "Determinizer", "policy_view"]
