"""Players and games to watch: a leaderboard per game type (as GET /api/leaderboards/{game_type}/), a player's
page (GET /api/users/{username}/ratings/ and .../games/) and the live games one may watch (GET
/api/games/live/). Each reads the selector its API reads and shows what that endpoint gives this user."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import rating_selectors, selectors, spectator_selectors
from games.game_types import get_game_type
from games.rating_serializers import LeaderboardEntrySerializer, RatingSerializer
from games.serializers import GameSerializer
from web import play
from web.pages import page, paginate

RECENT_GAMES = 20
BOARD_SIZE = 50


def _game_types() -> list[dict]:
    return [{"code": name, "label": get_game_type(name).label} for name in rating_selectors.RATED_GAME_TYPES]


def _game_row(game: dict) -> dict:
    """A game of a list in words: its type, who sat where (with ratings and a rated game's change), the
    end."""
    names = play.side_names(game["seats"], my_seat=game.get("my_seat"))
    return {
        "id": game["id"],
        "label": get_game_type(game["game_type"]).label,
        "seats": play.seat_rows(game["seats"], my_seat=game.get("my_seat")),
        "end": play.end_words({"winner": game["winner"], "end_reason": game["end_reason"]}, names)
        if game["status"] == "finished" else "",
        "finished_at": game.get("finished_at"),
        "started_at": game.get("started_at"),
        "spectators": game["spectators"],
        "rated": game["rated"],
    }


def leaderboard_default(request: HttpRequest) -> HttpResponse:
    return redirect("web:leaderboard", game_type=rating_selectors.RATED_GAME_TYPES[0])


@page
def leaderboard(request: HttpRequest, game_type: str) -> HttpResponse:
    board = rating_selectors.rating_leaderboard(game_type=game_type)  # 404 unknown_game_type
    page_obj = paginate(request, board, size=BOARD_SIZE)
    first = (page_obj.number - 1) * BOARD_SIZE + 1
    for place, row in enumerate(page_obj.object_list):
        row.rank = first + place
    rows = LeaderboardEntrySerializer(page_obj.object_list, many=True).data
    return render(
        request,
        "web/players/leaderboard.html",
        {"rows": rows, "page_obj": page_obj, "game_type": game_type,
         "game_label": get_game_type(game_type).label, "game_types": _game_types()},
    )


@page
def player(request: HttpRequest, username: str) -> HttpResponse:
    user, ratings = rating_selectors.ratings_of_user(username=username)  # 404 unknown_user
    games = selectors.player_finished_games(username=username)[:RECENT_GAMES]
    data = GameSerializer(games, many=True, context={"request": request, "spectators": {}}).data
    return render(
        request,
        "web/players/player.html",
        {
            "player": user.get_username(),
            "ratings": [
                r | {"label": get_game_type(r["game_type"]).label, "shown": play.rating_text(r)}
                for r in RatingSerializer(ratings, many=True).data
            ],
            "games": [_game_row(game) for game in data],
        },
    )


@login_required
@page
def watch_list(request: HttpRequest) -> HttpResponse:
    games = paginate(request, spectator_selectors.watchable_games(user=request.user), size=BOARD_SIZE)
    counts = spectator_selectors.spectator_counts(game_ids=[game.pk for game in games.object_list])
    context = {"request": request, "spectators": counts}
    data = GameSerializer(games.object_list, many=True, context=context).data
    return render(
        request, "web/players/watch_list.html", {"games": [_game_row(g) for g in data], "page_obj": games}
    )
