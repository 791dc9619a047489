"""Benchmark: Battlefront self-play on one core (engine games, event logging off).

    .venv/bin/python tests/bench/battlefront_bench.py [--games 1000] [--speed-games 1000] [--seed 0]
        [--two-front] [--blitzkrieg west|east] [--specials DE,US] [--json] [--profile /tmp/bf.prof]

Prints
  * random-vs-random games per second per core (one process; wall and process CPU time), actions per game;
  * the heuristic bot's win rate against the random bot over --games seeded games (seed + i), the
    heuristic bot seated west in even games and east in odd ones, with its 95 % Wilson interval (the issue
    asks >= 80 %);
  * the first player's win rate (the seat that won turn 1's coin flip and deployed first) over the random
    and the heuristic-vs-heuristic games, each with its 95 % Wilson interval (draws count as not won).
Nothing is asserted: rerun to measure (`make bench` runs it with the other benchmarks).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import battlefront as bf  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def run(catalog, options, games: int, seed: int, make_bots) -> dict:
    plies = 0
    finished = 0
    first_wins = 0
    draws = 0
    seat_wins = dict.fromkeys(bf.SEATS, 0)
    kinds: dict[str, int] = {}
    turns = 0
    states = []
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        st = bf.play_game(catalog, bf.GameSetup(seed + i, options), make_bots(i))
        states.append((i, st.winner, st.result))
        plies += st.ply
        turns += st.turn
        finished += st.status == "finished"
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for _i, winner, result in states:
        first_wins += winner is not None and winner == result["first_player"]
        draws += winner is None
        if winner is not None:
            seat_wins[winner] += 1
        kinds[result["kind"]] = kinds.get(result["kind"], 0) + 1
    lo, hi = wilson(first_wins, games)
    return {"games": games, "finished": finished, "games_s_wall": games / wall, "games_s_cpu": games / cpu,
            "actions_s_cpu": plies / cpu, "actions_per_game": plies / max(games, 1),
            "turns_per_game": turns / max(games, 1), "draws": draws, "seat_wins": seat_wins, "kinds": kinds,
            "first_player_win_rate": first_wins / max(games, 1), "first_player_wilson95": [lo, hi],
            "winners": [w for _i, w, _r in states]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="heuristic v random (and h v h) games")
    parser.add_argument("--speed-games", type=int, default=1000, help="random v random games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--two-front", action="store_true", help="optional 2-front victory conditions")
    parser.add_argument("--blitzkrieg", choices=bf.SEATS, help="optional Blitzkrieg rules: the attacker")
    parser.add_argument("--specials", help="optional Special cards: WEST,EAST nationalities, e.g. DE,US")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--profile", help="write a cProfile of the random games to this file and stop")
    args, _ = parser.parse_known_args()
    specials = None
    if args.specials:
        west, east = args.specials.split(",")
        specials = {"west": west, "east": east}
    options = bf.Options(two_front_victory=args.two_front, blitzkrieg_attacker=args.blitzkrieg,
                         special_cards=specials)
    catalog = bf.load_cards()

    def random_bots(i):
        return {"west": bf.RandomBot(f"w{i}"), "east": bf.RandomBot(f"e{i}")}

    if args.profile:
        import cProfile

        cProfile.runctx("run(catalog, options, args.speed_games, args.seed, random_bots)", globals(),
                        {**locals(), "run": run}, args.profile)
        print(f"profile written to {args.profile}")
        return 0

    def match_bots(i):
        h = bf.SEATS[i % 2]
        return {h: bf.HeuristicBot(catalog, salt=f"h{i}"), bf.SEATS[1 - i % 2]: bf.RandomBot(f"r{i}")}

    def heuristic_bots(i):
        return {s: bf.HeuristicBot(catalog, salt=f"{s}{i}") for s in bf.SEATS}

    rnd = run(catalog, options, args.speed_games, args.seed, random_bots)
    match = run(catalog, options, args.games, args.seed, match_bots)
    h_wins = sum(1 for i, w in enumerate(match["winners"]) if w == bf.SEATS[i % 2])
    h_draws = sum(1 for w in match["winners"] if w is None)
    hh = run(catalog, options, args.games, args.seed, heuristic_bots)
    out = {
        "options": options.to_json(),
        "random_v_random": {k: v for k, v in rnd.items() if k != "winners"},
        "heuristic_v_random": {"games": args.games, "heuristic_wins": h_wins, "draws": h_draws,
                               "win_rate": h_wins / max(args.games, 1),
                               "wilson95": list(wilson(h_wins, args.games)),
                               "games_s_cpu": match["games_s_cpu"]},
        "heuristic_v_heuristic": {k: v for k, v in hh.items() if k != "winners"},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    r, m = out["random_v_random"], out["heuristic_v_random"]
    print(f"Battlefront options: {json.dumps(out['options'])}")
    print(f"random v random: {r['games']} games, {r['games_s_cpu']:.0f} games/s per core (CPU), "
          f"{r['games_s_wall']:.0f} games/s wall, {r['actions_s_cpu']:.0f} actions/s, "
          f"{r['actions_per_game']:.1f} actions and {r['turns_per_game']:.1f} turns per game; "
          f"endings {r['kinds']}")
    print(f"heuristic v random: {m['heuristic_wins']}/{m['games']} won = {m['win_rate']:.1%} "
          f"(95% Wilson {m['wilson95'][0]:.1%}-{m['wilson95'][1]:.1%}), {m['draws']} draws, seats alternated")
    for name, res in (("random v random", r), ("heuristic v heuristic", out["heuristic_v_heuristic"])):
        lo, hi = res["first_player_wilson95"]
        print(f"first player ({name}): won {res['first_player_win_rate']:.1%} of {res['games']} "
              f"(95% Wilson {lo:.1%}-{hi:.1%}), {res['draws']} draws")
    return 0


if __name__ == "__main__":
    sys.exit(main())
