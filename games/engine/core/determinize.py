"""Dealing the unseen cards of a sampled state (the determinizers of core.search): what a seat's view
does not show, drawn from the search bot's own RNG (seeded from its salt) into the hidden zones.

A game's determinizer decides what is unseen (its prior deck list minus the cards the view shows) and which
hidden zones the unseen codes fill; these helpers do the drawing, the same way for every game, so the same
salt gives the same sampled states."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence


def unseen_codes(deck: Sequence[str], shown: Iterable[str], rng: random.Random, *, size: int = 0,
                 refill: Sequence[str] | None = None) -> list[str]:
    """The codes of `deck` (one a copy) the view does not show, shuffled with `rng`: each shown code takes
    one copy out, the rest keep `deck`'s order before the shuffle. When fewer than `size` are left (more
    cards than the prior allows), codes of `refill` (else of `deck`), drawn at random, make up the rest."""
    out = Counter(shown)
    pool = []
    for code in deck:
        if out[code] > 0:
            out[code] -= 1
        else:
            pool.append(code)
    rng.shuffle(pool)
    spare = deck if refill is None else refill
    while len(pool) < size:
        pool.append(spare[rng.randrange(len(spare))])
    return pool


def take_known(pool: list[str], codes: Iterable[str], limit: int) -> list[str]:
    """The codes known to be in one hidden zone (a hand a scout looked at), taken out of `pool` in their
    order, at most `limit` of them, those the pool holds."""
    taken: list[str] = []
    for code in codes:
        if len(taken) < limit and code in pool:
            pool.remove(code)
            taken.append(code)
    return taken


def deal(pool: Sequence[str], sizes: Mapping[str, int | None]) -> dict[str, list[str]]:
    """`pool` dealt in order into the zones of `sizes`, each its number of codes (None: every code left)."""
    zones: dict[str, list[str]] = {}
    at = 0
    for zone, n in sizes.items():
        end = len(pool) if n is None else at + n
        zones[zone] = list(pool[at:end])
        at = end
    return zones


__all__ = ["deal", "take_known", "unseen_codes"]
