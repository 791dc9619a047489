"""Every key of the card data vocabulary has one behaviour in the engine (effects registry)."""
from __future__ import annotations

from games.engine import DECISION_KINDS  # noqa: F401  (imports every rule module, so the registry is full)
from games.engine.battlecards.behaviour import (
    ABILITIES,
    BATTLE_WINDOW,
    EFFECTS,
    PHASE_2,
    RESPONSE,
    SCORCHED,
    TURN_START,
    V2,
)
from vocabulary.battlecards import ABILITY_SCHEMA, CONFLICT_EFFECTS

WINDOWS = {TURN_START, RESPONSE, BATTLE_WINDOW, PHASE_2, V2, SCORCHED}


def test_every_conflict_effect_of_the_data_has_exactly_one_behaviour():
    assert set(EFFECTS) == set(CONFLICT_EFFECTS), set(EFFECTS) ^ set(CONFLICT_EFFECTS)


def test_every_unit_ability_of_the_data_has_a_behaviour():
    assert set(ABILITIES) == set(ABILITY_SCHEMA), set(ABILITIES) ^ set(ABILITY_SCHEMA)
    assert all(callable(home) for a in ABILITIES.values() for home in a.homes)


def test_a_kept_card_has_a_play_window_and_any_other_card_resolves_when_drawn():
    for key, effect in EFFECTS.items():
        assert set(effect.windows) <= WINDOWS, key
        if effect.kept:
            assert effect.windows and effect.on_draw is None, key
        elif key != "battlecard-list":  # set aside face up at set-up, never drawn
            assert effect.on_draw is not None and not effect.windows, key
