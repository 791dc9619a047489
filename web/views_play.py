"""Lobby and play: open games, create (against a bot or a person), join, and a play page per game type that
shows exactly the seat's view (games.selectors.game_player_view, as GET /api/games/{id}/view/) with the
pending decision's legal actions as buttons; actions go through games.services.game_action_submit."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cards.selectors import nation_list, theater_list
from config.errors import DomainError, NotFound, ValidationFailed
from decks import selectors as deck_selectors
from games import fastpath, selectors, services, spectator_selectors
from games.game_types import GAME_TYPES, get_game_type
from games.models import GameStatus
from games.serializers import GameSerializer
from games.services.takebacks import game_takeback_answer as game_takeback_answer_service
from games.services.takebacks import game_takeback_request
from web import decision_steps, lobby_hints, play
from web.deck_editor import starters
from web.pages import is_fragment, page

TEAM_BOTS = ("heuristic", "random")  # a team army's bot (the search bot plays 1v1 games only)
BOTS = (*TEAM_BOTS, "search-1", "search-2", "search-3", "search-4")  # every game with bots offers them
GAME_CHOICES = (("battlecards", "Battlecards"), ("battlefront", "Battlefront"), ("the-war", "The War"),
                ("tide-of-iron", "Tide of Iron: Strategy decks (against a person)"))
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


def _common_choices(game_type: str, post) -> dict:
    """The lobby's choices every game type takes (the service checks each again): time control, rated,
    spectators, and the rules options: the game's fields and the advanced JSON box."""
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
    options = _form_options(game_type, post)
    text = (post.get("options") or "").strip()
    if text:  # the advanced box: the API's options as JSON, over the fields above
        try:
            typed = json.loads(text)
        except ValueError:
            typed = None
        if not isinstance(typed, dict):
            raise ValidationFailed('The advanced options are a JSON object such as {"occupying_force": '
                                   'true}; or leave the box empty.', code="invalid_options")
        options |= typed
    if options:
        choices["options"] = options
    return choices


def _form_options(game_type: str, post) -> dict:
    """The options the chosen game's fields give (only that game's, read by its definition: a hidden field
    of another game is ignored, as it is when JavaScript is off and every field shows); and the server's own
    option every game takes."""
    options = get_game_type(game_type).lobby_rule_options(post)
    if post.get("opt_bots_accept_takebacks") == "on":
        options["bots_accept_takebacks"] = True
    return options


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
            army["bot"] = post.get("team_bot") if post.get("team_bot") in TEAM_BOTS else "heuristic"
        armies[slot["side"]].append(army)
    return armies


# The new-game form's values when it is first shown (a refused form comes back with what was sent).
NEW_GAME_DEFAULTS = {
    "game_type": "battlecards", "opponent": "bot", "bot": BOTS[0], "my_deck": "starter:gb-we-starter",
    "opponent_deck": "starter:de-we-starter", "war_p1": "", "war_p2": "", "scenario": "", "theater": "",
    "time_control": "", "minutes": "10", "increment_seconds": "0", "days": "3", "spectators": "",
    "spectator_delay": "0", "options": "",
}
# and every game's option selects, none chosen (GameType.lobby_selects)
NEW_GAME_DEFAULTS |= {name: "" for kind in GAME_TYPES.values() for name, _, _ in kind.lobby_selects()}


def _new_game_form(post) -> dict:
    form = dict(NEW_GAME_DEFAULTS)
    war = _the_war_starters()
    form["war_p1"], form["war_p2"] = war[0]["code"], war[-1]["code"]
    if post is not None:
        form |= {name: post.get(name, "") for name in NEW_GAME_DEFAULTS}
        form |= {name: post.get(name) == "on" for name in post  # the checkboxes
                 if (name.startswith("opt_") or name == "rated") and name not in NEW_GAME_DEFAULTS}
    return form


