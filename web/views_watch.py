"""Watch and replay pages: a game as a spectator sees it (games.spectator_selectors.spectator_view, the
engine's public view, live through the spectator stream) and a finished game's public replay stepped
forward and back (games.spectator_selectors.game_replay_step). Neither shows anything a seat hides."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from config.errors import DomainError
from config.throttling import ReplayThrottle, ScopedThrottle, SpectateDelayThrottle, throttle_wait
from games import analysis_selectors, selectors, spectator_selectors
from games.game_types import get_game_type as game_type_of_name
from games.services.analysis import game_analysis_request
from web import analysis, play
from web.pages import error_page, is_fragment, page


def _throttled(request: HttpRequest, throttle: ScopedThrottle) -> HttpResponse | None:
    """The site's twin of the API's throttles: the error page (or fragment) in 429 with Retry-After when
    the request's scope is used up, else None."""
    wait = throttle_wait(request, throttle)
    if wait is None:
        return None
    error = DomainError(
        f"Too many requests: try again in {wait} seconds.", code="throttled", status=429, retry_after=wait
    )
    response = error_page(request, error)
    response["Retry-After"] = str(wait)
    return response


def _public_context(payload: dict, entries: list[dict]) -> dict:
    names = play.card_names(payload)
    who = play.side_names(payload.get("players") or [])
    codes = play.log_strings(entries) - set(names)
    code_names = selectors.game_card_names(game_id=payload["game"], codes=codes)
    return {
        "end": play.end_words(payload, who) if payload.get("status") == "finished" or payload.get("winner")
        or payload.get("end_reason") else "",
        "game_label": game_type_of_name(payload["game_type"]).label,
        "public_board_template": game_type_of_name(payload["game_type"]).public_board_template,
        "payload": payload,
        "names": names,
        "zones": play.zones(payload),
        "log": play.log_lines(entries, play.log_names(entries, names, code_names), who=who)[:60],
        "faces": {
            code: play.face_url(code, definition, payload["game_type"])
            for code, definition in payload["cards"].items()
        },
    }


class _WatchPageThrottle(SpectateDelayThrottle):
    def get_cache_key(self, request, view) -> str | None:
        return ScopedThrottle.get_cache_key(self, request, view)  # with or without ?delay=


@page
def game_watch(request: HttpRequest, game_id) -> HttpResponse:
    # a page loaded counts as a spectator view of its own (each may be a new engine state to build); the
    # fragments the spectator stream asks for follow the one delay of the game (kept per process)
    if not is_fragment(request) and (refused := _throttled(request, _WatchPageThrottle())):
        return refused
    payload = spectator_selectors.spectator_view(game_id=game_id, user=request.user)
    events = spectator_selectors.spectator_events(game_id=game_id, user=request.user, since=0)
    context = _public_context(payload, [e for e in events["entries"] if e["seq"] <= payload["seq"]])
    template = "web/play/partials/watch_board.html" if is_fragment(request) else "web/play/watch.html"
    return render(request, template, context)


@page
def game_replay(request: HttpRequest, game_id) -> HttpResponse:
    if refused := _throttled(request, ReplayThrottle()):  # each step is an engine state to build
        return refused
    try:  # ?ply=N: the position after the first N plies in effect (?step=N, the older name, still works)
        step = int(request.GET.get("ply", request.GET.get("step", "0")))
    except ValueError:
        step = 0
    payload = spectator_selectors.game_replay_step(game_id=game_id, user=request.user, step=step)
    context = _public_context(payload, payload["entries"])
    if not is_fragment(request):
        context.update(_analysis_context(request, game_id, step=payload["step"]))
    template = "web/play/partials/replay_board.html" if is_fragment(request) else "web/play/replay.html"
    return render(request, template, context)


def _analysis_context(request: HttpRequest, game_id, *, step: int) -> dict:
    """The replay page's analysis (web.analysis draws it): what the API's GET shows this reader."""
    page_data = analysis_selectors.game_analysis_page(game_id=game_id, user=request.user)
    shown = page_data["analysis"]
    graph = None
    if shown["status"] != "none":
        graph = analysis.graph_context(shown, seats=page_data["seats"], players=page_data["players"],
                                       winner=page_data["winner"], step=step)
    return {"game_id": game_id, "step": step, "available": shown["available"], "graph": graph}


@require_http_methods(["GET", "POST"])
@page
def game_analysis(request: HttpRequest, game_id) -> HttpResponse:
    """GET: the analysis part of the replay page (polled while the analysis runs). POST: ask for it
    (games.services.analysis: a player, or anyone who may watch the game), then back to the replay."""
    if request.method == "POST":
        if not request.user.is_authenticated:  # the login page, then back to the replay
            return redirect_to_login(reverse("web:game-replay", args=[game_id]))
        game_analysis_request(game_id=game_id, user=request.user)
        try:
            ply = int(request.POST.get("ply", "0"))
        except ValueError:
            ply = 0
        return redirect(f"{reverse('web:game-replay', args=[game_id])}?ply={ply}")
    try:
        ply = int(request.GET.get("ply", "0"))
    except ValueError:
        ply = 0
    return render(request, "web/play/partials/analysis.html", _analysis_context(request, game_id, step=ply))
