"""The theater a benchmark plays (`--theater WE|PAC|EF`, default $BENCH_THEATER or WE): its two starter
decks and its starter conflict deck. `tests/bench/run_all.py --theater PAC` sets $BENCH_THEATER for every
benchmark that plays games."""
from __future__ import annotations

import argparse
import os

THEATERS = ("WE", "PAC", "EF")
# theater -> (allies starter, axis starter)
STARTERS = {"WE": ("gb-we-starter", "de-we-starter"), "PAC": ("us-starter", "jp-starter"),
            "EF": ("ru-starter", "de-ef-starter")}


def add_theater_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--theater", choices=THEATERS, default=os.environ.get("BENCH_THEATER") or "WE",
                        help="Theater whose starter decks and conflict deck are played (default: WE, or "
                             "$BENCH_THEATER).")


def bench_starters() -> tuple[str, str]:
    """(allies starter, axis starter) of $BENCH_THEATER (default WE), for benchmarks that take no
    --theater option of their own (run_all.py --theater sets it)."""
    return STARTERS[os.environ.get("BENCH_THEATER") or "WE"]


def add_team_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--team", default=os.environ.get("BENCH_TEAM") or None, metavar="AXIS:ALLIES",
                        help="Play a team / uneven / combined game instead of the theater's 1v1, e.g. "
                             "DE,DE:GB,GB (default: $BENCH_TEAM, else none).")


def bench_setup(catalog, seed: int, theater: str = "WE", team: str | None = None):
    """The set-up a benchmark game plays: the theater's starters, or a team game (engine.team_setup)."""
    from games.engine.battlecards.setup import starter_setup, team_setup

    if not team:
        return starter_setup(catalog, seed, theater=theater)
    axis, _, allies = team.partition(":")
    return team_setup(catalog, seed, axis=[a for a in axis.split(",") if a],
                      allies=[a for a in allies.split(",") if a])


def bots_for(setup, make) -> dict:
    """One bot per army of `setup`: make(side, army) -> bot."""
    return {army: make(army.split("-")[0], army) for army in setup.armies}
