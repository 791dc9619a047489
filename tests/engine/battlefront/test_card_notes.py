"""CARD LIST: every printed note has its effect (one case per card with a note), on the real catalog."""
from __future__ import annotations

from collections import Counter

import pytest

from games.engine import battlefront as bf

from .helpers import E, W, plays, scenario

CATALOG = bf.load_cards()
NOTED = [c for c in CATALOG.cards.values() if c.notes]
# a plain card of each type (no note), to stand in as the first card of a type or as a negation target
PLAIN = {t: next(c.code for c in CATALOG.cards.values() if c.type == t and not c.notes and c.force >= 3)
         for t in bf.TYPES}
SECOND = {t: next(c.code for c in CATALOG.cards.values()
                  if c.type == t and not c.notes and c.code != PLAIN[t]) for t in bf.TYPES}


def test_card_game_for_2_players():
    """ "Card game for 2 players." """
    assert len(bf.SEATS) == 2


def test_the_card_list_has_70_cards_with_these_notes():
    """ "CARD LIST Card Name: Type Force Notes:" (the notes as structured abilities; 34 cards have one) """
    assert len(CATALOG.cards) == 70 and len(NOTED) == 34
    kinds = Counter(a.kind for c in NOTED for a in c.abilities)
    assert kinds == {"scout": 5, "extra": 18, "negate": 11}


@pytest.mark.parametrize("card", NOTED, ids=lambda c: c.code)
def test_every_note_has_its_effect(card):
    (ability,) = card.abilities
    if ability.kind == "scout":  # "Scout": playing it shows the opponent's hand
        st = scenario(CATALOG, hands={W: [card.code], E: [PLAIN["L"]]})
        events = bf.apply(st, bf.Play(W, card.code, "C"))
        assert [e.data["cards"] for e in events if e.type == "scouted_hand"] == [[PLAIN["L"]]]
    elif ability.kind == "extra":  # "Play an Extra <type>": a second card of that type at that front
        t = ability.type
        there = [card.code] + ([PLAIN[t]] if card.type != t else [])
        extra = SECOND[t] if card.type != t else PLAIN[t]
        st = scenario(CATALOG, hands={W: [extra]}, fronts={"C": {W: there}, "R": {W: [SECOND[t]]}})
        assert "C" in plays(st, extra) and "R" not in plays(st, extra)
    else:  # "Opposing <type> Negated" / "Negate Opposing <type>": that opposing card adds no Force
        target = PLAIN[ability.type]
        st = scenario(CATALOG, fronts={"C": {W: [card.code], E: [target]}})
        forces, negated = bf.front_forces(st, "C")
        assert negated[E] == [0] and forces[E] == 0 and forces[W] == card.force
