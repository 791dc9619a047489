"""Takebacks through the HTTP API (issue 25, section 3): ask, accept or decline; the log stays append-only,
the state after a takeback is the replay of the actions still in effect; refused when the undone actions
showed the asking seat hidden information; bots decline unless the game's option lets them accept.

Every answer a seat receives here goes through the hidden-information oracle of its game. The deals are
secret (a random server salt), so the tests look for the situation they need by playing first legal
actions, a bounded number of steps.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from games import engine
from games.models import Game, GameAction
from games.selectors import state_digest
from games.services import game_rebuild_state
from tests.games.conftest import BattlefrontOracle, HiddenInfoOracle, current_state_json

pytestmark = pytest.mark.django_db

MAX_STEPS = 300


class Table:
    """The players of one game, each with an API client, every JSON answer checked by the oracle."""

    def __init__(self, api: Any, game_id: str, users: dict[str, Any], oracle: Any) -> None:
        self.gid = game_id
        self.clients = {seat: api(user) for seat, user in users.items()}
        self.oracle = oracle
        self.checked = 0

    def call(self, seat: str, method: str, path: str, body: Any = None) -> Any:
        client = self.clients[seat]
        url = f"/api/games/{self.gid}/{path}"
        response = client.post(url, body, format="json") if method == "POST" else client.get(url)
        self.oracle.check(response.json(), seat)
        self.checked += 1
        return response

    def view(self, seat: str) -> dict[str, Any]:
        response = self.call(seat, "GET", "view/")
        assert response.status_code == 200, response.json()
        return response.json()

    def mover(self) -> str | None:
        waiting = Game.objects.get(pk=self.gid).current_seat
        return waiting if waiting in self.clients else None

    def act(self, seat: str, pick: Any = None) -> dict[str, Any]:
        view = self.view(seat)
        legal = view["view"]["decision"]["legal_actions"]
        action = pick(legal) if pick is not None else legal[0]
        response = self.call(seat, "POST", "actions/", {"version": view["version"], "action": action})
        assert response.status_code == 200, response.json()
        return action

    def ask(self, seat: str, count: int = 1) -> Any:
        version = Game.objects.get(pk=self.gid).version
        return self.call(seat, "POST", "takeback/", {"version": version, "count": count})

    def answer(self, seat: str, accept: bool) -> Any:
        version = Game.objects.get(pk=self.gid).version
        return self.call(seat, "POST", "takeback/answer/", {"version": version, "accept": accept})


def stored_state(gid: str) -> dict[str, Any]:
    return current_state_json(Game.objects.get(pk=gid))


def find_takeback(table: Table, *, prefer: str | None = None, expect_code: str | None = None) -> tuple:
    """Play first legal actions (the `prefer` type when there is one) until the seat that just acted may
    ask for its action back (its request answered 200), or, with expect_code, until the request is refused
    with that code. Returns (seat, state before its action, state after, action, the answer)."""
    for _ in range(MAX_STEPS):
        seat = table.mover()
        assert seat is not None, "the game waits on nobody at this table"
        before = stored_state(table.gid)

        def pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
            return next((a for a in legal if a["type"] == prefer), legal[0])

        action = table.act(seat, pick)
        after = stored_state(table.gid)
        response = table.ask(seat)
        if expect_code is None and response.status_code == 200:
            return seat, before, after, action, response
        if expect_code is not None and response.status_code != 200 and response.json()["code"] == expect_code:
            return seat, before, after, action, response
        assert response.status_code in (200, 409), response.json()
        if response.status_code == 200:  # asked and waiting: decline it to go on
            other = next(s for s in table.clients if s.split("-")[0] != seat.split("-")[0])
            assert table.answer(other, False).status_code == 200
    raise AssertionError("no such situation within MAX_STEPS")


def events_of(entries: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e for entry in entries for e in entry["events"] if e["type"] == type_]


@pytest.fixture
def classic(two_player_game, api, alice, bob) -> Table:
    gid = two_player_game["id"]
    return Table(api, gid, {"allies": alice, "axis": bob}, HiddenInfoOracle(gid))


# --------------------------------------------------------------------------------------- round trip


def test_an_accepted_takeback_rewinds_to_the_replay_and_the_game_replays_identically(classic, alice, bob):
    table = classic
    seat, before, after, action, asked = find_takeback(table, prefer="deploy")
    other = "allies" if seat == "axis" else "axis"
    request = asked.json()
    assert [e["kind"] for e in request["entries"]] == ["takeback"]
    assert request["pending"]["requested_by"] == seat and request["pending"]["answer_by"] == [other]
    assert stored_state(table.gid) == after  # nothing undone before the answer
    status = table.call(other, "GET", "takeback/").json()
    assert status["pending"]["seq"] == request["entries"][0]["seq"]

    answered = table.answer(other, True)
    assert answered.status_code == 200, answered.json()
    body = answered.json()
    (takeback,) = events_of(body["entries"], "takeback")
    assert takeback["data"]["reload"] is True and takeback["data"]["requested_by"] == seat
    assert body["pending"] is None
    game = Game.objects.get(pk=table.gid)
    assert game.state == before  # the state before the action ...
    assert game_rebuild_state(game=game).to_json() == game.state  # ... is the replay of what is in effect
    assert game.current_seat == seat
    kinds = list(GameAction.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds[-3:] == ["action", "takeback", "takeback"]  # append-only: the undone action stays logged

    # the same action again gives the same state: the round trip replays identically
    table.act(seat, lambda legal: action)
    assert stored_state(table.gid) == after

    # the event log tells both seats to reload
    for who in (seat, other):
        page = table.call(who, "GET", "events/?since=0").json()
        assert events_of(page["entries"], "takeback")[0]["data"]["reload"] is True

    # after the end: the public replay and verify_games know the entry
    assert table.call(other, "POST", "resign/").status_code == 200
    replay = table.call(seat, "GET", "replay/").json()
    assert action in replay["actions"] and len(replay["actions"]) == len(
        [e for e in replay["log"] if e["kind"] == "action"]
    ) - 1  # the undone action is in the log, not among the actions in effect
    catalog = engine.Catalog.from_dicts(**replay["catalog"])
    final = engine.replay(catalog, engine.GameSetup.from_json(replay["setup"]), replay["actions"])
    assert state_digest(final.to_json()) == replay["final_state_sha256"]
    out = io.StringIO()
    call_command("verify_games", table.gid, stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    assert table.checked > 0


def test_a_declined_takeback_changes_nothing_and_cannot_be_answered_twice(classic):
    table = classic
    seat, _before, after, _action, _asked = find_takeback(table, prefer="deploy")
    other = "allies" if seat == "axis" else "axis"
    declined = table.answer(other, False)
    assert declined.status_code == 200
    body = declined.json()
    assert events_of(body["entries"], "takeback_declined")[0]["data"]["requested_by"] == seat
    assert body["pending"] is None and stored_state(table.gid) == after
    again = table.answer(other, True)
    assert again.status_code == 409 and again.json()["code"] == "no_takeback_pending"


def test_an_action_after_a_request_ends_its_wait(classic):
    table = classic
    seat, _before, _after, _action, _asked = find_takeback(table, prefer="deploy")
    mover = table.mover()
    table.act(mover)
    assert table.call(seat, "GET", "takeback/").json()["pending"] is None
    other = "allies" if seat == "axis" else "axis"
    late = table.answer(other, True)
    assert late.status_code == 409 and late.json()["code"] == "no_takeback_pending"


def test_a_takeback_is_refused_when_the_undone_action_showed_a_hidden_card(classic):
    table = classic
    seat, _before, after, action, refused = find_takeback(
        table, prefer="draw", expect_code="takeback_reveals_hidden_information"
    )
    body = refused.json()
    assert refused.status_code == 409 and body["reason"] in ("card", "random") and "seq" in body
    if action["type"] == "draw":  # the card drawn was hidden in the deck
        assert body["reason"] == "card"
    assert body["seq"] == Game.objects.get(pk=table.gid).last_seq  # the one action undone
    assert stored_state(table.gid) == after  # nothing written
    assert table.call(seat, "GET", "takeback/").json()["pending"] is None


def test_only_a_seat_of_the_other_side_answers_and_only_a_player_asks(classic, api, carol):
    table = classic
    seat, *_ = find_takeback(table, prefer="deploy")
    own = table.answer(seat, True)
    assert own.status_code == 403 and own.json()["code"] == "not_the_other_side"
    version = Game.objects.get(pk=table.gid).version
    for path, body in (("takeback/", {"version": version}), ("takeback/answer/", {"version": version,
                                                                                    "accept": True})):
        stranger = api(carol).post(f"/api/games/{table.gid}/{path}", body, format="json")
        assert stranger.status_code == 404  # a running game is invisible to whoever does not sit at it
        anonymous = api(None).post(f"/api/games/{table.gid}/{path}", body, format="json")
        assert anonymous.status_code == 401
    twice = table.ask(seat)
    assert twice.status_code == 409 and twice.json()["code"] == "takeback_pending"


def test_bad_requests_are_refused_with_a_code(classic):
    table = classic
    mover = table.mover()
    never = table.ask(mover, count=1)
    assert never.status_code == 409 and never.json()["code"] == "nothing_to_take_back"
    stale = table.call(mover, "POST", "takeback/", {"version": 0, "count": 1})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    too_many = table.call(mover, "POST", "takeback/", {"version": 1, "count": 21})
    assert too_many.status_code == 400
    none = table.answer(mover, True)
    assert none.status_code == 409 and none.json()["code"] == "no_takeback_pending"


def test_taking_back_several_actions_undoes_everything_after_the_first(classic):
    table = classic
    seat = table.mover()
    before = stored_state(table.gid)
    table.act(seat, lambda legal: next((a for a in legal if a["type"] == "deploy"), legal[0]))
    while table.mover() != seat:
        table.act(table.mover(), lambda legal: next((a for a in legal if a["type"] == "deploy"), legal[0]))
    table.act(seat, lambda legal: next((a for a in legal if a["type"] == "deploy"), legal[0]))
    asked = table.ask(seat, count=2)
    if asked.status_code == 409:  # the other seat's answer between showed this seat a card: legitimate
        assert asked.json()["code"] == "takeback_reveals_hidden_information"
        return
    assert asked.json()["pending"]["count"] == 2
    other = "allies" if seat == "axis" else "axis"
    assert table.answer(other, True).status_code == 200
    assert stored_state(table.gid) == before


# ------------------------------------------------------------------------------------------------- bots


def _bot_game(create_game, api, alice, **options: Any) -> Table:
    game = create_game(alice, opponent={"kind": "bot", "bot": "random"}, options=options)
    return Table(api, game["id"], {"allies": alice}, HiddenInfoOracle(game["id"]))


def test_a_bot_declines_a_takeback_by_default(create_game, api, alice):
    table = _bot_game(create_game, api, alice)
    assert table.call("allies", "GET", "takeback/").json()["bots_accept_takebacks"] is False
    seat, _before, after, _action, asked = find_takeback(table, prefer="deploy")
    body = asked.json()
    assert [(e["kind"], e["by_bot"]) for e in body["entries"]] == [("takeback", False), ("takeback", True)]
    assert events_of(body["entries"], "takeback_declined") and body["pending"] is None
    assert stored_state(table.gid) == after


def test_a_bot_accepts_when_the_game_allows_it(create_game, api, alice):
    table = _bot_game(create_game, api, alice, bots_accept_takebacks=True)
    seat, before, _after, _action, asked = find_takeback(table, prefer="deploy")
    body = asked.json()
    assert events_of(body["entries"], "takeback")[0]["data"]["reload"] is True
    assert stored_state(table.gid) == before
    game = Game.objects.get(pk=table.gid)
    assert body["state"]["your_turn"] is True and body["state"]["version"] == game.version
    assert game_rebuild_state(game=game).to_json() == game.state


def test_the_takeback_option_must_be_a_boolean(catalog_rows, api, alice):
    from tests.games.conftest import game_body

    response = api(alice).post(
        "/api/games/", game_body(options={"bots_accept_takebacks": "yes"}), format="json"
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_options"


# ----------------------------------------------------------------------------------- other game types


def test_a_team_game_against_bots_takes_back_with_the_option(catalog_rows, api, alice):
    body = {
        "armies": {
            "axis": [{"nation": "DE", "player": "bot", "bot": "random"},
                     {"nation": "DE", "player": "bot", "bot": "random"}],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "GB", "player": "bot", "bot": "random"}],
        },
        "options": {"bots_accept_takebacks": True, "max_turns": 10},
        "seed": 1944,
    }
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()
    seat = game["my_seat"]
    table = Table(api, game["id"], {seat: alice}, HiddenInfoOracle(game["id"]))
    asked_by, before, _after, _action, asked = find_takeback(table, prefer="deploy")
    assert asked_by == seat and stored_state(table.gid) == before
    stored = Game.objects.get(pk=table.gid)
    assert game_rebuild_state(game=stored).to_json() == stored.state
    assert table.checked > 0


def test_battlefront_round_trip_between_two_players(catalog_rows, api, alice, bob):
    body = {"game_type": "battlefront", "opponent": {"kind": "human"}, "seed": 1940}
    created = api(alice).post("/api/games/", body, format="json").json()
    assert api(bob).post(f"/api/games/{created['id']}/join/", {}, format="json").status_code == 200
    table = Table(api, created["id"], {"west": alice, "east": bob}, BattlefrontOracle(created["id"]))
    seat, before, after, action, _asked = find_takeback(table, prefer="play")
    other = "east" if seat == "west" else "west"
    assert table.answer(other, True).status_code == 200
    assert stored_state(table.gid) == before
    table.act(seat, lambda legal: action)
    assert stored_state(table.gid) == after
    stored = Game.objects.get(pk=table.gid)
    assert game_rebuild_state(game=stored).to_json() == stored.state


def test_the_stream_sends_the_takeback_entry(classic):
    table = classic
    seat, *_ = find_takeback(table, prefer="deploy")
    other = "allies" if seat == "axis" else "axis"
    table.answer(other, True)
    last = Game.objects.get(pk=table.gid).last_seq
    response = table.clients[seat].get(f"/api/games/{table.gid}/events/stream/?since={last - 2}&timeout=0.2")
    datas = [json.loads(line[6:]) for line in b"".join(response.streaming_content).decode().splitlines()
             if line.startswith("data: ")]
    entries = [d for d in datas if "seq" in d]
    for entry in entries:
        table.oracle.check(entry, seat)
    assert [e["action"]["type"] for e in entries] == ["takeback_request", "takeback"]
    assert entries[-1]["events"][0]["data"]["reload"] is True


def _no_team_option(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A deploy when there is one, else the first action that is no team option (give, trade, seats)."""
    team = ("give", "trade", "seats")
    plain = [a for a in legal if not (a["type"] == "choose" and a.get("option") in team)]
    return next((a for a in plain if a["type"] == "deploy"), plain[0] if plain else legal[0])


