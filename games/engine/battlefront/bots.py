"""Battlefront bots, with the engine's bot protocol (battlecards/bots.py): `choose(view, legal, seat)`
returns one of `legal`; `needs_view` False means the bot reads only view["ply"]. No second RNG: a "random"
choice is a hash of (salt, ply, seat) (core.rng), so a game is reproducible from its setup alone.
"""
from __future__ import annotations

from typing import Any

from ..core.bots import SaltedRandomBot
from ..core.rng import hashed_index, salt_base
from .actions import Action, Discard, Play, PlaySpecial
from .cards import BattlefrontCatalog, load_cards
from .rules import TWO_FRONT_VICTORIES, profiles, resolve_front
from .setup import FRONTS, OTHER, SEATS


class RandomBot(SaltedRandomBot):
    """Uniform over the legal actions (deterministic per salt, ply and seat)."""

    first_seat = SEATS[0]


def _score(margin: int) -> float:
    """How good a front's Force margin is: winning it matters most, a bigger lead a little."""
    if margin > 0:
        return 1.0 + 0.03 * min(margin, 12)
    if margin < 0:
        return -1.0 + 0.03 * max(margin, -12)
    return 0.0


class HeuristicBot:
    """Concentrates on the three open fronts closest to capture (its markers lead, then its Force lead),
    playing each card where it turns a front or adds the most there, the weakest card that does it first;
    discards its weakest cards at the hand limit."""

    needs_view = True
    off_target = 0.5   # how much a front outside the three targets counts
    card_cost = 0.05   # per point of Force spent: the weakest card that does the job first

    def __init__(self, catalog: BattlefrontCatalog | None = None, salt: str | int = "heuristic") -> None:
        self._catalog = catalog
        self.salt = str(salt)

    @property
    def catalog(self) -> BattlefrontCatalog:
        if self._catalog is None:
            self._catalog = load_cards()
        return self._catalog

    def _fallback(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        return legal[hashed_index(salt_base(self.salt), view["ply"], seat == SEATS[0], len(legal))]

    def choose(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        kind = (view.get("decision") or {}).get("kind")
        if kind == "discard":
            discards = [a for a in legal if isinstance(a, Discard)]  # every legal action is a discard
            return min(discards, key=lambda a: (self._worth(view, a.card), a.card))
        if kind == "deploy":
            return self._deploy(view, legal, seat) or self._fallback(view, legal, seat)
        return self._fallback(view, legal, seat)

    def _worth(self, view: dict[str, Any], code: str) -> int:
        card = self.catalog.card(code)
        if card.force is not None:
            return card.force
        nat = view["me"]["nationality"]
        return max((u.force or 3 for u in self.catalog.special_uses.get(nat or "", ())), default=0)

    def _deploy(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action | None:
        table = profiles(self.catalog)
        nats = {seat: view["me"]["nationality"], OTHER[seat]: view["opponent"]["nationality"]}

        def prof(s: str, entry: dict[str, Any]) -> tuple:
            use = entry.get("use")
            return table[(nats[s], use)] if use else table[entry["code"]]

        fronts = {f["front"]: f for f in view["fronts"]}
        cards = {f: {s: [prof(s, e) for e in fronts[f]["cards"][s]] for s in SEATS} for f in FRONTS}
        margins = {}
        for f in FRONTS:
            forces, _ = resolve_front(cards[f])
            margins[f] = forces[seat] - forces[OTHER[seat]]
        open_fronts = [f for f in FRONTS if fronts[f]["captured_by"] is None]
        lead = {f: fronts[f]["markers"][seat] - fronts[f]["markers"][OTHER[seat]] for f in open_fronts}
        mine_captured = len(view["me"]["captured"])
        ranked = sorted(open_fronts, key=lambda f: (-lead[f], -margins[f], FRONTS.index(f)))
        targets = set(ranked[:max(1, 3 - mine_captured)])
        if view["options"]["two_front_victory"]:  # aim at the most promising winning pair first
            mine = set(view["me"]["captured"])
            order = {f: i for i, f in enumerate(ranked)}
            pairs = [p for _kind, ps in TWO_FRONT_VICTORIES for p in ps
                     if all(f in mine or f in order for f in p)]
            if pairs:
                pair = min(pairs, key=lambda p: sum(-1 if f in mine else order[f] for f in p))
                targets = {f for f in pair if f not in mine} | set(ranked[:1])
        best, best_value = None, 0.0
        for a in legal:
            if isinstance(a, Play):
                p = table[(nats[seat], a.use)] if a.use else table[a.card]
                trial = {seat: [*cards[a.front][seat], p], OTHER[seat]: cards[a.front][OTHER[seat]]}
                forces, _ = resolve_front(trial)
                m1 = forces[seat] - forces[OTHER[seat]]
                weight = 1.0 if a.front in targets else self.off_target
                value = weight * (_score(m1) - _score(margins[a.front])) - self.card_cost * p[1]
            elif isinstance(a, PlaySpecial):
                value = 0.05
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        if best is None:
            return next((a for a in legal if a.type == "pass"), None)
        return best
