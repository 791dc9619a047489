"""The War golden games: seeded bot games whose outcome must not change.

For every seed x bot pairing x deck pairing, tests/engine/the_war/golden/games.json records the plies, the
sha256 of the final state JSON and of the full event log (the log replayed through `apply`, events on).
A refactoring keeps the file byte-identical; a rule change regenerates it and names the rule:

    .venv/bin/python -m tests.engine.the_war.golden_games --write      # regenerate
    .venv/bin/python -m tests.engine.the_war.golden_games              # compare
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.engine import the_war as tw
from vocabulary.the_war import load_catalog

GOLDEN_FILE = Path(__file__).parent / "golden" / "games.json"
SEEDS = range(8)
DECKS = {
    "red_v_wehrmacht": ("tw-starter-red-army", "tw-starter-wehrmacht"),
    "field_exercise": ("tw-starter-wehrmacht", "tw-starter-wehrmacht"),
}
BOTS = ("random", "heuristic")


def _sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _bots(kind: str, seed: int) -> dict[str, Any]:
    if kind == "random":
        return {"p1": tw.RandomBot(seed), "p2": tw.RandomBot(seed + 1)}
    return {"p1": tw.HeuristicBot(), "p2": tw.RandomBot(seed)}


def golden_key(bots: str, decks: str, seed: int) -> str:
    return f"{bots}/{decks}/{seed}"


def play_one(catalog, bots: str, decks: str, seed: int) -> dict[str, Any]:
    """play_game (the fast paths), then its log replayed through `apply` with events on: same state."""
    setup = tw.starter_setup(catalog, seed, *DECKS[decks])
    log: list[dict] = []
    fast = tw.play_game(catalog, setup, _bots(bots, seed), log=log)
    state = tw.new_game(catalog, setup)
    events = [e.to_json() for e in state._events]
    for data in log:
        events.extend(e.to_json() for e in tw.apply(state, data))
    final = state.to_json()
    if fast.to_json() != final:
        raise AssertionError(f"{golden_key(bots, decks, seed)}: play_game and replay disagree")
    return {"plies": state.ply, "winner": state.winner, "state": _sha(final), "events": _sha(events)}


def compute(catalog=None, seeds=SEEDS) -> dict[str, dict[str, Any]]:
    catalog = catalog or load_catalog()
    return {golden_key(b, d, s): play_one(catalog, b, d, s) for b in BOTS for d in DECKS for s in seeds}


def load() -> dict[str, dict[str, Any]]:
    return json.loads(GOLDEN_FILE.read_text())


def dump(games: dict[str, dict[str, Any]]) -> str:
    return json.dumps(games, indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="regenerate golden/games.json")
    args = parser.parse_args()
    games = compute()
    if args.write:
        GOLDEN_FILE.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN_FILE.write_text(dump(games))
        print(f"wrote {len(games)} games to {GOLDEN_FILE}")
        return 0
    old = load()
    diffs = [k for k in games if games[k] != old.get(k)]
    print(f"{len(games) - len(diffs)}/{len(games)} golden games unchanged")
    for k in diffs[:10]:
        print(f"  {k}: expected {old.get(k)}, got {games[k]}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
