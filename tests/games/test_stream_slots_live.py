"""Event streams on a real ASGI server (uvicorn, production settings) under each cache backend the README
documents (per-process memory, the database cache, Redis): every stream ends cleanly (its last chunk
sent), gives its slot back at the end, on a timeout and when the client goes away, so a user who opens
more streams one after the other than GAMES_SSE_MAX_STREAMS_PER_USER (8) still gets each of them.

Redis: TEST_REDIS_URL (default redis://127.0.0.1:6379/15; the keys carry a per-run prefix, nothing is
flushed); skipped when no Redis answers there, except in CI.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import aiohttp
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from rest_framework.authtoken.models import Token

from tests.games.conftest import game_body, token_client
from tests.live_asgi import asgi_server

pytestmark = [
    pytest.mark.django_db(transaction=True),
]

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
LIMIT = 8  # GAMES_SSE_MAX_STREAMS_PER_USER's default, as served


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="module", params=["locmem", "dbcache", "redis"])
def server(request, django_db_setup, django_db_blocker):
    backend = request.param
    if backend == "redis" and not os.environ.get("CI") and not _redis_answers():
        pytest.skip(f"no Redis answers at {REDIS_URL} (set TEST_REDIS_URL)")
    if backend == "dbcache":
        with django_db_blocker.unblock(), override_settings(CACHES={"default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}}):
            call_command("createcachetable")
    cache_url = {"locmem": "locmemcache://streams", "dbcache": "dbcache://django_cache", "redis": REDIS_URL}
    with asgi_server(cache_url=cache_url[backend]) as live:
        yield live
    # No exception (SynchronousOnlyOperation) and no "StreamingHttpResponse must consume synchronous
    # iterators" warning: under ASGI the stream is an async iterator.
    errors = [line for line in live.log().splitlines()
              if "Traceback" in line or "ERROR" in line or "must consume" in line]
    assert not errors, live.log()[-4000:]


@pytest.fixture
def games(catalog_rows, alice) -> dict[str, Any]:
    """alice's active game against a bot and a finished one; her token."""
    player = token_client(alice)
    active = player.post("/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json")
    finished = player.post("/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json")
    assert active.status_code == finished.status_code == 201
    assert player.post(f"/api/games/{finished.json()['id']}/resign/").status_code == 200
    token, _ = Token.objects.get_or_create(user=alice)
    connection.close()  # nothing of the test's holds a lock the server could wait on
    return {"active": active.json()["id"], "finished": finished.json()["id"],
            "headers": {"Authorization": f"Token {token.key}", "Accept": "text/event-stream"}}


def _run(scenario) -> Any:
    async def main():
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
            return await scenario(session)

    return asyncio.run(main())


def _last_event(body: str) -> str:
    blocks = [b for b in body.split("\n\n") if "event: " in b]
    return blocks[-1].split("event: ", 1)[1].split("\n", 1)[0] if blocks else ""


def test_streams_one_after_the_other_each_end_cleanly_and_give_their_slot_back(server, games):
    async def scenario(session):
        results = []
        for i in range(2 * LIMIT + 2):  # well past the limit, never more than one open at a time
            game, timeout = (games["active"], 0.5) if i % 2 else (games["finished"], 30)
            async with session.get(f"{server}/api/games/{game}/events/stream/?timeout={timeout}",
                                   headers=games["headers"]) as response:
                body = await response.text()  # an incomplete chunked body raises ClientPayloadError here
                results.append((response.status, _last_event(body)))
        return results

    results = _run(scenario)
    assert [status for status, _ in results] == [200] * (2 * LIMIT + 2), results
    assert [event for _, event in results] == ["end", "timeout"] * (LIMIT + 1)


async def _open(session, url: str, headers: dict[str, str]) -> aiohttp.ClientResponse:
    response = await session.get(url, headers=headers)
    if response.status == 200:
        assert (await response.content.readuntil(b"\n\n")).startswith(b"retry:")  # streaming
    return response


SLOT_BACK_SECONDS = 30  # well under a slot's expiry (the stream's timeout + 60 s = 180 s): a slot not given
# back still fails the test; on a loaded machine the release (a pooled thread, a DELETE) can wait its turn


async def _open_soon(session, url: str, headers: dict[str, str]) -> aiohttp.ClientResponse:
    """A stream; a 429 is tried again for up to SLOT_BACK_SECONDS (the server notices a closed connection
    by itself, a moment after the client closed it, then gives the slot back in a pooled thread)."""
    give_up = time.monotonic() + SLOT_BACK_SECONDS
    while True:
        response = await _open(session, url, headers)
        if response.status != 429 or time.monotonic() > give_up:
            return response
        response.release()
        await asyncio.sleep(0.2)


def test_streams_whose_client_went_away_give_their_slot_back(server, games):
    url = f"{server}/api/games/{games['active']}/events/stream/?timeout=120"

    async def scenario(session):
        for _ in range(3):  # a slot not given back would show from the second round on
            held = [await _open_soon(session, url, games["headers"]) for _ in range(LIMIT)]
            refused = [await r.text() for r in held if r.status != 200]  # which 429 (the error's code)
            assert [r.status for r in held] == [200] * LIMIT, (refused, server.log()[-4000:])
            extra = await _open(session, url, games["headers"])
            assert extra.status == 429 and "too_many_streams" in await extra.text()  # an `error` event
            for response in held:
                response.close()  # the client goes away mid-stream (its connection is closed)

    _run(scenario)
