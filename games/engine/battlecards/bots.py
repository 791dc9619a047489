"""Bots play through the same interface as people: a player view and the legal actions.

There is no second RNG: a bot's "random" choice is a hash of (salt, ply, seat), so games are
reproducible from the setup alone.
"""
from __future__ import annotations

from typing import Any

from vocabulary.battlecards import Catalog, load_catalog_dir

from ..core.bots import SaltedRandomBot
from ..core.rng import hashed_index
from ..core.rng import salt_base as _salt_base
from .actions import (
    OCCUPIED,
    Action,
    Autokill,
    Choose,
    Deploy,
    Draw,
    EmergencyDeploy,
    Fire,
    Hold,
    Pass,
    PlayCard,
    Retrieve,
    Split,
    Support,
    Take,
    Withdraw,
    split_stack_ref,
)

LONG_BATTLE = 20  # rounds after which HeuristicBot withdraws (see _on_withdraw)


def _pick(salt: str, ply: int, seat: str, n: int) -> int:
    """A deterministic index in range(n) from (salt, ply, seat): splitmix64 over a hashed salt."""
    return _pick_base(_salt_base(salt), ply, seat, n)


def _pick_base(base: int, ply: int, seat: str, n: int) -> int:
    return hashed_index(base, ply, seat == "axis", n)


class RandomBot(SaltedRandomBot):
    """Uniform over the legal actions (deterministic per salt, ply and seat)."""

    first_seat = "axis"


