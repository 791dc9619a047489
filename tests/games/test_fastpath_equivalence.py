"""The hot path (games.fastpath) and the plain reference path (settings.GAMES_FAST_PATH off: ORM reads and
writes, the selectors' payloads rendered by DRF) over the same games: every game type between two people,
and a game against a bot. Each game is played twice, once on each path, from the same seed and salt with the
same choices; the bytes of every answer (the seats' views, each read twice, every action's answer, a stale
and a malformed action), the stored game row and log, and the number of SQL statements of every request are
compared. Runs on every database the suite runs on (SQLite and PostgreSQL), with real commits (the fast path
hands a written state on only after its commit).

On PostgreSQL the bytes are compared with the keys of each JSON object in one order: the state column is
jsonb, which does not keep the order of an object's keys, so a state decoded from the row (every request of
the reference path; the fast path's first request of a row) lists the keys of its objects in jsonb's order,
and the state an action POST of the fast path keeps in memory in the order the engine inserted them (e.g.
Battlefront's `placed` {"C","R","L"} against {"C","L","R"}): the same values, not the same bytes. SQLite
keeps the text as written, and there the bytes themselves are compared."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.fastpath import answers, hot_state
from games.game_types import GAME_TYPES
from games.models import Game, GameAction
from tests.games.test_short_journeys import CREATION, choose, legal_actions

pytestmark = pytest.mark.django_db(transaction=True)  # the fast path's hand-on waits for a real commit

ACTIONS = 24  # actions posted per game and path
CASES = [*sorted(GAME_TYPES), "battlecards-vs-bot"]
TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")
TIMES = re.compile(rb'"(created_at|started_at|joined_at|updated_at)":"[^"]*"')


def _comparable(content: bytes) -> bytes:
    """The bytes compared: as answered, or on PostgreSQL with every object's keys sorted (see above)."""
    if connection.vendor != "postgresql" or not content.startswith((b"{", b"[")):
        return content
    return json.dumps(json.loads(content), sort_keys=True, separators=(",", ":")).encode()


def _statements(queries: list[dict[str, Any]]) -> int:
    return sum(1 for q in queries if not q["sql"].startswith(TRANSACTION_CONTROL))


class Run:
    """One game played on one path: the normalized bytes and statement count of each answer, in order."""

    def __init__(self, client_of: dict[str, Any], game_id: str) -> None:
        self.clients, self.game_id = client_of, game_id
        self.answers: list[tuple[str, int, bytes]] = []
        self.statements: list[tuple[str, int]] = []

    def request(self, label: str, seat: str, method: str, path: str, body: Any = None) -> Any:
        client = self.clients[seat]
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path) if method == "get" else client.post(path, body, format="json")
        self.record(label, response)
        self.statements.append((label, _statements(queries.captured_queries)))
        return response

    def record(self, label: str, response: Any) -> None:
        """An answer compared (its statements are not counted: a creation's or a join's)."""
        named = response.content.replace(self.game_id.encode(), b"GAME")
        content = TIMES.sub(rb'"\1":"-"', named)
        self.answers.append((label, response.status_code, _comparable(content)))


def _first_difference(got: bytes, expected: bytes) -> str:
    pairs = enumerate(zip(got, expected, strict=False))
    at = next((i for i, (a, b) in pairs if a != b), min(len(got), len(expected)))
    return f"at byte {at}: {got[max(0, at - 80):at + 80]!r} != {expected[max(0, at - 80):at + 80]!r}"


