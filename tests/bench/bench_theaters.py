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
