"""Spectators (issue 25 §1): any user may watch a game its creator opened to spectators (by default the games
against bots): its public view, its public log and event stream, optionally some plies behind. Every answer a
spectator gets goes through the hidden-information oracle with no seat (everything hidden from every seat
must stay hidden); a delayed view is the public view of the replayed state that many plies ago."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.signals import request_finished
from django.db import close_old_connections

from games import engine
from games.catalog_snapshot import catalog_from_snapshot
from games.game_types import game_type_of
from games.models import Game, GameAction, LogKind, SpectatorStream
from games.selectors import game_actions_in_effect, game_catalog
from tests.games.conftest import BattlefrontOracle, HiddenInfoOracle, game_body, json_strings, token_client

pytestmark = pytest.mark.django_db


def _sse_messages(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200
    messages = []
    for block in b"".join(response.streaming_content).decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            messages.append(fields)
    return messages


def _close(response: Any) -> None:
    """The server closes a stream (as the test client does after reading one: without closing the test's
    database connection)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def _act(client: Any, gid: str) -> None:
    view = client.get(f"/api/games/{gid}/view/").json()
    assert view["your_turn"]
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][-1]}
    assert client.post(f"/api/games/{gid}/actions/", body, format="json").status_code == 200


def _engine_actions(gid: str) -> int:
    return GameAction.objects.filter(game_id=gid, kind=LogKind.ACTION).count()


class Spectator:
    """A user with no seat whose every answer about the game goes through the game's oracle."""

    def __init__(self, user: Any, gid: str, oracle: Any) -> None:
        self.client, self.gid, self.oracle = token_client(user), gid, oracle
        self.secrets_checked = 0

    def get(self, path: str) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{self.gid}/spectate/{path}")
        assert response.status_code == 200, response.json()
        payload = response.json()
        self.secrets_checked += self.oracle.check(payload, None)
        return payload

    def stream(self, query: str = "") -> list[dict[str, Any]]:
        messages = _sse_messages(self.client.get(f"/api/games/{self.gid}/spectate/stream/?timeout=0{query}"))
        self.secrets_checked += self.oracle.check([m["data"] for m in messages], None)
        return messages


def test_a_spectator_sees_only_public_information_in_the_view_log_and_stream(bot_game, alice, carol):
    gid = bot_game["id"]
    assert bot_game["spectators"] == {"allowed": True, "delay": 0, "watching": 0}  # on against a bot
    player, carol_sees = token_client(alice), Spectator(carol, gid, HiddenInfoOracle(gid))
    seen = 0
    for _ in range(12):
        answer = carol_sees.get("")
        assert answer["status"] == "active" and answer["delay"] == 0 and answer["seq"] == (
            player.get(f"/api/games/{gid}/").json()["last_seq"]
        )
        view = answer["view"]
        assert view["seat"] is None and "me" not in view and "opponent" not in view
        for side in view["players"].values():  # every army as an enemy sees it: sizes, never cards
            assert isinstance(side["hand_size"], int) and "hand" not in side and "kept" not in side
        assert view["decision"] is None or set(view["decision"]) == {"seat", "kind"}  # no prompt, no moves
        log = carol_sees.get(f"events/?since={seen}")
        for entry in log["entries"]:
            assert entry["action"] is None or entry["kind"] != "action"  # nobody's engine action
            assert all(e["visible_to"] == "all" for e in entry["events"])
        seen = log["seq"]
        _act(player, gid)
    streamed = carol_sees.stream()
    last_seq = player.get(f"/api/games/{gid}/").json()["last_seq"]
    assert [int(m["id"]) for m in streamed if "event" not in m] == list(range(1, last_seq + 1))
    assert streamed[-1]["event"] == "timeout"
    assert player.post(f"/api/games/{gid}/resign/").status_code == 200
    end = carol_sees.stream()
    assert end[-1]["event"] == "end" and carol_sees.get("")["status"] == "finished"
    assert carol_sees.secrets_checked > 0, "the oracle had secrets to look for"


