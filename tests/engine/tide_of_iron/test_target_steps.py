"""Issue 36 item 10: the target hex is chosen in two small steps, the column then the row (24 + 18 choices on
the default 24x18 board instead of 423 hexes), so that a 60x60 board's view stays small; a match stored
before (revision 1) keeps its one-step target and its log replays."""

from __future__ import annotations

import json

import pytest

from games.engine import tide_of_iron as toi
from tests.engine.tide_of_iron.conftest import ScriptedDice, act, catalog, give, types


def _at_the_target(setup: toi.GameSetup) -> toi.TideOfIronState:
    st = toi.new_game(catalog(), setup)
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="9")
    rng, st.rng = st.rng, ScriptedDice(6)  # contact made
    act(st, "allies", "activate", card="toi-sustained-blanket")
    st.rng = rng
    return st


def _setup(width: int = 24, height: int = 18, **extra) -> toi.GameSetup:
    options = {"scenario": "toi-scenario-all-decks", "board_width": width, "board_height": height}
    return toi.GameSetup.from_json({"seed": 7, "options": options, **extra})


def test_the_target_is_a_column_then_a_row_on_the_default_board():
    st = _at_the_target(_setup(revision=toi.RULES_REVISION))
    assert st.decision.kind == "target_column"
    columns = toi.legal_keys(st)
    assert columns == [("target_column", "allies", str(c)) for c in range(24)]
    assert act(st, "allies", "target_column", column="0") == []  # nothing is placed yet
    assert st.decision.kind == "target_row" and st.decision.prompt["column"] == 0
    # column 0 is a half hex in odd rows: only the even rows are offered
    assert toi.legal_keys(st) == [("target_row", "allies", str(r)) for r in range(0, 18, 2)]
    with pytest.raises(toi.IllegalAction) as refused:
        act(st, "allies", "target_row", row="3")
    assert refused.value.code == "not_a_board_hex"
    events = act(st, "allies", "target_row", row="4")
    assert types(events) == ["target_placed"] and events[0].data["hex"] == "0,4"
    assert st.decision.kind == "los" and st.pending.target == "0,4"


def test_every_full_hex_is_reachable_in_two_steps_and_nothing_else():
    st = _at_the_target(_setup(width=5, height=4, revision=toi.RULES_REVISION))
    reached = set()
    for _, _, column in toi.legal_keys(st):
        trial = toi.TideOfIronState.from_json(st.to_json(), st.catalog)
        act(trial, "allies", "target_column", column=column)
        reached |= {f"{column},{row}" for (_, _, row) in toi.legal_keys(trial)}
    assert reached == {h.name for h in toi.Board(5, 4).hexes()}


def test_the_60_by_60_view_at_the_target_stays_small():
    st = _at_the_target(_setup(width=60, height=60, revision=toi.RULES_REVISION))
    for step in ("target_column", "target_row"):
        assert st.decision.kind == step
        assert len(toi.legal_keys(st)) <= 60
        assert len(json.dumps(toi.view(st, "allies"))) < 8_000  # 192,801 bytes with every hex listed
        legal = toi.view(st, "allies")["decision"]["legal_actions"]
        toi.apply(st, legal[len(legal) // 2])


def test_the_choice_between_the_steps_survives_a_reload_and_a_hex_in_one_step_is_still_taken():
    st = _at_the_target(_setup(revision=toi.RULES_REVISION))
    act(st, "allies", "target_column", column="6")
    reloaded = toi.TideOfIronState.from_json(json.loads(json.dumps(st.to_json())), st.catalog)
    assert reloaded.decision.kind == "target_row" and reloaded == st
    one_step = _at_the_target(_setup(revision=toi.RULES_REVISION))
    assert types(act(one_step, "allies", "target", hex="6,5")) == ["target_placed"]


def test_a_stored_match_keeps_its_one_step_target_and_its_log_replays():
    setup = _setup()  # no revision: a match stored before issue 36
    st = _at_the_target(setup)
    assert st.decision.kind == "target" and len(toi.legal_keys(st)) == 423
    assert "column" not in st.to_json()["pending"]  # the stored form of a pending activation is kept
    events = act(st, "allies", "target", hex="6,5")
    assert types(events) == ["target_placed"] and st.decision.kind == "los"
