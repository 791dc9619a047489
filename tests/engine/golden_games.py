"""Golden games (python-chess perft style): seeded bot games whose outcome must not change.

For every seed x bot pairing x option set, the file tests/engine/golden/games.json records the number of
plies, the sha256 of the final state JSON (sort_keys, compact separators) and the sha256 of the full event
log (every event of every action, in order, replayed through `apply` with event recording on).

A refactoring commit keeps the file byte-identical; a commit that changes a rule regenerates it and says
which rule in its message:

    .venv/bin/python -m tests.engine.golden_games --write      # regenerate
    .venv/bin/python -m tests.engine.golden_games              # compare, print the first differences
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.engine import HeuristicBot, Options, RandomBot, apply, load_catalog_dir, new_game, play_game
from games.engine.battlecards.actions import Action
from games.engine.battlecards.setup import starter_setup

GOLDEN_FILE = Path(__file__).parent / "golden" / "games.json"
SEEDS = range(50)
OPTIONS = {
    "none": Options(),
    "larger_standing_armies": Options(larger_standing_armies=True),
    "occupying_force": Options(occupying_force=True),
}
BOTS = ("random", "heuristic")


def _sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _bots(kind: str, catalog, seed: int) -> dict[str, Any]:
    if kind == "random":
        return {"axis": RandomBot(seed), "allies": RandomBot(seed + 1)}
    return {"axis": HeuristicBot(catalog), "allies": HeuristicBot(catalog, salt="heuristic-allies")}


def golden_key(bots: str, options: str, seed: int) -> str:
    return f"{bots}/{options}/{seed}"


def play_one(catalog, bots: str, options: str, seed: int) -> dict[str, Any]:
    """Play the game with play_game (the self-play fast paths), then replay its action log through
    `apply` with events on (the reference path); both must end in the same state."""
    setup = starter_setup(catalog, seed, options=OPTIONS[options])
    log: list[dict] = []
    fast = play_game(catalog, setup, _bots(bots, catalog, seed), log=log)
    state = new_game(catalog, setup)
    events = []
    for data in log:
        events.extend(e.to_json() for e in apply(state, Action.from_json(data)))
    final = state.to_json()
    if fast.to_json() != final:
        raise AssertionError(f"{golden_key(bots, options, seed)}: play_game and replay disagree")
    return {"plies": state.ply, "state": _sha(final), "events": _sha(events)}


def compute(catalog=None, seeds=SEEDS) -> dict[str, dict[str, Any]]:
    catalog = catalog or load_catalog_dir()
    return {golden_key(b, o, s): play_one(catalog, b, o, s) for b in BOTS for o in OPTIONS for s in seeds}


def load() -> dict[str, dict[str, Any]]:
    return json.loads(GOLDEN_FILE.read_text())


def dump(games: dict[str, dict[str, Any]]) -> str:
    return json.dumps(games, indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="regenerate the golden file")
    args = parser.parse_args()
    games = compute()
    if args.write:
        GOLDEN_FILE.write_text(dump(games))
        print(f"wrote {len(games)} golden games to {GOLDEN_FILE}")
        return 0
    expected = load()
    bad = [k for k in sorted(set(expected) | set(games)) if expected.get(k) != games.get(k)]
    for k in bad[:20]:
        print(f"{k}: expected {expected.get(k)} got {games.get(k)}")
    print(f"{len(games) - len(bad)}/{len(games)} golden games identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