def test_a_delayed_view_is_the_public_view_of_the_replayed_state_that_many_plies_ago(bot_game, alice, carol):
    gid = bot_game["id"]
    player, carol_sees = token_client(alice), Spectator(carol, gid, HiddenInfoOracle(gid))
    recorded = []
    for step in range(10):
        live_ply = carol_sees.get("")["view"]["ply"]
        for delay in (1, 4):
            answer = carol_sees.get(f"?delay={delay}")
            assert answer["delay"] == delay
            recorded.append((_engine_actions(gid), delay, live_ply, answer))
            log = carol_sees.get(f"events/?delay={delay}")
            assert log["seq"] == answer["seq"] and all(e["seq"] <= answer["seq"] for e in log["entries"])
            later = GameAction.objects.filter(game_id=gid, kind=LogKind.ACTION, seq__gt=answer["seq"]).count()
            assert later == min(delay, _engine_actions(gid))  # exactly `delay` engine actions are held back
        if step < 9:
            _act(player, gid)
    assert player.post(f"/api/games/{gid}/resign/").status_code == 200
    replay = player.get(f"/api/games/{gid}/replay/").json()
    catalog = catalog_from_snapshot(replay["catalog"])
    setup = engine.GameSetup.from_json(replay["setup"])
    for actions_then, delay, live_ply, answer in recorded:
        state = engine.replay(catalog, setup, replay["actions"][: max(0, actions_then - delay)])
        assert answer["view"] == json.loads(json.dumps(engine.public_view(state)))
        if actions_then >= delay:
            assert answer["view"]["ply"] == live_ply - delay
    assert carol_sees.get("?delay=4")["delay"] == 0  # a finished game is shown whole


def test_the_creators_delay_is_the_least_a_spectator_gets(catalog_rows, alice, carol):
    body = game_body(opponent={"kind": "bot", "bot": "random"}, spectators={"delay": 3})
    game = token_client(alice).post("/api/games/", body, format="json").json()
    assert game["spectators"] == {"allowed": True, "delay": 3, "watching": 0}
    carol_sees = Spectator(carol, game["id"], HiddenInfoOracle(game["id"]))
    assert carol_sees.get("")["delay"] == carol_sees.get("?delay=1")["delay"] == 3
    assert carol_sees.get("?delay=5")["delay"] == 5


def test_who_may_watch(create_game, api, alice, bob, carol, bot_game):
    # a game between humans: no spectators unless its creator allows them; its players may always watch
    closed = create_game(alice)
    assert closed["spectators"]["allowed"] is False
    assert api(carol).get(f"/api/games/{closed['id']}/spectate/").json()["code"] == "spectators_not_allowed"
    assert api(bob).post(f"/api/games/{closed['id']}/join/").status_code == 200
    assert api(carol).get(f"/api/games/{closed['id']}/spectate/").json()["code"] == "game_not_found"
    assert api(alice).get(f"/api/games/{closed['id']}/spectate/").status_code == 200
    assert api(alice).post(f"/api/games/{closed['id']}/resign/").status_code == 200
    refused = api(carol).get(f"/api/games/{closed['id']}/spectate/")  # public now, but not to watch
    assert refused.status_code == 403 and refused.json()["code"] == "spectators_not_allowed"
    # a human game opened to spectators: watchable once it started
    opened = create_game(alice, spectators={"allowed": True}, seed=7)
    waiting = api(carol).get(f"/api/games/{opened['id']}/spectate/")
    assert waiting.status_code == 409 and waiting.json()["code"] == "game_not_active"
    assert api(bob).post(f"/api/games/{opened['id']}/join/").status_code == 200
    answer = api(carol).get(f"/api/games/{opened['id']}/spectate/").json()
    HiddenInfoOracle(opened["id"]).check(answer, None)
    assert {p["player"] for p in answer["players"]} == {"alice", "bob"}
    # a bot game whose creator said no; an anonymous user; a bad option
    off = create_game(alice, opponent={"kind": "bot", "bot": "random"}, spectators={"allowed": False}, seed=8)
    assert api(carol).get(f"/api/games/{off['id']}/spectate/").status_code == 404
    assert api(None).get(f"/api/games/{bot_game['id']}/spectate/").status_code == 401
    bad = api(alice).post("/api/games/", game_body(spectators={"delay": -1}), format="json")
    assert bad.status_code == 400


