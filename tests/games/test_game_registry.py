"""The Django side of the one registry (issue 35 §1): each game's definition is registered under the id the
pure registry knows, the apps ask it (not a table of their own), and the old id of The War still reads."""
from __future__ import annotations

import pytest

from config.errors import ValidationFailed
from games.engine import registry
from games.game_types import GAME_TYPES, GameType, get_game_type, register_game_type


def test_every_game_has_one_definition_under_its_registry_id():
    assert list(GAME_TYPES) == registry.ids()
    for game_id, definition in GAME_TYPES.items():
        spec = registry.get(game_id)
        assert definition.name == game_id
        assert (definition.label, definition.seats) == (spec.label, spec.seats)
        assert definition.engine is spec.engine
        assert definition.bots_available == spec.engine.has_bots


def test_the_old_id_of_the_war_reads_as_the_one_id_and_an_unknown_one_is_a_400():
    assert get_game_type("the_war") is GAME_TYPES["the-war"]
    with pytest.raises(ValidationFailed) as err:
        get_game_type("the war")
    assert err.value.code == "unknown_game_type"


def test_a_definition_under_an_id_the_pure_registry_does_not_know_or_an_alias_is_refused():
    class Nameless(GameType):
        name = "chess"

    class Alias(GameType):
        name = "the_war"

    with pytest.raises(Exception, match="unknown game 'chess'"):
        register_game_type(Nameless())
    with pytest.raises(ValueError, match="alias"):
        register_game_type(Alias())
    assert "chess" not in GAME_TYPES and "the_war" not in GAME_TYPES


def test_the_play_page_reads_its_board_controls_and_reports_from_the_definition():
    from web import play

    toi = GAME_TYPES["tide-of-iron"]
    assert toi.board_template == "web/play/partials/board_tide-of-iron.html"
    assert set(toi.reports) == {"report_command", "place_unit", "remove_unit", "set_cover"}
    assert GAME_TYPES["battlecards"].board_template is None
    assert play.control_for("the-war", "pay") == GAME_TYPES["the-war"].controls["pay"]
    assert play.control_for("battlefront", "no_such_kind") == "No such kind"
