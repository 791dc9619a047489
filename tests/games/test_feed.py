"""A feed of what concerns me (issue 25 §5): invitations, "your turn" in any of my games, takeback requests
and game ends, written by the services in the transaction of the action; a paginated list for clients that
poll, and one event stream per user, pushed on commit (PostgreSQL LISTEN/NOTIFY)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction

from games import services
from games.models import Game, GameSeat
from tests.games.conftest import game_body, token_client

pytestmark = pytest.mark.django_db


def feed(user: Any, query: str = "") -> list[dict[str, Any]]:
    response = token_client(user).get(f"/api/feed/{query}")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def kinds(user: Any) -> list[str]:
    return [n["kind"] for n in reversed(feed(user))]  # oldest first


def act(user: Any, gid: str) -> dict[str, Any]:
    client = token_client(user)
    view = client.get(f"/api/games/{gid}/view/").json()
    assert view["your_turn"]
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    response = client.post(f"/api/games/{gid}/actions/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def mover(gid: str) -> Any:
    game = Game.objects.get(pk=gid)
    return GameSeat.objects.get(game=game, seat=game.current_seat).user


def test_an_invited_player_is_told_at_creation(create_game, alice, bob, carol):
    game = create_game(alice, opponent={"kind": "human", "username": "bob"})
    [invitation] = feed(bob)
    assert invitation["kind"] == "invitation" and invitation["game"] == game["id"]
    assert invitation["data"] == {"game_type": "battlecards", "seat": "axis", "by": "alice"}
    assert feed(alice) == feed(carol) == []  # an open seat for anyone invites nobody; a feed is private


def test_a_team_games_invitees_are_told(catalog_rows, alice, bob, carol):
    body = {
        "armies": {
            "axis": [{"nation": "DE", "player": "open", "invite": "bob"}, {"nation": "DE", "player": "bot"}],
            "allies": [
                {"nation": "GB", "player": "me"},
                {"nation": "GB", "player": "open", "invite": "carol"},
            ],
        },
        "seed": 3,
    }
    assert token_client(alice).post("/api/games/", body, format="json").status_code == 201
    assert [n["data"]["seat"] for n in feed(bob)] == ["axis-1"]
    assert [n["data"]["seat"] for n in feed(carol)] == ["allies-2"]


def test_your_turn_reaches_the_player_who_must_decide_and_never_the_actor(two_player_game, alice, bob):
    gid = two_player_game["id"]
    first = mover(gid)  # bob's join started the game: alice is told if the first decision is hers
    assert kinds(alice) == (["your_turn"] if first == alice else []) and kinds(bob) == []
    told = {alice.pk: 0, bob.pk: 0}
    for _ in range(12):
        actor = mover(gid)
        before = {u.pk: len(feed(u, "?kind=your_turn")) for u in (alice, bob)}
        act(actor, gid)
        after = {u.pk: len(feed(u, "?kind=your_turn")) for u in (alice, bob)}
        assert after[actor.pk] == before[actor.pk]  # the actor learns it from his own answer
        now = mover(gid)
        assert after[now.pk] - before[now.pk] == (0 if now == actor else 1)
        told[now.pk] += after[now.pk] - before[now.pk]
        if now != actor:
            latest = feed(now, "?kind=your_turn")[0]
            assert latest["data"]["seat"] == Game.objects.get(pk=gid).current_seat
    assert all(told.values()), "the decision went back and forth"


def test_against_bots_your_turn_is_not_sent_to_the_one_who_plays(catalog_rows, alice):
    client = token_client(alice)
    body = game_body(opponent={"kind": "bot", "bot": "random"})
    game = client.post("/api/games/", body, format="json").json()
    for _ in range(5):
        act(alice, game["id"])
    assert kinds(alice) == []


def test_the_end_of_a_game_reaches_every_other_player(two_player_game, alice, bob):
    gid = two_player_game["id"]
    assert token_client(bob).post(f"/api/games/{gid}/resign/").status_code == 200
    [end] = feed(alice, "?kind=game_end")
    assert end["data"] == {
        "game_type": "battlecards", "seat": "allies", "winner": "allies", "end_reason": "resignation",
        "result": "resignation",
    }
    assert feed(bob, "?kind=game_end") == []


def test_an_expired_game_tells_its_creator(create_game, alice):
    game = create_game(alice)
    assert services.games_expire_open(older_than=timedelta(0)) == 1
    [end] = feed(alice)
    assert end["game"] == game["id"] and end["data"]["result"] == "expired" and end["data"]["winner"] is None


def test_a_takeback_request_reaches_the_other_side(two_player_game, alice, bob):
    """The takeback service calls feed_notify_takeback_request in its transaction."""
    game = Game.objects.prefetch_related("seats").get(pk=two_player_game["id"])
    with transaction.atomic():
        services.feed_notify_takeback_request(game=game, requested_by=alice, seat="allies", count=2)
    [request] = feed(bob)
    assert request["kind"] == "takeback_request"
    assert request["data"] == {"game_type": "battlecards", "seat": "allies", "by": "alice", "count": 2,
                               "your_seat": "axis"}
    assert feed(alice, "?kind=takeback_request") == []


def test_the_list_pages_and_polls_with_since(create_game, alice, bob):
    for seed in range(3):
        create_game(alice, opponent={"kind": "human", "username": "bob"}, seed=seed + 1)
    everything = feed(bob)
    assert len(everything) == 3 and [n["seq"] for n in everything] == sorted(
        (n["seq"] for n in everything), reverse=True
    )
    page = token_client(bob).get("/api/feed/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    newer = feed(bob, f"?since={everything[1]['seq']}")
    assert newer == everything[:1]
    assert token_client(bob).get("/api/feed/?kind=nonsense").status_code == 400
    assert token_client(None).get("/api/feed/").status_code == 401


def test_the_feed_stream_sends_what_the_list_holds_and_resumes_after_last_event_id(create_game, alice, bob):
    for seed in range(2):
        create_game(alice, opponent={"kind": "human", "username": "bob"}, seed=seed + 1)
    listed = list(reversed(feed(bob)))
    client = token_client(bob)
    streamed = _sse(client.get("/api/feed/stream/?timeout=0"))
    assert [m["data"] for m in streamed if "event" not in m] == listed
    assert [int(m["id"]) for m in streamed if "event" not in m] == [n["seq"] for n in listed]
    assert streamed[-1]["event"] == "timeout" and streamed[-1]["data"]["reconnect"] is True
    resumed = _sse(client.get("/api/feed/stream/?timeout=0", HTTP_LAST_EVENT_ID=str(listed[0]["seq"])))
    assert [m["data"] for m in resumed if "event" not in m] == listed[1:]


def _sse(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200
    messages = []
    for block in b"".join(response.streaming_content).decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            messages.append(fields)
    return messages


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql_only(reason="the bus under test is PostgreSQL's LISTEN/NOTIFY")
def test_the_feed_stream_is_pushed_when_the_action_commits(catalog_rows, alice, bob, settings):
    from tests.games.conftest import run_closing_connection
    from tests.games.test_event_push import Reader, _stream_client

    settings.GAMES_SSE_POLL_SECONDS = 3600  # only the push can deliver in time
    settings.GAMES_SSE_KEEPALIVE_SECONDS = 3600
    stream_client, creator = _stream_client(bob), token_client(alice)

    async def scenario() -> None:
        response = await stream_client.get("/api/feed/stream/?timeout=60")
        assert response.status_code == 200
        reader = Reader(response)
        body = game_body(opponent={"kind": "human", "username": "bob"})
        created = await sync_to_async(creator.post)("/api/games/", body, format="json")
        message = await reader.next_message(timeout=60)
        assert message["data"]["kind"] == "invitation" and message["data"]["game"] == created.json()["id"]

    run_closing_connection(scenario())