def test_the_spectator_count_is_the_users_with_a_spectator_stream_open(bot_game, alice, bob, carol):
    gid = bot_game["id"]
    url = f"/api/games/{gid}/spectate/stream/?timeout=30"
    carol_client, bob_client = token_client(carol), token_client(bob)
    assert carol_client.get(f"/api/games/{gid}/spectate/").json()["spectators"] == 0
    first, second = carol_client.get(url), carol_client.get(url)  # open (not read yet): they count
    third = bob_client.get(url)
    watching = carol_client.get(f"/api/games/{gid}/spectate/").json()["spectators"]
    assert watching == 2  # distinct users: carol's second tab counts once
    assert token_client(alice).get(f"/api/games/{gid}/").json()["spectators"]["watching"] == 2
    for response in (first, second):
        _close(response)  # the stream ended (the server closes it: its end, its timeout, the client left)
    assert carol_client.get(f"/api/games/{gid}/spectate/").json()["spectators"] == 1
    _close(third)
    assert SpectatorStream.objects.count() == 0


def test_a_team_game_is_watched_without_seeing_any_armys_hidden_cards(catalog_rows, alice, carol):
    body = {
        "armies": {
            "axis": [{"nation": "DE", "player": "bot"}, {"nation": "DE", "player": "bot"}],
            "allies": [{"nation": "GB", "player": "me"}, {"nation": "GB", "player": "bot"}],
        },
        "seed": 1944,
    }
    player = token_client(alice)
    game = player.post("/api/games/", body, format="json").json()
    gid = game["id"]
    assert game["spectators"]["allowed"] is True  # every other seat is a bot
    oracle = HiddenInfoOracle(gid)
    carol_sees = Spectator(carol, gid, oracle)
    for _ in range(8):
        answer = carol_sees.get("?delay=2")
        assert set(answer["view"]["players"]) == {"axis-1", "axis-2", "allies-1", "allies-2"}
        carol_sees.get("")
        carol_sees.get("events/")
        _act(player, gid)
    carol_sees.stream()
    assert carol_sees.secrets_checked > 0


def test_a_battlefront_game_is_watched_without_seeing_either_hand(catalog_rows, alice, carol):
    player = token_client(alice)
    body = {"game_type": "battlefront", "opponent": {"kind": "bot", "bot": "random"}, "seed": 5}
    game = player.post("/api/games/", body, format="json").json()
    gid = game["id"]
    carol_sees = Spectator(carol, gid, BattlefrontOracle(gid))
    hands = set()
    for _ in range(10):
        hands |= {c["code"] for c in player.get(f"/api/games/{gid}/view/").json()["view"]["me"]["hand"]}
        answer = carol_sees.get("")
        assert set(answer["view"]["players"]) == {"west", "east"}
        assert "me" not in answer["view"] and "hand" not in json_strings(answer["view"]["players"])
        carol_sees.get("?delay=3")
        carol_sees.get("events/")
        if answer["status"] == "finished":
            break
        _act(player, gid)
    carol_sees.stream()
    assert carol_sees.secrets_checked > 0 and hands


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql_only(reason="the bus under test is PostgreSQL's LISTEN/NOTIFY")
def test_the_spectator_stream_is_pushed_on_commit_and_stays_behind_by_its_delay(
    catalog_rows, alice, carol, settings
):
    from tests.games.conftest import run_closing_connection
    from tests.games.test_event_push import Reader, _stream_client

    settings.GAMES_SSE_POLL_SECONDS = 3600  # only the push can deliver in time
    settings.GAMES_SSE_KEEPALIVE_SECONDS = 3600
    player = token_client(alice)
    body = game_body(opponent={"kind": "bot", "bot": "random"})
    game = player.post("/api/games/", body, format="json").json()
    gid, oracle, stream_client = game["id"], HiddenInfoOracle(game["id"]), _stream_client(carol)

    def cutoff() -> int:
        hidden = GameAction.objects.filter(game_id=gid, kind=LogKind.ACTION).order_by("-seq")[:2]
        return min(a.seq for a in hidden) - 1

    async def scenario() -> None:
        response = await stream_client.get(f"/api/games/{gid}/spectate/stream/?timeout=60&delay=2")
        assert response.status_code == 200
        reader, last = Reader(response), 0
        for _ in range(3):
            await sync_to_async(_act)(player, gid)
            expected = await sync_to_async(cutoff)()
            while last < expected:  # pushed at commit: no poll happens within the hour
                message = await reader.next_message(timeout=60)
                assert int(message["id"]) == last + 1
                await sync_to_async(oracle.check)(message["data"], None)
                last = int(message["id"])
        await sync_to_async(player.post)(f"/api/games/{gid}/resign/")
        while True:  # the end: the rest of the log, then `end`
            message = await reader.next_message(timeout=60)
            await sync_to_async(oracle.check)(message["data"], None)
            if message.get("event") == "end":
                break
            last = int(message["id"])
        assert last == await sync_to_async(lambda: Game.objects.get(pk=gid).last_seq)()

    run_closing_connection(scenario())