def _deck_choices(user) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The Battlecards deck selects' (value, label) pairs: the player's (his decks, then the starters) and
    the opponent's (the starters, then the player's own decks, for a bot to play)."""
    dealt = [name for name, kind in GAME_TYPES.items() if kind.uses_decks]  # dealt by games.services.deal
    my_decks = [(f"deck:{deck.pk}", f"{deck.name} ({deck.nation})")
                for deck in deck_selectors.deck_list(user=user, mine=True).filter(game__in=dealt)]
    starters = [(f"starter:{s['code']}", s["name"]) for s in _battlecards_starters()]
    return my_decks + starters, starters + [(value, f"your deck {label}") for value, label in my_decks]


def _lobby(request: HttpRequest, *, team_error: dict | None = None, team_post=None,
           new_error: dict | None = None, new_post=None, hint: dict | None = None) -> HttpResponse:
    context = {"request": request}
    joinable = GameSerializer(
        selectors.game_list(user=request.user, joinable=True)[:50], many=True, context=context
    )
    mine = GameSerializer(selectors.game_list(user=request.user)[:50], many=True, context=context)
    my_deck_choices, opponent_deck_choices = _deck_choices(request.user)
    new = _new_game_form(new_post)
    return render(
        request,
        "web/play/lobby.html",
        {
            "joinable": joinable.data,
            "mine": mine.data,
            "starters": _battlecards_starters(),
            "bots": BOTS,
            "team_bots": TEAM_BOTS,
            "war_starters": _the_war_starters(),
            "toi_scenarios": _toi_scenarios(),
            "theaters": theater_list(),
            "nations": nation_list(),
            "team_slots": _team_slots(team_post),
            "team_players": TEAM_PLAYERS,
            "team_error": team_error,
            "new": new,
            "new_error": new_error,
            "matchup_hint": hint,
            "game_choices": GAME_CHOICES,
            "my_deck_choices": my_deck_choices,
            "opponent_deck_choices": opponent_deck_choices,
            "option_boxes": [
                {"game_type": kind.name, "name": f"opt_{name}", "label": label,
                 "checked": new.get(f"opt_{name}")}
                for kind in GAME_TYPES.values()
                for name, label in kind.lobby_checkboxes
            ],
            "option_selects": [
                {"game_type": kind.name, "name": name, "id": name.replace("_", "-"), "label": label,
                 "choices": choices, "chosen": new.get(name, "")}
                for kind in GAME_TYPES.values()
                for name, label, choices in kind.lobby_selects()
            ],
        },
        status=(team_error or new_error or {}).get("status", 200),
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
    """A game from the lobby's form; a refusal (the same checks as the API's) is the lobby again with the
    form as it was sent and the reason above it, in the site's words."""
    try:
        game = _game_create(request.user, request.POST)
    except DomainError as error:
        if error.status not in (400, 409):
            raise
        return _lobby(request, new_error=_site_words(error), new_post=request.POST,
                      hint=_matchup_hint(request, error))
    return redirect("web:game", game_id=game.pk)


def _matchup_hint(request: HttpRequest, error: DomainError) -> dict | None:
    """Decks too far apart (the matchup rule): the decks within it, for either side (web.lobby_hints)."""
    post = request.POST
    mine, theirs = _deck_ref(post.get("my_deck", "")), _deck_ref(post.get("opponent_deck", ""))
    if not lobby_hints.breaks_balance(error) or mine is None or theirs is None:
        return None
    my_choices, their_choices = _deck_choices(request.user)
    return lobby_hints.matchup_hint(
        request.user, mine=(post["my_deck"], mine), theirs=(post["opponent_deck"], theirs),
        theater=post.get("theater", ""), my_choices=my_choices, their_choices=their_choices,
    )


def _game_create(user, post):
    game_type = post.get("game_type", "battlecards")
    opponent = (
        {"kind": "bot", "bot": post.get("bot", "heuristic")}
        if post.get("opponent") == "bot"
        else {"kind": "human"}
    )
    kind = get_game_type(game_type)
    if opponent["kind"] == "bot" and not kind.bots_available:  # said, not silently made a game for a person
        raise ValidationFailed(
            f"{kind.label} has no bot: the server referees two people at one physical board. Choose "
            "\"a person\" as the opponent and share the game with them.",
            code="no_bot_for_game_type",
        )
    choices = _common_choices(game_type, post)
    if not kind.uses_decks:
        options = kind.lobby_options(post)
        if options is not None or "options" in choices:
            choices["options"] = (options or {}) | choices.get("options", {})
        return services.game_create(user=user, game_type=game_type, opponent=opponent, **choices)
    my_deck = _deck_ref(post.get("my_deck", ""))
    if my_deck is None:
        raise ValidationFailed("Choose your deck.", code="invalid")
    return services.game_create(
        user=user,
        game_type=game_type,
        my_deck=my_deck,
        opponent_deck=_deck_ref(post.get("opponent_deck", "")),
        opponent=opponent,
        conflict={"theater": post["theater"]} if post.get("theater") else None,
        **choices,
    )


