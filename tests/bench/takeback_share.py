"""Benchmark: which share of actions could be taken back (games.takeback_rules), over bot games.

    .venv/bin/python tests/bench/takeback_share.py [--games 200] [--seed 0] [--only classic|team|battlefront]
        [--team DE,DE:GB,GB] [--json]

For every action of every seat in `--games` heuristic-bot games per game type (Battlecards classic 1v1,
a Battlecards team game, Battlefront), two figures:
  * "against bots": the seat asks for its last action back when its next decision comes (bots answer at
    once, so the run undone is that action and every other seat's actions after it, as the service undoes
    them): the share of actions whose run revealed no hidden information to that seat or a seat of its side
    (a teammate) and used no random number;
  * "at once": the seat asks before anyone else acts (a human opponent has not answered yet): the share of
    actions that, alone, revealed nothing.
The last action of a seat in a game counts in neither (the game ended). Prints the shares with their 95 %
Wilson intervals and, for the refused ones, the share refused for a random draw and for a card shown, then
the action types most often refused. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.takeback_rules import RevealCheck  # noqa: E402


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class Tally:
    def __init__(self) -> None:
        self.actions = 0
        self.ok = 0
        self.reasons: Counter = Counter()
        self.refused_types: Counter = Counter()

    def add(self, action_type: str, reason: str | None) -> None:
        self.actions += 1
        if reason is None:
            self.ok += 1
        else:
            self.reasons[reason] += 1
            self.refused_types[action_type] += 1

    def report(self) -> dict[str, Any]:
        low, high = wilson(self.ok, self.actions)
        refused = max(1, self.actions - self.ok)
        return {
            "actions": self.actions,
            "share": round(self.ok / max(1, self.actions), 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "refused_random": round(self.reasons["random"] / refused, 3),
            "refused_card": round(self.reasons["card"] / refused, 3),
            "most_refused": self.refused_types.most_common(5),
        }


def play_one(
    engine: Any, state: Any, bots: dict[str, Any], bot_view: Any, tally: Tally, at_once: Tally
) -> int:
    """Play one game with `bots`, following each seat's open run (its last action and what came after)."""
    # seat -> (a check per seat of its side, action type, reason): the rule looks at the asking side's seats
    open_runs: dict[str, tuple[list[RevealCheck], str, str | None]] = {}
    side_of = {s: [t for t in bots if t.split("-")[0] == s.split("-")[0]] for s in bots}
    plies = 0

    def step(checks: list[RevealCheck], events: Any) -> str | None:
        for check in checks:
            reason = check.step(state_after=state, events=events, view_after=engine.view(state, check.seat))
            if reason is not None:
                return reason
        return None

    while state.status == "active" and state.decision is not None:
        seat = state.decision.seat
        run = open_runs.pop(seat, None)
        if run is not None:
            tally.add(run[1], run[2])
        legal = engine.legal_actions(state)
        action = bots[seat].choose(bot_view(state, seat), legal, seat)
        checks = [RevealCheck.start(state=state, seat=s, view=engine.view(state, s)) for s in side_of[seat]]
        events = engine.apply(state, action)
        plies += 1
        first = step(checks, events)
        at_once.add(action.type, first)
        for other, (other_checks, kind, reason) in list(open_runs.items()):
            if reason is None:
                open_runs[other] = (other_checks, kind, step(other_checks, events))
        open_runs[seat] = (checks, action.type, first)
    return plies


def run_battlecards(games: int, seed: int, team: str | None) -> dict[str, Any]:
    from games import engine
    from games.engine import HeuristicBot, load_catalog_dir, new_game
    from games.engine.battlecards.setup import starter_setup, team_setup

    catalog = load_catalog_dir()
    tally, at_once = Tally(), Tally()
    plies = 0
    started = time.perf_counter()
    for i in range(games):
        if team:
            axis, _, allies = team.partition(":")
            setup = team_setup(catalog, seed + i, axis=axis.split(","), allies=allies.split(","))
            seats = list(setup.armies)
        else:
            setup = starter_setup(catalog, seed + i)
            seats = ["axis", "allies"]
        bots = {s: HeuristicBot(catalog, salt=f"{seed + i}:{s}") for s in seats}
        state = new_game(catalog, setup)
        plies += play_one(engine, state, bots, engine.bot_view, tally, at_once)
    return {"games": games, "plies": plies, "seconds": round(time.perf_counter() - started, 1),
            "against_bots": tally.report(), "at_once": at_once.report()}


def run_battlefront(games: int, seed: int) -> dict[str, Any]:
    from games.engine import battlefront as bf

    catalog = bf.load_cards()
    tally, at_once = Tally(), Tally()
    plies = 0
    started = time.perf_counter()
    for i in range(games):
        bots = {s: bf.HeuristicBot(salt=f"{seed + i}:{s}") for s in bf.SEATS}
        state = bf.new_game(catalog, bf.GameSetup(seed + i, bf.Options()))
        plies += play_one(bf, state, bots, bf.view, tally, at_once)
    return {"games": games, "plies": plies, "seconds": round(time.perf_counter() - started, 1),
            "against_bots": tally.report(), "at_once": at_once.report()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=["classic", "team", "battlefront"])
    parser.add_argument("--team", default="DE,DE:GB,GB", help="the team game's armies, AXIS:ALLIES")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    if args.only in (None, "classic"):
        results["battlecards_classic"] = run_battlecards(args.games, args.seed, None)
    if args.only in (None, "team"):
        results[f"battlecards_team {args.team}"] = run_battlecards(args.games, args.seed, args.team)
    if args.only in (None, "battlefront"):
        results["battlefront"] = run_battlefront(args.games, args.seed)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, r in results.items():
        print(f"{name}: {r['games']} games, {r['plies']} actions, {r['seconds']} s")
        for label in ("against_bots", "at_once"):
            t = r[label]
            print(f"  {label:12} {t['share']:.1%} of {t['actions']} actions could be taken back "
                  f"(95 % {t['wilson95'][0]:.1%}-{t['wilson95'][1]:.1%}); refused: "
                  f"{t['refused_random']:.0%} random, {t['refused_card']:.0%} a card shown; "
                  f"most refused: {t['most_refused']}")


if __name__ == "__main__":
    main()
