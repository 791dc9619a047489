"""Ratings cannot be farmed (issue 34, finding 3): a game that ends before every seat acted is an abort and
rates nothing; in a rated game bots never accept a takeback (people who agree still may); of the rated games
between the same two players only GAMES_RATED_PAIR_LIMIT a window count; a rated game that ends `unfinished`
rates nothing though both seats are filled."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import EndReason, Game, GameAction, GameStatus, RatingChange
from games.services.progress import save_progress
from tests.games.conftest import OTHER, HiddenInfoOracle, every_seat_acts, game_body
from tests.games.test_ratings import BOT_GAME, bot_ratings, ratings_of
from tests.games.test_takebacks import Table, events_of, find_takeback, stored_state

pytestmark = pytest.mark.django_db


def rated_pair_game(create_game: Any, api: Any, alice: Any, bob: Any) -> str:
    """A rated game of alice (allies) against bob (axis), active, nobody has acted yet."""
    game = create_game(alice, rated=True)
    assert api(bob).post(f"/api/games/{game['id']}/join/").json()["status"] == "active"
    return game["id"]


def resign(api: Any, user: Any, game_id: str) -> dict[str, Any]:
    answer = api(user).post(f"/api/games/{game_id}/resign/")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["end_reason"] == "resignation"
    return answer.json()


def rating_changes(finished: dict[str, Any]) -> list[Any]:
    return [seat["rating_change"] for seat in finished["seats"]]


# ---------------------------------------------------------------------------------------------- aborts


def test_resigning_before_both_sides_acted_rates_nothing(create_game, api, alice, bob):
    """The issue's farm: a second account resigning at ply 0 moved a rating 1500 -> 1889 in 20 games."""
    for _ in range(3):
        finished = resign(api, bob, rated_pair_game(create_game, api, alice, bob))
        assert finished["winner"] == "allies" and rating_changes(finished) == [None, None]
    assert ratings_of(api, "alice")["battlecards"]["rating"] == 1500.0
    assert ratings_of(api, "alice")["battlecards"]["games"] == 0

    # one side acted, the other never did: still an abort, whoever resigns
    game_id = rated_pair_game(create_game, api, alice, bob)
    mover = Game.objects.get(pk=game_id).current_seat
    table = Table(api, game_id, {"allies": alice, "axis": bob}, HiddenInfoOracle(game_id))
    while table.mover() == mover:
        table.act(mover)
    assert rating_changes(resign(api, {"allies": alice, "axis": bob}[mover], game_id)) == [None, None]
    assert not RatingChange.objects.exists()

    # once each side has acted the game counts
    game_id = rated_pair_game(create_game, api, alice, bob)
    every_seat_acts(api, game_id, {"allies": alice, "axis": bob})
    assert None not in rating_changes(resign(api, bob, game_id))
    assert ratings_of(api, "alice")["battlecards"]["games"] == 1


def test_resigning_at_once_against_a_bot_does_not_pump_the_bot(create_game, api, alice):
    for seed in (1, 2, 3):
        game = create_game(alice, rated=True, seed=seed, **BOT_GAME)
        assert rating_changes(resign(api, alice, game["id"])) == [None, None]
    assert bot_ratings(api)[("heuristic", "battlecards")]["games"] == 0


def test_an_action_taken_back_no_longer_counts_as_acting(create_game, api, alice, bob):
    """The seat that moves second deploys once, takes it back (the first mover agrees) and resigns: it never
    acted in the game as it stands, so nothing is rated."""
    game_id = rated_pair_game(create_game, api, alice, bob)
    users = {"allies": alice, "axis": bob}
    table = Table(api, game_id, users, HiddenInfoOracle(game_id))
    first = table.mover()
    while table.mover() == first:
        table.act(first)
    second = OTHER[first]
    before = stored_state(game_id)
    table.act(second, lambda legal: next((a for a in legal if a["type"] == "deploy"), legal[0]))
    asked = table.ask(second)
    assert asked.status_code == 200, asked.json()
    assert table.answer(first, True).status_code == 200
    assert stored_state(game_id) == before
    assert rating_changes(resign(api, users[second], game_id)) == [None, None]
    assert not RatingChange.objects.exists()


# ------------------------------------------------------------------------------------------- takebacks


def test_a_rated_game_cannot_let_bots_accept_takebacks(create_game, api, alice):
    body = game_body(rated=True, options={"bots_accept_takebacks": True}, **BOT_GAME)
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400, response.json()
    refused = response.json()
    assert (refused["code"], refused["option"]) == ("invalid_options", "bots_accept_takebacks")
    assert not Game.objects.exists()
    # unrated, the option stays the player's to choose
    assert create_game(alice, options={"bots_accept_takebacks": True}, **BOT_GAME)["rated"] is False


