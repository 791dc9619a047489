"""Typed frames and the declared battle flow (issue 22): frames are slotted dataclasses, not mappings, their
JSON is the stored shape, and a battle moves only along the successors BATTLE_STAGES declares."""
from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from games.engine import GameState, RandomBot, new_game
from games.engine.battlecards.actions import ACTION_TYPES, Action
from games.engine.battlecards.book import RULES
from games.engine.battlecards.frames import (
    AIR_RAID,
    BATTLE,
    FRAME_TYPES,
    PendingSabotage,
    PendingShot,
    Phase2Mark,
    SubmarineWithdrawal,
    SupportRecord,
    frame_from_json,
)
from games.engine.battlecards.inspect import battle_frame, current_values
from games.engine.battlecards.machine import apply_legal, legal_actions
from games.engine.battlecards.phases.battle import BATTLE_STAGES
from games.engine.battlecards.setup import starter_setup
from games.engine.battlecards.view import view
from games.engine.battlefront.state import FRAME_CLASSES as BATTLEFRONT_FRAME_CLASSES
from games.engine.core.machine import RuleBook, Stage

from .helpers import battle, do, fight, ids, kinds, load, numbers, one

# Every game's frame classes: Battlecards' (games.engine.battlecards.frames) and Battlefront's.
EVERY_FRAME_CLASS = {**{f"battlecards-{k}": v for k, v in FRAME_TYPES.items()},
                     **{f"battlefront-{k}": v for k, v in BATTLEFRONT_FRAME_CLASSES.items()}}


@pytest.mark.parametrize("cls", list(EVERY_FRAME_CLASS.values()), ids=list(EVERY_FRAME_CLASS))
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


# ---- the battle's typed records: each writes the list or string stored before ------------------------
SHOT = {"seat": "axis", "enemy": "allies", "unit": "c4", "target": "c15", "type": "fire", "stage": "defend",
        "assigned": True}


@pytest.mark.parametrize(("cls", "stored"), [
    (SupportRecord, ["c2", "c4", "attack", 2, None]),
    (SupportRecord, ["c1", "c4", "attack", 2, ["ground", "sea"]]),
    (SupportRecord, ["c9", "c7", "air_defense", 1, None]),
    (SubmarineWithdrawal, ["allies", "c17"]),
    (PendingSabotage, ["allies", "c15"]),
    (Phase2Mark, "axis"),
    (Phase2Mark, "out:allies"),
    (Phase2Mark, "turn:allies"),
    (PendingShot, SHOT),
])
def test_a_battle_record_writes_back_the_json_it_was_read_from(cls, stored):
    record = cls.from_json(stored)
    assert json.dumps(record.to_json()) == json.dumps(stored)  # the same JSON types: lists, not tuples
    assert dataclasses.is_dataclass(record) and cls.__dictoffset__ == 0
    with pytest.raises(dataclasses.FrozenInstanceError):  # every record is immutable: rules replace it
        setattr(record, dataclasses.fields(record)[-1].name, None)


def test_a_battle_record_names_its_fields():
    support = SupportRecord.from_json(["c1", "c4", "attack", 2, ["ground", "sea"]])
    assert (support.supporter, support.recipient, support.mode, support.bonus, support.kinds) == (
        "c1", "c4", "attack", 2, ("ground", "sea"))
    assert SubmarineWithdrawal.from_json(["allies", "c17"]) == SubmarineWithdrawal(seat="allies",
                                                                                 submarine="c17")
    assert PendingSabotage.from_json(["allies", "c15"]) == PendingSabotage(seat="allies", unit="c15")
    assert [(m.seat, m.what) for m in map(Phase2Mark.from_json, ["axis", "out:allies", "turn:allies"])] == [
        ("axis", Phase2Mark.PASSED), ("allies", Phase2Mark.OUT_PASSED), ("allies", Phase2Mark.ACTED)]


def test_a_phase_2_mark_is_one_shared_object():
    """Marks compare by identity (the fire decision tests them often): reading, copying or pickling a mark
    gives the one mark, and a second construction of it is refused."""
    mark = Phase2Mark.of("allies", Phase2Mark.OUT_PASSED)
    assert Phase2Mark.from_json("out:allies") is mark
    assert copy.deepcopy([mark])[0] is mark and pickle.loads(pickle.dumps(mark)) is mark
    assert mark != Phase2Mark.of("allies", Phase2Mark.ACTED) and mark != Phase2Mark.of("axis", mark.what)
    with pytest.raises(ValueError, match="Phase2Mark.of"):
        Phase2Mark("allies", Phase2Mark.OUT_PASSED)
    with pytest.raises(ValueError, match="unknown phase-2 mark"):
        Phase2Mark.of("allies", "out")


def _hold_until_allies_fire_in_phase_2(st):
    while not (kinds(st) == "fire" and battle(st).phase == 2 and st.decision.seat == "allies"):
        choice = next(a for a in legal_actions(st) if a.type in ("pass", "hold"))
        apply_legal(st, choice)


