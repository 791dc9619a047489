"""The ASGI event stream: an action's entries are pushed when its transaction commits (PostgreSQL
LISTEN/NOTIFY, across processes), a reconnect with Last-Event-ID misses nothing, and without NOTIFY the
async stream polls. The streams are read through Django's AsyncClient (an ASGI request)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from games import event_bus
from tests.games.conftest import run_closing_connection, token_client

pytestmark = pytest.mark.django_db(transaction=True)


class _StreamClient:
    def __init__(self, user: Any) -> None:
        token, _ = Token.objects.get_or_create(user=user)
        self.auth = {"Authorization": f"Token {token.key}"}
        self.client = AsyncClient()

    async def get(self, url: str, headers: dict[str, str] | None = None) -> Any:
        return await self.client.get(url, headers={**self.auth, **(headers or {})})


def _stream_client(user: Any) -> _StreamClient:
    return _StreamClient(user)


class Reader:
    """Reads SSE messages from an async streaming response, one at a time."""

    def __init__(self, response: Any) -> None:
        self.chunks = aiter(response.streaming_content)
        self.buffer = ""

    async def next_message(self, timeout: float) -> dict[str, Any]:
        while "\n\n" not in self.buffer or self._only_comments():
            chunk = await asyncio.wait_for(anext(self.chunks), timeout)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while True:
            block, _, self.buffer = self.buffer.partition("\n\n")
            fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
                          and ": " in line)
            if "data" in fields:
                fields["data"] = json.loads(fields["data"])
                return fields

    def _only_comments(self) -> bool:
        return all(
            not any(line.startswith("data") for line in block.splitlines())
            for block in self.buffer.split("\n\n")[:-1]
        )


def _act(client, gid: str) -> dict[str, Any]:
    """The player whose turn it is takes their first legal action; returns the action's response."""
    view = client.get(f"/api/games/{gid}/view/").json()
    assert view["your_turn"]
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    response = client.post(f"/api/games/{gid}/actions/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _redis_up() -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", 6379), 1).close()
        return True
    except OSError:
        return False


REDIS_BUS = "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize("bus", [
    pytest.param(
        "", marks=pytest.mark.postgresql_only(reason="the default bus is PostgreSQL's LISTEN/NOTIFY"),
        id="postgresql",
    ),
    pytest.param(REDIS_BUS, marks=pytest.mark.skipif(not _redis_up(), reason="no Redis at 6379"), id="redis"),
])
def test_an_action_is_pushed_on_commit_and_a_reconnect_misses_nothing(bot_game, alice, settings, bus):
    settings.EVENT_BUS_URL = bus
    settings.GAMES_SSE_POLL_SECONDS = 3600  # a poll would never come in time: only the push can deliver
    settings.GAMES_SSE_KEEPALIVE_SECONDS = 3600
    gid = bot_game["id"]
    player = token_client(alice)
    stream_client = _stream_client(alice)

    async def scenario() -> None:
        response = await stream_client.get(f"/api/games/{gid}/events/stream/?timeout=60")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/event-stream")
        reader = Reader(response)
        seen = []
        last_seq = (await sync_to_async(player.get)(f"/api/games/{gid}/")).json()["last_seq"]
        while not seen or int(seen[-1]["id"]) < last_seq:  # the entries so far
            seen.append(await reader.next_message(timeout=60))
        listener = await event_bus.listener()
        assert listener.backend == ("redis" if bus else "postgresql")
        before = listener.notifications
        for _ in range(3):
            result = await sync_to_async(_act)(player, gid)
            expected = [entry["seq"] for entry in result["entries"]]
            for seq in expected:  # pushed at commit: no poll happens within the hour
                message = await reader.next_message(timeout=60)
                assert int(message["id"]) == seq == message["data"]["seq"]
                seen.append(message)
        assert listener.notifications >= before + 3
        ids = [int(m["id"]) for m in seen]
        assert ids == sorted(set(ids)) == list(range(ids[0], ids[-1] + 1))  # no loss, no duplicate
        await response.aclose() if hasattr(response, "aclose") else response.close()

        # Reconnect after missing some: Last-Event-ID resumes exactly after what was seen.
        resume_at = ids[-1]
        await sync_to_async(_act)(player, gid)
        again = await stream_client.get(
            f"/api/games/{gid}/events/stream/?timeout=60", headers={"Last-Event-ID": str(resume_at)}
        )
        reader = Reader(again)
        now = (await sync_to_async(player.get)(f"/api/games/{gid}/")).json()["last_seq"]
        resumed = [int((await reader.next_message(timeout=60))["id"]) for _ in range(now - resume_at)]
        assert resumed == list(range(resume_at + 1, now + 1))

    run_closing_connection(scenario())


