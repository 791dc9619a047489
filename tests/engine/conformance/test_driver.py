"""The conformance checks bite: Battlefront (the quickest game) with one planted defect at a time is caught
under the property that names it, and the real Battlefront passes every property with the same seeds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games.engine.core.errors import IllegalAction
from games.game_types import Battlefront

from .adapters import ADAPTERS, Adapter
from .driver import PROPERTIES, play

SEEDS = (0, 1)


class PeekingView(Battlefront):
    """A seat's view shows the opponent's hand."""

    def view(self, state: Any, seat: str) -> dict[str, Any]:
        out = super().view(state, seat)
        out["opponent"]["hand"] = sorted(state.hands[self.other_seat(seat)])
        return out


class LossyJson(Battlefront):
    """Reading a state back loses the order of the deck (its top card goes to the bottom)."""

    def state_from_json(self, data: Any, catalog: Any) -> Any:
        state = super().state_from_json(data, catalog)
        state.deck = state.deck[-1:] + state.deck[:-1]
        return state


class KeyOrderedJson(Battlefront):
    """A state read back keeps the stored order of the "hands" object's keys (its hash does not see it), and
    the next action follows it (as Tide of Iron's draw follows its decks' key order)."""

    def state_from_json(self, data: Any, catalog: Any) -> Any:
        state = super().state_from_json(data, catalog)
        state.hands = {seat: state.hands[seat] for seat in data["hands"]}
        return state

    def apply(self, state: Any, action: Any) -> list[Any]:
        if list(state.hands) != list(self.seats) and action in self.legal_actions(state):
            state.deck[-2:] = state.deck[-2:][::-1]
        return super().apply(state, action)


class DirtyRefusal(Battlefront):
    """An illegal action is refused, but only after it changed the state."""

    def apply(self, state: Any, action: Any) -> list[Any]:
        if action not in self.legal_actions(state):
            state.turn += 1
            raise IllegalAction("refused")
        return super().apply(state, action)


class RootLegalActions(Battlefront):
    """The legal actions beside the decision instead of under it (The War's view before issue 37)."""

    def view(self, state: Any, seat: str) -> dict[str, Any]:
        out = super().view(state, seat)
        if out["decision"] and "legal_actions" in out["decision"]:
            out["legal_actions"] = out["decision"].pop("legal_actions")
        return out


class FloatInView(Battlefront):
    """A float in a view: orjson (the games service's view encoder) writes some floats unlike DRF."""

    def view(self, state: Any, seat: str) -> dict[str, Any]:
        return {**super().view(state, seat), "odds": 1e-07}


class UndeclaredPrompt(Battlefront):
    """A deploy prompt with a field its engine does not declare."""

    def view(self, state: Any, seat: str) -> dict[str, Any]:
        out = super().view(state, seat)
        if out["decision"] and "prompt" in out["decision"]:
            out["decision"]["prompt"] = {**out["decision"]["prompt"], "deck_order": []}
        return out


@dataclass(frozen=True)
class Planted(Adapter):
    kind: type[Battlefront] = Battlefront

    @property
    def game_type(self) -> Any:
        return self.kind()


def run(kind: type[Battlefront]) -> dict[str, list[str]]:
    base = ADAPTERS["battlefront"]
    adapter = Planted(**{**vars(base), "kind": kind})
    found: dict[str, list[str]] = {p: [] for p in PROPERTIES}
    for seed in SEEDS:
        for prop, messages in play(adapter, "random", seed, check_every=1).failures.items():
            found[prop] += messages
    return found


def failing(found: dict[str, list[str]]) -> set[str]:
    return {prop for prop, messages in found.items() if messages}


def test_the_real_game_passes_every_property_with_these_seeds():
    assert failing(run(Battlefront)) == set()


@pytest.mark.parametrize(("kind", "caught"), [
    (PeekingView, {"view_invariance"}),
    (LossyJson, {"round_trip", "replay"}),
    (KeyOrderedJson, {"round_trip", "replay"}),
    (DirtyRefusal, {"illegal"}),
    (RootLegalActions, {"view_shape"}),
    (UndeclaredPrompt, {"view_shape"}),
    (FloatInView, {"json_types"}),
])
def test_a_planted_defect_is_caught_under_its_property(kind, caught):
    found = run(kind)
    assert caught <= failing(found), found
    assert failing(found) - caught <= {"round_trip_views"}, found  # a lossy state shows in its views too

