"""Writes of a finished game's analysis (issue 41): ask for it, run it, fail it.

One analysis per game (games.models.GameAnalysis), made once for everyone: a second request returns the
stored one (or the one under way). Who may ask: a player of the game once it has ended, or anyone signed in
who may watch it (games.spectator_selectors.spectator_may_watch: the creator allowed spectators). Bounded per
user: at most settings.GAMES_ANALYSIS_MAX_ACTIVE_PER_USER analyses he asked for are queued or running (429
analysis_quota otherwise). The job runs where the simulations run (games.analysis_runner) and writes its
progress (the plies analysed so far) every PROGRESS_SECONDS; a job that stopped (its process died) is
started again by the next request, from the ply it reached.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from config.errors import Conflict, DomainError
from games import analysis_runner
from games.analysis_selectors import analysis_available, analysis_of
from games.engine.core.analysis import PlyAnalysis, analyse_game, budget
from games.game_types import game_type_of
from games.models import ANALYSIS_ACTIVE_STATUSES, AnalysisStatus, Game, GameAnalysis, GameStatus
from games.selectors import game_actions_in_effect, game_catalog, game_get, seat_of_user
from games.spectator_selectors import spectator_may_watch

PROGRESS_SECONDS = 2.0  # a running analysis writes the plies it has analysed at most this often
SALT = "analysis"  # the search's seed is hashed from (SALT, ply, seat): the same view, the same estimate


class AnalysisQuotaExceeded(DomainError):
    status = 429
    code = "analysis_quota"
    default_detail = "You already have an analysis under way."


def _stalled(analysis: GameAnalysis) -> bool:
    stale = timedelta(seconds=int(settings.GAMES_ANALYSIS_STALE_SECONDS))
    return analysis.status in ANALYSIS_ACTIVE_STATUSES and analysis.updated_at < timezone.now() - stale


@transaction.atomic
def game_analysis_request(*, game_id: Any, user: Any) -> tuple[GameAnalysis, bool]:
    """Ask for the analysis of a finished game: (the analysis, True when a job was started now). The stored
    one, or the one under way, comes back as it is (False); a failed or stalled one is started again."""
    game = game_get(game_id=game_id, user=user)  # 404 for a game the user may not see
    if game.status != GameStatus.FINISHED:
        raise Conflict("A game is analysed once it has ended.", code="game_not_finished")
    if seat_of_user(game=game, user=user) is None:
        spectator_may_watch(game=game, seats=list(game.seats.all()), user=user)
    kind = game_type_of(game)
    if not analysis_available(game_type=kind):
        raise Conflict(f"{kind.label} has no search bot to analyse with.", code="analysis_not_available")
    Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True).first()  # one at a time
    existing = GameAnalysis.objects.filter(game_id=game.pk).first()
    if existing is not None and (
        existing.status == AnalysisStatus.DONE
        or (existing.status in ANALYSIS_ACTIVE_STATUSES and not _stalled(existing))
    ):
        return existing, False
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
    active = GameAnalysis.objects.filter(requested_by=user, status__in=ANALYSIS_ACTIVE_STATUSES)
    if existing is not None:
        active = active.exclude(pk=existing.pk)
    limit = int(settings.GAMES_ANALYSIS_MAX_ACTIVE_PER_USER)
    count = active.count()
    if count >= limit:
        raise AnalysisQuotaExceeded(
            f"You already have {count} analysis(es) queued or running (at most {limit}): wait for it to end.",
            limit=limit, actual=count,
        )
    plies_total = len(game_actions_in_effect(game=game))
    if existing is None:
        analysis = GameAnalysis.objects.create(
            game=game, requested_by=user, iterations=int(settings.GAMES_ANALYSIS_ITERATIONS),
            plies_total=plies_total,
        )
    else:  # failed or stalled: again, from the ply it reached
        analysis = existing
        analysis.status, analysis.requested_by, analysis.error = AnalysisStatus.QUEUED, user, ""
        analysis.save(update_fields=["status", "requested_by", "error", "updated_at"])
    analysis_id = analysis.pk
    transaction.on_commit(lambda: analysis_runner.dispatch(analysis_id=analysis_id))
    return analysis, True


def _claim(*, analysis_id: Any) -> GameAnalysis | None:
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status not in ANALYSIS_ACTIVE_STATUSES:
            return None
        analysis.status = AnalysisStatus.RUNNING
        analysis.save(update_fields=["status", "updated_at"])
        return analysis


def game_analysis_run(*, analysis_id: Any) -> bool:
    """Run a queued analysis to its end (False when there was nothing to run): replay the game, search each
    ply from its deciding seat's view (games.engine.core.analysis), writing the progress as it goes."""
    analysis = _claim(analysis_id=analysis_id)
    if analysis is None:
        return False
    game = Game.objects.get(pk=analysis.game_id)
    kind = game_type_of(game)
    catalog = game_catalog(game=game)
    actions = [entry[2] for entry in game_actions_in_effect(game=game)]
    plies: list[dict[str, Any]] = list(analysis.plies or [])[: len(actions)]
    determinizer = kind.engine.determinizer(catalog)  # type: ignore[attr-defined]
    if not plies:  # a new analysis: its iterations a ply, from the settings' budget (core.analysis.budget)
        analysis.iterations = budget(
            engine=kind.engine, determinizer=determinizer, state=kind.replay(catalog, game.setup, []),
            max_iterations=int(settings.GAMES_ANALYSIS_ITERATIONS),
            ply_seconds=float(settings.GAMES_ANALYSIS_PLY_SECONDS),
        )
        GameAnalysis.objects.filter(pk=analysis_id).update(iterations=analysis.iterations)
    last = time.monotonic()

    def save(**extra: Any) -> None:
        GameAnalysis.objects.filter(pk=analysis_id).update(
            plies=plies, plies_done=len(plies), updated_at=timezone.now(), **extra
        )

    def on_ply(result: PlyAnalysis) -> None:
        nonlocal last
        plies.append(result.to_json())
        if time.monotonic() - last >= PROGRESS_SECONDS:
            save()
            last = time.monotonic()

    analyse_game(
        engine=kind.engine, determinizer=determinizer,
        state=kind.replay(catalog, game.setup, []), actions=actions, iterations=analysis.iterations,
        salt=SALT, start=len(plies), on_ply=on_ply,
    )
    save(status=AnalysisStatus.DONE, plies_total=len(actions), finished_at=timezone.now())
    return True


def game_analysis_fail(*, analysis_id: Any, error: str) -> None:
    """The job stopped on an error (a bug in a game): the analysis fails with the reason; a later request
    starts it again."""
    analysis = analysis_of(analysis_id=analysis_id)
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=AnalysisStatus.FAILED, error=error[:2000], updated_at=timezone.now()
    )
