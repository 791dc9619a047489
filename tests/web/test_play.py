"""Lobby and play pages: create and join games, the seat's view as a table with one control per decision
kind, actions through the same service as the API, and the hidden-information oracle over the HTML."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from games.game_types import GAME_TYPES
from games.models import Game
from tests.games.conftest import BattlefrontOracle, HiddenInfoOracle, token_client
from tests.games.test_tide_of_iron_api import TideOfIronOracle
from web import play

pytestmark = pytest.mark.django_db

GB, DE = "gb-we-starter", "de-we-starter"


def test_every_decision_kind_of_every_game_type_has_a_control():
    from games.engine import registry
    from games.game_types import GAME_TYPES

    assert set(GAME_TYPES) == set(registry.ids()), "every registered game has a Django-side definition"
    for game_type, kind in GAME_TYPES.items():
        missing = set(kind.engine.decision_kinds) - set(kind.controls)
        assert not missing, f"{game_type} decisions without a control on the play page: {sorted(missing)}"
        assert play.control_for(game_type, next(iter(kind.engine.decision_kinds))) in kind.controls.values()


def test_lobby_lists_open_games_and_creates_one_against_the_bot(
    client, alice, bob, create_game, catalog_rows
):
    open_game = create_game(bob)
    client.force_login(alice)
    page = client.get("/play/").content.decode()
    assert f"/play/{open_game['id']}/join/" in page
    response = client.post(
        "/play/new/",
        {
            "game_type": "battlecards",
            "opponent": "bot",
            "bot": "random",
            "my_deck": f"starter:{GB}",
            "opponent_deck": f"starter:{DE}",
        },
    )
    assert response.status_code == 302
    game_page = client.get(response["Location"])
    assert game_page.status_code == 200 and 'class="board"' in game_page.content.decode()


def test_join_an_open_game_from_the_lobby(client, alice, bob, create_game, catalog_rows):
    game = create_game(bob)
    client.force_login(alice)
    response = client.post(f"/play/{game['id']}/join/", {"deck": f"starter:{DE}"})
    assert response.status_code == 302
    assert 'class="board"' in client.get(response["Location"]).content.decode()


def test_the_creator_of_an_open_game_waits(client, alice, create_game, catalog_rows):
    game = create_game(alice)
    client.force_login(alice)
    page = client.get(f"/play/{game['id']}/").content.decode()
    assert "Waiting for an opponent" in page
    assert "This BATTLECARDS: World Conflict game is open" in page  # the game's name from the registry


def test_a_battlefront_game_against_the_bot(client, alice, catalog_rows):
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "battlefront", "opponent": "bot", "bot": "random"})
    page = client.get(response["Location"]).content.decode()
    assert 'data-decision="deploy"' in page or "Waiting" in page or "Game over" in page


def _decision_buttons(page: str) -> list[tuple[str, str]]:
    forms = re.findall(
        r'name="version" value="(\d+)"><input type="hidden" name="action" value="([^"]*)"', page
    )
    return [(version, html_lib.unescape(action)) for version, action in forms]


def test_the_player_acts_by_clicking_a_legal_action(client, two_player_game, alice, bob):
    client.force_login(bob)  # axis decides first
    page = client.get(f"/play/{two_player_game['id']}/").content.decode()
    assert 'data-decision="initial_deploy"' in page and "Deploy your initial forces" in page
    version, action = _decision_buttons(page)[0]
    response = client.post(
        f"/play/{two_player_game['id']}/act/", {"version": version, "action": action}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and 'class="board"' in response.content.decode()
    view = token_client(bob).get(f"/api/games/{two_player_game['id']}/view/").json()
    assert view["version"] > int(version)


def test_an_action_the_server_does_not_offer_is_refused(client, two_player_game, bob):
    client.force_login(bob)
    response = client.post(
        f"/play/{two_player_game['id']}/act/", {"version": "1", "action": json.dumps({"type": "nonsense"})}
    )
    assert response.status_code == 400


def test_a_stranger_sees_no_game_page(client, two_player_game, make_user):
    client.force_login(make_user("mallory"))
    assert client.get(f"/play/{two_player_game['id']}/").status_code in (403, 404)


def _tokens(page: str) -> set[str]:
    """Every attribute value and word of a page: what a reader (or a script) of the HTML can find."""
    text = html_lib.unescape(page)
    return set(re.findall(r'"([^"]*)"', text)) | set(re.findall(r"[\w.-]+", text))


def test_oracle_the_play_page_shows_no_hidden_card(client, two_player_game, alice, bob):
    """Both seats' pages and board fragments, move after move: no card instance the seat may not see, by id,
    in any text or data attribute (ids, not codes: another copy of the same card may be public)."""
    oracle = HiddenInfoOracle(two_player_game["id"])
    checked = 0
    for _ in range(6):
        for user, seat in ((alice, "allies"), (bob, "axis")):
            client.force_login(user)
            fragment = client.get(f"/play/{two_player_game['id']}/", HTTP_HX_REQUEST="true").content.decode()
            checked += oracle.check(sorted(_tokens(fragment)), seat)
            page = client.get(f"/play/{two_player_game['id']}/").content.decode()
            checked += oracle.check(sorted(_tokens(page)), seat)
            assert re.search(r'data-card="c\d+"', page)  # the seat's own cards are there, by instance id
            buttons = _decision_buttons(page)
            if buttons:
                version, action = buttons[0]
                client.post(f"/play/{two_player_game['id']}/act/", {"version": version, "action": action})
    assert checked > 0


def test_oracle_battlefront_play_page(client, alice, catalog_rows):
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "battlefront", "opponent": "bot", "bot": "random"})
    game_id = response["Location"].strip("/").split("/")[-1]
    oracle = BattlefrontOracle(game_id)
    seat = token_client(alice).get(f"/api/games/{game_id}/view/").json()["seat"]
    for _ in range(6):
        page = client.get(f"/play/{game_id}/").content.decode()
        oracle.check(sorted(_tokens(page)), seat)
        buttons = _decision_buttons(page)
        if not buttons:
            break
        client.post(f"/play/{game_id}/act/", {"version": buttons[0][0], "action": buttons[0][1]})


def test_a_stale_click_redraws_the_board_with_the_reason(client, two_player_game, bob):
    client.force_login(bob)
    page = client.get(f"/play/{two_player_game['id']}/").content.decode()
    version, action = _decision_buttons(page)[0]
    client.post(f"/play/{two_player_game['id']}/act/", {"version": version, "action": action})
    again = client.post(
        f"/play/{two_player_game['id']}/act/", {"version": version, "action": action}, HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 200
    assert 'role="alert"' in again.content.decode() and 'class="board"' in again.content.decode()


def _war_secrets(game_id: str, seat: str, view: dict) -> tuple[set[str], set[str]]:
    """The War: the instance ids and codes a seat may not read: the opponent's hand (unless scouted or
    revealed) and every card of both decks (their order above all)."""
    state = Game.objects.get(pk=game_id).state
    other = "p2" if seat == "p1" else "p1"
    shown = set(play.card_instances(view["view"]))
    zones = state["zones"]
    ids = {*zones[other]["hand"], *zones["p1"]["deck"], *zones["p2"]["deck"]} - shown
    public = {state["codes"][i] for i in shown} | {
        state["codes"][i] for s in ("p1", "p2") for zone, cards in state["zones"][s].items()
        if zone not in ("deck", "hand") for i in cards if i in state["codes"]
    }
    return ids, {state["codes"][i] for i in state["zones"][other]["hand"]} - public


def test_oracle_the_war_against_the_bot_from_the_lobby(client, alice, catalog_rows):
    """The War, created in the lobby with two starters, played by clicking: every decision drawn with its
    control title, and no page shows the opponent's hand or a deck card (by instance id or, for the hand,
    by a code not public elsewhere)."""
    client.force_login(alice)
    response = client.post(
        "/play/new/",
        {"game_type": "the-war", "opponent": "bot", "bot": "random",
         "war_p1": "tw-starter-red-army", "war_p2": "tw-starter-wehrmacht"},
    )
    assert response.status_code == 302
    game_id = response["Location"].strip("/").split("/")[-1]
    api = token_client(alice)
    kinds = set()
    for _ in range(12):
        page = client.get(f"/play/{game_id}/").content.decode()
        assert 'class="board board-the-war"' in page and "Your hand" in page
        view = api.get(f"/api/games/{game_id}/view/").json()
        ids, codes = _war_secrets(game_id, view["seat"], view)
        tokens = _tokens(page)
        assert not ids & tokens, f"hidden cards on the page: {sorted(ids & tokens)[:5]}"
        assert not codes & tokens, f"the opponent's hand on the page: {sorted(codes & tokens)[:5]}"
        assert "rng" not in tokens
        buttons = _decision_buttons(page)
        if not buttons:
            break
        kind = re.search(r'data-decision="([\w-]+)"', page).group(1)
        kinds.add(kind)
        assert play.control_for("the-war", kind) in html_lib.unescape(page)
        client.post(f"/play/{game_id}/act/", {"version": buttons[-1][0], "action": buttons[-1][1]})
    assert kinds


def test_oracle_tide_of_iron_between_two_people(client, alice, bob, catalog_rows):
    """Tide of Iron from the lobby (a person only: a bot asked for is refused in words, no game made), joined,
    then refereed by clicks and typed reports: no page shows an undrawn card, a deck's order or the RNG."""
    client.force_login(alice)
    chosen = {"game_type": "tide-of-iron", "scenario": "toi-scenario-all-decks"}
    refused = client.post("/play/new/", {**chosen, "opponent": "bot"})
    assert refused.status_code == 400 and "has no bot" in refused.content.decode()
    assert not Game.objects.filter(game_type="tide-of-iron").exists()
    response = client.post("/play/new/", {**chosen, "opponent": "human"})
    game_id = response["Location"].strip("/").split("/")[-1]
    assert Game.objects.get(pk=game_id).status == "open"
    client.force_login(bob)
    assert client.post(f"/play/{game_id}/join/", {}).status_code == 302
    oracle = TideOfIronOracle(game_id)
    users = {"allies": alice, "axis": bob}
    reported = False
    for _ in range(10):
        for seat, user in users.items():
            client.force_login(user)
            page = client.get(f"/play/{game_id}/").content.decode()
            assert 'class="board board-tide-of-iron"' in page
            oracle.check(sorted(_tokens(page)), seat)
            buttons = _decision_buttons(page)
            if not buttons:
                continue
            if not reported and 'data-report="report_command"' in page:
                client.post(f"/play/{game_id}/act/",
                            {"version": buttons[0][0], "report": "report_command", "points": "9"})
                reported = True
                continue
            actions = [json.loads(a) for _, a in buttons]
            chosen = ("activate", "target", "target_column", "target_row", "los", "confirm")
            pick = next((a for a in actions if a["type"] in chosen), None)
            pick = pick or next(a for a in actions if a["type"] == "next_phase")
            client.post(f"/play/{game_id}/act/", {"version": buttons[0][0], "action": json.dumps(pick)})
    assert reported
    assert token_client(alice).get(f"/api/games/{game_id}/view/").json()["version"] > 3