def _site_words(error: DomainError) -> dict:
    """A refusal of the services as the lobby says it: the API's field names and codes (`conflict.theater`,
    `['EF', 'WE']`) become the form's labels and the theaters' names."""
    shown = error.as_dict()
    if error.code == "theater_required":
        names = {t.code: t.name for t in theater_list()}
        shared = [names.get(code, code) for code in error.extra.get("theaters", [])]
        shown["detail"] = (
            f"These two nations fight in more than one theater ({' and '.join(shared)}): choose one under "
            "“Battlecards: theater”."
            if shared
            else "These two nations never meet in one theater: choose decks of nations that fight each "
            "other, or a theater under “Battlecards: theater”."
        )
    elif error.code == "illegal_matchup" and {v.get("code") for v in error.extra.get("violations", [])} & {
        "card_difference", "point_difference"
    }:
        shown["detail"] = (
            f"{error.detail} Choose decks within the matchup rule (within 10 cards in total card count and "
            "within 10 total points of each other), for instance two official starters."
        )
    elif error.code == "invalid_options" and "option" in error.extra:
        shown["detail"] = f"The rules option “{error.extra['option']}” was refused: {error.detail}"
    return shown


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


def _live_context(request: HttpRequest, game, payload: dict) -> dict:
    """What the game page adds to the seat's view, all of it what the API gives this player: the seats with
    their ratings and, after a rated game, the change (GameSerializer's seats, as GET /api/games/{id}/), the
    clocks as the server computed them (the page ticks them locally and takes the server's again at each
    redraw), the pending takeback request (GET /api/games/{id}/takeback/) and why a finished game ended."""
    seats = GameSerializer(game, context={"request": request}).data["seats"]
    names = play.side_names(seats, my_seat=payload["seat"])
    live = get_game_type(payload["game_type"]).live_play  # clocks, takebacks and ratings (not a referee)
    pending = None
    if live and payload["status"] == GameStatus.ACTIVE:
        pending = selectors.takeback_pending_payload(game=game, entry=selectors.takeback_pending(game=game))
    return {
        "who": names,
        "seats": play.seat_rows(seats, my_seat=payload["seat"], ratings=live),
        "clocks": play.clocks(payload.get("clock"), names),
        "takebacks": live,
        "takeback": pending and {
            **pending,
            "mine": pending["requested_by"] == payload["seat"],
            "to_answer": payload["seat"] in pending["answer_by"],
            "who": names.get(pending["requested_by"], pending["requested_by"]),
        },
        "end": play.end_words(payload, names) if payload["status"] == GameStatus.FINISHED else "",
    }


def _board_context(request: HttpRequest, game_id, game=None) -> dict:
    services.game_clock_settle(game_id=game_id)  # a clock past its deadline ends the game first (as the API)
    payload = fastpath.game_player_view(game_id=game_id, user=request.user)
    game = game if game is not None and game.version == payload["version"] else selectors.game_get(
        game_id=game_id, user=request.user
    )
    names = play.card_names(payload)
    # the log shows the newest 40 lines: at most the last 40 entries are read, not the whole game's
    since = max(0, payload["last_seq"] - LOG_ENTRIES)
    events = selectors.game_events_for_user(game_id=game_id, user=request.user, since=since)
    kind = get_game_type(payload["game_type"])
    live = _live_context(request, game, payload)
    entries = events["entries"]
    code_names = selectors.game_card_names(game_id=game_id, codes=play.log_strings(entries) - set(names))
    return live | {
        "game": game,
        "game_label": kind.label,
        "board_template": kind.board_template or "web/play/partials/board.html",
        "payload": payload,
        "names": names,
        "zones": play.zones(payload),
        "decision": play.decision_controls(payload, decision_steps.read_pick(
            request.GET.get("pick"), at=request.GET.get("at"), version=payload["version"]),
                                           _page_number(request.GET.get("page"))),
        "log": play.log_lines(
            entries, play.log_names(entries, names, code_names), who=live["who"]
        )[:LOG_ENTRIES],
        "faces": {
            code: play.face_url(code, definition, payload["game_type"])
            for code, definition in payload["cards"].items()
        },
    }


