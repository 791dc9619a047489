"""The event streams' ASGI application (config.stream_asgi, routed by config.asgi), driven directly as uvicorn
drives it (asgiref's ApplicationCommunicator): the same answers as the Django views that WSGI serves (the
test client here) for every refusal, the same authentication (token, session cookie, single-use ticket), the
seat's log then `timeout`, a resume after Last-Event-ID or ?since, a push at commit, a slot and a spectator
presence given back when the client goes away, and nothing hidden from the reader in any of its streams."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from games import event_bus
from games.models import GameAction
from tests.games.conftest import HiddenInfoOracle, run_closing_connection, token_client

pytestmark = pytest.mark.django_db(transaction=True)

ERROR_KEYS = {"status", "code", "detail"}


def _scope(url: str, headers: dict[str, str]) -> dict[str, Any]:
    path, _, query = url.partition("?")
    items = headers.items()
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver"), *((k.lower().encode(), v.encode()) for k, v in items)],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }


class RawStream:
    """One GET to config.asgi.application: its status and headers, then its SSE messages one at a time."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.app = ApplicationCommunicator(application, _scope(url, headers or {}))
        self.buffer = ""
        self.ended = False

    async def open(self) -> RawStream:
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(30)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        return self

    async def _chunk(self, timeout: float) -> None:
        message = await self.app.receive_output(timeout)
        assert message["type"] == "http.response.body"
        self.buffer += message.get("body", b"").decode()
        self.ended = not message.get("more_body", False)

    async def body(self) -> bytes:
        while not self.ended:
            await self._chunk(30)
        return self.buffer.encode()

    async def json(self) -> Any:
        return json.loads(await self.body())

    async def next_message(self, timeout: float = 30) -> dict[str, Any]:
        while True:
            while "\n\n" not in self.buffer:
                assert not self.ended, "the stream ended"
                await self._chunk(timeout)
            block, _, self.buffer = self.buffer.partition("\n\n")
            fields = dict(line.split(": ", 1) for line in block.splitlines()
                          if ": " in line and not line.startswith(":"))
            if "data" in fields:
                fields["data"] = json.loads(fields["data"])
                return fields

    async def all_messages(self) -> list[dict[str, Any]]:
        messages = []
        while True:
            messages.append(await self.next_message())
            if messages[-1].get("event") in ("end", "timeout"):
                await self.body()  # then the body ends
                await self.app.wait(5)
                return messages

    async def disconnect(self) -> None:
        await self.app.send_input({"type": "http.disconnect"})
        await self.app.wait(10)  # the application returns (no error) once the client went away


async def _raw(url: str, headers: dict[str, str] | None = None) -> RawStream:
    return await RawStream(url, headers).open()


def _auth(user: Any) -> dict[str, str]:
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