def test_a_spectator_sees_the_clocks_live_and_none_when_delayed(catalog_rows, alice, carol):
    """Issue 25 §2: every view shows the clocks; a delayed spectator view shows none (the running clock would
    tell whose decision it is now)."""
    body = game_body(opponent={"kind": "bot", "bot": "random"}, spectators={"allowed": True})
    body["time_control"] = {"kind": "realtime", "minutes": 5, "increment_seconds": 2}
    created = token_client(alice).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    watcher = token_client(carol)
    live = watcher.get(f"/api/games/{gid}/spectate/").json()
    assert live["clock"]["kind"] == "realtime" and {s["side"] for s in live["clock"]["sides"]} == {
        "axis", "allies"
    }
    _act(token_client(alice), gid)
    delayed = watcher.get(f"/api/games/{gid}/spectate/?delay=1").json()
    assert delayed["delay"] == 1 and delayed["clock"] is None


def test_the_spectator_and_feed_streams_are_served_without_a_thread_each():
    """Under ASGI, the event streams bypass Django's per-request thread (config.asgi): a waiting spectator
    or feed stream holds no thread, as a player's does not (tests/bench/stream_bench.py measures it)."""
    from config.asgi import STREAM_PATH

    for path in ("/api/games/6f0c/events/stream/", "/api/games/6f0c/spectate/stream/", "/api/feed/stream/"):
        assert STREAM_PATH.match(path), path
    for path in ("/api/games/6f0c/spectate/", "/api/feed/", "/api/games/6f0c/spectate/events/"):
        assert not STREAM_PATH.match(path), path


def _deploy_first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next((a for a in legal if a["type"] == "deploy"), legal[0])


def _live_and_delayed(gid: str, carol_sees: Spectator) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """(the live ply, the spectator's view, the spectator's log) now."""
    live = Game.objects.get(pk=gid).state["ply"]
    return live, carol_sees.get(""), carol_sees.get("events/")


def test_the_delay_counts_the_actions_in_effect_after_a_takeback(create_game, api, alice, bob, carol):
    """Issue 34 (6): with delay 3 a spectator stays 3 plies behind the live position after a takeback of one
    action and after a takeback of 3 or more actions (the undone ones are no longer plies of the game)."""
    from tests.games.test_takebacks import Table

    game = create_game(alice, spectators={"allowed": True, "delay": 3}, seed=11)
    gid = game["id"]
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    table = Table(api, gid, {"allies": alice, "axis": bob}, HiddenInfoOracle(gid))
    carol_sees = Spectator(carol, gid, HiddenInfoOracle(gid))

    def accepted_takeback(count: int, at_least: int) -> int:
        """Play deploys until the mover may take back his last `count` actions (at least `at_least` engine
        actions undone) and the other side accepts; returns how many were undone."""
        for _ in range(200):
            mover = table.mover()
            table.act(mover, _deploy_first)
            asked = table.ask(mover, count=count)
            if asked.status_code != 200:
                continue
            other = "allies" if mover == "axis" else "axis"
            undone = len(asked.json()["pending"]["undo_seqs"])
            assert table.answer(other, undone >= at_least).status_code == 200
            if undone >= at_least:
                return undone
        raise AssertionError("no such takeback within 200 actions")

    for _ in range(6):  # some plies first, so that 3 are in effect after the takebacks
        table.act(table.mover(), _deploy_first)
    for count, at_least in ((1, 1), (2, 3)):
        undone = accepted_takeback(count, at_least)
        live, view, log = _live_and_delayed(gid, carol_sees)
        assert view["delay"] == 3 and view["view"]["ply"] == live - 3, (count, undone)
        assert log["seq"] == view["seq"]
        stored = Game.objects.get(pk=gid)
        in_effect_after = [row[1] for row in game_actions_in_effect(game=stored) if row[1] > view["seq"]]
        assert len(in_effect_after) == 3  # exactly 3 plies in effect are held back
        # the view is the public view of the actions in effect but the last 3
        kind = game_type_of(stored)
        kept = [row[2] for row in game_actions_in_effect(game=stored)][:-3]
        state = kind.replay(game_catalog(game=stored), stored.setup, kept)
        assert view["view"] == json.loads(json.dumps(kind.public_view(state)))
    assert undone >= 3
    assert carol_sees.secrets_checked > 0
