"""A database outage under the real ASGI server (uvicorn, production settings: connection pool, LISTEN bus).

The outage (tests/live_asgi.refusing_connections): every connection the server holds to the test database
is terminated (pg_terminate_backend, filtered by database and the server's application_name) and new ones
are refused for OUTAGE seconds. Afterwards requests are served within seconds (the pool drops the dead
connections and reconnects at least every ~2 s), a stream still ends at its timeout, and what was written
while the server could not listen (its NOTIFY lost) reaches the stream once the listener is back.

The bounds below (5 s) check that the server recovers, they are not benchmarks. Before the fix, after a
20 s outage the request waiting in it was answered 9 s after the database was back (29 s in all, a hair
under the pool's 30 s timeout and its 503: the pool's reconnect delay doubled), and a stream with a 4 s
timeout ended after 10.5 s.
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection
from django.db.models import Max
from rest_framework.authtoken.models import Token

from games import selectors, services
from games.models import GameAction
from tests.games.conftest import game_body, token_client
from tests.live_asgi import asgi_server, refusing_connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgresql_only(
        reason="a database server outage (refused and terminated connections, the pool reconnecting) exists "
        "only for a database server"
    ),
]

OUTAGE = 8.0
LONG_OUTAGE = 20.0  # psycopg_pool used to retry at ~1, 3, 7, 15, then 31 s (doubling delays)
RECOVERY = 5.0  # generous: "within seconds"


@pytest.fixture(scope="module")
def server(django_db_setup):
    with asgi_server(cache_url="locmemcache://outage") as live:
        yield live


@pytest.fixture
def game(catalog_rows, alice) -> dict[str, Any]:
    response = token_client(alice).post(
        "/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json"
    )
    assert response.status_code == 201
    token, _ = Token.objects.get_or_create(user=alice)
    return {"id": response.json()["id"], "last_seq": response.json()["last_seq"],
            "headers": {"Authorization": f"Token {token.key}"}}


def _get(url: str, headers: dict[str, str]) -> tuple[int, float]:
    start = time.monotonic()
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - start


def test_requests_are_served_within_seconds_of_the_database_coming_back(server, game):
    url = f"{server}/api/games/{game['id']}/view/"
    assert _get(url, game["headers"])[0] == 200  # the pool holds live connections
    during: list[tuple[int, float]] = []
    with refusing_connections(server):
        waiting = threading.Thread(target=lambda: during.append(_get(url, game["headers"])))
        waiting.start()  # a request in the outage waits for a connection
        time.sleep(LONG_OUTAGE)
    back = time.monotonic()
    waiting.join(60)
    assert during and during[0][0] == 200, during
    assert time.monotonic() - back < RECOVERY
    after = [_get(url, game["headers"]) for _ in range(5)]
    assert [status for status, _ in after] == [200] * 5
    assert max(seconds for _, seconds in after) < RECOVERY, after


class StreamReader(threading.Thread):
    """Reads one event stream in a thread: (monotonic time, line) of its id: and event: lines."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.request = urllib.request.Request(url, headers={**headers, "Accept": "text/event-stream"})
        self.lines: list[tuple[float, str]] = []
        self.opened = threading.Event()
        self.started_at = self.ended_at = 0.0
        self.error: Exception | None = None

    def run(self) -> None:
        self.started_at = time.monotonic()
        try:
            with urllib.request.urlopen(self.request, timeout=60) as response:
                for raw in response:
                    self.opened.set()
                    line = raw.decode().rstrip("\n")
                    if line.startswith(("id: ", "event: ")):
                        self.lines.append((time.monotonic(), line))
        except Exception as exc:  # an incomplete body, a reset: the test fails on it
            self.error = exc
        self.ended_at = time.monotonic()
        self.opened.set()

    def seqs(self) -> list[tuple[float, int]]:
        return [(at, int(line[4:])) for at, line in self.lines if line.startswith("id: ")]

    def last_event(self) -> str:
        events = [line[7:] for _, line in self.lines if line.startswith("event: ")]
        return events[-1] if events else ""


def _append_an_action(game_id: str, user: Any) -> int:
    """Play the user's first legal action through the service (the test's own database connection, which
    the outage leaves alone); the bot answers in the same transaction. The new last seq."""
    view = selectors.game_player_view(game_id=game_id, user=user)
    action = view["view"]["decision"]["legal_actions"][0]
    services.game_action_submit(game_id=game_id, user=user, version=view["version"], action=action)
    return GameAction.objects.filter(game_id=game_id).aggregate(Max("seq"))["seq__max"]


def test_a_stream_ends_at_its_timeout_and_delivers_what_was_written_during_the_outage(server, game, alice):
    base = f"{server}/api/games/{game['id']}/events/stream/?since={game['last_seq']}"
    long_stream = StreamReader(base + f"&timeout={OUTAGE + 8}", game["headers"])  # outlives the outage
    short_stream = StreamReader(base + "&timeout=4", game["headers"])  # its deadline falls in the outage
    for reader in (long_stream, short_stream):
        reader.start()
        assert reader.opened.wait(30) and reader.error is None
    time.sleep(1)  # both wait on the game's signal; the listener is connected
    connection.ensure_connection()  # the test writes through this connection during the outage

    with refusing_connections(server):
        time.sleep(1)
        written = _append_an_action(game["id"], alice)  # its NOTIFY reaches no listener
        time.sleep(OUTAGE - 1)
    back = time.monotonic()
    long_stream.join(60)
    short_stream.join(60)

    assert long_stream.error is None and short_stream.error is None, (long_stream.error, short_stream.error)
    # The short stream ended at its deadline although the database did not answer, with a `timeout` event.
    assert short_stream.last_event() == "timeout"
    assert short_stream.ended_at - short_stream.started_at < 4 + 2.5
    # The long one got every entry written during the outage soon after the database came back ...
    seqs = long_stream.seqs()
    assert [seq for _, seq in seqs][-1] == written
    assert [seq for _, seq in seqs] == list(range(game["last_seq"] + 1, written + 1)) + [written]  # + timeout
    assert seqs[0][0] - back < RECOVERY, seqs[0][0] - back
    # ... and still ended at its own timeout.
    assert long_stream.last_event() == "timeout"
    assert long_stream.ended_at - long_stream.started_at < OUTAGE + 8 + 2.5


def test_a_request_whose_database_connection_is_lost_is_a_503_not_a_500(rf):
    """What the request in flight when the backends are terminated gets (a moment hard to hit live)."""
    import json

    import psycopg
    from django.db import OperationalError

    from config.middleware import ApiErrorMiddleware

    try:
        try:
            raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")
        except psycopg.Error as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as error:
        response = ApiErrorMiddleware(lambda r: None).process_exception(rf.get("/api/games/"), error)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert json.loads(response.content)["code"] == "database_unavailable"