def _page_number(text: str | None) -> int:
    return int(text) if text and text.isdigit() else 0


def _watch_instead(request: HttpRequest, game_id) -> HttpResponse:
    """A signed-in user who does not play the game: the spectator view where the API lets him watch it
    (spectator_may_watch; its error otherwise: 404 for a game he may not know of)."""
    spectator_selectors.spectator_game(game_id=game_id, user=request.user)
    return redirect("web:game-watch", game_id=game_id)


@login_required
@page
def game_page(request: HttpRequest, game_id) -> HttpResponse:
    try:
        game = selectors.game_get(game_id=game_id, user=request.user)
    except NotFound:
        return _watch_instead(request, game_id)
    if game.status == GameStatus.OPEN:
        if is_fragment(request):
            return HttpResponse(status=204)  # the waiting page asks again (htmx swaps nothing on a 204)
        return render(request, "web/play/waiting.html", {"game": game, "starters": _battlecards_starters()})
    if selectors.seat_of_user(game=game, user=request.user) is None:
        return _watch_instead(request, game_id)
    if is_fragment(request) and request.GET.get("waiting"):
        return _joined(request, game)
    context = _board_context(request, game_id, game)
    template = context["board_template"] if is_fragment(request) else "web/play/game.html"
    return render(request, template, context)


def _joined(request: HttpRequest, game) -> HttpResponse:
    """The waiting creator's page learns that the game started: the join notice, and the game page (htmx
    follows HX-Redirect with a whole page load)."""
    others = [s.user.get_username() for s in game.seats.all() if s.user_id and s.user_id != request.user.pk]
    messages.info(request, f"{' and '.join(others) or 'Your opponent'} joined: the game is on.")
    response = HttpResponse(status=200)
    response["HX-Redirect"] = reverse("web:game", kwargs={"game_id": game.pk})
    return response


def _board_or_page(request: HttpRequest, game_id, act) -> HttpResponse:
    """Run a player's write (`act()`); an htmx request gets the board again (with the refusal's words when
    the service refused: the board moved on, nothing to take back...), a plain form the game page."""
    notice = None
    try:
        act()
    except DomainError as error:
        if error.status not in (400, 409) or not is_fragment(request):
            raise
        notice = error.detail
    if is_fragment(request):
        context = _board_context(request, game_id) | {"notice": notice}
        return render(request, context["board_template"], context)
    return redirect("web:game", game_id=game_id)


def _posted_version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise ValidationFailed(
            "The form lacks the game's version: reload the page.", code="invalid"
        ) from None


@login_required
@require_POST
@page
def game_takeback(request: HttpRequest, game_id) -> HttpResponse:
    """Ask to take back my last action (games.services.takebacks, as POST /api/games/{id}/takeback/)."""
    version = _posted_version(request)
    return _board_or_page(
        request, game_id,
        lambda: game_takeback_request(game_id=game_id, user=request.user, version=version, count=1),
    )


@login_required
@require_POST
@page
def game_takeback_answer(request: HttpRequest, game_id) -> HttpResponse:
    """Accept or decline the other side's request (as POST /api/games/{id}/takeback/answer/)."""
    version = _posted_version(request)
    accept = request.POST.get("accept") == "yes"
    return _board_or_page(
        request, game_id,
        lambda: game_takeback_answer_service(
            game_id=game_id, user=request.user, version=version, accept=accept
        ),
    )


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
    return {"type": report, **{name: request.POST.get(name, "").strip() for name, *_ in fields}}


@login_required
@require_POST
@page
def game_act(request: HttpRequest, game_id) -> HttpResponse:
    try:
        action = _posted_action(request, game_id)
        version = int(request.POST.get("version", ""))
    except ValueError:
        raise ValidationFailed("Choose one of the actions offered.", code="malformed_action") from None
    return _board_or_page(
        request, game_id,
        lambda: services.game_action_submit(
            game_id=game_id, user=request.user, version=version, action=action
        ),
    )
