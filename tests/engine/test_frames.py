"""Typed frames and the declared battle flow (issue 22): frames are slotted dataclasses, not mappings, their
JSON is the stored shape, and a battle moves only along the successors BATTLE_STAGES declares."""
from __future__ import annotations

import dataclasses

import pytest

from games.engine import GameState, RandomBot, new_game
from games.engine.actions import ACTION_TYPES, Action
from games.engine.battlecards.book import RULES
from games.engine.battlecards.inspect import battle_frame
from games.engine.battlecards.machine import apply_legal, legal_actions
from games.engine.battlecards.phases.battle import BATTLE_STAGES
from games.engine.core.machine import RuleBook, Stage
from games.engine.frames import AIR_RAID, BATTLE, FRAME_TYPES, frame_from_json
from games.engine.setup import starter_setup
from games.engine.view import view


@pytest.mark.parametrize("cls", list(FRAME_TYPES.values()), ids=list(FRAME_TYPES))
def test_a_frame_is_a_slotted_dataclass_and_no_mapping(cls):
    assert dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__
    assert cls.__dictoffset__ == 0  # no per-instance dict of fields
    assert not any(hasattr(cls, m) for m in ("__getitem__", "get", "setdefault"))


def test_frames_keep_their_stored_json_through_a_game(real_catalog):
    """Every frame seen in a seeded game serialises to the dict it is read back from, mid-battle included."""
    st = new_game(real_catalog, starter_setup(real_catalog, 3))
    bot = RandomBot(3)
    battles = 0
    while st.decision is not None and st.ply < 1500:
        if st.ply % 7 == 0:
            data = st.to_json()
            assert [frame_from_json(f).to_json() for f in data["frames"]] == data["frames"]
            assert GameState.from_json(data, real_catalog).to_json() == data
        battles += battle_frame(st) is not None
        apply_legal(st, bot.choose(view(st, st.decision.seat), legal_actions(st), st.decision.seat))
    assert battles


def test_battle_modes_carry_their_rounds_and_whether_they_decide_a_winner():
    """C15: an Air Raid is one round of air forces and nobody wins it; a battlecard's battle has no round
    limit and a winner takes the card."""
    assert (AIR_RAID.rounds, AIR_RAID.decides_winner, AIR_RAID.forces.kinds()) == (1, False, ("air",))
    assert (BATTLE.rounds, BATTLE.decides_winner, BATTLE.forces) == (None, True, None)


def test_the_battle_flow_reads_from_one_table():
    """Every stage is reached from the first one, and only "done" ends the battle."""
    first = next(iter(BATTLE_STAGES))
    seen, todo = {first}, [first]
    while todo:
        for nxt in BATTLE_STAGES[todo.pop()].then:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(BATTLE_STAGES)
    assert [s for s, row in BATTLE_STAGES.items() if not row.then] == ["done"]


def test_a_stage_table_is_checked_when_registered_and_on_every_move():
    book = RuleBook("t", ACTION_TYPES, Action)
    with pytest.raises(ValueError, match="undeclared"):
        book.frame("x", stages={"a": Stage(lambda st, fr: None, then=("b",))})
    fr = _Frame()
    with pytest.raises(RuntimeError, match="not a declared move"):
        RULES.move(fr, "leaders")  # a battle cannot skip from "optional" past its checks
    RULES.move(fr, "stacks")
    assert fr.stage == "stacks"


@dataclasses.dataclass
class _Frame:
    kind: str = "battle"
    stage: str = "optional"
