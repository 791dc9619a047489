"""Games benchmark: latency of submitting an action (with the database round trip) and simulate throughput.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench .venv/bin/python tests/bench/game_bench.py
    (options: --actions 400 --games 40 --seed 1; `make bench` runs it with the defaults)

It creates a throw-away test database (test_<name>), migrates it, loads the catalog, then:
  1. submit latency: two users play games through the service layer (row lock, engine, log, state write:
     one transaction each), and through the HTTP API (token auth, DRF, JSON); median / p90 / p99 in ms;
  2. simulate throughput: bot-vs-bot games per second on one core and on all cores (no database).
Results are printed and written to tests/bench/results/game_bench.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_theaters import STARTERS, add_theater_argument  # noqa: E402

# the starters played (allies, axis): --theater (main() sets them before any game or fork)
ALLIES_STARTER, AXIS_STARTER = STARTERS["WE"]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bc_bench")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(percentile(ms, 0.9), 2),
        "p99_ms": round(percentile(ms, 0.99), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }


def bench_submit(n_actions: int, seed: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from games.selectors import game_player_view
    from games.services import game_action_submit, game_create, game_join

    User = get_user_model()  # noqa: N806
    alice = User.objects.create_user("bench-alice", password="x-bench-pass-1")
    bob = User.objects.create_user("bench-bob", password="x-bench-pass-2")

    def new_game(index: int) -> Any:
        game = game_create(
            user=alice,
            my_deck={"starter": ALLIES_STARTER},
            opponent_deck={"starter": AXIS_STARTER},
            opponent={"kind": "human"},
            seed=seed + index,
        )
        game_join(game_id=game.pk, user=bob)
        return game

    service_samples: list[float] = []
    games = 0
    game = new_game(games)
    while len(service_samples) < n_actions:
        views = {u: game_player_view(game_id=game.pk, user=u) for u in (alice, bob)}
        if views[alice]["status"] == "finished":
            games += 1
            game = new_game(games)
            continue
        user = alice if views[alice]["your_turn"] else bob
        view = views[user]
        action = view["view"]["decision"]["legal_actions"][0]
        started = time.perf_counter()
        game_action_submit(game_id=game.pk, user=user, version=view["version"], action=action)
        service_samples.append(time.perf_counter() - started)

    clients = {}
    for user in (alice, bob):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
        clients[user] = client
    http_samples: list[float] = []
    games += 1
    game = new_game(games)
    while len(http_samples) < n_actions:
        views = {u: clients[u].get(f"/api/games/{game.pk}/view/").json() for u in (alice, bob)}
        if views[alice]["status"] == "finished":
            games += 1
            game = new_game(games)
            continue
        user = alice if views[alice]["your_turn"] else bob
        body = {
            "version": views[user]["version"],
            "action": views[user]["view"]["decision"]["legal_actions"][0],
        }
        started = time.perf_counter()
        response = clients[user].post(f"/api/games/{game.pk}/actions/", body, format="json")
        http_samples.append(time.perf_counter() - started)
        assert response.status_code == 200, response.json()
    return {"service": summary(service_samples), "http": summary(http_samples), "games_used": games + 1}


def _spin(_: int) -> int:
    total = 0
    for i in range(2_000_000):
        total += i * i
    return total


def parallel_control(workers: int) -> float:
    """Speed-up a pure CPU loop gets from `workers` processes right now (other load on the machine shows)."""
    import multiprocessing

    timings = []
    for n in (1, workers):
        started = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(n) as pool:
            list(pool.imap_unordered(_spin, range(4 * workers)))
        timings.append(time.perf_counter() - started)
    return round(timings[0] / timings[1], 2)


def bench_simulate(n_games: int, seed: int, workers_all: int) -> dict[str, Any]:
    from cards.battlecards.snapshot import snapshot_dicts
    from games import engine
    from games.decks_glue import resolve_deck, validate_pairing
    from games.simulation import simulate
    from vocabulary.battlecards import load_catalog_dir

    catalog = load_catalog_dir()
    deck_a = resolve_deck(user=None, ref={"starter": ALLIES_STARTER}, catalog=catalog)
    deck_b = resolve_deck(user=None, ref={"starter": AXIS_STARTER}, catalog=catalog)
    _, conflict = validate_pairing(catalog=catalog, first=deck_a, second=deck_b, conflict=None)
    setup = engine.GameSetup(
        seed=seed,
        decks={deck_a.side: deck_a.codes, deck_b.side: deck_b.codes},
        nations={deck_a.side: deck_a.nation, deck_b.side: deck_b.nation},
        conflict_deck=conflict,
    )
    dicts = snapshot_dicts(catalog, set(deck_a.codes) | set(deck_b.codes) | set(conflict))
    out = {}
    for label, workers in (("one_core", 1), ("all_cores", workers_all)):
        report = simulate(
            catalog_dicts=dicts,
            setup=setup,
            bots={"allies": "heuristic", "axis": "heuristic"},
            games=n_games,
            seed=seed,
            workers=workers,
        )
        out[label] = {
            "workers": report.workers,
            "games": report.games,
            "seconds": round(report.seconds, 2),
            "games_per_second": round(report.games_per_second, 2),
            "average_turns": report.to_dict()["average_turns"],
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    add_theater_argument(parser)
    args, _unknown = parser.parse_known_args()
    global ALLIES_STARTER, AXIS_STARTER
    ALLIES_STARTER, AXIS_STARTER = STARTERS[args.theater]

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("load_catalog", stdout=io.StringIO())
        print(f"database: {connection.vendor} ({connection.settings_dict['NAME']}); cores: {os.cpu_count()}")
        submit = bench_submit(args.actions, args.seed)
        print(f"submit an action, service layer (lock, engine, log, state): {submit['service']}")
        print(
            f"submit an action, HTTP API (token auth, DRF, JSON):                           {submit['http']}"
        )
        connection.close()
        sim = bench_simulate(args.games, args.seed, args.workers)
        for label, data in sim.items():
            print(f"simulate {label:<9}: {data}")
        sim["speedup"] = round(sim["all_cores"]["games_per_second"] / sim["one_core"]["games_per_second"], 2)
        sim["cpu_control_speedup"] = parallel_control(args.workers)
        print(
            f"simulate speed-up on {args.workers} workers: {sim['speedup']}x; a pure CPU loop gets "
            f"{sim['cpu_control_speedup']}x on this machine right now (load average {os.getloadavg()[0]:.1f})"
        )
    finally:
        teardown_databases(old, verbosity=0)
    results = {"submit": submit, "simulate": sim, "cores": os.cpu_count(), "database": connection.vendor}
    out = ROOT / "tests" / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "game_bench.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