def test_the_lobby_creates_a_rated_timed_game_open_to_spectators_in_a_theater(client, alice, catalog_rows):
    from games.models import Game

    client.force_login(alice)
    page = client.get("/play/").content.decode()
    assert 'name="time_control"' in page and 'name="rated"' in page and 'name="spectators"' in page
    response = client.post(
        "/play/new/",
        {"game_type": "battlecards", "opponent": "human", "my_deck": f"starter:{GB}", "opponent_deck": "",
         "time_control": "realtime", "minutes": "5", "increment_seconds": "3", "rated": "on",
         "spectators": "yes", "spectator_delay": "2", "theater": "we"},
    )
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])
    assert game.rated and game.spectators_allowed and game.spectator_delay == 2
    assert game.time_control["kind"] == "realtime" and game.conflict_choice == {"theater": "we"}


def test_the_lobby_refuses_game_options_that_are_not_json(client, alice, catalog_rows):
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "battlefront", "opponent": "bot", "options": "{oops"})
    assert response.status_code == 400


def test_the_lobby_creates_a_2v2_team_game_with_bots_and_opens_the_creators_army(client, alice, catalog_rows):
    client.force_login(alice)
    lobby = client.get("/play/").content.decode()
    assert 'name="allies_4_nation"' in lobby and 'name="axis_1_player"' in lobby
    response = client.post(
        "/play/new-team/",
        {
            "axis_1_nation": "DE", "axis_1_player": "bot",
            "axis_2_nation": "DE", "axis_2_player": "bot",
            "allies_1_nation": "GB", "allies_1_player": "me",
            "allies_2_nation": "GB", "allies_2_player": "bot",
            "axis_3_nation": "", "axis_3_player": "open",  # an empty slot is ignored
            "team_bot": "random",
        },
    )
    assert response.status_code == 302
    game_id = response["Location"].strip("/").split("/")[-1]
    game = Game.objects.get(pk=game_id)
    assert game.game_type == "battlecards" and game.status != "open"
    page = client.get(response["Location"])
    assert page.status_code == 200 and 'class="board"' in page.content.decode()
    oracle = HiddenInfoOracle(game_id)
    assert oracle.check(sorted(_tokens(page.content.decode())), "allies-1") > 0
    fragment = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert oracle.check(sorted(_tokens(fragment)), "allies-1") > 0