def test_without_notify_the_async_stream_polls(bot_game, alice, settings, monkeypatch):
    monkeypatch.setattr(event_bus, "pushes", lambda: False)
    settings.GAMES_SSE_POLL_SECONDS = 0.05
    gid = bot_game["id"]
    player = token_client(alice)
    stream_client = _stream_client(alice)

    async def scenario() -> None:
        start = (await sync_to_async(player.get)(f"/api/games/{gid}/")).json()["last_seq"]
        response = await stream_client.get(f"/api/games/{gid}/events/stream/?timeout=30&since={start}")
        reader = Reader(response)
        result = await sync_to_async(_act)(player, gid)
        for entry in result["entries"]:
            assert int((await reader.next_message(timeout=60))["id"]) == entry["seq"]

    run_closing_connection(scenario())


@pytest.mark.skipif(not _redis_up(), reason="no Redis at 6379")
def test_redis_bus_publishes_only_after_commit(settings, monkeypatch):
    """A rolled-back write wakes nobody; a committed one publishes its game once, after the commit."""
    from django.db import transaction

    settings.EVENT_BUS_URL = REDIS_BUS
    published: list[str] = []
    monkeypatch.setattr(event_bus, "_publish", published.append)
    with pytest.raises(RuntimeError), transaction.atomic():
        event_bus.announce(game_id="rolled-back")
        raise RuntimeError("the action failed")
    with transaction.atomic():
        event_bus.announce(game_id="committed")
        assert published == []  # not before the commit
    assert published == ["committed"]  # once, at the commit (this module's tests really commit)


def test_a_failed_redis_publish_never_fails_the_action(bot_game, alice, settings, caplog):
    """Redis away: the action still commits (the log is the truth); the failure is only logged."""
    settings.EVENT_BUS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    gid = bot_game["id"]
    client = token_client(alice)
    before = client.get(f"/api/games/{gid}/").json()["last_seq"]
    result = _act(client, gid)
    assert result["entries"] and client.get(f"/api/games/{gid}/").json()["last_seq"] > before
    assert any("publishing game" in r.getMessage() for r in caplog.records)


@pytest.mark.postgresql_only(reason="the bus under test is PostgreSQL's LISTEN/NOTIFY")
def test_an_idle_stream_leaves_no_finished_waiter_on_its_games_signal(bot_game, alice, settings):
    """Each keep-alive ends one wait on the game's signal: the waiter is taken off it then, so a stream
    idle for its whole timeout holds one waiter on the signal, not one per keep-alive sent."""
    settings.EVENT_BUS_URL = ""
    settings.GAMES_SSE_KEEPALIVE_SECONDS = 0.02
    gid = bot_game["id"]
    stream_client = _stream_client(alice)

    async def scenario() -> None:
        response = await stream_client.get(f"/api/games/{gid}/events/stream/?timeout=60")
        assert response.status_code == 200
        chunks, text = aiter(response.streaming_content), ""
        while text.count(": keep-alive") < 8:
            chunk = await asyncio.wait_for(anext(chunks), 30)
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
        signal = (await event_bus.listener()).signal(gid)
        assert len(signal._waiters) <= 1  # the wait under way, if any
        await response.aclose() if hasattr(response, "aclose") else response.close()

    run_closing_connection(scenario())
