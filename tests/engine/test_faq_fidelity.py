"""Issue 12: the five places where the engine departed from the FAQ rulings, and the readings decided.

Each test quotes the ruling it enforces (the rulebook and FAQ v1.6 are the law); the estimated readings are
listed in games/engine/README.md's ruling table.
"""

from __future__ import annotations

from games.engine.battlecards.combat.stalemate import _can_hit

from .helpers import battle, fight, load, numbers, one
from .test_faq import has, hold_until


# ---- FAQ S6 and its NOTE: an aggressor's submarine ------------------------------------------------------
def test_faq_s6_an_aggressors_submarine_cannot_be_targeted_before_it_fires():
    """FAQ S6: "If the submarine is the aggressor, it may fire and retreat from battle without fear of enemy
    reprisal ... NOTE: Some people have misinterpreted the submarine special to mean that enemy subs and
    destroyers can fire at it before it fires even if the submarine in question is the aggressor. This is
    not the case." """
    st = load(
        axis={"stacks": {"sea": ["de-sub", "de-carrier"]}},
        allies={"stacks": {"sea": ["gb-destroyer", "gb-sub"]}},
        drawn="t-naval",  # the Germans are the aggressor
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 2, "allies")  # the German sub held its fire in phase 2: it has not fired
    sub = one(st, "de-sub")
    assert sub not in battle(st)["fired"]
    assert not has(st, "fire", unit=one(st, "gb-destroyer"), target=sub)
    assert not has(st, "fire", unit=one(st, "gb-sub"), target=sub)
    assert has(st, "fire", unit=one(st, "gb-destroyer"), target=one(st, "de-carrier"))


def test_faq_s6_the_defenders_submarine_stays_a_target_for_destroyers_and_subs():
    """FAQ S6: "However, if the enemy is the aggressor, the submarine is vulnerable to sub and destroyer
    attacks." """
    st = load(
        axis={"stacks": {"sea": ["de-destroyer"]}},
        allies={"stacks": {"sea": ["gb-sub"]}},
        drawn="t-naval",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    hold_until(st, 2, "axis")
    assert has(st, "fire", unit=one(st, "de-destroyer"), target=one(st, "gb-sub"))


def test_faq_s6_the_stalemate_check_leaves_an_aggressors_hidden_submarine_out_of_reach():
    """FAQ S6 NOTE: the aggressor's submarine is "immune to enemy fire ... until it fires"; the STALEMATE
    check ("If none of the units remaining on either side in a battle can hit the enemy") must agree."""
    st = load(
        axis={"stacks": {"sea": ["de-sub"]}},
        allies={"stacks": {"sea": ["gb-destroyer"]}},
        drawn="t-naval",
        deck=numbers(*([1] * 20)),
    )
    fight(st)
    fr = battle(st)
    assert not _can_hit(st, fr, "allies")  # the destroyer cannot reach the German sub before it fires
    assert _can_hit(st, fr, "axis")
