"""Issue 39: Tide of Iron's table (web.toi_table), on the referee's own views: every hex choice is a target
on the grid posting one legal action as listed, a page of at most 12 live at a time; the reports offer exactly
the values the referee takes (and the referee refuses what they do not offer); the card buttons fold into a
select when there are many. No database: the views are the engine's."""

from __future__ import annotations

import json

import pytest

from games.engine import tide_of_iron as toi
from games.game_types import get_game_type
from tests.engine.tide_of_iron.conftest import ScriptedDice, act, catalog, give
from web.toi_table import CARD_BUTTONS, PAGE, toi_table

NAMES = {"toi-sustained-blanket": "Sustained Blanket"}
WHO = {"allies": "you", "axis": "bob"}


def _table(st: toi.TideOfIronState) -> dict:
    seat = st.decision.seat
    reports = dict(get_game_type("tide-of-iron").reports)
    return toi_table({"view": toi.view(st, seat)}, NAMES, WHO, reports)


def _at_the_target(width: int, height: int, revision: int) -> toi.TideOfIronState:
    options = {"scenario": "toi-scenario-all-decks", "board_width": width, "board_height": height}
    setup = toi.GameSetup.from_json({"seed": 7, "options": options, "revision": revision})
    st = toi.new_game(catalog(), setup)
    give(st, "allies", "toi-sustained-blanket")
    act(st, "allies", "report_command", points="9")
    rng, st.rng = st.rng, ScriptedDice(6)  # contact made
    act(st, "allies", "activate", card="toi-sustained-blanket")
    st.rng = rng
    return st


def _posted(table: dict) -> dict[str, dict]:
    return {a["form"]: json.loads(a["json"]) for a in table["actions"]}


def test_the_column_then_the_row_are_targets_of_the_legal_actions_a_page_at_a_time():
    st = _at_the_target(24, 18, toi.RULES_REVISION)
    table = _table(st)
    grid, posted = table["grid"], _posted(table)
    assert table["kind"] == "target_column" and table["buttons"] == [] and table["reports"] == []
    assert [posted[t["form"]] for t in grid["targets"]] == [a.to_json() for a in toi.legal_actions(st)]
    assert [t["label"] for t in grid["targets"][:2]] == ["Column 0", "Column 1"]
    assert len(grid["targets"][0]["polygons"]) == 9  # column 0: a full hex in the even rows only
    assert len(grid["targets"][5]["polygons"]) == 18
    assert [p["label"] for p in grid["pages"]] == ["Columns 0 to 11", "Columns 12 to 23"]
    assert all(sum(t["page"] == p for t in grid["targets"]) <= PAGE for p in range(2))
    assert len(grid["cells"]) == 24 * 9 + 23 * 9 + 2 * 9  # the full hexes and the half hexes at the edges

    act(st, "allies", "target_column", column="0")
    table = _table(st)
    grid, posted = table["grid"], _posted(table)
    assert [posted[t["form"]] for t in grid["targets"]] == [a.to_json() for a in toi.legal_actions(st)]
    assert [t["label"] for t in grid["targets"][:2]] == ["Hex 0,0 (row 0)", "Hex 0,2 (row 2)"]
    assert [p["label"] for p in grid["pages"]] == ["Rows 0 to 16"]  # 9 rows: one page


def test_a_stored_matchs_one_step_target_pages_every_hex():
    st = _at_the_target(24, 18, toi.LEGACY_REVISION)
    grid = _table(st)["grid"]
    assert st.decision.kind == "target" and len(grid["targets"]) == 423
    assert len(grid["pages"]) == 36 and grid["pages"][0]["label"] == "Hexes 0,0 to 11,0"
    assert all(len(t["polygons"]) == 1 for t in grid["targets"])


def test_the_report_forms_offer_exactly_what_the_referee_takes():
    st = toi.new_game(catalog(), toi.GameSetup(seed=3, options=toi.Options(board_width=5, board_height=3)))
    table = _table(st)
    forms = {r["type"]: {f["name"]: f for f in r["fields"]} for r in table["reports"]}
    assert set(forms) == {"report_command", "place_unit", "set_cover"}  # no unit to remove yet
    assert forms["place_unit"]["hex"]["choices"] == [h.name for h in toi.Board(5, 3).hexes()]
    assert forms["place_unit"]["side"]["choices"] == ["axis", "allies"]
    assert forms["place_unit"]["kind"]["choices"] == ["squad", "vehicle"]
    assert forms["place_unit"]["officer"]["choices"] == ["no", "yes"]
    assert forms["place_unit"]["unit"]["widget"] == "text"  # a label the players give
    assert (forms["report_command"]["points"]["widget"], forms["report_command"]["points"]["min"],
            forms["report_command"]["points"]["max"]) == ("number", 0, 99)
    assert (forms["set_cover"]["cover"]["min"], forms["set_cover"]["cover"]["max"]) == (0, 9)
    seat = st.decision.seat
    for bad in ({"type": "set_cover", "hex": "0,1", "cover": "1"},  # a half hex: not offered, refused
                {"type": "set_cover", "hex": "1,1", "cover": "10"},
                {"type": "place_unit", "unit": "A", "hex": "1,1", "side": "allies", "kind": "tank"}):
        with pytest.raises(toi.IllegalAction):
            toi.apply(st, {**bad, "seat": seat})
    toi.apply(st, {"type": "place_unit", "seat": seat, "unit": "A1", "hex": "1,1", "side": "allies",
                   "kind": "squad", "officer": "yes"})
    forms = {r["type"]: {f["name"]: f for f in r["fields"]} for r in _table(st)["reports"]}
    assert forms["remove_unit"]["unit"]["choices"] == ["A1"]
    cells = {c["x"] + "/" + c["y"]: c for c in _table(st)["grid"]["cells"] if c["units"]}
    assert [c["units"] for c in cells.values()] == [[{"label": "A1", "side": "allies", "kind": "squad"}]]


def test_the_act_decision_folds_many_cards_into_one_select_and_ends_the_match_by_a_select():
    options = toi.Options(scenario="toi-scenario-all-decks")
    st = toi.new_game(catalog(), toi.GameSetup(seed=3, options=options))
    seat = st.decision.seat
    table = _table(st)
    assert [a["label"] for a in table["buttons"]][-2:] == ["Pass the turn", "End the phase"]
    assert [a["label"] for a in table["ends"]] == ["bob won (axis)", "you won (allies)", "A draw"]
    hq = list(dict.fromkeys(st.hq[seat]))
    for code in [c for cards in st.decks[seat].values() for c in cards][: 2 * CARD_BUTTONS]:
        give(st, seat, code)
    act(st, seat, "report_command", points="99")
    table = _table(st)
    playable = [a for a in toi.legal_actions(st) if a.type in ("activate", "retry_contact")]
    assert len(playable) > CARD_BUTTONS, (hq, playable)
    assert [json.loads(a["json"]) for a in table["cards"]] == [a.to_json() for a in playable]
    assert len(table["buttons"]) == 2