@pytest.mark.parametrize(
    ("lineup", "code"),
    [
        ({"allies_1_nation": "GB", "allies_1_player": "me", "allies_2_nation": "GB"}, "side_without_army"),
        ({"axis_1_nation": "DE", "allies_1_nation": "GB", "allies_1_player": "me", "allies_2_nation": "GB",
          "allies_3_nation": "GB"}, "teams_too_uneven"),
        ({"axis_1_nation": "DE", "axis_2_nation": "DE", "allies_1_nation": "GB", "allies_2_nation": "GB"},
         "one_seat_per_player"),
    ],
)
def test_the_lobby_shows_why_a_team_lineup_is_refused_beside_the_form(
    client, alice, catalog_rows, lineup, code
):
    client.force_login(alice)
    response = client.post("/play/new-team/", lineup)
    page = response.content.decode()
    assert response.status_code == 400 and f'data-code="{code}"' in page
    assert 'action="/play/new-team/"' in page  # the form is there again, with the lineup as posted
    assert '<option value="GB" selected>' in page
    assert not Game.objects.exists()


def test_an_unknown_site_path_is_the_sites_404_page_and_the_apis_stays_json(client, alice):
    client.force_login(alice)
    response = client.get("/nope/")
    page = response.content.decode()
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    assert "<h1>Not found</h1>" in page and 'href="/"' in page
    api = client.get("/api/nope/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_a_team_player_trades_a_reserve_card_with_a_button_of_typed_fields(
    client, alice, catalog_rows, fixed_deal
):
    """Issue 22: the turn-start trade is one button per (army, card), labelled with the card's name, whose
    action carries the army and the card as fields of its own (never packed into the option string). The deal
    is fixed: with a fresh one, the bots sometimes ended the game before any trade was offered."""
    client.force_login(alice)
    response = client.post("/play/new-team/", {
        "axis_1_nation": "DE", "axis_1_player": "bot", "axis_2_nation": "DE", "axis_2_player": "bot",
        "allies_1_nation": "GB", "allies_1_player": "me", "allies_2_nation": "GB", "allies_2_player": "bot",
        "team_bot": "random",
    })
    url = response["Location"]
    game_id = url.strip("/").split("/")[-1]
    for _ in range(60):
        page = client.get(url).content.decode()
        buttons = [(v, json.loads(a)) for v, a in _decision_buttons(page)]
        trades = [(v, a) for v, a in buttons if a["type"] == "choose" and a.get("option") == "trade"]
        if trades:
            break
        assert buttons, "the game ended before a reserve trade was offered"
        version, action = buttons[0]
        client.post(f"{url}act/", {"version": version, "action": json.dumps(action)})
    else:
        pytest.fail("no reserve trade offered")
    version, trade = trades[0]
    assert set(trade) == {"type", "seat", "option", "army", "card"} and ":" not in trade["option"]
    name = play.card_names(token_client(alice).get(f"/api/games/{game_id}/view/").json())[trade["card"]]
    assert html_lib.escape(f"army: {trade['army']} · card: {name}") in page
    client.post(f"{url}act/", {"version": version, "action": json.dumps(trade)})
    # compared as values (SQLite compares JSON as text, so a filter by the dict depends on its key order)
    assert trade in Game.objects.get(pk=game_id).actions.values_list("action", flat=True)


