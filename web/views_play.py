"""Lobby and play: open games, create (against a bot or a person), join, and a play page per game type that
shows exactly the seat's view (games.selectors.game_player_view, as GET /api/games/{id}/view/) with the
pending decision's legal actions as buttons; actions go through games.services.game_action_submit."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cards.selectors import nation_list, theater_list
from config.errors import DomainError, ValidationFailed
from decks import selectors as deck_selectors
from games import selectors, services
from games.game_types import get_game_type
from games.models import GameStatus
from games.serializers import GameSerializer
from web import play
from web.deck_editor import starters
from web.pages import is_fragment, page

BOTS = ("heuristic", "random")
TEAM_SLOTS = 4  # armies a side (the service refuses more: too_many_armies)
TEAM_PLAYERS = (("me", "me"), ("open", "open (a person joins)"), ("bot", "a bot"))
LOG_ENTRIES = 40


def _battlecards_starters() -> list[dict]:
    return [s for s in starters() if s["game"] == "Battlecards"]


def _the_war_starters() -> list[dict]:
    from vocabulary.the_war import load_catalog

    return [{"code": code, "name": s.name} for code, s in sorted(load_catalog().starters.items())]


def _toi_scenarios() -> list[dict]:
    from cards.tide_of_iron.selectors import toi_scenario_list

    return [{"code": s.code, "title": s.title} for s in toi_scenario_list()]


def _shared_deck_options(game_type: str, post) -> dict | None:
    """The options a lobby form gives a game without decks: The War's two starters (checked again by the
    game type's deck rules), Tide of Iron's scenario; Battlefront takes none."""
    if game_type == "the-war":
        return {"decks": {seat: {"starter": post.get(f"war_{seat}") or ref["starter"]}
                          for seat, ref in get_game_type("the-war").DEFAULT_DECKS.items()}}
    if game_type == "tide-of-iron" and post.get("scenario"):
        return {"scenario": post["scenario"]}
    return None


def _common_choices(post) -> dict:
    """The lobby's choices every game type takes (the service checks each again): time control, rated,
    spectators, and the rules options typed as JSON."""
    choices: dict = {"rated": post.get("rated") == "on"}
    clock = post.get("time_control", "")
    try:
        if clock == "realtime":
            choices["time_control"] = {"kind": "realtime", "minutes": int(post.get("minutes") or 10),
                                       "increment_seconds": int(post.get("increment_seconds") or 0)}
        elif clock == "correspondence":
            choices["time_control"] = {"kind": "correspondence", "days": int(post.get("days") or 3)}
        spectators = post.get("spectators", "")
        if spectators in ("yes", "no"):
            choices["spectators"] = {"allowed": spectators == "yes",
                                     "delay": int(post.get("spectator_delay") or 0)}
    except ValueError:
        raise ValidationFailed("Minutes, seconds, days and plies are numbers.", code="invalid") from None
    text = (post.get("options") or "").strip()
    if text:
        try:
            options = json.loads(text)
        except ValueError:
            raise ValidationFailed("The game options are a JSON object.", code="invalid_options") from None
        if not isinstance(options, dict):
            raise ValidationFailed("The game options are a JSON object.", code="invalid_options")
        choices["options"] = options
    return choices


def _deck_ref(value: str) -> dict | None:
    """A deck choice of the forms: "starter:<code>" or "deck:<id>"."""
    kind, _, ref = (value or "").partition(":")
    if kind == "starter" and ref:
        return {"starter": ref}
    if kind == "deck" and ref.isdigit():
        return {"deck_id": int(ref)}
    return None


def _team_slots(post=None) -> list[dict]:
    """The team form's army slots, 1..TEAM_SLOTS a side, with what was posted (shown again after an error)."""
    post = post or {}
    return [
        {"side": side, "n": n, "nation": post.get(f"{side}_{n}_nation", ""),
         "player": post.get(f"{side}_{n}_player", "")}
        for side in ("axis", "allies")
        for n in range(1, TEAM_SLOTS + 1)
    ]


def _posted_armies(post) -> dict[str, list[dict]]:
    """The armies of the team form: a slot without a nation is empty and ignored (the service checks the
    lineup: side_without_army, teams_too_uneven, one_seat_per_player, ...)."""
    armies: dict[str, list[dict]] = {"axis": [], "allies": []}
    for slot in _team_slots(post):
        if not slot["nation"]:
            continue
        player = slot["player"] if slot["player"] in dict(TEAM_PLAYERS) else "bot"
        army = {"nation": slot["nation"], "player": player}
        if player == "bot":
            army["bot"] = post.get("team_bot") if post.get("team_bot") in BOTS else "heuristic"
        armies[slot["side"]].append(army)
    return armies


def _lobby(request: HttpRequest, *, team_error: dict | None = None, team_post=None) -> HttpResponse:
    context = {"request": request}
    joinable = GameSerializer(
        selectors.game_list(user=request.user, joinable=True)[:50], many=True, context=context
    )
    mine = GameSerializer(selectors.game_list(user=request.user)[:50], many=True, context=context)
    my_decks = deck_selectors.deck_list(user=request.user, mine=True).filter(game="battlecards")
    return render(
        request,
        "web/play/lobby.html",
        {
            "joinable": joinable.data,
            "mine": mine.data,
            "starters": _battlecards_starters(),
            "my_decks": my_decks,
            "bots": BOTS,
            "war_starters": _the_war_starters(),
            "toi_scenarios": _toi_scenarios(),
            "theaters": theater_list(),
            "nations": nation_list(),
            "team_slots": _team_slots(team_post),
            "team_players": TEAM_PLAYERS,
            "team_error": team_error,
        },
        status=team_error["status"] if team_error else 200,
    )


