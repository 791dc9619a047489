"""Watch and replay pages: a game as a spectator sees it (games.spectator_selectors.spectator_view, the
engine's public view, live through the spectator stream) and a finished game's public replay stepped
forward and back (games.spectator_selectors.game_replay_step). Neither shows anything a seat hides."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import spectator_selectors
from games.game_types import get_game_type as game_type_of_name
from web import play
from web.pages import is_fragment, page


def _public_context(payload: dict, entries: list[dict]) -> dict:
    names = play.card_names(payload)
    return {
        "game_label": game_type_of_name(payload["game_type"]).label,
        "payload": payload,
        "names": names,
        "zones": play.zones(payload),
        "log": play.log_lines(entries, names)[:60],
        "faces": {
            code: play.face_url(code, definition, payload["game_type"])
            for code, definition in payload["cards"].items()
        },
    }


@page
def game_watch(request: HttpRequest, game_id) -> HttpResponse:
    payload = spectator_selectors.spectator_view(game_id=game_id, user=request.user)
    events = spectator_selectors.spectator_events(game_id=game_id, user=request.user, since=0)
    context = _public_context(payload, [e for e in events["entries"] if e["seq"] <= payload["seq"]])
    template = "web/play/partials/watch_board.html" if is_fragment(request) else "web/play/watch.html"
    return render(request, template, context)


@page
def game_replay(request: HttpRequest, game_id) -> HttpResponse:
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    payload = spectator_selectors.game_replay_step(game_id=game_id, user=request.user, step=step)
    context = _public_context(payload, payload["entries"])
    template = "web/play/partials/replay_board.html" if is_fragment(request) else "web/play/replay.html"
    return render(request, template, context)