def test_a_transfer_to_a_teammate_cannot_be_taken_back(catalog_rows, api, alice, bob):
    """Issue 34 (5): alice gives a deployed force to her teammate bob, who is shown the card; taking the
    transfer back would leave bob knowing a card face down in alice's stacks, so it is refused, although
    alice herself saw nothing new (the bots of the other side would have accepted)."""
    body = {
        "armies": {
            "axis": [{"nation": "DE", "player": "bot", "bot": "random"},
                     {"nation": "DE", "player": "bot", "bot": "random"}],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "GB", "player": "open", "invite": "bob"}],
        },
        "options": {"bots_accept_takebacks": True},
        "seed": 1944,
    }
    created = api(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    mine, mate = game["my_seat"], next(s["seat"] for s in game["seats"] if s["invited"] == "bob")
    assert api(bob).post(f"/api/games/{game['id']}/join/", {"seat": mate}, format="json").status_code == 200
    table = Table(api, game["id"], {mine: alice, mate: bob}, HiddenInfoOracle(game["id"]))
    for _ in range(MAX_STEPS):
        seat = table.mover()
        legal = table.view(seat)["view"]["decision"]["legal_actions"]
        give = next((a for a in legal if a["type"] == "choose" and a.get("option") == "give"), None)
        if seat == mine and give is not None:
            break
        table.act(seat, _no_team_option)
    else:
        raise AssertionError("alice was never offered a transfer")
    table.act(mine, lambda legal: give)
    moved = table.act(mine, lambda legal: next(a for a in legal if a["type"] == "deploy"))
    last = Game.objects.get(pk=table.gid).last_seq
    shown = [
        e for e in table.call(mate, "GET", f"events/?since={last - 1}").json()["entries"][-1]["events"]
        if e["type"] == "forces_transferred_card"
    ]
    assert [e["data"]["card"] for e in shown] == [moved["card"]]  # bob was shown the card given
    after = stored_state(table.gid)
    refused = table.ask(mine)
    assert refused.status_code == 409, refused.json()
    assert refused.json()["code"] == "takeback_reveals_hidden_information"
    assert refused.json()["reason"] == "card" and refused.json()["seat"] == mate
    assert refused.json()["seq"] == last
    assert stored_state(table.gid) == after and table.call(mine, "GET", "takeback/").json()["pending"] is None
