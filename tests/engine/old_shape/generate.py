"""Generates the stored-game fixtures of test_old_shape.py: games saved by the engine before the canonical
state shape (one shape for classic and team games, engine README "State shape").

Each fixture holds the set-up, the whole action log, a state saved mid-battle (the JSON the old engine
wrote) with the ply it was saved at, and the sha256 of the final state and of the event log of the whole
game, all as the old engine produced them. It was run once, on the commit before the canonical shape
(0853cac), and its output committed; running it again on a later commit writes the current engine's view,
which the test then compares with itself only:

    .venv/bin/python -m tests.engine.old_shape.generate
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from games.engine import (
    Action,
    HeuristicBot,
    Options,
    apply,
    load_catalog_dir,
    new_game,
    play_game,
    starter_setup,
    team_setup,
)
from games.engine.battlecards.frames import BattleFrame

HERE = Path(__file__).parent
GAMES = {
    # name -> (setup maker, the nth battle in progress to save the state in)
    "classic": (lambda cat: starter_setup(cat, 11, options=Options(occupying_force=True)), 6),
    "team": (lambda cat: team_setup(cat, 5, axis=["DE", "DE"], allies=["GB", "GB"]), 6),
    "uneven": (lambda cat: team_setup(cat, 3, axis=["DE"], allies=["GB", "GB"]), 4),
}


def sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def generate(name: str) -> dict[str, Any]:
    catalog = load_catalog_dir()
    make, nth = GAMES[name]
    setup = make(catalog)
    log: list[dict] = []
    play_game(catalog, setup, {a: HeuristicBot(catalog, salt=a) for a in setup.armies}, log=log)
    state = new_game(catalog, setup)
    events: list[dict] = []
    saved = None
    battles: dict[tuple, int] = {}  # (turn, battlecard) -> plies seen inside that battle, its units chosen
    for ply, data in enumerate(log):
        events.extend(e.to_json() for e in apply(state, Action.from_json(data)))
        fr = state.frames[-1] if state.frames else None
        if saved is None and isinstance(fr, BattleFrame) and all(fr.units.values()):
            key = (state.turn, fr.card)
            battles[key] = battles.get(key, 0) + 1
            if len(battles) == nth and battles[key] == 3:  # the nth battle, a few shots in
                saved = {"ply": ply + 1, "state": state.to_json()}
    assert saved is not None, name
    return {
        "setup": setup.to_json(),
        "actions": log,
        "saved": saved,
        "plies": state.ply,
        "final_state": sha(state.to_json()),
        "events": sha(events),
    }


def main() -> None:
    for name in GAMES:
        (HERE / f"{name}.json").write_text(json.dumps(generate(name), sort_keys=True) + "\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
