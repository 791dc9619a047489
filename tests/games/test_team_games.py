"""Team, uneven and combined Battlecards games through the HTTP API (issue 16, part 4).

A game of 3 to 8 seats, one per army (axis-1.., allies-1..), is created with the armies form of
POST /api/games/, its open seats are taken by name (POST /join/ {"seat"}), bots fill the rest, and it is
played to the end through the API. Every answer any human seat receives (game detail, view, action answers,
events, the event stream) goes through the hidden-information oracle (tests.games.conftest.HiddenInfoOracle):
a seat sees its own army's hand and stacks, its side's common zones and public information, nothing of
its teammates' hands and face-down stacks.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import engine
from games.models import Game, GameAction, GameSeat
from games.services import game_rebuild_state
from tests.games.conftest import HiddenInfoOracle

pytestmark = pytest.mark.django_db

MAX_STEPS = 6000
# Games whose length proves nothing (what they check shows within a few turns) end on points after this many
# turns per two armies (Options.max_turns, the rules' termination guard; engine README, Termination): a
# 2v2 game lasts 8 to 214 turns (median 30), a combined WE+PAC one 89 to 331 (median 188) in engine self-play.
SHORT_GAME = {"max_turns": 10}
# The whole games bound only the long tail: 11 of 12 self-play 2v2 games end by the rules before 80 turns.
WHOLE_GAME = {"max_turns": 40}
GAME_PATH = re.compile(r"^/api/games/([0-9a-f-]{36})/")


class Oracles:
    """One hidden-information oracle per game of the test: every answer about a dealt game that any client
    of the test receives is checked for the seat of the user who asked (a user with no seat: against
    everything hidden from every seat)."""

    def __init__(self) -> None:
        self.by_game: dict[str, HiddenInfoOracle] = {}
        self.responses = 0
        self.secrets_checked = 0

    def __getitem__(self, game_id: str) -> HiddenInfoOracle:
        return self.by_game.setdefault(game_id, HiddenInfoOracle(game_id))

    def check(self, user: Any, path: str, method: str, response: Any) -> None:
        if response.streaming or not response.get("Content-Type", "").startswith("application/json"):
            return  # the event stream is checked entry by entry (stream_entries)
        payload = response.json()
        found = GAME_PATH.match(path)
        if found:
            game_id = found.group(1)
        elif path == "/api/games/" and method == "POST" and response.status_code == 201:
            game_id = payload["id"]
        else:
            return  # game lists, catalog: no card instance
        if path.endswith("/replay/"):
            return  # the whole game, published after its end by design (README, client guide 6)
        if not Game.objects.filter(pk=game_id).exclude(setup={}).exists():
            return
        seat = GameSeat.objects.filter(game_id=game_id, user=user).values_list("seat", flat=True).first()
        self.secrets_checked += self[game_id].check(payload, seat)
        self.responses += 1


class CheckedClient(APIClient):
    """An API client with a token whose every answer goes through the oracles."""

    def __init__(self, user: Any, oracles: Oracles) -> None:
        super().__init__()
        self.user, self.oracles = user, oracles
        token, _ = Token.objects.get_or_create(user=user)
        self.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    def request(self, **kwargs: Any) -> Any:
        response = super().request(**kwargs)
        self.oracles.check(self.user, kwargs["PATH_INFO"], kwargs["REQUEST_METHOD"], response)
        return response


@pytest.fixture
def oracles() -> Oracles:
    return Oracles()


@pytest.fixture
def api(oracles):
    """This module's clients: every answer about a team game is checked by its hidden-information oracle."""
    return lambda user: CheckedClient(user, oracles)


def side(seat: str) -> str:
    return seat.split("-", 1)[0]


def army(nation: str, player: str = "bot", **extra: Any) -> dict[str, Any]:
    return {"nation": nation, "player": player, **extra}


def team_body(axis: list[dict[str, Any]], allies: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"armies": {"axis": axis, "allies": allies}, "seed": 1944, **extra}