def _stored_and_reloaded(st):
    """The state's stored JSON, its battle frame's stored dict, and the battle frame of the state read back
    from it (which writes exactly that JSON again)."""
    data = st.to_json()
    loaded = GameState.from_json(json.loads(json.dumps(data)), st.catalog)
    assert json.dumps(loaded.to_json()) == json.dumps(data)
    assert [a.to_json() for a in legal_actions(loaded)] == [a.to_json() for a in legal_actions(st)]
    return data, data["frames"][-1], battle_frame(loaded)


def test_a_stored_mid_battle_state_with_supports_loads_typed_records_and_writes_the_same_json():
    """Three attack/defense supports (artillery's only against its target kinds, S5) and a declared shot
    whose target was shored up in its defend window (GU1): stored as the lists written before issue 22."""
    st = load(axis={"stacks": {"ground": ["de-art", "de-inf", "de-inf", "de-tank"]}},
              allies={"stacks": {"ground": ["gb-tank", "gb-inf", "gb-inf"]}}, drawn="t-ground",
              deck=numbers(*([1] * 20)))
    fight(st)
    art, tank, enemy_tank = one(st, "de-art"), one(st, "de-tank"), one(st, "gb-tank")
    i1, i2 = ids(st, "de-inf")
    do(st, "support", unit=art, recipient=tank, mode="attack")
    do(st, "support", unit=i1, recipient=tank, mode="attack")
    do(st, "support", unit=i2, recipient=tank, mode="defense")
    do(st, "fire", unit=tank, target=enemy_tank)
    g1 = ids(st, "gb-inf")[0]
    do(st, "support", unit=g1, recipient=enemy_tank, mode="defense")
    assert kinds(st) == "defend"
    data, stored, fr = _stored_and_reloaded(st)
    assert stored["supports"] == [[art, tank, "attack", 2, ["ground", "sea"]], [i1, tank, "attack", 2, None],
                                  [i2, tank, "defense", 2, None], [g1, enemy_tank, "defense", 2, None]]
    assert stored["shot"] == {**SHOT, "unit": tank, "target": enemy_tank}
    assert fr.supports == [SupportRecord(art, tank, "attack", 2, ("ground", "sea")),
                           SupportRecord(i1, tank, "attack", 2), SupportRecord(i2, tank, "defense", 2),
                           SupportRecord(g1, enemy_tank, "defense", 2)]
    assert fr.shot == PendingShot("axis", "allies", tank, enemy_tank, "fire", "defend", assigned=True)
    values = current_values(GameState.from_json(data, st.catalog), fr)
    assert values.unit(tank) == current_values(st, battle(st)).unit(tank)


def test_a_stored_state_with_sabotage_still_to_come_loads_typed_records():
    """Two OSS units, two revealed targets (GU4 note): the first asks which, the second waits its turn."""
    st = load(axis={"stacks": {"ground": ["de-general", "de-leader", "de-tank"]}},
              allies={"stacks": {"ground": ["gb-oss", "gb-oss", "gb-tank"]}}, drawn="t-ground")
    fight(st)
    assert kinds(st) == "sabotage_target"
    oss = ids(st, "gb-oss")
    _, stored, fr = _stored_and_reloaded(st)
    assert stored["sab_queue"] == [["allies", u] for u in oss]
    assert fr.sab_queue == [PendingSabotage("allies", u) for u in oss]


def test_a_stored_state_with_a_submarine_that_may_withdraw_loads_a_typed_record():
    st = load(axis={"stacks": {"sea": ["de-carrier"]}}, allies={"stacks": {"sea": ["gb-sub"]}},
              drawn="t-sea", deck=numbers(*([1] * 20)))
    fight(st)
    _hold_until_allies_fire_in_phase_2(st)
    sub = one(st, "gb-sub")
    do(st, "fire", unit=sub, target=one(st, "de-carrier"))
    assert kinds(st) == "sub_withdraw"
    _, stored, fr = _stored_and_reloaded(st)
    assert stored["sub_wd"] == ["allies", sub] and fr.sub_wd == SubmarineWithdrawal("allies", sub)


def test_a_stored_state_with_phase_2_marks_loads_typed_records():
    """C8: the aggressor passed its own phase-2 turn, the defender acted in its own: the aggressor's
    out-of-turn A-bomb window is open (stored "axis", "turn:allies")."""
    st = load(axis={"stacks": {"air": ["de-fighter", "de-bomber"]}, "kept": ["t-a-bomb"]},
              allies={"stacks": {"air": ["gb-fighter"], "ground": ["gb-tank"]}}, drawn="t-air",
              deck=numbers(*([1] * 20)))
    fight(st)
    _hold_until_allies_fire_in_phase_2(st)
    do(st, "hold", unit=one(st, "gb-fighter"))
    assert kinds(st) == "a_bomb_window" and st.decision.seat == "axis"
    _, stored, fr = _stored_and_reloaded(st)
    assert stored["p2_passed"] == ["axis", "turn:allies"]
    assert fr.p2_passed == [Phase2Mark.of("axis", Phase2Mark.PASSED),
                            Phase2Mark.of("allies", Phase2Mark.ACTED)]
    do(st, "pass")
    assert battle(st).p2_passed[-1] is Phase2Mark.from_json("out:axis")