def test_a_bot_declines_every_takeback_in_a_rated_game_whatever_its_options(create_game, api, alice):
    """A rated game stored with bots_accept_takebacks (created before the option was refused with `rated`):
    the bot declines all the same (the issue: 23 takebacks in one rated game against a bot)."""
    game = create_game(alice, rated=True, opponent={"kind": "bot", "bot": "random"})
    Game.objects.filter(pk=game["id"]).update(options={"bots_accept_takebacks": True})
    table = Table(api, game["id"], {"allies": alice}, HiddenInfoOracle(game["id"]))
    assert table.call("allies", "GET", "takeback/").json()["bots_accept_takebacks"] is False
    _seat, _before, after, _action, asked = find_takeback(table, prefer="deploy")
    assert events_of(asked.json()["entries"], "takeback_declined")
    assert not events_of(asked.json()["entries"], "takeback")
    assert stored_state(table.gid) == after
    assert not GameAction.objects.filter(game_id=game["id"], action__type="takeback").exists()


def test_people_who_agree_take_back_in_a_rated_game_and_it_is_still_rated(create_game, api, alice, bob):
    game_id = rated_pair_game(create_game, api, alice, bob)
    users = {"allies": alice, "axis": bob}
    table = Table(api, game_id, users, HiddenInfoOracle(game_id))
    seat, before, _after, _action, _asked = find_takeback(table, prefer="deploy")
    assert table.answer(OTHER[seat], True).status_code == 200
    assert stored_state(game_id) == before
    every_seat_acts(api, game_id, users)
    finished = resign(api, alice, game_id)
    assert None not in rating_changes(finished)
    assert ratings_of(api, "bob")["battlecards"]["wins"] == 1


# ------------------------------------------------------------------------------------------ pair limit


def play_rated_pair_game(create_game: Any, api: Any, alice: Any, bob: Any) -> list[Any]:
    game_id = rated_pair_game(create_game, api, alice, bob)
    every_seat_acts(api, game_id, {"allies": alice, "axis": bob})
    return rating_changes(resign(api, bob, game_id))


def test_the_pair_limit_counts_the_first_games_of_a_window_and_rates_none_after(
    create_game, api, alice, bob, carol, settings
):
    settings.GAMES_RATED_PAIR_LIMIT = 2
    for _ in range(2):  # up to the limit: rated
        assert None not in play_rated_pair_game(create_game, api, alice, bob)
    rated = ratings_of(api, "alice")["battlecards"]
    assert rated["games"] == 2
    assert play_rated_pair_game(create_game, api, alice, bob) == [None, None]  # one past it: not rated
    assert ratings_of(api, "alice")["battlecards"] == rated
    # another pair is counted on its own
    assert None not in play_rated_pair_game(create_game, api, alice, carol)
    # once the window has passed over the first games, the pair's games count again
    window = timedelta(hours=settings.GAMES_RATED_PAIR_WINDOW_HOURS)
    RatingChange.objects.update(created_at=timezone.now() - window - timedelta(minutes=1))
    assert None not in play_rated_pair_game(create_game, api, alice, bob)
    assert ratings_of(api, "bob")["battlecards"]["games"] == 3


def test_the_default_pair_limit_holds_for_a_user_and_a_bot(create_game, api, alice, settings):
    """A user cannot pump (or sink) a bot past the documented default: 5 rated games a pair in 24 hours."""
    assert (settings.GAMES_RATED_PAIR_LIMIT, settings.GAMES_RATED_PAIR_WINDOW_HOURS) == (5, 24.0)
    changes = []
    for seed in range(6):
        game = create_game(alice, rated=True, seed=seed, **BOT_GAME)
        every_seat_acts(api, game["id"], {"allies": alice})
        changes.append(rating_changes(resign(api, alice, game["id"])))
    assert [None in c for c in changes] == [False] * 5 + [True]
    assert bot_ratings(api)[("heuristic", "battlecards")]["games"] == 5


def test_the_pair_limit_can_be_turned_off(create_game, api, alice, bob, settings):
    settings.GAMES_RATED_PAIR_LIMIT = 0
    for _ in range(2):
        assert None not in play_rated_pair_game(create_game, api, alice, bob)
    assert ratings_of(api, "alice")["battlecards"]["games"] == 2


# ------------------------------------------------------------------------------------------ unfinished


def test_a_rated_game_ending_unfinished_with_both_seats_filled_is_not_rated(create_game, api, alice, bob):
    """Both seats taken and both sides have acted: only the end reason keeps it from being rated (the older
    test of cancelled games passed because a seat was empty)."""
    game_id = rated_pair_game(create_game, api, alice, bob)
    every_seat_acts(api, game_id, {"allies": alice, "axis": bob})
    with transaction.atomic():
        stored = Game.objects.select_for_update().get(pk=game_id)
        assert all(seat.user_id for seat in stored.seats.all())
        stored.status, stored.winner, stored.end_reason = GameStatus.FINISHED, "", EndReason.UNFINISHED
        save_progress(stored)
    assert not RatingChange.objects.exists()
    assert ratings_of(api, "alice")["battlecards"]["games"] == 0
    assert rating_changes(api(alice).get(f"/api/games/{game_id}/").json()) == [None, None]


def test_losing_on_time_before_both_sides_acted_rates_nothing(create_game, api, alice, bob):
    game_id = rated_pair_game(create_game, api, alice, bob)
    with transaction.atomic():
        stored = Game.objects.select_for_update().get(pk=game_id)
        stored.status, stored.winner, stored.end_reason = GameStatus.FINISHED, "axis", EndReason.TIMEOUT
        save_progress(stored)
    assert not RatingChange.objects.exists()
    assert ratings_of(api, "bob")["battlecards"]["games"] == 0
