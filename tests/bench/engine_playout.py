"""One engine's playout figures, measured in the checkout given by --root (tests/bench/compare_engine.py runs
it in this checkout and in a baseline's worktree, each in its own process).

    .venv/bin/python tests/bench/engine_playout.py GAME [--root DIR] [--games N] [--seed 0] [--heuristic]

GAME is battlecards, battlefront or the-war (random playouts: each engine's play_game with its RandomBot on
both seats, events off; games/s and actions/s in process CPU time; --heuristic adds the heuristic bot on
both seats), or tide-of-iron (a referee, no bots: the golden matches of the checkout's own
tests/engine/tide_of_iron/golden.py, played by its script and then replayed from their logs through
`apply`, events on; CPU time of each). Prints one JSON object; `engine` names the file of the engine
measured, so that a comparison can tell the two checkouts apart.

The engines' APIs differ a little between commits (at f2fae7c Battlecards sat at the root of games/engine/);
the adapters below use only what both the baseline and this checkout export, and name the module they try
first for each.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any


def _first(*modules: str) -> Any:
    """The first of these modules that imports (a newer layout first, then the older one)."""
    for name in modules:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(f"none of {modules}")


def _timed(play_one, games: int, seed: int) -> dict[str, Any]:
    plies = finished = 0
    cpu = time.process_time()
    for i in range(games):
        st = play_one(seed + i, i)
        plies += st.ply
        finished += st.status == "finished"
    cpu = time.process_time() - cpu
    return {"games": games, "cpu_s": cpu, "games_s_cpu": games / cpu, "actions_s_cpu": plies / cpu,
            "actions_per_game": plies / max(games, 1), "finished": finished}


def _playouts(engine_file: str | None, play, random_bots, heuristic_bots, games: int, seed: int,
              heuristic: bool) -> dict[str, Any]:
    """play(seed, bots) -> a finished state; *_bots(i) -> the bots of game i."""
    out = {"engine": engine_file,
           "random": _timed(lambda s, i: play(s, random_bots(i)), games, seed)}
    if heuristic:
        out["heuristic"] = _timed(lambda s, i: play(s, heuristic_bots(i)), max(games // 10, 1), seed)
    return out


def battlecards(games: int, seed: int, heuristic: bool) -> dict[str, Any]:
    engine = importlib.import_module("games.engine")  # Battlecards' API: the root's re-exports at both
    setup_mod = _first("games.engine.battlecards.setup", "games.engine.setup")  # the module moved
    catalog = engine.load_catalog_dir()
    return _playouts(
        _first("games.engine.battlecards.machine").__file__,
        lambda s, bots: engine.play_game(catalog, setup_mod.starter_setup(catalog, s, theater="WE"), bots),
        lambda i: {"axis": engine.RandomBot(i), "allies": engine.RandomBot(i + 1)},
        lambda i: {s: engine.HeuristicBot(catalog) for s in ("axis", "allies")},
        games, seed, heuristic)


def battlefront(games: int, seed: int, heuristic: bool) -> dict[str, Any]:
    bf = importlib.import_module("games.engine.battlefront")
    catalog = bf.load_cards()
    return _playouts(
        importlib.import_module("games.engine.battlefront.rules").__file__,
        lambda s, bots: bf.play_game(catalog, bf.GameSetup(s, bf.Options()), bots),
        lambda i: {"west": bf.RandomBot(f"w{i}"), "east": bf.RandomBot(f"e{i}")},
        lambda i: {s: bf.HeuristicBot(catalog, salt=f"{s}{i}") for s in bf.SEATS},
        games, seed, heuristic)


def the_war(games: int, seed: int, heuristic: bool) -> dict[str, Any]:
    tw = importlib.import_module("games.engine.the_war")
    catalog = importlib.import_module("vocabulary.the_war").load_catalog()
    return _playouts(
        importlib.import_module("games.engine.the_war.rules").__file__,
        lambda s, bots: tw.play_game(catalog, tw.starter_setup(catalog, s), bots),
        lambda i: {"p1": tw.RandomBot(f"a{i}"), "p2": tw.RandomBot(f"b{i}")},
        lambda i: {s: tw.HeuristicBot(salt=f"{s}{i}") for s in tw.SEATS},
        games, seed, heuristic)


def tide_of_iron(games: int, seed: int, heuristic: bool) -> dict[str, Any]:
    """The checkout's golden matches (all of them; `games`, `seed` and `heuristic` unused), played by its
    own script, then replayed from their logs."""
    del games, seed, heuristic
    toi = importlib.import_module("games.engine.tide_of_iron")
    golden = importlib.import_module("tests.engine.tide_of_iron.golden")
    catalog = golden.catalog()
    matches = [(sc, s) for sc in golden.SCENARIOS for s in golden.SEEDS]
    logs: list[tuple[Any, list[dict[str, Any]]]] = []
    plies = 0
    cpu = time.process_time()
    for scenario, s in matches:  # as golden.play_one, keeping the log
        setup = toi.GameSetup(seed=s, options=toi.Options(scenario=scenario, board_width=12, board_height=10))
        st = toi.new_game(catalog, setup)
        log = []
        while st.status == "active":
            seat = st.decision.seat
            action = {**golden.script_choice(toi.view(st, seat), st.ply), "seat": seat}
            if st.round > golden.ROUNDS and st.decision.kind == "act":
                action = {"type": "end_match", "seat": seat, "result": "draw"}
            toi.apply(st, action)
            log.append(action)
        plies += st.ply
        logs.append((setup, log))
    played = time.process_time() - cpu
    cpu = time.process_time()
    for setup, log in logs:
        st = toi.new_game(catalog, setup)
        for action in log:
            toi.apply(st, action)
    replayed = time.process_time() - cpu
    return {"engine": importlib.import_module("games.engine.tide_of_iron.rules").__file__,
            "golden": {"matches": len(matches), "plies": plies, "play_cpu_s": played,
                       "replay_cpu_s": replayed, "replay_actions_s_cpu": plies / replayed}}


GAMES = {"battlecards": battlecards, "battlefront": battlefront, "the-war": the_war,
         "tide-of-iron": tide_of_iron}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[2]),
                        help="the checkout whose engine is measured (default: this one)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--heuristic", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    out = GAMES[args.game](args.games, args.seed, args.heuristic)
    if not str(Path(out["engine"]).resolve()).startswith(str(Path(args.root).resolve())):
        print(f"measured {out['engine']}, not an engine of {args.root}", file=sys.stderr)
        return 1
    print(json.dumps({"game": args.game, **out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
