"""Battlefront through the same games API as Battlecards (issue 15, "The same games service").

Done when: "A Battlefront game plays to the end through the API in a test with the hidden-information
oracle on every response". Each seat is driven by the engine's Battlefront bots choosing only from the
legal actions of the seat's OWN view, as a third-party client would; every answer either seat receives
(game, view, action result, events, event stream, replay) goes through tests.games.conftest.BattlefrontOracle.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import battlefront as bf
from games.models import Game, GameAction
from games.selectors import state_digest
from games.services import game_rebuild_state
from tests.games.conftest import BattlefrontOracle, json_strings

pytestmark = pytest.mark.django_db

MAX_STEPS = 3000
OTHER = {"west": "east", "east": "west"}


def bf_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game_type": "battlefront", "opponent": {"kind": "human"}, "seed": 1940}
    body.update(overrides)
    return body


def create_bf(client: Any, **overrides: Any) -> dict[str, Any]:
    response = client.post("/api/games/", bf_body(**overrides), format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def stream_entries(client: Any, game_id: str, since: int = 0) -> tuple[list[dict[str, Any]], str]:
    """The event stream (server-sent events) read to its end: the entries and the raw text."""
    import json

    response = client.get(f"/api/games/{game_id}/events/stream/?since={since}&timeout=1")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    entries = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in lines and "event" not in lines:
            entries.append(json.loads(lines["data"]))
    return entries, text


def drive_bf_to_the_end(*, game_id: str, clients: dict[str, Any], bots: dict[str, Any]) -> dict[str, Any]:
    """Play every human seat through the API until the game ends, checking every answer with the oracle."""
    oracle = BattlefrontOracle(game_id)
    seen = dict.fromkeys(clients, 0)
    counts = {"actions": 0, "responses": 0, "secrets_checked": 0, "kinds": set(), "oracle": oracle}

    def checked(seat: str, response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.json()
        payload = response.json()
        counts["secrets_checked"] += oracle.check(payload, seat)
        counts["responses"] += 1
        return payload

    for seat, client in clients.items():
        checked(seat, client.get(f"/api/games/{game_id}/"))
    for step in range(MAX_STEPS):
        views = {s: checked(s, c.get(f"/api/games/{game_id}/view/")) for s, c in clients.items()}
        for seat, v in views.items():
            assert v["game_type"] == "battlefront" and v["view"]["game"] == "battlefront"
            assert v["seat"] == seat and v["view"]["me"]["seat"] == seat
            opponent = v["view"]["opponent"]  # the opponent's hand and discards show as sizes only
            assert "hand" not in opponent and isinstance(opponent["hand_size"], int)
            assert "discards" not in opponent and isinstance(opponent["discard_size"], int)
            assert "deck" not in v["view"] and isinstance(v["view"]["deck_size"], int)
            # every card the view names is described, and only those
            assert set(v["cards"]) <= json_strings(v["view"])
            assert {c["code"] for c in v["view"]["me"]["hand"]} <= set(v["cards"])
        finished = next(iter(views.values()))["status"] == "finished"
        for seat, client in clients.items():
            if step % 3 and not finished:
                continue
            log = checked(seat, client.get(f"/api/games/{game_id}/events/?since={seen[seat]}"))
            for entry in log["entries"]:
                assert entry["seq"] > seen[seat]
                assert all(e["visible_to"] in ("all", seat) for e in entry["events"])
                if entry["kind"] == "action" and entry["seat"] != seat:
                    assert entry["action"] is None  # the other seat's choices show as public events only
            if log["entries"]:
                seen[seat] = log["entries"][-1]["seq"]
        if finished:
            for seat, client in clients.items():
                checked(seat, client.get(f"/api/games/{game_id}/"))
            assert counts["secrets_checked"] > counts["responses"], "the checks were not vacuous"
            return counts
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1
        seat = movers[0]
        decision = views[seat]["view"]["decision"]
        counts["kinds"].add(decision["kind"])
        for other, v in views.items():
            if other != seat:
                assert "legal_actions" not in v["view"]["decision"], "only the deciding seat sees its choices"
        legal = [bf.Action.from_json(a) for a in decision["legal_actions"]]
        assert legal
        action = bots[seat].choose(views[seat]["view"], legal, seat)
        answer = checked(
            seat,
            clients[seat].post(
                f"/api/games/{game_id}/actions/",
                {"version": views[seat]["version"], "action": action.to_json()},
                format="json",
            ),
        )
        assert answer["state"]["version"] > views[seat]["version"]
        counts["actions"] += 1
    pytest.fail(f"the game did not end within {MAX_STEPS} steps")


def test_two_players_play_battlefront_to_the_end_through_the_api_never_seeing_hidden_cards(
    catalog_rows, api, alice, bob, carol, monkeypatch
):
    """The issue's done-when, with two human players (create, join, act alternately)."""
    # A fixed server salt makes the deal (seed mixed with the salt) the same at every run of this test.
    monkeypatch.setattr("games.services.seeds.new_salt", lambda: "5a" * 16)
    game = create_bf(api(alice), options={"two_front_victory": False})
    gid = game["id"]
    assert game["game_type"] == "battlefront" and game["status"] == "open" and game["my_seat"] == "west"
    assert [(s["seat"], s["open"]) for s in game["seats"]] == [("east", True), ("west", False)]
    assert api(alice).get(f"/api/games/{gid}/view/").json()["code"] == "game_not_active"
    joined = api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()

    clients = {"west": api(alice), "east": api(bob)}
    counts = drive_bf_to_the_end(
        game_id=gid,
        clients=clients,
        bots={"west": bf.HeuristicBot(catalog=bf.load_cards()), "east": bf.RandomBot()},
    )
    stored = Game.objects.get(pk=gid)
    assert stored.status == "finished" and stored.game_type == "battlefront"
    assert stored.winner in ("west", "east", "")
    assert stored.end_reason == ("victory" if stored.winner else "draw")
    assert counts["actions"] == GameAction.objects.filter(game=stored, kind="action").count()
    assert stored.turn >= 2 and counts["actions"] >= 14, counts  # a real game: 7 cards a seat a turn
    assert stored.version == stored.last_seq == GameAction.objects.filter(game=stored).count()

    # Scouting: "If you play a Scout card, you may look at your opponent's hand" -- the scout's owner only.
    oracle = counts["oracle"]
    everything = GameAction.objects.filter(game=stored).order_by("seq")
    reveals = [e for entry in everything for e in entry.events if e["type"] == "scouted_hand"]
    assert len(reveals) == sum(oracle.scout_reveals.values()) >= 1, "this deal has a scout played"
    for seat, client in clients.items():
        entries = client.get(f"/api/games/{gid}/events/").json()["entries"]
        mine = [e for entry in entries for e in entry["events"] if e["type"] == "scouted_hand"]
        assert all(e["visible_to"] == seat and e["data"]["seat"] == seat for e in mine)
        assert len(mine) == oracle.scout_reveals[seat]

    # The stream carries the same entries, filtered the same way, then an end event.
    for seat, client in clients.items():
        streamed, text = stream_entries(client, gid)
        assert [e["seq"] for e in streamed] == list(range(1, stored.last_seq + 1))
        assert "event: end" in text
        oracle.check(streamed, seat)

    # A stranger sees the finished game and its replay, never a seat's view.
    assert api(carol).get(f"/api/games/{gid}/").status_code == 200
    assert api(carol).get(f"/api/games/{gid}/view/").json()["code"] == "not_a_player"

    # The replay (public after the end: seed and salt published) re-runs to the stored state.
    detail = api(alice).get(f"/api/games/{gid}/").json()
    assert detail["seed"] == 1940 and detail["seed_salt"]
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["game_type"] == "battlefront" and replay["deck_lists_public"] is True
    rerun = bf.replay(
        bf.BattlefrontCatalog.from_dicts(**replay["catalog"]),
        bf.GameSetup.from_json(replay["setup"]),
        replay["actions"],
    )
    assert rerun.to_json() == stored.state
    assert state_digest(rerun.to_json()) == replay["final_state_sha256"]
    assert (rerun.winner or None) == replay["winner"]
    assert game_rebuild_state(game=stored).to_json() == stored.state


