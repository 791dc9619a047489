"""Watch and replay pages: a game as a spectator sees it (games.spectator_selectors.spectator_view, the
engine's public view, live through the spectator stream) and a finished game's public replay stepped
forward and back (games.spectator_selectors.game_replay_step). Neither shows anything a seat hides."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.errors import DomainError
from config.throttling import ReplayThrottle, ScopedThrottle, SpectateDelayThrottle, throttle_wait
from games import selectors, spectator_selectors
from games.game_types import get_game_type as game_type_of_name
from web import play
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
    template = "web/play/partials/replay_board.html" if is_fragment(request) else "web/play/replay.html"
    return render(request, template, context)