@login_required
@page
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request)


@login_required
@require_POST
@page
def game_new_team(request: HttpRequest) -> HttpResponse:
    """A Battlecards team or uneven game from the lobby's army slots, through the API's service
    (games.services.game_create_armies); a refused lineup is the lobby again with the reason at the form."""
    try:
        game = services.game_create_armies(user=request.user, armies=_posted_armies(request.POST))
    except DomainError as error:
        if error.status != 400:
            raise
        return _lobby(request, team_error=error.as_dict(), team_post=request.POST)
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
@page
def game_new(request: HttpRequest) -> HttpResponse:
    post = request.POST
    game_type = post.get("game_type", "battlecards")
    opponent = (
        {"kind": "bot", "bot": post.get("bot", "heuristic")}
        if post.get("opponent") == "bot"
        else {"kind": "human"}
    )
    if not get_game_type(game_type).bots_available:
        opponent = {"kind": "human"}  # Tide of Iron referees two people at one physical board
    choices = _common_choices(post)
    if not get_game_type(game_type).uses_decks:
        options = _shared_deck_options(game_type, post)
        if options is not None or "options" in choices:
            choices["options"] = (options or {}) | choices.get("options", {})
        game = services.game_create(user=request.user, game_type=game_type, opponent=opponent, **choices)
    else:
        my_deck = _deck_ref(post.get("my_deck", ""))
        if my_deck is None:
            raise ValidationFailed("Choose your deck.", code="invalid")
        game = services.game_create(
            user=request.user,
            game_type=game_type,
            my_deck=my_deck,
            opponent_deck=_deck_ref(post.get("opponent_deck", "")),
            opponent=opponent,
            conflict={"theater": post["theater"]} if post.get("theater") else None,
            **choices,
        )
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
@page
def game_join(request: HttpRequest, game_id) -> HttpResponse:
    services.game_join(game_id=game_id, user=request.user, deck=_deck_ref(request.POST.get("deck", "")))
    return redirect("web:game", game_id=game_id)


@login_required
@require_POST
@page
def game_resign(request: HttpRequest, game_id) -> HttpResponse:
    """Resign (games.services.game_resign): the other side wins; the game page then shows the end."""
    services.game_resign(game_id=game_id, user=request.user)
    return redirect("web:game", game_id=game_id)


def _board_context(request: HttpRequest, game_id) -> dict:
    payload = selectors.game_player_view(game_id=game_id, user=request.user)
    names = play.card_names(payload)
    # the log shows the newest 40 lines: at most the last 40 entries are read, not the whole game's
    since = max(0, payload["last_seq"] - LOG_ENTRIES)
    events = selectors.game_events_for_user(game_id=game_id, user=request.user, since=since)
    kind = get_game_type(payload["game_type"])
    return {
        "game_label": kind.label,
        "board_template": kind.board_template or "web/play/partials/board.html",
        "payload": payload,
        "names": names,
        "zones": play.zones(payload),
        "decision": play.decision_controls(payload),
        "log": play.log_lines(events["entries"], names)[:LOG_ENTRIES],
        "faces": {
            code: play.face_url(code, definition, payload["game_type"])
            for code, definition in payload["cards"].items()
        },
    }


@login_required
@page
def game_page(request: HttpRequest, game_id) -> HttpResponse:
    game = selectors.game_get(game_id=game_id, user=request.user)
    if game.status == GameStatus.OPEN:
        return render(request, "web/play/waiting.html", {"game": game, "starters": _battlecards_starters()})
    context = _board_context(request, game_id)
    template = context["board_template"] if is_fragment(request) else "web/play/game.html"
    return render(request, template, context | {"game": game})


def _posted_action(request: HttpRequest, game_id) -> dict:
    """The clicked action (its JSON, as offered), or a report typed into a report form (Tide of Iron: the
    physical board's units, cover and command points), built from that report's fields only."""
    report = request.POST.get("report")
    if not report:
        return json.loads(request.POST.get("action", ""))
    game = selectors.game_get(game_id=game_id, user=request.user)
    fields = get_game_type(game.game_type).reports.get(report)
    if fields is None:
        raise ValueError(report)
    return {"type": report, **{name: request.POST.get(name, "").strip() for name, _ in fields}}


@login_required
@require_POST
@page
def game_act(request: HttpRequest, game_id) -> HttpResponse:
    try:
        action = _posted_action(request, game_id)
        version = int(request.POST.get("version", ""))
    except ValueError:
        raise ValidationFailed("Choose one of the actions offered.", code="malformed_action") from None
    notice = None
    try:
        services.game_action_submit(game_id=game_id, user=request.user, version=version, action=action)
    except DomainError as error:
        if error.status not in (400, 409) or not is_fragment(request):
            raise
        notice = error.detail  # the board moved on, or the action is not offered: the board again, and why
    if is_fragment(request):
        game = selectors.game_get(game_id=game_id, user=request.user)
        context = _board_context(request, game_id) | {"game": game, "notice": notice}
        return render(request, context["board_template"], context)
    return redirect("web:game", game_id=game_id)
