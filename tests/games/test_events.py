"""Following a game: the JSON event log and the server-sent event stream, filtered per seat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import GameAction

pytestmark = pytest.mark.django_db


def _play(gid: str, clients: dict[str, Any], steps: int) -> None:
    """Let the seats take their first legal actions for a few steps."""
    for _ in range(steps):
        for client in clients.values():
            view = client.get(f"/api/games/{gid}/view/").json()
            if view["your_turn"]:
                action = view["view"]["decision"]["legal_actions"][0]
                response = client.post(
                    f"/api/games/{gid}/actions/",
                    {"version": view["version"], "action": action},
                    format="json",
                )
                assert response.status_code == 200, response.json()
                break


def _parse_sse(body: str) -> list[dict[str, Any]]:
    messages = []
    for block in body.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.lstrip()
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            messages.append(fields)
    return messages


def test_events_since_returns_only_newer_entries_and_only_what_the_seat_may_see(
    two_player_game, api, alice, bob
):
    gid = two_player_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    _play(gid, clients, 12)
    total = GameAction.objects.filter(game_id=gid).count()
    for seat, client in clients.items():
        everything = client.get(f"/api/games/{gid}/events/").json()
        assert everything["seat"] == seat
        assert [e["seq"] for e in everything["entries"]] == list(range(1, total + 1))
        tail = client.get(f"/api/games/{gid}/events/?since=3").json()["entries"]
        assert [e["seq"] for e in tail] == list(range(4, total + 1))
        for entry in everything["entries"]:
            stored = GameAction.objects.get(game_id=gid, seq=entry["seq"])
            expected = [e for e in stored.events if e["visible_to"] in ("all", seat)]
            assert entry["events"] == expected
            assert entry["action"] == (
                stored.action if stored.seat == seat or stored.kind != "action" else None
            )
    assert client.get(f"/api/games/{gid}/events/?since=-1").status_code == 400
    private = GameAction.objects.filter(game_id=gid).exclude(events=[])
    assert any(e["visible_to"] != "all" for a in private for e in a.events), "some events are seat-private"


def test_the_stream_of_a_finished_game_sends_every_entry_then_ends(two_player_game, api, alice, bob):
    gid = two_player_game["id"]
    clients = {"allies": api(alice), "axis": api(bob)}
    _play(gid, clients, 6)
    api(alice).post(f"/api/games/{gid}/resign/")
    total = GameAction.objects.filter(game_id=gid).count()
    response = api(bob).get(f"/api/games/{gid}/events/stream/", HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    messages = _parse_sse(b"".join(response.streaming_content).decode())
    entries = [m for m in messages if "event" not in m]
    assert [int(m["id"]) for m in entries] == list(range(1, total + 1))
    assert all(e["visible_to"] in ("all", "axis") for m in entries for e in m["data"]["events"])
    assert messages[-1]["event"] == "end"

    resumed = api(bob).get(f"/api/games/{gid}/events/stream/", HTTP_LAST_EVENT_ID="4")
    resumed_entries = [
        m for m in _parse_sse(b"".join(resumed.streaming_content).decode()) if "event" not in m
    ]
    assert [int(m["id"]) for m in resumed_entries] == list(range(5, total + 1))


def test_the_stream_of_a_running_game_ends_after_its_timeout(two_player_game, api, alice):
    gid = two_player_game["id"]
    response = api(alice).get(f"/api/games/{gid}/events/stream/?timeout=0.2&since=0")
    messages = _parse_sse(b"".join(response.streaming_content).decode())
    assert messages[-1]["event"] == "timeout"
    assert [int(m["id"]) for m in messages if "event" not in m] == [1]  # the join entry
    assert api(alice).get(f"/api/games/{gid}/events/stream/?timeout=9999").status_code == 400
    bad = api(alice).get(f"/api/games/{gid}/events/stream/", HTTP_LAST_EVENT_ID="abc")
    assert bad.status_code == 400
