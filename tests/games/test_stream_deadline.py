"""Issue 34: a stream's timeout counts from its request's arrival, so a stream whose opening waited (for a
database connection during an outage, for slow queries) still ends on time: a stream opened during an
outage ran 34.4 s for a timeout of 20 s. Driven through `make serve`'s stream application in-process."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from games import apis, selectors
from games.fastpath import stream
from tests.games.conftest import alice, api, bob, create_game, make_user, two_player_game  # noqa: F401

TIMEOUT = 3.0
OPENING = 1.5  # the database answers the opening's checks this late


def _stream(path: str, query: str, token: str) -> tuple[int, bytes, float]:
    """(status, body, seconds from the request's arrival to the body's end) through config.asgi."""
    from config.asgi import application

    async def main() -> tuple[int, bytes, float]:
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
            "query_string": query.encode(), "client": ("127.0.0.1", 40000), "server": ("testserver", 80),
            "headers": [(b"host", b"testserver"), (b"authorization", f"Token {token}".encode())],
        }
        sent: list[dict[str, Any]] = []
        requested = False
        gone: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        async def receive() -> dict[str, Any]:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return await gone  # the client stays until the stream ends

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        started = time.monotonic()
        await asyncio.wait_for(application(scope, receive, send), 30)
        elapsed = time.monotonic() - started
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return status, body, elapsed

    return asyncio.run(main())


@pytest.mark.django_db(transaction=True)
def test_a_stream_whose_opening_waited_still_ends_its_timeout_after_it_arrived(
    two_player_game, alice, monkeypatch  # noqa: F811
):
    real = selectors.game_seat_for_events

    def slow(**kwargs: Any) -> Any:
        time.sleep(OPENING)
        return real(**kwargs)

    monkeypatch.setattr(apis.selectors, "game_seat_for_events", slow)
    token = Token.objects.get_or_create(user=alice)[0].key
    gid = two_player_game["id"]
    status, body, elapsed = _stream(f"/api/games/{gid}/events/stream/", f"timeout={TIMEOUT}&since=100000",
                                    token)
    assert status == 200, body[:300]
    assert b"event: timeout" in body
    # the timeout, plus at most the last read's STREAM_LAST_READ_SECONDS: not the opening's wait on top
    assert elapsed < TIMEOUT + stream.STREAM_LAST_READ_SECONDS, elapsed
    assert elapsed >= TIMEOUT - 0.1, elapsed  # and the stream did wait for its events until then
