"""Bot-versus-bot simulation over many games, on every core (used by `manage.py simulate` and the bench).

No database: each worker process rebuilds the Catalog from plain dicts once, then plays games with the
engine's play_game. Game i gets the seed derived from (base seed, i) by SHA-256, so a run is reproducible
whatever the number of workers (the only RNG of a game lives inside its engine state).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import multiprocessing
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.game_types import DEFAULT_GAME_TYPE, get_game_type
from vocabulary.battlecards import Catalog

SEATS = ("axis", "allies")  # Battlecards; another game type's seats come from games.game_types
BOTS = ("random", "heuristic")
DEFAULT_MAX_PLIES = 20_000

_worker: dict[str, Any] = {}


def game_seed(base_seed: int, index: int) -> int:
    digest = hashlib.sha256(f"battlecards-simulate:{base_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (0, 0 when there are no trials)."""
    if trials == 0:
        return 0.0, 0.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def make_bot(kind: str, *, catalog: Catalog, game_type: str = DEFAULT_GAME_TYPE) -> Any:
    """A bot for one game; a HeuristicBot judges cards from the game's catalog (never reloads the files)."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; choose from {BOTS}")
    return get_game_type(game_type).bot(kind, catalog=catalog)


def play_game_outcome(
    *,
    catalog: Catalog,
    setup: Any,
    bots: dict[str, str],
    index: int,
    seed: int,
    max_plies: int,
    game_type: str = DEFAULT_GAME_TYPE,
) -> dict[str, Any]:
    """Play game `index` of a run (seed = game_seed(run seed, index)) and return its plain outcome."""
    game_setup = dataclasses.replace(setup, seed=seed)
    players = {seat: make_bot(kind, catalog=catalog, game_type=game_type) for seat, kind in bots.items()}
    state = get_game_type(game_type).play_game(catalog, game_setup, players, max_plies=max_plies)
    result = state.result or {}
    return {
        "index": index,
        "seed": seed,
        "winner": state.winner if state.status == "finished" else None,
        "finished": state.status == "finished",
        "turns": state.turn,
        "plies": state.ply,
        "kind": result.get("kind") if isinstance(result, dict) else None,
        # battles settled by the Options.max_battle_rounds cap (a self-play guard, off unless asked for)
        "round_cap_battles": getattr(state, "round_cap_battles", 0),  # Battlefront states have none
    }


def play_games(
    *,
    catalog: Catalog,
    setup: Any,
    bots: dict[str, str],
    base_seed: int,
    indices: Any,
    max_plies: int = DEFAULT_MAX_PLIES,
    game_type: str = DEFAULT_GAME_TYPE,
) -> list[dict[str, Any]]:
    """Play the games `indices` of a run with base seed `base_seed`: the same outcomes wherever and in
    whatever order they are played (a chunk of a distributed job, or the whole run on one core)."""
    return [
        play_game_outcome(
            catalog=catalog,
            setup=setup,
            bots=bots,
            index=index,
            seed=game_seed(base_seed, index),
            max_plies=max_plies,
            game_type=game_type,
        )
        for index in indices
    ]


def _init_worker(
    catalog_dicts: dict[str, Any],
    setup_json: dict[str, Any],
    bots: dict[str, str],
    max_plies: int,
    game_type: str = DEFAULT_GAME_TYPE,
) -> None:
    kind = get_game_type(game_type)
    _worker["catalog"] = kind.catalog_from_dicts(catalog_dicts)
    _worker["setup"] = kind.setup_from_json(setup_json)
    _worker["bots"] = bots
    _worker["max_plies"] = max_plies
    _worker["game_type"] = game_type


def _play_one(task: tuple[int, int]) -> dict[str, Any]:
    index, seed = task
    return play_game_outcome(
        catalog=_worker["catalog"],
        setup=_worker["setup"],
        bots=_worker["bots"],
        index=index,
        seed=seed,
        max_plies=_worker["max_plies"],
        game_type=_worker["game_type"],
    )


@dataclass
class SimulationReport:
    games: int
    workers: int
    seconds: float
    bots: dict[str, str]
    wins: Counter = field(default_factory=Counter)
    draws: int = 0
    unfinished: int = 0
    result_kinds: Counter = field(default_factory=Counter)
    total_turns: int = 0
    total_plies: int = 0
    seats: tuple[str, ...] = SEATS
    round_cap_battles: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def win_rate(self, seat: str) -> tuple[float, float, float]:
        low, high = wilson_interval(self.wins[seat], self.games)
        return (self.wins[seat] / self.games if self.games else 0.0), low, high

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 2),
            "bots": self.bots,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "result_kinds": dict(self.result_kinds),
            "average_turns": round(self.total_turns / self.games, 2) if self.games else 0.0,
            "average_plies": round(self.total_plies / self.games, 1) if self.games else 0.0,
            "round_cap_battles": self.round_cap_battles,
            "seats": {
                seat: {"wins": self.wins[seat], "rate": round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)]}
                for seat in self.seats
                for rate, lo, hi in [self.win_rate(seat)]
            },
        }


def simulate(
    *,
    catalog_dicts: dict[str, Any],
    setup: Any,
    bots: dict[str, str],
    games: int,
    seed: int,
    workers: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    game_type: str = DEFAULT_GAME_TYPE,
) -> SimulationReport:
    """Play `games` bot games (seat -> bot kind) from `setup` with derived seeds, on `workers` processes."""
    workers = max(1, min(workers or os.cpu_count() or 1, games or 1))
    tasks = [(i, game_seed(seed, i)) for i in range(games)]
    init_args = (catalog_dicts, setup.to_json(), dict(bots), max_plies, game_type)
    started = time.perf_counter()
    if workers == 1:
        _init_worker(*init_args)
        outcomes = [_play_one(t) for t in tasks]
    else:
        ctx = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        )
        with ctx.Pool(processes=workers, initializer=_init_worker, initargs=init_args) as pool:
            outcomes = list(pool.imap_unordered(_play_one, tasks, chunksize=max(1, games // (workers * 8))))
    return tally(
        outcomes, workers=workers, seconds=time.perf_counter() - started, bots=bots, game_type=game_type
    )


def tally(
    outcomes: Any,
    *,
    workers: int,
    seconds: float,
    bots: dict[str, str],
    game_type: str | None = DEFAULT_GAME_TYPE,
) -> SimulationReport:
    """Add up game outcomes (play_game_outcome's dicts, in any order) into a report."""
    outcomes = list(outcomes)
    report = SimulationReport(
        games=len(outcomes),
        workers=workers,
        seconds=seconds,
        bots=dict(bots),
        seats=get_game_type(game_type).seats,
    )
    for outcome in outcomes:
        if outcome["finished"] and outcome["winner"]:
            report.wins[outcome["winner"]] += 1
        elif outcome["finished"]:
            report.draws += 1
        else:
            report.unfinished += 1
        report.result_kinds[outcome["kind"] or ("unfinished" if not outcome["finished"] else "none")] += 1
        report.total_turns += outcome["turns"]
        report.total_plies += outcome["plies"]
        report.round_cap_battles += outcome.get("round_cap_battles", 0)  # absent in chunks played before it
    return report
