"""The War with ratings and takebacks (issue 25 on the game of issue 24; GameType.live_play): a rated game
between two users ends and moves both ratings; a takeback asked and accepted restores the state before the
undone action, which replays identically; a takeback that would hide again cards the asking seat was shown
is refused. Every answer a seat receives goes through tests.games.conftest.TheWarOracle."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from games.engine import the_war as tw
from games.models import Game, GameAction, RatingChange
from games.rating_selectors import RATED_GAME_TYPES
from games.selectors import state_digest
from games.services import game_rebuild_state
from games.services.ratings import Glicko2, glicko2_period
from tests.games.conftest import TheWarOracle
from tests.games.test_ratings import ratings_of
from tests.games.test_takebacks import Table, find_takeback, stored_state
from tests.games.test_the_war_api import SMALL, create_war, drive_to_the_end, war_deck

pytestmark = pytest.mark.django_db


class WarTable(Table):
    """tests.games.test_takebacks.Table for The War, reading its deprecated `view.legal_actions` (issue 37:
    kept for one release, the same list as `view.decision.legal_actions`)."""

    def act(self, seat: str, pick: Any = None) -> dict[str, Any]:
        view = self.view(seat)
        legal = view["view"]["legal_actions"]
        action = pick(legal) if pick is not None else legal[0]
        response = self.call(seat, "POST", "actions/", {"version": view["version"], "action": action})
        assert response.status_code == 200, response.json()
        return action


def two_users_game(api: Any, alice: Any, bob: Any, **overrides: Any) -> str:
    created = create_war(api(alice), my_deck={"deck_id": war_deck(alice, SMALL).pk}, options={"casual": True},
                         **overrides)
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    joined = api(bob).post(f"/api/games/{gid}/join/", {"deck": {"deck_id": war_deck(bob, SMALL).pk}},
                           format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    return gid


# ------------------------------------------------------------------------------------------- ratings


def test_a_rated_the_war_game_between_two_users_ends_and_moves_both_ratings(api, alice, bob):
    assert "the-war" in RATED_GAME_TYPES
    gid = two_users_game(api, alice, bob, rated=True)
    assert api(alice).get(f"/api/games/{gid}/").json()["rated"] is True
    drive_to_the_end(game_id=gid, clients={"p1": api(alice), "p2": api(bob)})
    game = Game.objects.get(pk=gid)
    assert game.status == "finished" and game.winner in ("p1", "p2")
    winner, loser = ("alice", "bob") if game.winner == "p1" else ("bob", "alice")

    won, lost = ratings_of(api, winner)["the-war"], ratings_of(api, loser)["the-war"]
    newcomer = Glicko2()
    assert won["rating"] == round(glicko2_period(newcomer, [(newcomer, 1.0)]).rating, 2) > 1500
    assert lost["rating"] == round(glicko2_period(newcomer, [(newcomer, 0.0)]).rating, 2) < 1500
    assert (won["games"], won["wins"], lost["games"], lost["losses"]) == (1, 1, 1, 1)
    assert won["rating"] - 1500 == pytest.approx(1500 - lost["rating"], abs=0.02)
    assert ratings_of(api, "alice")["battlecards"]["games"] == 0  # the other game types untouched

    detail = api(bob).get(f"/api/games/{gid}/").json()
    change = {s["player"]: s["rating_change"] for s in detail["seats"]}
    assert change[winner]["score"] == 1.0 and change[winner]["rating_after"] == won["rating"]
    assert change[loser]["score"] == 0.0 and change[loser]["rating_before"] == 1500.0
    assert RatingChange.objects.filter(game_id=gid).count() == 2


def test_an_unrated_the_war_game_moves_no_rating(api, alice, bob):
    gid = two_users_game(api, alice, bob)
    assert api(alice).post(f"/api/games/{gid}/resign/").json()["status"] == "finished"
    assert ratings_of(api, "bob")["the-war"]["games"] == 0 and not RatingChange.objects.exists()


# ----------------------------------------------------------------------------------------- takebacks


def test_an_accepted_the_war_takeback_restores_the_state_before_and_replays_identically(api, alice, bob):
    gid = two_users_game(api, alice, bob)
    table = WarTable(api, gid, {"p1": alice, "p2": bob}, TheWarOracle(gid))
    seat, before, after, action, asked = find_takeback(table, prefer="play_resource")
    other = tw.OTHER[seat]
    assert asked.json()["pending"]["requested_by"] == seat and stored_state(gid) == after
    answered = table.answer(other, True)
    assert answered.status_code == 200, answered.json()
    game = Game.objects.get(pk=gid)
    assert game.state == before and game.current_seat == seat
    assert game_rebuild_state(game=game).to_json() == game.state  # the replay of the actions in effect
    assert action in table.view(seat)["view"]["legal_actions"]  # the undone action is offered again
    kinds = list(GameAction.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds[-3:] == ["action", "takeback", "takeback"]  # append-only

    table.act(seat, lambda legal: action)  # the same action again: the same state
    assert stored_state(gid) == after
    assert table.call(other, "POST", "resign/").status_code == 200
    replay = table.call(seat, "GET", "replay/").json()
    final = tw.replay(table.oracle.state.catalog, tw.GameSetup.from_json(replay["setup"]), replay["actions"])
    assert state_digest(final.to_json()) == replay["final_state_sha256"]
    out = io.StringIO()
    call_command("verify_games", gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    assert table.checked > 0


def test_a_bot_accepts_a_the_war_takeback_with_the_option_but_never_one_hiding_drawn_cards_again(api, alice):
    created = create_war(api(alice), my_deck={"deck_id": war_deck(alice, SMALL).pk},
                         opponent_deck={"deck_id": war_deck(alice, SMALL).pk},
                         opponent={"kind": "bot", "bot": "heuristic"},
                         options={"casual": True, "bots_accept_takebacks": True})
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    table = WarTable(api, gid, {"p1": alice}, TheWarOracle(gid))
    assert table.call("p1", "GET", "takeback/").json()["bots_accept_takebacks"] is True

    _seat, before, _after, action, asked = find_takeback(table, prefer="play_resource")
    assert stored_state(gid) == before  # the bot accepted in the request
    assert [e["by_bot"] for e in asked.json()["entries"]] == [False, True]
    table.act("p1", lambda legal: action)

    # end the turn: the bot plays its turn, then p1 draws two cards it had never seen
    for _ in range(100):
        view = table.view("p1")["view"]
        if view["decision"]["kind"] == "end_of_turn":
            break
        table.act("p1", lambda legal: next((a for a in legal if a["type"] in ("done", "keep")), legal[0]))
    else:
        pytest.fail("p1 never reached the end of its turn")
    hand = {c["id"] for c in view["hand"]}
    table.act("p1", lambda legal: {"type": "done", "seat": "p1"})
    shown = table.view("p1")["view"]
    if shown["status"] == "finished":
        pytest.skip("the game ended before p1 drew again")
    assert {c["id"] for c in shown["hand"]} - hand, "p1 drew new cards"
    after = stored_state(gid)
    refused = table.ask("p1")
    assert refused.status_code == 409, refused.json()
    body = refused.json()
    assert body["code"] == "takeback_reveals_hidden_information" and body["reason"] == "card"
    assert stored_state(gid) == after  # nothing undone: the drawn cards stay drawn
