"""Ratings and leaderboards (issue 25 §4): a Glicko-2 rating per player (users and bots) and game type, from
finished rated 1v1 games, each game its own rating period; a leaderboard per game type; bot calibration."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameStatus, Rating, RatingChange
from games.services import games_expire_open
from games.services.progress import save_progress
from games.services.ratings import Glicko2, game_ratings_apply, glicko2_period
from tests.games.conftest import every_seat_acts

pytestmark = pytest.mark.django_db

NEWCOMER = Glicko2()
BOT_GAME = {"opponent": {"kind": "bot", "bot": "heuristic"}}


def ratings_of(api: Any, username: str) -> dict[str, dict[str, Any]]:
    response = api(None).get(f"/api/users/{username}/ratings/")
    assert response.status_code == 200, response.json()
    assert response.json()["username"] == username
    return {r["game_type"]: r for r in response.json()["ratings"]}


def bot_ratings(api: Any) -> dict[tuple[str, str], dict[str, Any]]:
    response = api(None).get("/api/bots/ratings/")
    assert response.status_code == 200
    return {(r["bot"], r["game_type"]): r for r in response.json()}


# ------------------------------------------------------------------------------------------ the maths


def test_one_update_matches_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    1700/300 in one rating period -> 1464.06, RD 151.52, volatility 0.05999 (the paper's rounding)."""
    after = glicko2_period(
        Glicko2(rating=1500, deviation=200, volatility=0.06),
        [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


# ------------------------------------------------------------------------------------- rated games


def test_a_rated_resignation_against_a_bot_moves_both_ratings_once(create_game, api, alice):
    game = create_game(alice, rated=True, **BOT_GAME)
    assert game["rated"] is True
    every_seat_acts(api, game["id"], {"allies": alice})  # else an abort: not rated (test_rating_farming)
    assert api(alice).post(f"/api/games/{game['id']}/resign/").status_code == 200

    lost, won = glicko2_period(NEWCOMER, [(NEWCOMER, 0.0)]), glicko2_period(NEWCOMER, [(NEWCOMER, 1.0)])
    mine = ratings_of(api, "alice")["battlecards"]
    assert mine["rating"] == round(lost.rating, 2) < 1500
    assert mine["deviation"] == round(lost.deviation, 2) < 350
    assert (mine["games"], mine["wins"], mine["losses"], mine["draws"]) == (1, 0, 1, 0)
    assert mine["scale"] == "glicko2" and mine["provisional"] is True
    assert ratings_of(api, "alice")["battlefront"]["games"] == 0  # other game types untouched
    bot = bot_ratings(api)[("heuristic", "battlecards")]
    assert bot["rating"] == round(won.rating, 2) and bot["wins"] == 1

    # the game shows each seat's rating now; a second pass over the finished game changes nothing
    detail = api(alice).get(f"/api/games/{game['id']}/").json()
    assert {s["kind"]: s["rating"]["rating"] for s in detail["seats"]} == {
        "human": mine["rating"],
        "bot": bot["rating"],
    }
    change = {s["kind"]: s["rating_change"] for s in detail["seats"]}
    assert change["human"] == {
        "score": 0.0,
        "rating_before": 1500.0,
        "rating_after": mine["rating"],
        "deviation_before": 350.0,
        "deviation_after": mine["deviation"],
    }
    assert change["bot"]["score"] == 1.0 and change["bot"]["rating_after"] == bot["rating"]
    with transaction.atomic():
        stored = Game.objects.select_for_update().get(pk=game["id"])
        assert game_ratings_apply(game=stored) == []
        save_progress(stored)
    assert RatingChange.objects.filter(game_id=game["id"]).count() == 2
    assert ratings_of(api, "alice")["battlecards"] == mine


def test_two_players_rated_game_the_winner_gains_what_the_loser_loses(create_game, api, alice, bob):
    game = create_game(alice, rated=True)
    assert api(bob).post(f"/api/games/{game['id']}/join/").json()["status"] == "active"
    every_seat_acts(api, game["id"], {"allies": alice, "axis": bob})
    api(bob).post(f"/api/games/{game['id']}/resign/")
    winner, loser = ratings_of(api, "alice")["battlecards"], ratings_of(api, "bob")["battlecards"]
    assert winner["rating"] - 1500 == pytest.approx(1500 - loser["rating"], abs=0.02)
    assert (winner["wins"], loser["losses"]) == (1, 1)


def test_a_rating_the_maths_cannot_compute_never_stops_the_game_ending(create_game, api, alice, monkeypatch):
    from glicko2.exceptions import ConvergenceError

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise ConvergenceError("no convergence")

    monkeypatch.setattr("games.services.ratings.update_rating", fails)
    game = create_game(alice, rated=True, **BOT_GAME)
    every_seat_acts(api, game["id"], {"allies": alice})
    answer = api(alice).post(f"/api/games/{game['id']}/resign/")
    assert answer.status_code == 200 and answer.json()["status"] == "finished"
    assert not RatingChange.objects.exists()
    assert ratings_of(api, "alice")["battlecards"]["games"] == 0


def test_an_unrated_game_moves_no_rating(create_game, api, alice):
    game = create_game(alice, **BOT_GAME)
    assert game["rated"] is False
    finished = api(alice).post(f"/api/games/{game['id']}/resign/").json()
    assert [s["rating_change"] for s in finished["seats"]] == [None, None]
    assert not Rating.objects.exists()
    assert ratings_of(api, "alice")["battlecards"]["rating"] == 1500.0


def test_cancelled_and_expired_rated_games_are_not_rated(create_game, api, alice):
    cancelled = create_game(alice, rated=True)  # an open seat: resigning cancels it
    assert api(alice).post(f"/api/games/{cancelled['id']}/resign/").json()["end_reason"] == "unfinished"
    expired = create_game(alice, rated=True, seed=7)
    from datetime import timedelta

    assert games_expire_open(older_than=timedelta(0)) == 1
    assert Game.objects.get(pk=expired["id"]).status == GameStatus.FINISHED
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_any_end_reason_counts_a_timeout_too(create_game, api, alice, bob):
    """The hook sits where every finishing write passes (games.services.progress.save_progress): a game
    ended by another end reason (a clock's timeout) is rated the same way."""
    game = create_game(alice, rated=True)
    api(bob).post(f"/api/games/{game['id']}/join/")
    every_seat_acts(api, game["id"], {"allies": alice, "axis": bob})
    with transaction.atomic():
        stored = Game.objects.select_for_update().get(pk=game["id"])
        stored.status, stored.winner, stored.end_reason = GameStatus.FINISHED, "axis", "timeout"
        save_progress(stored)
    assert ratings_of(api, "bob")["battlecards"]["wins"] == 1  # bob sits at axis
    assert ratings_of(api, "alice")["battlecards"]["losses"] == 1


def test_a_rated_battlefront_game_played_to_its_end_is_rated(api, alice, catalog_rows):
    """A natural end (the rules' victory) through the API: the player always takes his first legal action."""
    client = api(alice)
    body = {
        "game_type": "battlefront",
        "opponent": {"kind": "bot", "bot": "random"},
        "rated": True,
        "seed": 5,
    }
    game = client.post("/api/games/", body, format="json").json()
    for _ in range(500):
        view = client.get(f"/api/games/{game['id']}/view/").json()
        if view["status"] == "finished":
            break
        action = view["view"]["decision"]["legal_actions"][0]
        answer = client.post(
            f"/api/games/{game['id']}/actions/", {"version": view["version"], "action": action}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    finished = client.get(f"/api/games/{game['id']}/").json()
    assert finished["status"] == "finished" and finished["end_reason"] in ("victory", "draw")
    mine = ratings_of(api, "alice")["battlefront"]
    assert mine["games"] == 1 and mine["wins"] + mine["losses"] + mine["draws"] == 1
    assert ratings_of(api, "alice")["battlecards"]["games"] == 0


def test_team_games_are_not_rated(api, alice, catalog_rows):
    body = {
        "armies": {
            "axis": [{"nation": "DE", "player": "bot"}, {"nation": "DE", "player": "bot"}],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "GB", "player": "bot"}],
        },
        "rated": True,
    }
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "team_game_not_rated"


def test_ratings_of_an_unknown_user_is_404(api):
    response = api(None).get("/api/users/nobody/ratings/")
    assert response.status_code == 404 and response.json()["code"] == "unknown_user"


# -------------------------------------------------------------------------------------- leaderboard


def _rated_users(make_user, count: int) -> None:
    for n in range(count):
        user = make_user(f"player{n:02d}")
        Rating.objects.create(user=user, game_type="battlecards", rating=1400 + 10 * n, deviation=80, games=5)
    Rating.objects.create(bot="heuristic", game_type="battlecards", rating=1455, deviation=60, games=50)
    Rating.objects.create(user=make_user("newcomer"), game_type="battlefront", rating=1900, games=1)


def test_the_leaderboard_ranks_users_and_bots_best_first_page_by_page(api, make_user):
    _rated_users(make_user, 12)
    first = api(None).get("/api/leaderboards/battlecards/?page_size=5").json()
    assert first["count"] == 13  # 12 users and the bot; the battlefront player is on the other board
    rows = first["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert [r["player"] for r in rows] == ["player11", "player10", "player09", "player08", "player07"]
    assert rows[0]["rating"] == 1510.0 and rows[0]["kind"] == "human" and rows[0]["bot"] is None
    page = api(None).get("/api/leaderboards/battlecards/?page_size=5&page=2").json()["results"]
    assert [r["rank"] for r in page] == [6, 7, 8, 9, 10]
    bot = next(r for r in page if r["kind"] == "bot")
    assert (bot["bot"], bot["player"], bot["rank"]) == ("heuristic", None, 7)  # 1455: after 1460, before 1450
    assert api(None).get("/api/leaderboards/battlefront/").json()["results"][0]["player"] == "newcomer"


def test_the_leaderboard_reads_a_constant_number_of_queries(api, make_user):
    _rated_users(make_user, 12)
    counts = []
    for size in (2, 12):
        with CaptureQueriesContext(connection) as queries:
            page = api(None).get(f"/api/leaderboards/battlecards/?page_size={size}").json()
        assert len(page["results"]) == size
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 3


def test_an_unknown_game_type_has_no_leaderboard(api):
    response = api(None).get("/api/leaderboards/chess/")
    assert response.status_code == 404 and response.json()["code"] == "unknown_game_type"


def test_the_game_list_reads_seat_ratings_in_one_query(create_game, api, alice):
    def list_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert api(alice).get("/api/games/").status_code == 200
        return len(queries)

    create_game(alice, **BOT_GAME)
    one = list_queries()
    create_game(alice, seed=2, **BOT_GAME)
    create_game(alice, seed=3, **BOT_GAME)
    assert list_queries() == one


# -------------------------------------------------------------------------------------------- bots


def test_calibration_seeds_the_bot_ratings_with_rated_bot_games(api):
    before = bot_ratings(api)
    from games.models import BotKind
    from games.rating_selectors import BOT_RATED_GAME_TYPES

    assert before[("heuristic", "battlefront")]["rating"] == 1500.0
    assert "tide-of-iron" not in BOT_RATED_GAME_TYPES  # a referee: no bots, no ratings
    from games.game_types import GAME_TYPES

    # every bot a rated type offers (the search levels only where the game has a search bot: every rated
    # game type with bots has one now)
    offered = {(bot, name) for name in BOT_RATED_GAME_TYPES for bot in GAME_TYPES[name].bot_kinds}
    assert set(before) == offered and len(offered) == len(BotKind.choices) * len(BOT_RATED_GAME_TYPES)
    assert {("search-1", "battlefront"), ("search-1", "battlecards"), ("search-1", "the-war")} <= offered
    out = StringIO()
    call_command("calibrate_bot_ratings", "--game", "battlefront", "--games", "8", "--seed", "3", stdout=out)
    assert "8 rated games" in out.getvalue()
    after = bot_ratings(api)
    heuristic, random_bot = after[("heuristic", "battlefront")], after[("random", "battlefront")]
    assert heuristic["games"] == random_bot["games"] == 8
    assert heuristic["rating"] > 1500 > random_bot["rating"]
    assert heuristic["deviation"] < 350
    assert after[("heuristic", "battlecards")]["games"] == 0
    board = api(None).get("/api/leaderboards/battlefront/").json()["results"]
    assert [r["bot"] for r in board] == ["heuristic", "random"]
    # --reset starts over from a newcomer's rating: the same run gives the same ratings
    call_command("calibrate_bot_ratings", "--game", "battlefront", "--games", "8", "--seed", "3", "--reset",
                 stdout=StringIO())
    assert bot_ratings(api)[("heuristic", "battlefront")] == heuristic


def test_the_client_guide_lists_every_rated_game_type_and_only_those():
    """The guide's ratings section names the game types a rating exists for (The War's were left out)."""
    import re
    from pathlib import Path

    from games.game_types import GAME_TYPES
    from games.rating_selectors import RATED_GAME_TYPES

    guide = (Path(__file__).parents[2] / "docs" / "client-guide.md").read_text()
    section = guide.split("### 14. Ratings and leaderboards", 1)[1].strip().split("\n\n", 1)[0]
    listed = re.search(r"per (?:rated )?game type \(([^:)]*)", section).group(1)
    assert sorted(re.findall(r"`([a-z-]+)`", listed)) == sorted(RATED_GAME_TYPES)
    unrated = set(GAME_TYPES) - set(RATED_GAME_TYPES)
    assert unrated and all(f"`{name}`" in section and "not rated" in section for name in unrated)