def test_the_tide_of_iron_page_offers_confirm_and_dispute_of_the_other_players_report(
    client, alice, bob, catalog_rows
):
    """Issue 36 item 8: a result reported by one player waits for the other's decision on his page."""
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "tide-of-iron", "opponent": "human"})
    game_id = response["Location"].strip("/").split("/")[-1]
    client.force_login(bob)
    assert client.post(f"/play/{game_id}/join/", {}).status_code == 302
    client.force_login(alice)
    buttons = _decision_buttons(client.get(f"/play/{game_id}/").content.decode())
    claim = {"type": "end_match", "seat": "allies", "result": "allies"}
    end = next(a for _, a in buttons if json.loads(a) == claim)
    client.post(f"/play/{game_id}/act/", {"version": buttons[0][0], "action": end})
    client.force_login(bob)
    page = client.get(f"/play/{game_id}/").content.decode()
    assert 'data-decision="confirm"' in page
    assert GAME_TYPES["tide-of-iron"].controls["confirm"] in html_lib.unescape(page)
    offered = {json.loads(a)["type"]: (v, a) for v, a in _decision_buttons(page)}
    assert set(offered) == {"confirm", "dispute"}
    version, dispute = offered["dispute"]
    client.post(f"/play/{game_id}/act/", {"version": version, "action": dispute})
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and game.winner == "" and game.result["kind"] == "no_result"
    ended = html_lib.unescape(client.get(f"/play/{game_id}/").content.decode())  # why, in the game's words
    assert "alice reported a result (alice won); you disputed it, so the match ended without a result." in (
        ended
    )
    assert "expired or was cancelled" not in ended


def test_the_play_page_draws_a_cards_face_as_its_games_definition_says():
    """The face routes live in each game's definition (GameType.face_routes / face_route): a Battlecards
    card by its definition's type, every Battlefront and The War card (issue 39: faces in play), no face
    for a game without face images on its table."""
    from web.play import face_url

    assert face_url("gb-inf", {"type": "arsenal"}, "battlecards") == "/api/arsenal-cards/gb-inf/face.svg"
    assert face_url("c1", {"type": "conflict"}, "battlecards").endswith("/c1/face.svg")
    assert face_url("b1", {"type": "battlecard"}, "battlecards").endswith("/b1/face.svg")
    assert face_url("x", {"type": "nation"}, "battlecards") is None
    assert face_url("bf-1", None, "battlefront").endswith("/bf-1/face.svg")
    assert face_url("tw-1", {"category": "unit"}, "the-war") == "/api/the-war/cards/tw-1/face.svg"
    assert face_url("t-1", {"type": "arsenal"}, "tide-of-iron") is None
