"""Every theater plays: a 1v1 game in the Pacific (US v Japan) and on the Eastern Front (Russia v Germany
East Front) is created through POST /api/games/ and played to the end through the API, with the
hidden-information oracle on every response (tests.games.test_full_games.drive_to_the_end)."""

from __future__ import annotations

import pytest

from config.errors import ValidationFailed
from games import engine
from games.decks_glue import check_theater_playable
from games.models import Game, GameAction
from games.services import game_rebuild_state
from tests.games.test_full_games import drive_to_the_end

# (theater, my starter, the bot's starter, the deck's victory points): alice plays the allies in the Pacific
# and the axis on the Eastern Front, so both seats' views are checked.
THEATERS = [("PAC", "us-starter", "jp-starter", 72), ("EF", "de-ef-starter", "ru-starter", 74)]


@pytest.mark.django_db
@pytest.mark.parametrize(("theater", "mine", "theirs", "total_vp"), THEATERS)
def test_a_game_in_every_theater_plays_to_the_end_through_the_api(
    create_game, api, alice, theater, mine, theirs, total_vp
):
    game = create_game(
        alice,
        my_deck={"starter": mine},
        opponent_deck={"starter": theirs},
        opponent={"kind": "bot", "bot": "heuristic"},
        seed=1941,
        # a Pacific game lasts 45 to 400 turns in self-play (the termination guard's default): the theater's
        # decks, threshold and a game to its end show within 40 turns, after which it ends on points
        options={"max_turns": 40},
    )
    gid, seat = game["id"], game["my_seat"]
    assert game["status"] == "active"
    row = Game.objects.get(pk=gid)
    conflict = row.setup["conflict_deck"]
    assert len(conflict) == 50 and all(code.startswith(theater.lower() + "-") for code in conflict)
    view = api(alice).get(f"/api/games/{gid}/view/").json()["view"]
    assert view["victory_threshold"] == total_vp // 2  # exactly half the deck's victory points

    counts = drive_to_the_end(game_id=gid, clients={seat: api(alice)}, bots={seat: engine.HeuristicBot()})
    row.refresh_from_db()
    assert row.status == "finished"
    if not row.winner:  # a draw on points (the row stores "" for no winner)
        assert len(set(row.state["result"]["points"].values())) == 1, row.state["result"]
        assert row.end_reason == "draw"
    else:
        assert row.winner in ("axis", "allies") and row.end_reason == "victory"
    assert counts["actions"] == GameAction.objects.filter(game=row, kind="action", seat=seat).count()
    assert row.turn >= 2 and counts["actions"] >= 10, counts
    assert game_rebuild_state(game=row).to_json() == row.state


def test_a_conflict_deck_without_battlecards_is_still_refused_with_a_clear_4xx(catalog):
    """Anything still unplayable (a conflict deck no battle can be fought from) stays a 400."""
    no_battles = [c for c in catalog.conflict_deck("PAC") if c not in catalog.battlecards]
    with pytest.raises(ValidationFailed) as caught:
        check_theater_playable(catalog=catalog, theater="PAC", conflict_deck=no_battles)
    assert caught.value.code == "theater_not_playable" and caught.value.status == 400
    check_theater_playable(catalog=catalog, theater="PAC", conflict_deck=catalog.conflict_deck("PAC"))