def _play(case: str, *, api: Any, alice: Any, bob: Any) -> tuple[Run, dict[str, Any]]:
    """Creates the case's game and plays ACTIONS actions of its human seats (each seat's own seeded choices
    among the legal actions its view offers); returns the run and the stored row and log, normalized."""
    hot_state.clear()
    answers._CARDS_JSON.clear()  # noqa: SLF001  (each path starts without encoded cards)
    game_type = "battlecards" if case == "battlecards-vs-bot" else case
    opponent = {"kind": "bot", "bot": "random"} if case == "battlecards-vs-bot" else {"kind": "human"}
    body = {"game_type": game_type, "opponent": opponent, "seed": 1944, **CREATION[game_type]}
    created = api(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    seats = {s["seat"]: s["player"] for s in created.json()["seats"]}
    if opponent["kind"] == "human":
        joined = api(bob).post(f"/api/games/{gid}/join/", {}, format="json")
        assert joined.status_code == 200, joined.json()
        seats = {s["seat"]: s["player"] for s in joined.json()["seats"]}
    people = {"alice": alice, "bob": bob}
    clients = {seat: api(people[player]) for seat, player in seats.items() if player in people}
    run = Run(clients, gid)
    run.record("created", created)  # a game's own answer (GameSerializer)
    if opponent["kind"] == "human":
        run.record("joined", joined)
    view_path, action_path = f"/api/games/{gid}/view/", f"/api/games/{gid}/actions/"
    rngs = {seat: random.Random(f"1944-{seat}") for seat in clients}
    for played in range(ACTIONS):
        views = {}
        for seat in clients:
            run.request("view", seat, "get", view_path)  # built (or kept by the action POST)
            views[seat] = run.request("view again", seat, "get", view_path).json()  # kept
        if next(iter(views.values()))["status"] == "finished":
            break
        seat = next(s for s, v in views.items() if v["your_turn"])
        legal = legal_actions(views[seat]["view"])
        if played == 0:
            stale = {"version": views[seat]["version"] + 5, "action": legal[0]}
            run.request("stale action", seat, "post", action_path, stale)
            run.request("malformed action", seat, "post", action_path, {"version": "x", "action": None})
        action = {"version": views[seat]["version"], "action": choose(legal, rngs[seat], played)}
        answer = run.request("action", seat, "post", action_path, action)
        assert answer.status_code == 200, answer.json()
    for seat in clients:
        run.request("game", seat, "get", f"/api/games/{gid}/")
    game = Game.objects.get(pk=gid)
    stored = {
        "row": {f: getattr(game, f) for f in (
            "status", "state", "state_lag", "version", "last_seq", "turn", "ply", "current_seat", "winner",
            "end_reason", "result", "clock",
        )},
        "log": list(GameAction.objects.filter(game_id=gid).order_by("seq").values_list(
            "seq", "kind", "seat", "by_bot", "action", "events", "version"
        )),
    }
    return run, stored


@pytest.mark.parametrize(
    "case, state_every", [*((case, 1) for case in CASES), ("battlecards-vs-bot", 3), ("battlefront", 3)]
)
def test_the_fast_path_answers_and_stores_what_the_reference_path_does(
    case, state_every, api, alice, bob, catalog_rows, settings, monkeypatch
):
    settings.GAMES_STATE_EVERY = state_every  # 3: most actions leave the stored state as it is
    # the same secret salt for both games (it picks the deal and the bots' choices), in every creation flow
    monkeypatch.setattr("games.services.seeds.new_salt", lambda: "5a" * 16)
    settings.GAMES_FAST_PATH = False
    reference, reference_stored = _play(case, api=api, alice=alice, bob=bob)
    settings.GAMES_FAST_PATH = True
    fast, fast_stored = _play(case, api=api, alice=alice, bob=bob)

    assert len(fast.answers) == len(reference.answers) > 4 * 2
    for index, (got, expected) in enumerate(zip(fast.answers, reference.answers, strict=True)):
        difference = _first_difference(got[2], expected[2])
        assert got == expected, f"answer {index} ({expected[0]}) differs: {difference}"
    assert fast_stored == reference_stored
    assert fast_stored["row"]["version"] > 1 and len(fast_stored["log"]) >= ACTIONS // 2
    # statements: never more on the fast path, and fewer in all
    for (label, got), (_, expected) in zip(fast.statements, reference.statements, strict=True):
        assert got <= expected, (label, got, expected)
    assert sum(n for _, n in fast.statements) < sum(n for _, n in reference.statements)
    kept = [n for label, n in fast.statements if label == "view again"]
    assert max(kept) <= 2  # the token, then the row with its seats: the seat part is kept
    if connection.vendor == "postgresql":
        posted = [n for label, n in fast.statements if label == "action"]
        assert min(posted) == 3, posted  # the token, the locked row (its state kept), the one-statement write