def test_a_player_against_the_bot_plays_battlefront_to_the_end(catalog_rows, api, alice):
    game = create_bf(api(alice), opponent={"bot": "heuristic"}, seat="east", seed=41)
    gid = game["id"]
    assert game["status"] == "active" and game["my_seat"] == "east"
    bot_seat = next(s for s in game["seats"] if s["seat"] == "west")
    assert bot_seat["kind"] == "bot" and bot_seat["bot"] == "heuristic"

    drive_bf_to_the_end(game_id=gid, clients={"east": api(alice)}, bots={"east": bf.RandomBot(salt="me")})

    finished = Game.objects.get(pk=gid)
    assert finished.status == "finished"
    bot_moves = GameAction.objects.filter(game=finished, seat="west", kind="action")
    assert bot_moves.exists() and all(a.by_bot for a in bot_moves)
    assert not GameAction.objects.filter(game=finished, seat="east", by_bot=True).exists()
    assert game_rebuild_state(game=finished).to_json() == finished.state


def test_the_optional_rules_are_the_engines_options(catalog_rows, api, alice):
    options = {
        "two_front_victory": True,
        "blitzkrieg_attacker": "east",
        "special_cards": {"west": "DE", "east": "GB"},
    }
    game = create_bf(api(alice), opponent={"kind": "bot", "bot": "random"}, options=options)
    stored = Game.objects.get(pk=game["id"])
    assert bf.GameSetup.from_json(stored.setup).options == bf.Options.from_json(options)
    assert {s["seat"]: s["nation"] for s in game["seats"]} == {"west": "DE", "east": "GB"}
    view = api(alice).get(f"/api/games/{game['id']}/view/").json()["view"]
    assert view["options"] == bf.Options.from_json(options).to_json()
    assert view["me"]["nationality"] == "DE" and view["opponent"]["nationality"] == "GB"


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"my_deck": {"starter": "gb-we-starter"}}, "my_deck", "deck_not_allowed"),
        ({"opponent_deck": {"starter": "de-we-starter"}}, "opponent_deck", "deck_not_allowed"),
        ({"conflict": {"theater": "WE"}}, "conflict", "deck_not_allowed"),
        ({"options": {"blitzkrieg_attacker": "north"}}, None, "invalid_options"),
        ({"options": {"special_cards": {"west": "FR", "east": "DE"}}}, None, "invalid_options"),
        ({"options": {"larger_standing_armies": True}}, None, "invalid_options"),  # a Battlecards option
        ({"options": {"two_front_victory": "yes"}}, None, "invalid_options"),
        ({"seat": "axis"}, "seat", "invalid_seat"),  # a seat of another game (Tide of Iron's)
        ({"game_type": "chess"}, "game_type", "invalid"),
    ],
)
def test_bad_battlefront_creations_are_refused_with_a_code_and_create_nothing(
    catalog_rows, api, alice, overrides, field, code
):
    response = api(alice).post("/api/games/", bf_body(**overrides), format="json")
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == code and body["detail"]
    if field and code != "invalid":
        assert body["field"] == field
    assert not Game.objects.exists()