def _act(client: Any, gid: str) -> dict[str, Any]:
    view = client.get(f"/api/games/{gid}/view/").json()
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    response = client.post(f"/api/games/{gid}/actions/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _last_seq(gid: str) -> int:
    return GameAction.objects.filter(game_id=gid).count()


def test_every_refusal_is_the_django_views_answer(bot_game, alice, bob):
    gid = bot_game["id"]
    ticket = token_client(alice).post(f"/api/games/{gid}/events/stream-ticket/").json()["ticket"]
    used = token_client(alice).post(f"/api/games/{gid}/events/stream-ticket/").json()["ticket"]
    with_ticket = token_client(None).get(f"/api/games/{gid}/events/stream/?ticket={used}&timeout=0")
    assert with_ticket.status_code == 200
    cases = [
        (f"/api/games/{gid}/events/stream/", {}),  # no credentials
        (f"/api/games/{gid}/events/stream/", {"Authorization": "Token nope"}),
        (f"/api/games/{gid}/events/stream/?ticket={used}", {}),  # a ticket is good once
        (f"/api/games/{gid}/events/stream/?ticket=unknown", {}),
        (f"/api/games/{gid}/events/stream/", _auth(bob)),  # not a player of this game
        ("/api/games/00000000-0000-0000-0000-000000000000/events/stream/", _auth(alice)),
        (f"/api/games/{gid}/events/stream/?timeout=9999", _auth(alice)),
        (f"/api/games/{gid}/events/stream/", {**_auth(alice), "Last-Event-ID": "abc"}),
        (f"/api/games/{gid}/events/stream/?since=-1", _auth(alice)),
        (f"/api/games/{gid}/events/stream/", {**_auth(bob), "Accept": "text/event-stream"}),  # an SSE `error`
        (f"/api/games/{gid}/spectate/stream/", {}),
        (f"/api/games/{gid}/spectate/stream/?delay=-3", _auth(bob)),
        ("/api/games/00000000-0000-0000-0000-000000000000/spectate/stream/", _auth(bob)),
        ("/api/feed/stream/", {}),
        ("/api/feed/stream/", {**_auth(alice), "Last-Event-ID": "²"}),
    ]

    async def scenario() -> None:
        for url, headers in cases:
            raw = await _raw(url, headers)
            body = await raw.body()
            meta = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
            django = await sync_to_async(Client().get)(url, **meta)
            assert (raw.status, body) == (django.status_code, django.content), url
            assert raw.status in (400, 401, 403, 404), url
            assert raw.headers["content-type"] == django["Content-Type"], url
            assert raw.headers.get("www-authenticate") == django.get("WWW-Authenticate"), url
            if django["Content-Type"].startswith("application/json"):
                assert set(json.loads(body)) >= ERROR_KEYS, url  # (+ `errors` of a 400)
            else:
                assert body.startswith(b"event: error\ndata: {"), url
            await raw.app.wait(5)
        # the ticket not used above opens alice's stream, once
        opened = await _raw(f"/api/games/{gid}/events/stream/?ticket={ticket}&timeout=0")
        assert opened.status == 200 and (await opened.all_messages())[-1]["event"] == "timeout"
        again = await _raw(f"/api/games/{gid}/events/stream/?ticket={ticket}&timeout=0")
        assert again.status == 401 and (await again.json())["code"] == "invalid_ticket"

    run_closing_connection(scenario())


def test_the_seats_log_then_timeout_with_the_views_headers(bot_game, alice):
    gid = bot_game["id"]
    player = token_client(alice)
    for _ in range(3):
        _act(player, gid)
    alice_auth = _auth(alice)
    last_seq = _last_seq(gid)
    page = player.get(f"/api/games/{gid}/events/?since=0").json()
    wsgi = player.get(f"/api/games/{gid}/events/stream/?timeout=0")
    wsgi_messages = b"".join(wsgi.streaming_content).decode()

    async def scenario() -> None:
        raw = await _raw(f"/api/games/{gid}/events/stream/?timeout=0.3", alice_auth)
        assert raw.status == 200
        messages = await raw.all_messages()
        assert [m["data"] for m in messages[:-1]] == page["entries"]  # the selectors of the JSON log
        assert [int(m["id"]) for m in messages[:-1]] == list(range(1, last_seq + 1))
        last = messages[-1]
        assert last["event"] == "timeout" and int(last["id"]) == last_seq
        assert last["data"] == {"status": "active", "last_seq": last_seq, "reconnect": True}
        assert raw.buffer == "" and wsgi_messages.startswith("retry: 2000\n\n")
        # the middleware's headers as well as the view's (request id, security headers, no caching)
        assert set(raw.headers) == {k.lower() for k in wsgi.headers}
        assert raw.headers["content-type"] == "text/event-stream"
        assert raw.headers["cache-control"] == "no-cache" and raw.headers["x-accel-buffering"] == "no"

    run_closing_connection(scenario())


def test_a_session_cookie_authenticates_as_for_the_view(bot_game, alice):
    gid = bot_game["id"]
    browser = Client()
    browser.force_login(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"

    async def scenario() -> None:
        raw = await _raw(f"/api/games/{gid}/events/stream/?timeout=0", {"Cookie": cookie})
        assert raw.status == 200 and (await raw.all_messages())[-1]["event"] == "timeout"
        feed = await _raw("/api/feed/stream/?timeout=0", {"Cookie": cookie})
        assert feed.status == 200 and (await feed.all_messages())[-1]["event"] == "timeout"
        bad = await _raw(f"/api/games/{gid}/events/stream/", {"Cookie": "sessionid=forged"})
        assert bad.status in (401, 403) and set(await bad.json()) == ERROR_KEYS

    run_closing_connection(scenario())


@pytest.mark.postgresql_only(reason="the bus under test is PostgreSQL's LISTEN/NOTIFY")
def test_resume_after_last_event_id_or_since_then_a_push_at_commit(bot_game, alice, settings):
    settings.GAMES_SSE_POLL_SECONDS = 3600  # only the push can deliver in time
    settings.GAMES_SSE_KEEPALIVE_SECONDS = 3600
    gid = bot_game["id"]
    player = token_client(alice)
    _act(player, gid)
    alice_auth = _auth(alice)

    async def scenario() -> None:
        now = await sync_to_async(_last_seq)(gid)
        for headers, query in (({"Last-Event-ID": "2"}, "&since=0"), ({}, "&since=2")):
            raw = await _raw(f"/api/games/{gid}/events/stream/?timeout=60{query}", {**alice_auth, **headers})
            got = [int((await raw.next_message())["id"]) for _ in range(now - 2)]
            assert got == list(range(3, now + 1))
            await raw.disconnect()
        raw = await _raw(f"/api/games/{gid}/events/stream/?timeout=60&since={now}", alice_auth)
        await asyncio.sleep(0.3)  # waiting on the bus
        listener = await event_bus.listener()
        result = await sync_to_async(_act)(player, gid)
        for entry in result["entries"]:
            message = await raw.next_message(timeout=30)
            assert int(message["id"]) == entry["seq"] and message["data"] == entry
        assert listener.notifications > 0
        await raw.disconnect()

    run_closing_connection(scenario())


def test_a_client_that_goes_away_gives_its_slot_and_presence_back(bot_game, alice, carol, settings):
    settings.GAMES_SSE_MAX_STREAMS_PER_USER = 1
    gid = bot_game["id"]
    watching = f"/api/games/{gid}/spectate/stream/?timeout=60"
    carol_auth = _auth(carol)

    def spectators() -> int:
        return token_client(alice).get(f"/api/games/{gid}/spectate/").json()["spectators"]

    async def scenario() -> None:
        first = await _raw(watching, carol_auth)
        assert first.status == 200 and await sync_to_async(spectators)() == 1
        refused = await _raw("/api/feed/stream/?timeout=60", carol_auth)
        assert refused.status == 429 and (await refused.json())["code"] == "too_many_streams"
        assert refused.headers["retry-after"] == "5"
        await first.disconnect()
        assert await sync_to_async(spectators)() == 0
        second = await _raw("/api/feed/stream/?timeout=60", carol_auth)
        assert second.status == 200
        await second.disconnect()

    run_closing_connection(scenario())


def test_no_stream_tells_its_reader_anything_hidden_from_it(bot_game, alice, carol):
    gid = bot_game["id"]
    player = token_client(alice)
    seat = player.get(f"/api/games/{gid}/view/").json()["seat"]
    oracle = HiddenInfoOracle(gid)
    for _ in range(8):
        _act(player, gid)
    auths = {"alice": _auth(alice), "carol": _auth(carol)}

    async def scenario() -> list[tuple[list[dict[str, Any]], str | None]]:
        read = []
        for url, user, reader in (
            (f"/api/games/{gid}/events/stream/?timeout=0", "alice", seat),
            (f"/api/games/{gid}/spectate/stream/?timeout=0", "carol", None),
            (f"/api/games/{gid}/spectate/stream/?timeout=0", "alice", None),
            ("/api/feed/stream/?timeout=0", "alice", seat),
        ):
            raw = await _raw(url, auths[user])
            assert raw.status == 200, url
            read.append(([m["data"] for m in await raw.all_messages()], reader))
        return read

    streams: list = []

    async def collect() -> None:
        streams.extend(await scenario())

    run_closing_connection(collect())
    assert len(streams[0][0]) > 8 and len(streams[1][0]) > 1
    checked = sum(oracle.check(messages, reader) for messages, reader in streams)
    assert checked > 0, "the oracle had secrets to look for"
