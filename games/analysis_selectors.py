"""Reads of a finished game's analysis (issue 41): what GET /api/games/{id}/analysis/ and the replay page
show.

Who may read it: whoever may read the game's replay (games.selectors.game_replay: a finished game that was
played is public), 409 game_not_finished before the end. What they see: no more than that replay shows them.
The plies (each side's chance, the moves: the played action and the preferred one, which may name a card
that stayed in a hand) only to readers who get the whole replay (games.selectors.replay_is_whole: a player,
or anyone when both decks were public or starters). The others get `moves_shown` false and no plies, only
the progress: an estimate is computed from the deciding seat's hand, so even a bare number would tell a
stranger something of a private deck that the public replay keeps from him.
"""

from __future__ import annotations

from typing import Any

from config.errors import Conflict, NotFound
from games.engine.core import analysis as core_analysis
from games.engine.core.search import LEVELS
from games.game_types import game_type_of
from games.models import GameAnalysis, GameStatus
from games.selectors import game_get, replay_is_whole, replay_seats


def analysis_available(*, game_type: Any) -> bool:
    """The game type offers an analysis: its registered engine offers the search bots, i.e. it has a
    determinizer (games.engine.core.engine.ModuleEngine.bot_kinds), whatever the game."""
    return any(kind in LEVELS for kind in game_type.bot_kinds)


def analysis_payload(analysis: GameAnalysis | None, *, game: Any, whole: bool) -> dict[str, Any]:
    """The analysis as a reader sees it (`whole`: he may see the moves); status "none" when there is none."""
    base = {
        "game": str(game.pk),
        "available": analysis_available(game_type=game_type_of(game)),
        "moves_shown": whole,
        "flag_margin": core_analysis.FLAG_MARGIN,
        "flag_min_visits": core_analysis.FLAG_MIN_VISITS,
    }
    if analysis is None:
        return {**base, "status": "none", "iterations": None, "plies_total": None, "plies_done": 0,
                "error": "", "created_at": None, "finished_at": None, "plies": []}
    plies = list(analysis.plies or []) if whole else []
    return {
        **base,
        "status": analysis.status,
        "iterations": analysis.iterations,
        "plies_total": analysis.plies_total,
        "plies_done": analysis.plies_done,
        "error": analysis.error,
        "created_at": analysis.created_at.isoformat(),
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
        "plies": plies,
    }


def game_analysis_get(*, game_id: Any, user: Any) -> dict[str, Any]:
    """The game's analysis as `user` may see it (status "none" before anyone asked for one). 404 for a game
    he may not see, 409 game_not_finished before the end."""
    return game_analysis_page(game_id=game_id, user=user)["analysis"]


def game_analysis_page(*, game_id: Any, user: Any) -> dict[str, Any]:
    """What the site's replay page draws the analysis with: the analysis (game_analysis_get), the game's
    seats in order, who played them (as the replay names them) and the winner."""
    game = game_get(game_id=game_id, user=user)
    if game.status != GameStatus.FINISHED:
        raise Conflict("A game is analysed once it has ended.", code="game_not_finished")
    analysis = GameAnalysis.objects.filter(game_id=game.pk).first()
    kind = game_type_of(game)
    return {
        "analysis": analysis_payload(analysis, game=game, whole=replay_is_whole(game=game, user=user)),
        "seats": list(kind.seats),
        "players": replay_seats(game, user=user),
        "winner": game.winner or None,
    }


def analysis_of(*, analysis_id: Any) -> GameAnalysis:
    analysis = GameAnalysis.objects.filter(pk=analysis_id).first()
    if analysis is None:
        raise NotFound("No such analysis.", code="analysis_not_found")
    return analysis