def test_a_battlecards_game_still_needs_a_deck_and_cannot_pick_a_seat(catalog_rows, api, alice):
    response = api(alice).post("/api/games/", {"opponent": {"kind": "human"}}, format="json")
    assert response.status_code == 400 and "my_deck" in response.json()["errors"]
    response = api(alice).post(
        "/api/games/",
        {"my_deck": {"starter": "gb-we-starter"}, "opponent": {"kind": "human"}, "seat": "west"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["code"] == "seat_not_choosable"


def test_joining_battlefront_with_a_deck_is_refused(catalog_rows, api, alice, bob):
    game = create_bf(api(alice))
    deck = {"deck": {"starter": "de-we-starter"}}
    response = api(bob).post(f"/api/games/{game['id']}/join/", deck, format="json")
    assert response.status_code == 400 and response.json()["code"] == "deck_not_allowed"
    assert Game.objects.get(pk=game["id"]).status == "open"


@pytest.fixture
def bf_two_players(catalog_rows, api, alice, bob) -> dict[str, Any]:
    game = create_bf(api(alice))
    assert api(bob).post(f"/api/games/{game['id']}/join/", {}, format="json").status_code == 200
    return game


def _snapshot(gid: str) -> tuple[Any, ...]:
    game = Game.objects.get(pk=gid)
    return game.version, game.last_seq, game.state, GameAction.objects.filter(game=game).count()


def test_strangers_can_neither_see_a_seat_nor_act(bf_two_players, api, carol):
    gid = bf_two_players["id"]
    before = _snapshot(gid)
    stranger = api(carol)
    assert stranger.get(f"/api/games/{gid}/").status_code == 404  # a running game is private
    assert stranger.get(f"/api/games/{gid}/view/").status_code == 404
    assert stranger.get(f"/api/games/{gid}/events/").status_code == 404
    answer = stranger.post(
        f"/api/games/{gid}/actions/", {"version": before[0], "action": {"type": "pass"}}, format="json"
    )
    assert answer.status_code == 404 and answer.json()["code"] == "game_not_found"
    assert api(None).get(f"/api/games/{gid}/view/").status_code == 401
    assert _snapshot(gid) == before


def test_illegal_and_malformed_actions_are_refused_with_the_engines_code_and_nothing_is_written(
    bf_two_players, api, alice, bob
):
    gid = bf_two_players["id"]
    view = api(alice).get(f"/api/games/{gid}/view/").json()
    mover, waiter = (api(alice), api(bob)) if view["your_turn"] else (api(bob), api(alice))
    view = mover.get(f"/api/games/{gid}/view/").json()
    seat, version = view["seat"], view["version"]
    in_hand = {c["code"] for c in view["view"]["me"]["hand"]}
    not_mine = next(c for c in bf.load_cards().cards if c not in in_hand)
    before = _snapshot(gid)
    cases = [
        (mover, {"type": "play", "card": not_mine, "front": "C"}, 400, "illegal_action"),
        (mover, {"type": "discard", "card": sorted(in_hand)[0]}, 400, "illegal_action"),  # not the time
        (mover, {"type": "play", "card": sorted(in_hand)[0], "front": "Z"}, 400, "malformed_action"),
        (mover, {"type": "fly"}, 400, "malformed_action"),
        (mover, {"type": "deploy", "seat": seat}, 400, "malformed_action"),  # a Battlecards action type
        (mover, {"type": "pass", "seat": OTHER[seat]}, 403, "not_your_seat"),
        (mover, {"type": "pass", "seat": "axis"}, 400, "malformed_action"),
        (mover, "pass", 400, "malformed_action"),
        (waiter, {"type": "pass"}, 403, "not_your_turn"),
    ]
    for client, action, status, code in cases:
        body = {"version": version, "action": action}
        answer = client.post(f"/api/games/{gid}/actions/", body, format="json")
        assert answer.status_code == status, (action, answer.json())
        assert answer.json()["code"] == code, (action, answer.json())
        assert _snapshot(gid) == before, action
    stale = mover.post(f"/api/games/{gid}/actions/", {"version": version - 1, "action": {"type": "pass"}},
                       format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    body = {"version": version, "action": {"type": "pass"}}
    ok = mover.post(f"/api/games/{gid}/actions/", body, format="json")
    assert ok.status_code == 200 and ok.json()["entries"][0]["action"] == {"type": "pass", "seat": seat}


def test_resigning_battlefront_gives_the_other_seat_the_win(bf_two_players, api, alice, bob):
    gid = bf_two_players["id"]
    resigned = api(bob).post(f"/api/games/{gid}/resign/")
    assert resigned.status_code == 200, resigned.json()
    body = resigned.json()
    assert body["status"] == "finished" and body["winner"] == "west" and body["end_reason"] == "resignation"
    assert body["result"] == {"kind": "resignation", "resigned": "east"}
    view = api(alice).get(f"/api/games/{gid}/view/").json()
    assert view["status"] == "finished" and view["winner"] == "west" and view["your_turn"] is False
    assert not view["view"]["decision"] or not view["view"]["decision"].get("legal_actions")
    assert api(alice).post(f"/api/games/{gid}/resign/").json()["code"] == "game_finished"
    # the replay re-runs the actions logged before the resignation
    assert game_rebuild_state(game=Game.objects.get(pk=gid)).to_json() == Game.objects.get(pk=gid).state


def test_cancelling_an_open_battlefront_game(catalog_rows, api, alice):
    game = create_bf(api(alice))
    body = api(alice).post(f"/api/games/{game['id']}/resign/").json()
    assert body["status"] == "finished" and body["winner"] is None and body["result"]["kind"] == "cancelled"


def test_the_game_list_filters_by_game_type(catalog_rows, api, alice, create_game):
    battlecards = create_game(alice)
    battlefront = create_bf(api(alice), opponent={"kind": "bot", "bot": "random"})
    listed = lambda query: [g["id"] for g in api(alice).get(f"/api/games/{query}").json()["results"]]  # noqa: E731
    assert listed("?game_type=battlefront") == [battlefront["id"]]
    assert listed("?game_type=battlecards") == [battlecards["id"]]
    assert set(listed("")) == {battlefront["id"], battlecards["id"]}
    bad = api(alice).get("/api/games/?game_type=chess")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_the_game_list_takes_the_same_number_of_queries_whatever_the_number_of_games(
    catalog_rows, api, alice, bob, create_game
):
    client = api(alice)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/games/").status_code == 200
        return len(captured)

    create_bf(client)
    create_game(alice)
    few = queries()
    for seed in range(3):
        game = create_bf(client, seed=seed, opponent={"kind": "bot", "bot": "random"})
        assert game["status"] == "active"
    joined = create_bf(client, seed=9)
    api(bob).post(f"/api/games/{joined['id']}/join/", {}, format="json")
    assert queries() == few


# ------------------------------------------------------------------------------------ manage.py simulate


def _simulate(*args: str) -> str:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate", "--game", "battlefront", *args, stdout=out)
    return out.getvalue()


def test_simulate_plays_battlefront_reproducibly_whatever_the_worker_count_and_writes_nothing(db):
    import json

    args = ["--games", "6", "--seed", "3", "--bots", "heuristic", "random", "--json"]
    one = json.loads(_simulate(*args, "--workers", "1"))
    two = json.loads(_simulate(*args, "--workers", "2"))
    assert one["game"] == "battlefront" and one["bots"] == {"west": "heuristic", "east": "random"}
    assert one["games"] == 6 and one["unfinished"] == 0
    assert one["seats"]["west"]["wins"] + one["seats"]["east"]["wins"] + one["draws"] == 6
    for key in ("seats", "draws", "result_kinds", "average_turns", "average_plies"):
        assert one[key] == two[key], key
    options = {"special_cards": {"west": "DE", "east": "RU"}, "two_front_victory": True}
    with_rules = json.loads(_simulate("--games", "2", "--workers", "1", "--json", "--options-json",
                                      json.dumps(options)))
    assert with_rules["options"]["special_cards"] == options["special_cards"]
    assert not Game.objects.exists()


def test_simulate_refuses_decks_and_bad_options_for_battlefront(db):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="shared deck"):
        _simulate("--decks", "gb-we-starter", "de-we-starter")
    with pytest.raises(CommandError, match="invalid_options"):
        _simulate("--options-json", '{"blitzkrieg_attacker": "north"}')


def test_the_admin_shows_and_filters_the_game_type(catalog_rows, client, api, alice, create_game):
    from tests.decks.factories import UserFactory

    battlefront = create_bf(api(alice), opponent={"kind": "bot", "bot": "random"})
    battlecards = create_game(alice)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    page = client.get("/admin/games/game/?game_type__exact=battlefront")
    assert page.status_code == 200
    assert battlefront["id"].encode() in page.content and battlecards["id"].encode() not in page.content
    detail = client.get(f"/admin/games/game/{battlefront['id']}/change/")
    assert detail.status_code == 200 and b"Battlefront" in detail.content


def test_an_invited_player_finds_and_takes_the_open_battlefront_seat(catalog_rows, api, alice, bob, carol):
    game = create_bf(api(alice), opponent={"kind": "human", "username": "bob"}, seat="east")
    joinable = lambda user: [g["id"] for g in api(user).get("/api/games/?joinable=true").json()["results"]]  # noqa: E731
    assert joinable(bob) == [game["id"]] and joinable(carol) == []
    assert api(carol).post(f"/api/games/{game['id']}/join/", {}, format="json").status_code in (403, 404)
    joined = api(bob).post(f"/api/games/{game['id']}/join/", {}, format="json").json()
    assert joined["status"] == "active" and joined["my_seat"] == "west"
    seats = {s["seat"]: s["player"] for s in joined["seats"]}
    assert seats == {"east": "alice", "west": "bob"}
    assert api(bob).get(f"/api/games/{game['id']}/view/").json()["seat"] == "west"


def test_a_player_against_the_search_bot_plays_battlefront_to_the_end(catalog_rows, api, alice):
    """Issue 40: {"kind": "bot", "bot": "search-1"} seats the information-set search bot, which plays from
    its seat's view to the end of the game (every answer checked by the hidden-information oracle)."""
    game = create_bf(api(alice), opponent={"kind": "bot", "bot": "search-1"}, seat="west", seed=43)
    bot_seat = next(s for s in game["seats"] if s["seat"] == "east")
    assert bot_seat["kind"] == "bot" and bot_seat["bot"] == "search-1"

    me = {"west": bf.RandomBot(salt="me")}
    drive_bf_to_the_end(game_id=game["id"], clients={"west": api(alice)}, bots=me)

    finished = Game.objects.get(pk=game["id"])
    assert finished.status == "finished"
    assert GameAction.objects.filter(game=finished, seat="east", by_bot=True).exists()
    assert game_rebuild_state(game=finished).to_json() == finished.state


def test_a_search_level_the_game_does_not_offer_is_refused(catalog_rows, api, alice):
    """Every game with bots offers search-1..4 (issue 40); a level that does not exist is a 400."""
    body = {"game_type": "battlecards", "my_deck": {"starter": "gb-we-starter"},
            "opponent_deck": {"starter": "de-we-starter"}, "opponent": {"kind": "bot", "bot": "search-9"}}
    unknown = api(alice).post("/api/games/", body, format="json")
    assert unknown.status_code == 400
    assert not Game.objects.exists()
