"""Battlefront golden games (python-chess perft style): seeded bot games whose outcome must not change.

For every seed x bot pairing x option set, tests/engine/battlefront/golden/games.json records the number of
plies, the sha256 of the final state JSON (sort_keys, compact separators) and the sha256 of the full event
log (every event of every action, replayed through `apply` with event recording on).

A refactoring commit keeps the file byte-identical; a commit that changes a rule (or a bot) regenerates it
and says which rule in its message:

    .venv/bin/python -m tests.engine.battlefront.golden_games --write      # regenerate
    .venv/bin/python -m tests.engine.battlefront.golden_games              # compare
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.engine import battlefront as bf

GOLDEN_FILE = Path(__file__).parent / "golden" / "games.json"
SEEDS = range(25)
OPTIONS = {
    "none": bf.Options(),
    "two_front": bf.Options(two_front_victory=True),
    "blitzkrieg": bf.Options(blitzkrieg_attacker="west"),
    "all": bf.Options(two_front_victory=True, blitzkrieg_attacker="east",
                      special_cards={"west": "RU", "east": "US"}),
    "specials": bf.Options(special_cards={"west": "GB", "east": "JP"}),
    "specials_de": bf.Options(special_cards={"west": "DE", "east": "DE"}),
}
BOTS = ("random", "heuristic")


def _sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _bots(kind: str, catalog, seed: int) -> dict[str, Any]:
    if kind == "random":
        return {"west": bf.RandomBot(seed), "east": bf.RandomBot(seed + 1)}
    return {"west": bf.HeuristicBot(catalog), "east": bf.RandomBot(seed)}


def golden_key(bots: str, options: str, seed: int) -> str:
    return f"{bots}/{options}/{seed}"


def play_one(catalog, bots: str, options: str, seed: int) -> dict[str, Any]:
    """play_game (the fast paths), then its log replayed through `apply` with events on: same state."""
    setup = bf.GameSetup(seed, OPTIONS[options])
    log: list[dict] = []
    fast = bf.play_game(catalog, setup, _bots(bots, catalog, seed), log=log)
    state = bf.new_game(catalog, setup)
    events = []
    for data in log:
        events.extend(e.to_json() for e in bf.apply(state, data))
    final = state.to_json()
    if fast.to_json() != final:
        raise AssertionError(f"{golden_key(bots, options, seed)}: play_game and replay disagree")
    return {"plies": state.ply, "state": _sha(final), "events": _sha(events)}


def compute(catalog=None, seeds=SEEDS) -> dict[str, dict[str, Any]]:
    catalog = catalog or bf.load_cards()
    return {golden_key(b, o, s): play_one(catalog, b, o, s) for b in BOTS for o in OPTIONS for s in seeds}


def load() -> dict[str, dict[str, Any]]:
    return json.loads(GOLDEN_FILE.read_text())


def dump(games: dict[str, dict[str, Any]]) -> str:
    return json.dumps(games, indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the golden file")
    args = parser.parse_args()
    games = compute()
    if args.write:
        GOLDEN_FILE.write_text(dump(games))
        print(f"wrote {len(games)} games to {GOLDEN_FILE}")
        return 0
    old = load()
    diffs = [k for k in games if games[k] != old.get(k)]
    for k in diffs[:10]:
        print(f"{k}: expected {old.get(k)}, got {games[k]}")
    print(f"{len(diffs)} of {len(games)} games differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
