"""Outcome statistics of bot-versus-bot games: wins per side, end reasons, rounds per battle.

    .venv/bin/python tests/bench/outcome_stats.py [--games 1000] [--seed 0] [--bots heuristic,heuristic]
        [--options '{"max_battle_rounds": 25}'] [--max-plies 50000] [--json]

Plays `--games` seeded games (game i gets the seed derived from (--seed, i) by SHA-256) of the starter
decks through the engine's public interface only (new_game, legal_actions, apply_legal, bot_view), so the
same script measures any revision of the engine (run it from a temporary worktree of the baseline, as
tests/bench/compare_engine.py does). A "battle" is a battle frame that reached its firing phases; its
rounds are the round it ended in. Every game must end: a game still running after --max-plies is counted
as "unfinished" (and the exit status is 1).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from games.engine import HeuristicBot, Options, RandomBot, load_catalog_dir, new_game, starter_setup  # noqa: E402
from games.engine.battlecards.inspect import battle_frame  # noqa: E402
from games.engine.battlecards.machine import apply_legal, legal_actions  # noqa: E402
from games.engine.battlecards.view import bot_view  # noqa: E402


def game_seed(base: int, index: int) -> int:
    digest = hashlib.sha256(f"outcome-stats:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def play(catalog, seed: int, bots: dict, options: Options, max_plies: int) -> dict:
    state = new_game(catalog, starter_setup(catalog, seed, options=options))
    state.record_events = False
    rounds: list[int] = []
    current = None  # the battle frame in progress (frames are mutated in place while it runs)
    last_round = 0
    fought = False
    while state.decision is not None and state.ply < max_plies:
        fr = battle_frame(state)
        if fr is not current:
            if current is not None and fought:
                rounds.append(last_round)
            current, fought, last_round = fr, False, 0
        if fr is not None:
            last_round = fr.round
            fought = fought or fr.stage in ("phase", "withdraw")
        seat = state.decision.seat
        legal = legal_actions(state)
        bot = bots[seat]
        view = bot_view(state, seat) if bot.needs_view else {"ply": state.ply, "seat": seat}
        action = bot.choose(view, legal, seat)
        apply_legal(state, action)
    if current is not None and fought:
        rounds.append(last_round)
    result = state.result or {}
    return {"finished": state.status == "finished", "winner": state.winner, "kind": result.get("kind"),
            "turns": state.turn, "plies": state.ply, "rounds": rounds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="heuristic,heuristic", help="axis,allies: heuristic or random")
    parser.add_argument("--options", default="{}", help="engine Options as JSON")
    parser.add_argument("--max-plies", type=int, default=50_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    catalog = load_catalog_dir()
    options = Options.from_json(json.loads(args.options))
    kinds = args.bots.split(",")
    started = time.perf_counter()
    wins: Counter = Counter()
    kinds_seen: Counter = Counter()
    rounds_hist: Counter = Counter()
    turns = plies = unfinished = 0
    for i in range(args.games):
        bots = {seat: HeuristicBot(catalog) if kind == "heuristic" else RandomBot()
                for seat, kind in zip(("axis", "allies"), kinds, strict=True)}
        out = play(catalog, game_seed(args.seed, i), bots, options, args.max_plies)
        if not out["finished"]:
            unfinished += 1
            wins["unfinished"] += 1
        else:
            wins[out["winner"] or "draw"] += 1
        kinds_seen[out["kind"] or "unfinished"] += 1
        rounds_hist.update(out["rounds"])
        turns += out["turns"]
        plies += out["plies"]
    battles = sum(rounds_hist.values())
    total_rounds = sum(r * n for r, n in rounds_hist.items())
    ordered = sorted(rounds_hist)
    cum, median, p99 = 0, 0, 0
    for r in ordered:
        cum += rounds_hist[r]
        if not median and cum * 2 >= battles:
            median = r
        if not p99 and cum * 100 >= battles * 99:
            p99 = r
    report = {
        "games": args.games, "seed": args.seed, "bots": args.bots, "options": options.to_json(),
        "seconds": round(time.perf_counter() - started, 1),
        "wins": {k: wins[k] for k in ("axis", "allies", "draw", "unfinished")},
        "end_reasons": dict(sorted(kinds_seen.items())),
        "average_turns": round(turns / args.games, 1), "average_plies": round(plies / args.games, 1),
        "battles": battles, "rounds_per_battle": {
            "mean": round(total_rounds / battles, 3) if battles else 0.0, "median": median, "p99": p99,
            "max": ordered[-1] if ordered else 0,
            "over_25": sum(n for r, n in rounds_hist.items() if r > 25)},
        "rounds_histogram": {str(r): rounds_hist[r] for r in ordered},
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{args.games} games, seed {args.seed}, bots {args.bots}, options {report['options']} "
              f"({report['seconds']} s)")
        print("wins:", report["wins"])
        print("end reasons:", report["end_reasons"])
        print(f"average turns {report['average_turns']}, plies {report['average_plies']}")
        print(f"battles fought {battles}; rounds per battle:", report["rounds_per_battle"])
        print("rounds histogram:", report["rounds_histogram"])
    return 1 if unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