def create(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def stream_entries(client: Any, game_id: str, since: int = 0) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game_id}/events/stream/?since={since}&timeout=1")
    assert response.status_code == 200
    entries = []
    for block in b"".join(response.streaming_content).decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in lines and "event" not in lines:
            entries.append(json.loads(lines["data"]))
    return entries


def drive_team_game(*, game_id: str, clients: dict[str, Any], oracles: Oracles) -> dict[str, Any]:
    """Play every human seat (army) through the API until the game ends, each choosing with the heuristic
    bot from its OWN view's legal actions only; every answer goes through the oracle (the clients')."""
    oracle = oracles[game_id]
    bots = {seat: engine.HeuristicBot() for seat in clients}
    seen = dict.fromkeys(clients, 0)
    counts: dict[str, Any] = {"actions": 0, "oracle": oracle}
    start = (oracles.responses, oracles.secrets_checked)

    def checked(response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.json()
        return response.json()

    def read_events(seat: str) -> None:
        log = checked(clients[seat].get(f"/api/games/{game_id}/events/?since={seen[seat]}"))
        for entry in log["entries"]:
            assert entry["seq"] > seen[seat]
            assert all(e["visible_to"] in ("all", seat, side(seat)) for e in entry["events"])
            if entry["kind"] == "action" and entry["seat"] != seat:
                assert entry["action"] is None  # teammates' and enemies' choices: public events only
        if log["entries"]:
            seen[seat] = log["entries"][-1]["seq"]

    for client in clients.values():
        checked(client.get(f"/api/games/{game_id}/"))
    for step in range(MAX_STEPS):
        views = {seat: checked(client.get(f"/api/games/{game_id}/view/")) for seat, client in clients.items()}
        finished = next(iter(views.values()))["status"] == "finished"
        for seat, payload in views.items():
            view = payload["view"]
            assert view["seat"] == seat == payload["seat"]
            others = view["armies"]["others"]
            assert set(others) | {seat} == set(view["armies"]["turn_order"])
            for other, shown in [*others.items(), ("opponent", view["opponent"])]:
                # a teammate's hand and face-down stacks are shown as an enemy's: sizes only
                assert "hand" not in shown and isinstance(shown["hand_size"], int), other
                assert all(isinstance(n, int) for stacks in shown["stacks"].values() for n in stacks)
                if other != "opponent" and side(other) == side(seat):
                    assert shown["kept"] == view["me"]["kept"]  # the side's common kept cards
                else:
                    assert "kept" not in shown
        if step % 4 == 0 or finished:
            for seat in clients:
                read_events(seat)
        if finished:
            for seat, client in clients.items():
                checked(client.get(f"/api/games/{game_id}/"))
                for entry in stream_entries(client, game_id):  # the SSE stream, from the start
                    oracle.check(entry, seat)
                    assert all(e["visible_to"] in ("all", seat, side(seat)) for e in entry["events"])
            responses, secrets = oracles.responses - start[0], oracles.secrets_checked - start[1]
            assert responses >= 2 * counts["actions"] and secrets > responses, "the checks were not vacuous"
            counts["responses"] = responses
            return counts
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1, "exactly one human army decides while the bots wait on a human"
        seat = movers[0]
        for other, v in views.items():
            if other != seat:
                assert not v["view"]["decision"].get("legal_actions")
        legal = [engine.Action.from_json(a) for a in views[seat]["view"]["decision"]["legal_actions"]]
        assert legal, "the army that must decide always has a legal action"
        action = bots[seat].choose(views[seat]["view"], legal, seat)
        answer = checked(
            clients[seat].post(
                f"/api/games/{game_id}/actions/",
                {"version": views[seat]["version"], "action": action.to_json()},
                format="json",
            ),
        )
        assert answer["state"]["version"] > views[seat]["version"]
        for entry in answer["entries"]:
            assert all(e["visible_to"] in ("all", seat, side(seat)) for e in entry["events"])
        counts["actions"] += 1
    pytest.fail(f"the game did not end within {MAX_STEPS} steps")


def assert_finished_by_the_rules(game_id: str) -> Game:
    row = Game.objects.get(pk=game_id)
    assert row.status == "finished"
    if row.winner:
        assert row.winner in ("axis", "allies") and row.end_reason == "victory"  # a side wins, not an army
    else:
        assert len(set(row.state["result"]["points"].values())) == 1 and row.end_reason == "draw"
    assert set(row.state["result"]["points"]) == {"axis", "allies"}
    assert row.version == row.last_seq == GameAction.objects.filter(game=row).count()
    assert game_rebuild_state(game=row).to_json() == row.state  # seed + log re-run to the same state
    return row


# ------------------------------------------------------------------------------------ whole games

@pytest.mark.slow  # `make test-fast` leaves it out (a whole game)

def test_a_2v2_western_europe_game_humans_take_seats_bots_fill_the_rest_and_it_plays_to_the_end(
    catalog_rows, api, oracles, alice, bob, carol
):
    """GB+GB v DE+DE: alice creates it (allies-1) with an open British seat and a German seat reserved for
    carol; bob and carol take their seats by name; a bot plays axis-1. Three humans play to the end."""
    game = create(
        api(alice),
        team_body(
            axis=[army("DE", "bot"), army("DE", "open", invite="carol")],
            allies=[army("GB", "me"), army("GB", "open")],
            options=WHOLE_GAME,
        ),
    )
    gid = game["id"]
    assert game["status"] == "open" and game["my_seat"] == "allies-1"
    assert game["lineup"] == {"axis": ["DE", "DE"], "allies": ["GB", "GB"]}
    seats = {s["seat"]: s for s in game["seats"]}
    assert list(seats) == ["allies-1", "allies-2", "axis-1", "axis-2"]
    assert (
        seats["axis-1"]["kind"] == "bot"
        and seats["allies-2"]["open"]
        and seats["axis-2"]["invited"] == "carol"
    )
    assert {s["seat"]: s["side"] for s in game["seats"]} == {
        "allies-1": "allies",
        "allies-2": "allies",
        "axis-1": "axis",
        "axis-2": "axis",
    }
    row = Game.objects.get(pk=gid)
    # zigzag from the German 1st army (optional rule 3)
    assert engine.GameSetup.from_json(row.setup).armies == ("axis-1", "allies-1", "axis-2", "allies-2")
    # one British and one German starter set for the two players of each nation, pooled into one deck
    assert len(row.setup["decks"]["allies-1"]) > 0 and row.setup["decks"]["allies-2"] == []

    # nobody sees the deal before every seat is taken
    assert api(alice).get(f"/api/games/{gid}/view/").json()["code"] == "game_not_active"
    assert api(bob).post(f"/api/games/{gid}/join/", {"seat": "axis-2"}, format="json").json()["code"] == (
        "not_invited"
    )
    joined = api(bob).post(f"/api/games/{gid}/join/", {"seat": "allies-2"}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "open"
    assert joined.json()["my_seat"] == "allies-2"
    assert api(bob).get(f"/api/games/{gid}/view/").status_code == 409
    started = api(carol).post(f"/api/games/{gid}/join/", {"seat": "axis-2"}, format="json").json()
    assert started["status"] == "active" and started["started_at"]
    # the bot's army (axis-1) opened the game at once: the first human decision is pending
    assert GameAction.objects.filter(game_id=gid, seat="axis-1", by_bot=True).exists()

    clients = {"allies-1": api(alice), "allies-2": api(bob), "axis-2": api(carol)}
    counts = drive_team_game(game_id=gid, clients=clients, oracles=oracles)
    row = assert_finished_by_the_rules(gid)
    assert counts["actions"] == GameAction.objects.filter(game=row, kind="action", by_bot=False).count()
    assert counts["actions"] >= 10, counts
    assert counts["oracle"].teammate_secrets > 0, "teammates' hidden cards were among the secrets checked"
    for seat in clients:
        assert GameAction.objects.filter(game=row, seat=seat, by_bot=False, kind="action").exists()


def test_a_1v2_uneven_game_the_single_german_draws_12_and_deploys_9_and_plays_to_the_end(
    catalog_rows, api, oracles, alice
):
    """Optional rule 4: alice's German army against two British bot armies; the allies move first."""
    game = create(
        api(alice), team_body(axis=[army("DE", "me")], allies=[army("GB", "bot"), army("GB", "bot")])
    )
    gid = game["id"]
    assert game["status"] == "active" and game["my_seat"] == "axis-1"
    row = Game.objects.get(pk=gid)
    # the FAQ's 3-player order: 1st British army, the Germans, 2nd British army
    assert engine.GameSetup.from_json(row.setup).armies == ("allies-1", "axis-1", "allies-2")
    first = api(alice).get(f"/api/games/{gid}/view/").json()
    view = first["view"]
    assert view["decision"]["kind"] == "initial_deploy" and first["your_turn"]
    assert view["decision"]["prompt"]["count"] == 9  # "the Germans would begin the game by drawing 12
    assert len(view["me"]["hand"]) == 12  # and deploying 9"
    assert set(view["armies"]["others"]) == {"allies-1", "allies-2"}

    counts = drive_team_game(game_id=gid, clients={"axis-1": api(alice)}, oracles=oracles)
    assert_finished_by_the_rules(gid)
    assert counts["actions"] >= 10, counts


def test_a_combined_theater_game_gb_us_against_de_jp_plays_to_the_end(catalog_rows, api, oracles, alice, bob):
    """Combining sets: the Western European and Pacific conflict decks added together; alice plays the
    US army, bob the Japanese one, bots the British and German armies."""
    game = create(
        api(alice),
        team_body(
            axis=[army("DE", "bot"), army("JP", "open", invite="bob")],
            allies=[army("GB", "bot", bot="random"), army("US", "me")],
            conflict={"theaters": ["WE", "PAC"]},
            options=SHORT_GAME,  # the combined decks, seats and hidden cards show within 20 table turns
        ),
    )
    gid = game["id"]
    assert game["conflict_choice"] == {"theaters": ["PAC", "WE"]}
    nations = {s["seat"]: s["nation"] for s in game["seats"]}
    assert nations == {"axis-1": "DE", "axis-2": "JP", "allies-1": "GB", "allies-2": "US"}
    row = Game.objects.get(pk=gid)
    conflict = row.setup["conflict_deck"]
    assert {code.split("-")[0] for code in conflict} == {"we", "pac"} and len(conflict) == 100
    started = api(bob).post(f"/api/games/{gid}/join/", format="json").json()  # his reserved seat
    assert started["my_seat"] == "axis-2" and started["status"] == "active"
    view = api(alice).get(f"/api/games/{gid}/view/").json()["view"]
    assert view["victory_threshold"] == (38 * 2 + 72) // 2  # half the combined victory points
    assert row.setup["options"]["max_turns"] == SHORT_GAME["max_turns"]

    counts = drive_team_game(
        game_id=gid, clients={"allies-2": api(alice), "axis-2": api(bob)}, oracles=oracles
    )
    assert_finished_by_the_rules(gid)
    assert counts["actions"] >= 10, counts


# ------------------------------------------------------------------------------------- seats, join


@pytest.fixture
def open_2v2(catalog_rows, api, alice, carol) -> dict[str, Any]:
    return create(
        api(alice),
        team_body(
            axis=[army("DE", "open"), army("DE", "open", invite="carol")],
            allies=[army("GB", "me"), army("GB", "bot")],
        ),
    )


def test_joining_a_given_seat_and_the_refusals(open_2v2, api, alice, bob, carol, make_user):
    gid = open_2v2["id"]
    join = f"/api/games/{gid}/join/"
    assert api(bob).post(join, {"seat": "allies-3"}, format="json").json()["code"] == "invalid_seat"
    assert api(bob).post(join, {"seat": "axis-9"}, format="json").status_code == 400  # not a seat at all
    assert api(bob).post(join, {"seat": "allies-2"}, format="json").json()["code"] == "seat_taken"  # a bot
    assert api(bob).post(join, {"seat": "allies-1"}, format="json").json()["code"] == "seat_taken"
    assert api(bob).post(join, {"seat": "axis-2"}, format="json").json()["code"] == "not_invited"
    response = api(bob).post(join, {"seat": "axis-1", "deck": {"starter": "de-we-starter"}}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "deck_not_allowed"
    assert api(alice).post(join, {"seat": "axis-1"}, format="json").json()["code"] == "already_joined"

    listed = api(bob).get("/api/games/?joinable=true").json()["results"]
    assert [g["id"] for g in listed] == [gid]
    assert api(bob).post(join, {"seat": "axis-1"}, format="json").status_code == 200
    # one seat per player and game: bob may not take a second army
    second = api(bob).post(join, {"seat": "axis-2"}, format="json")
    assert second.status_code == 409 and second.json()["code"] == "already_joined"
    assert Game.objects.get(pk=gid).status == "open"

    # a joiner who resigns before the start leaves his seat; it is open again
    left = api(bob).post(f"/api/games/{gid}/resign/").json()
    assert left["status"] == "open"
    assert next(s for s in left["seats"] if s["seat"] == "axis-1")["open"]
    dave = make_user("dave")
    assert (
        api(dave).post(join, format="json").json()["my_seat"] == "axis-1"
    )  # the first open seat he may take
    started = api(carol).post(join, format="json").json()
    assert started["my_seat"] == "axis-2" and started["status"] == "active"
    assert api(bob).post(join, {"seat": "axis-1"}, format="json").json()["code"] == "game_not_open"
    kinds = list(GameAction.objects.filter(game_id=gid).exclude(kind="action").values_list("kind", "seat"))
    assert kinds == [("join", "axis-1"), ("resign", "axis-1"), ("join", "axis-1"), ("join", "axis-2")]


def test_a_1v1_game_is_joined_by_seat_name_too(catalog_rows, api, alice, bob):
    game = (
        api(alice)
        .post(
            "/api/games/",
            {
                "my_deck": {"starter": "gb-we-starter"},
                "opponent_deck": {"starter": "de-we-starter"},
                "opponent": {"kind": "human"},
            },
            format="json",
        )
        .json()
    )
    join = f"/api/games/{game['id']}/join/"
    assert api(bob).post(join, {"seat": "allies"}, format="json").json()["code"] == "seat_taken"
    assert api(bob).post(join, {"seat": "axis-1"}, format="json").json()["code"] == "invalid_seat"
    assert api(bob).post(join, {"seat": "axis"}, format="json").json()["my_seat"] == "axis"


def test_the_creator_resigning_an_open_team_game_cancels_it(open_2v2, api, alice, bob):
    gid = open_2v2["id"]
    assert api(bob).post(f"/api/games/{gid}/join/", {"seat": "axis-1"}, format="json").status_code == 200
    cancelled = api(alice).post(f"/api/games/{gid}/resign/").json()
    assert cancelled["status"] == "finished" and cancelled["end_reason"] == "unfinished"
    assert cancelled["winner"] is None


def test_one_armys_resignation_concedes_for_its_whole_side(catalog_rows, api, oracles, alice):
    game = create(
        api(alice),
        team_body(axis=[army("DE", "bot"), army("DE", "bot")], allies=[army("GB", "me"), army("GB")]),
    )
    assert game["status"] == "active"
    resigned = api(alice).post(f"/api/games/{game['id']}/resign/").json()
    assert resigned["winner"] == "axis" and resigned["end_reason"] == "resignation"
    assert resigned["result"] == {"kind": "resignation", "resigned": "allies-1"}


def test_a_user_reads_only_his_own_seat(open_2v2, api, oracles, alice, bob, carol, make_user):
    gid = open_2v2["id"]
    api(bob).post(f"/api/games/{gid}/join/", {"seat": "axis-1"}, format="json")
    api(carol).post(f"/api/games/{gid}/join/", {"seat": "axis-2"}, format="json")
    for user, seat in ((alice, "allies-1"), (bob, "axis-1"), (carol, "axis-2")):
        client = api(user)
        assert client.get(f"/api/games/{gid}/view/").json()["seat"] == seat
        assert client.get(f"/api/games/{gid}/events/").json()["seat"] == seat
    stranger = api(make_user("eve"))
    for endpoint in ("view/", "events/", "events/stream/?timeout=0"):
        assert stranger.get(f"/api/games/{gid}/{endpoint}").status_code == 404
    # acting for another army (a teammate's or an enemy's) is refused
    view = api(bob).get(f"/api/games/{gid}/view/").json()
    waiting = view["waiting_on"]
    other = api(carol) if waiting == "axis-1" else api(bob)
    action = {"type": "pass", "seat": waiting}
    response = other.post(
        f"/api/games/{gid}/actions/", {"version": view["version"], "action": action}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] in ("not_your_turn", "not_your_seat")


def test_events_reach_an_army_its_side_and_everyone_as_addressed(
    catalog_rows, api, oracles, alice, bob, carol
):
    """A side's event (e.g. a conflict card kept by the side, visible_to "allies") reaches both of its
    armies and no enemy; an army's own event (a drawn card) reaches only that army."""
    game = create(
        api(alice),
        team_body(
            axis=[army("DE", "open", invite="carol"), army("DE", "bot")],
            allies=[army("GB", "me"), army("GB", "open", invite="bob")],
            options=SHORT_GAME,  # every kind of addressee occurs from the first turns on
        ),
    )
    gid = game["id"]
    api(bob).post(f"/api/games/{gid}/join/", format="json")
    api(carol).post(f"/api/games/{gid}/join/", format="json")
    clients = {"allies-1": api(alice), "allies-2": api(bob), "axis-1": api(carol)}
    drive_team_game(game_id=gid, clients=clients, oracles=oracles)

    stored = {e.seq: e.events for e in GameAction.objects.filter(game_id=gid)}
    addressed: set[str] = set()
    for seat, client in clients.items():
        got: dict[int, list[dict[str, Any]]] = {}
        while len(got) < len(stored):  # at most 1000 entries per page
            page = client.get(f"/api/games/{gid}/events/?since={max(got, default=0)}").json()["entries"]
            assert page, "the log ends before its last_seq"
            got.update((e["seq"], e["events"]) for e in page)
        assert set(got) == set(stored)  # every entry, filtered
        for seq, events in stored.items():
            expected = [e for e in events if e["visible_to"] in ("all", seat, side(seat))]
            assert got[seq] == expected  # the side's events reach both its armies, never the enemy's
            addressed.update(e["visible_to"] for e in events)
    assert {"all", "allies-1", "axis-1"} <= addressed, addressed  # public and per-army events were sent


# ------------------------------------------------------------------------------------ bad requests


@pytest.mark.parametrize(
    ("body", "code", "detail"),
    [
        (team_body([army("DE")] * 5, [army("GB", "me")] * 1 + [army("GB")] * 4), "too_many_armies", None),
        (team_body([], [army("GB", "me"), army("GB")]), "side_without_army", None),
        (team_body([army("DE")], [army("GB", "me"), army("GB"), army("GB")]), "teams_too_uneven", None),
        (
            team_body([army("DE")], [army("GB", "me"), army("GB")], options={"larger_standing_armies": True}),
            "uneven_teams_refuse_rule_1",
            "Games with uneven teams cannot use Optional Rule #1",
        ),
        (team_body([army("GB"), army("DE")], [army("GB", "me"), army("GB")]), "nation_on_wrong_side", None),
        (team_body([army("XX"), army("DE")], [army("GB", "me"), army("GB")]), "unknown_nation", None),
        (team_body([army("DE"), army("DE")], [army("GB"), army("GB")]), "one_seat_per_player", None),
        (
            team_body([army("DE", "me"), army("DE")], [army("GB", "me"), army("GB")]),
            "one_seat_per_player",
            None,
        ),
        (team_body([army("DE")], [army("GB", "me")]), "not_a_team_game", None),
        (
            team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB", "open", invite="alice")]),
            "one_seat_per_player",
            None,
        ),
        (
            team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB", "open", invite="nobody")]),
            "unknown_user",
            None,
        ),
        (
            team_body(
                [army("DE"), army("DE")], [army("GB", "me"), army("GB")], conflict={"theaters": ["XX"]}
            ),
            "unknown_theater",
            None,
        ),
        (
            team_body([army("DE", starter="jp-starter"), army("DE")], [army("GB", "me"), army("GB")]),
            "starter_not_found",
            None,
        ),
        (
            team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB", "bot", invite="bob")]),
            "invalid",
            None,
        ),
        (
            {
                **team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")]),
                "my_deck": {"starter": "x"},
            },
            "invalid",
            None,
        ),
        (
            team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")], conflict={"mode": "fat"}),
            "invalid",
            None,
        ),
        (
            team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")], options={"x": 1}),
            "invalid_options",
            None,
        ),
        *(  # armies are a game with team games (its definition says so): not of the others
            (
                team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")], game_type=other),
                "invalid",
                "Armies are a Battlecards game's",
            )
            for other in ("battlefront", "the-war", "the_war", "tide-of-iron")
        ),
    ],
)
def test_bad_team_games_are_refused_with_a_clear_code_and_create_nothing(
    catalog_rows, api, alice, body, code, detail
):
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code, response.json()
    if detail:
        assert detail in response.json()["detail"]
    assert not Game.objects.exists()


def test_an_open_team_game_counts_against_the_open_game_cap(catalog_rows, api, alice, settings):
    settings.GAMES_MAX_OPEN_PER_USER = 1
    body = team_body([army("DE", "open"), army("DE")], [army("GB", "me"), army("GB")])
    create(api(alice), body)
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "too_many_open_games"
    # a game of bots only starts at once: no cap
    assert create(api(alice), team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")]))[
        "status"
    ] == ("active")


def test_the_oracle_refuses_a_teammates_hand_and_stacks_and_allows_the_seats_own(
    catalog_rows, api, oracles, alice
):
    """The oracle is not vacuous: a payload naming a teammate's reserve card or face-down deployed card,
    or a card of the common arsenal deck, fails it; the seat's own hand passes."""
    game = create(api(alice), team_body([army("DE"), army("DE")], [army("GB"), army("GB", "me")]))
    oracle = oracles[game["id"]]
    state = Game.objects.get(pk=game["id"]).state
    mine, mate = state["players"]["allies-2"], state["players"]["allies-1"]  # allies-1 deployed
    assert oracle.check({"hand": mine["hand"]}, "allies-2") > 0
    mate_deployed = [c for stacks in mate["stacks"].values() for stack in stacks for c in stack]
    hidden = [*mate["hand"][:1], *mate_deployed[:1], state["pools"]["allies:GB"]["deck"][0]]
    assert len(hidden) == 3, "the teammate has a reserve card and a deployed one"
    for card in hidden:
        with pytest.raises(AssertionError, match="hidden card instances"):
            oracle.check({"view": {"card": card}}, "allies-2")
    with pytest.raises(AssertionError, match="hidden card instances"):  # and the enemy's, of course
        oracle.check([state["players"]["axis-1"]["hand"][0]], "allies-2")


def test_a_team_army_cannot_be_a_search_bot_it_plays_1v1_games_only(catalog_rows, api, alice):
    """Issue 40: Battlecards' search bot plays classic two-army games only (its determinizer rebuilds one
    enemy army): a team army naming a search level is a 400 bot_not_available, not a game that fails when
    the bot moves."""
    body = team_body(axis=[army("DE", "bot", bot="search-1"), army("DE", "bot")], allies=[army("GB", "me")])
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "bot_not_available" and response.json()["field"] == "armies.axis.0.bot"
    assert not Game.objects.exists()
