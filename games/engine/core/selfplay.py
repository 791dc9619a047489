"""Self-play: bots playing a game to the end through a RuleBook, with the benchmark fast paths.

The fast paths (each checked against its reference path at every ply by tests/engine/test_fast_paths.py):
* an index-picking bot (`pickers[seat]`: n -> index, the same index the bot's `choose` would pick among n
  legal actions) gets only its chosen key built (`RuleBook.legal_key_at`);
* a bot that reads only the ply gets the legal actions materialised one at a time (`LazyActions`);
* any other bot gets `view_for(state, seat)` (a game may hand a lazily built view).
An action handed out from the legal list is applied without re-validation; anything else goes through apply.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .machine import RuleBook
from .rng import MASK64


def random_pick(state: Any, base: int, first_seat: bool) -> Callable[[int], int]:
    """n -> rng.hashed_index(base, state.ply, first_seat, n), inlined (this runs once per action)."""
    mask = MASK64

    def pick(n: int) -> int:
        z = (base + (state.ply * 2 + first_seat) * 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return (z ^ (z >> 31)) % n

    return pick


class LazyActions(Sequence):
    """The legal actions, materialised one at a time (for bots that pick by index)."""

    __slots__ = ("_keys", "_make", "handed")

    def __init__(self, keys: list[tuple], make: Callable[[tuple], Any]) -> None:
        self._keys = keys
        self._make = make
        self.handed: list[Any] = []

    def __len__(self) -> int:
        return len(self._keys)

    def __getitem__(self, i):  # type: ignore[override]
        make = self._make
        if isinstance(i, slice):
            out = [make(k) for k in self._keys[i]]
            self.handed.extend(out)
            return out
        action = make(self._keys[i])
        self.handed.append(action)
        return action


def play(book: RuleBook, state: Any, bots: dict[str, Any], *, pickers: dict[str, Callable[[int], int]],
         view_for: Mapping[str, Callable[[Any, str], Any]], max_plies: int, log: list | None) -> Any:
    """Let `bots` play `state` to the end (or max_plies); `log`, if given, receives each action's JSON."""
    legal_key_at, materialize, apply_legal = book.legal_key_at, book.materialize, book.apply_legal
    actions = book._actions
    needs_view = {seat: getattr(bot, "needs_view", True) for seat, bot in bots.items()}
    while state.decision is not None and state.ply < max_plies:
        seat = state.decision.seat
        pick = pickers.get(seat)
        if pick is not None:
            key = legal_key_at(state, pick)
            action = actions.get(key) or materialize(key)
            if log is not None:
                log.append(action.to_json())
            apply_legal(state, action)
            continue
        bot = bots[seat]
        if needs_view[seat]:
            legal: Sequence[Any] = book.legal_actions(state)
            action = bot.choose(view_for[seat](state, seat), legal, seat)
            handed = legal
        else:  # the bot reads only the ply and picks one action: build just that one
            lazy = LazyActions(book.legal_keys(state), materialize)
            action = bot.choose({"ply": state.ply, "seat": seat}, lazy, seat)
            handed = lazy.handed
        if log is not None:
            log.append(action.to_json())
        for a in handed:
            if a is action:
                apply_legal(state, action)
                break
        else:
            book.apply(state, action)
    return state


def replay(book: RuleBook, state: Any, actions_json: list[dict[str, Any]]) -> Any:
    """Apply a logged game's actions (JSON) to its freshly set-up state, each one checked."""
    for data in actions_json:
        book.apply(state, data)
    return state