class HeuristicBot:
    """Fires at the most valuable target it can hit, supports where it turns a likely miss into a likely
    hit, declines battles it cannot win and withdraws from hopeless fights."""

    needs_view = True

    def __init__(self, catalog: Catalog | None = None, salt: str | int = "heuristic") -> None:
        self._catalog = catalog
        self.salt = str(salt)
        self._bonuses: dict[str, int] = {}  # supporter code -> its bonus (from the catalog)
        self._points: dict[str, int] = {}   # arsenal code -> its points (from the catalog)

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog_dir()
        return self._catalog

    # -- card knowledge ---------------------------------------------------------------------------
    def points(self, code: str) -> int:
        value = self._points.get(code)
        if value is None:
            card = self.catalog.arsenal.get(code)
            value = self._points[code] = card.points if card else 0
        return value

    def _stack_strength(self, view: dict, kinds: tuple[str, ...], *,
                        weakest: bool = False) -> tuple[int, int]:
        """(own combat points in `kinds`, the enemy's estimated: ~11 points a face-down card). `weakest`: in
        a team game, against the weakest enemy army (the aggressor will choose it, _on_choose_enemy_army)."""
        me = view["me"]
        mine = sum(self.points(c["code"]) for k in kinds for s in me["stacks"][k] for c in s
                   if self.catalog.arsenal[c["code"]].is_combat_unit)
        enemies = self._enemies(view) if weakest else {}
        if enemies:
            theirs = min(self._deployed_count(e, kinds) for e in enemies.values()) * 11
        else:
            theirs = self._deployed_count(view["opponent"], kinds) * 11
        return mine, theirs

    @staticmethod
    def _deployed_count(army: dict, kinds: tuple[str, ...]) -> int:
        return sum(n for k in kinds for n in army["stacks"][k])

    @staticmethod
    def _enemies(view: dict) -> dict[str, dict]:
        """Team games: the enemy armies still in the game (view["armies"]), in turn order; else {}."""
        armies = view.get("armies")
        if not armies:
            return {}
        return {a: o for a, o in armies["others"].items()
                if o["side"] != armies["side"] and not o["eliminated"]}

    def _battle_kinds(self, code: str, seat: str, view: dict) -> tuple[str, ...]:
        bc = self.catalog.battlecards.get(code)
        if bc is None:
            return ("air",)
        return bc.aggressor_forces.kinds() or ("ground", "air", "sea")

    # -- the policy -------------------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        decision = view.get("decision") or {}
        kind = decision.get("kind", "")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            choice = handler(view, legal, seat, decision.get("prompt") or {})
            if choice is not None:
                return choice
        return legal[_pick(self.salt, view["ply"], seat, len(legal))]

    def _on_turn_start(self, view, legal, seat, prompt):
        for a in legal:
            if isinstance(a, PlayCard) and a.target is None and a.option is None:
                card = self.catalog.conflict.get(self._code_of(view, a.card) or "")
                if card is not None and card.effect == "industrial-complex":
                    return a
        for a in legal:
            if isinstance(a, PlayCard) and a.option == "industry":
                return a
        counters = [a for a in legal if isinstance(a, PlayCard) and a.target]
        for a in counters:
            won = {w["id"]: w for w in view["opponent"]["won"]}.get(a.target)
            if won and won["victory_points"] >= 5:
                mine, theirs = self._stack_strength(view, self._battle_kinds(won["code"], seat, view))
                if mine > 1.3 * theirs:
                    return a
        if (view["me"]["hand"] and view["me"]["deck_size"] == 0
                and any(isinstance(a, EmergencyDeploy) for a in legal)):
            return next(a for a in legal if isinstance(a, EmergencyDeploy))
        return next(a for a in legal if isinstance(a, Draw))

    def _code_of(self, view, cid):
        for group in (view["me"]["kept"], view["me"]["hand"]):
            for c in group:
                if c["id"] == cid:
                    return c["code"]
        return None

    def _on_initial_deploy(self, view, legal, seat, prompt):
        return self._on_deploy(view, legal, seat, prompt)

    def _on_deploy(self, view, legal, seat, prompt):
        deploys = [a for a in legal if isinstance(a, Deploy)]
        if not deploys:
            return None
        codes = {c["id"]: c["code"] for c in view["me"]["hand"]}
        return max(deploys, key=lambda a: (self.points(codes.get(a.card, "")), a.stack.endswith(":0")))

    def _on_fight_or_decline(self, view, legal, seat, prompt):
        code = prompt.get("code", "")
        mine, theirs = self._stack_strength(view, self._battle_kinds(code, seat, view), weakest=True)
        want = mine > 0 and mine >= 0.9 * theirs
        return Choose(seat, "fight" if want else "decline")

    _on_preemptive_choice = _on_fight_or_decline

    def _on_battlecard_response(self, view, legal, seat, prompt):
        mine, theirs = self._stack_strength(view, self._battle_kinds(prompt.get("code", ""), seat, view))
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays and mine < 0.7 * theirs:
            return plays[0]
        return Pass(seat)

    # -- team games (FAQ OR3/OR4) ------------------------------------------------------------------
    def _on_choose_enemy_army(self, view, legal, seat, prompt):
        """Fight the enemy army with the fewest deployed units of the kinds the battle calls for (all its
        stacks on a tie), the first in turn order on a tie."""
        enemies = self._enemies(view)
        kinds = self._battle_kinds(prompt.get("code", ""), seat, view)
        choices = [a for a in legal if isinstance(a, Choose) and a.option in enemies]
        if not choices:
            return None
        every = ("ground", "air", "sea")
        return min(choices, key=lambda a: (self._deployed_count(enemies[a.option], kinds),
                                           self._deployed_count(enemies[a.option], every)))

    def _on_reserve_trade(self, view, legal, seat, prompt):
        """A friendly army trades a reserve card: send back the one worth the fewest points."""
        codes = {c["id"]: c["code"] for c in view["me"]["hand"]}
        return min((a for a in legal if isinstance(a, Choose)),
                   key=lambda a: self.points(codes.get(a.option, "")))

    def _on_seat_trade(self, view, legal, seat, prompt):
        return Choose(seat, "refuse")  # it never proposes one either (_on_turn_start draws)

    def _on_army_transfer(self, view, legal, seat, prompt):
        passes = [a for a in legal if isinstance(a, Pass)]
        return passes[0] if passes else legal[0]

    def _on_emergency_deploy(self, view, legal, seat, prompt):
        return EmergencyDeploy(seat)

    def _on_commit_optional(self, view, legal, seat, prompt):
        return Choose(seat, "include")

    def _on_battle_stack(self, view, legal, seat, prompt):
        """A divided side fights with one stack of the kind: the one with the most combat points."""
        stacks = view["me"]["stacks"]

        def strength(action) -> int:
            kind, idx = split_stack_ref(action.stack)
            return sum(self.points(c["code"]) for c in stacks[kind][int(idx)]
                       if self.catalog.arsenal[c["code"]].is_combat_unit)

        return max((a for a in legal if isinstance(a, Choose)), key=strength)

    def _on_battle_window(self, view, legal, seat, prompt):
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if not plays:
            return Pass(seat)
        units = self._units(view)
        best = max(plays, key=lambda a: self.points(units[a.target]["code"]) if a.target in units else 8)
        return best

    def _units(self, view) -> dict[str, dict]:
        battle = view.get("battle") or {}
        out = {}
        for s, side in (battle.get("sides") or {}).items():
            for u in side["units"]:
                out[u["id"]] = {**u, "seat": s}
        return out

    def _hit_chance(self, view, units, unit, target) -> float:
        u, t = units.get(unit), units.get(target)
        if u is None or t is None:
            return 0.0
        top = view.get("max_action_number") or 20
        a, d = u["attack"].get(t["kind"]), t["defense"].get(u["kind"])
        if a is None or d is None:
            return 0.0
        return max(0, min(a, top) - d) / top

    def _shot_values(self, view, units, legal) -> dict[tuple[str, str], float]:
        """Each (unit, target) of the Fire actions in `legal`: its hit chance times the target's points, once
        per pair and per decision (the fire choice and the supports' "own best shot" both read it)."""
        out: dict[tuple[str, str], float] = {}
        for a in legal:
            if isinstance(a, Fire) and (a.unit, a.target) not in out:
                out[(a.unit, a.target)] = (self._hit_chance(view, units, a.unit, a.target)
                                           * self.points(units[a.target]["code"]))
        return out

    def _on_fire(self, view, legal, seat, prompt):
        units = self._units(view)
        best, best_value = None, 0.0
        shots = self._shot_values(view, units, legal)
        memo: dict = {"shots": shots}  # per decision: each unit's best own shot, each (recipient, bonus) gain
        for a in legal:
            if isinstance(a, Fire):
                value = shots[(a.unit, a.target)]
            elif isinstance(a, Autokill):
                value = float(self.points(units[a.target]["code"]))
            elif isinstance(a, PlayCard):
                value = 40.0
            elif isinstance(a, Support) and a.mode == "attack":
                value = self._support_value(view, units, a, legal, memo)
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        if best is not None:
            return best
        holds = [a for a in legal if isinstance(a, Hold)]
        return holds[0] if holds else None

    def _on_a_bomb_window(self, view, legal, seat, prompt):
        """C8, out of turn: drop the bomb when it may (on the first stack offered, as in its own turn)."""
        bombs = [a for a in legal if isinstance(a, PlayCard)]
        return bombs[0] if bombs else Pass(seat)

    def _support_bonus(self, code: str) -> int:
        """The bonus a supporter gives, from the catalog (a carrier: its largest bonus)."""
        bonuses = self._bonuses
        bonus = bonuses.get(code)
        if bonus is None:
            bonus = 0
            card = self.catalog.arsenal.get(code)
            for ab in card.abilities if card is not None else ():
                if ab.kind in ("infantry_support", "artillery_support", "ship_support"):
                    bonus = ab.get("bonus")
                elif ab.kind == "carrier_bonus":
                    bonus = max(ab.get("bonuses"), default=0)
            bonuses[code] = bonus
        return bonus

    def _support_value(self, view, units, a, legal, memo=None) -> float:
        """Worth it when it lifts the recipient's best shot from a likely miss to a likely hit."""
        rec = units.get(a.recipient)
        if rec is None or rec["done"]:
            return 0.0
        bonus = self._support_bonus(units[a.unit]["code"])
        if memo is None:
            memo = {}
        gain = memo.get((a.recipient, bonus))
        if gain is None:
            gain = memo[(a.recipient, bonus)] = self._support_gain(view, units, rec, bonus)
        own_best = memo.get(a.unit)
        if own_best is None:
            if "own_best" not in memo:  # every unit's best own shot, in one pass over the legal actions
                shots = memo.get("shots")
                if shots is None:
                    shots = memo["shots"] = self._shot_values(view, units, legal)
                best: dict[str, float] = {}
                for (unit, _), v in shots.items():
                    if unit not in best or v > best[unit]:
                        best[unit] = v
                memo["own_best"] = best
            own_best = memo[a.unit] = memo["own_best"].get(a.unit, 0.0)
        return gain if gain > own_best else 0.0

    def _support_gain(self, view, units, rec, bonus) -> float:
        top = view.get("max_action_number") or 20
        gain = 0.0
        for t in units.values():
            if t["seat"] == rec["seat"] or not t["in_battle"]:
                continue
            atk, dfn = rec["attack"].get(t["kind"]), t["defense"].get(rec["kind"])
            if atk is None or dfn is None:
                continue
            before = max(0, min(atk, top) - dfn) / top
            after = max(0, min(atk + bonus, top) - dfn) / top
            if before < 0.5 <= after:
                gain = max(gain, (after - before) * self.points(t["code"]) * 1.5)
        return gain

    def _on_retarget(self, view, legal, seat, prompt):
        return self._on_fire(view, legal, seat, prompt)

    def _on_defend(self, view, legal, seat, prompt):
        units = self._units(view)
        target = units.get(prompt.get("target"))
        supports = [a for a in legal if isinstance(a, Support)]
        if supports and target and self.points(target["code"]) >= 10:
            return supports[0]
        return Pass(seat)

    def _on_sub_withdraw(self, view, legal, seat, prompt):
        return Withdraw(seat, prompt["unit"])

    def _on_withdraw(self, view, legal, seat, prompt):
        units = self._units(view)
        mine = [u for u in units.values() if u["seat"] == seat and u["in_battle"]]
        if mine and (view.get("battle") or {}).get("round", 0) >= LONG_BATTLE:
            # a battle this long goes nowhere ("it is wise to withdraw forces"): pull out, one unit at a
            # time. This is what ends every battle with a heuristic seat: games have no round limit.
            return Withdraw(seat, mine[0]["id"])
        theirs = [u for u in units.values() if u["seat"] != seat and u["in_battle"]]
        my_threat = sum(max((self._hit_chance(view, units, u["id"], t["id"]) for t in theirs), default=0)
                        for u in mine)
        their_threat = sum(max((self._hit_chance(view, units, t["id"], u["id"]) for u in mine), default=0)
                           for t in theirs)
        if mine and my_threat < 0.05 and their_threat > 0:
            return Withdraw(seat, mine[0]["id"])  # hopeless: pull everything out, one unit at a time
        return Pass(seat)

    def _on_scorched_earth(self, view, legal, seat, prompt):
        plays = [a for a in legal if isinstance(a, PlayCard)]
        return plays[0] if plays else Pass(seat)

    def _on_v2_effect(self, view, legal, seat, prompt):
        bombs = [a for a in legal if isinstance(a, PlayCard)]
        if bombs:
            opponent = view["opponent"]
            return max(bombs, key=lambda a: self._stack_size(opponent["stacks"], a.target, opponent))
        return None

    @staticmethod
    def _stack_size(sizes: dict, ref: str, army: dict | None = None) -> int:
        """The size of an enemy stack by its ref (`sizes`: the stack sizes per kind, `army`: the enemy army's
        view, for the battlecards it occupies)."""
        kind, idx = split_stack_ref(ref)
        if kind == OCCUPIED:
            return (army or {}).get("occupied", {}).get(idx, 0)
        return sizes[kind][int(idx)]

    def _on_divide_choose(self, view, legal, seat, prompt):
        sizes = view["opponent"]["stacks"]
        return max(legal, key=lambda a: self._stack_size(sizes, a.stack))

    def _on_divide_stack(self, view, legal, seat, prompt):
        codes = {c["id"]: c["code"] for k in view["me"]["stacks"].values() for s in k for c in s}
        splits = [a for a in legal if isinstance(a, Split)]
        return min(splits, key=lambda a: self.points(codes.get(a.card, "")))

    def _on_reorganize(self, view, legal, seat, prompt):
        options = {a.option: a for a in legal if isinstance(a, Choose)}
        return options.get("draw") or options.get("swap") or legal[0]

    def _on_reorganize_swap(self, view, legal, seat, prompt):
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
        deploys = [a for a in legal if not isinstance(a, Retrieve)]
        return deploys[0] if deploys else legal[0]

    def _on_capture_browse(self, view, legal, seat, prompt):
        """Browse the biggest enemy stack: "kind:index" stacks, or "bc:<id>" occupied battlecards."""
        opponent = view["opponent"]

        return max(legal, key=lambda a: self._stack_size(opponent["stacks"], a.stack, opponent))

    def _on_capture_pick(self, view, legal, seat, prompt):
        codes = {c["id"]: c["code"] for c in prompt.get("cards", [])}
        takes = [a for a in legal if isinstance(a, Take)]
        return max(takes, key=lambda a: self.points(codes.get(a.card, "")))

    def _on_sabotage_target(self, view, legal, seat, prompt):
        units = self._units(view)
        return max(legal, key=lambda a: self.points(units.get(a.option, {}).get("code", "")))

    def _on_sabotage_victim(self, view, legal, seat, prompt):
        codes = {c["id"]: c["code"] for k in view["me"]["stacks"].values() for s in k for c in s}
        return min(legal, key=lambda a: self.points(codes.get(a.option, "")))
