"""The War through the same games API (issue 24 §2): created from two The War decks (saved or starters; the
casual size rule checked at creation and at join), joined with a deck, played to the end through views,
legal actions and actions, with events, the stream, the replay, spectators and resign; every answer a seat or
a spectator reads goes through tests.games.conftest.TheWarOracle."""

from __future__ import annotations

from typing import Any

import pytest

from decks.models import Deck, DeckEntry
from games.engine import the_war as tw
from games.models import Game, GameAction
from games.selectors import state_digest
from games.services import game_rebuild_state
from tests.games.conftest import TheWarOracle
from tests.games.test_battlefront_api import stream_entries

pytestmark = pytest.mark.django_db

MAX_STEPS = 2000
SMALL = {"tw-depot": 14, "tw-guardsmen": 4}  # a casual red-army deck of 18 cards: a short game


def war_deck(owner: Any, entries: dict[str, int], army: str = "red-army", public: bool = False) -> Deck:
    deck = Deck.objects.create(owner=owner, name=f"{army} {sum(entries.values())}", game="the-war",
                               nation=army, is_public=public)
    DeckEntry.objects.bulk_create(DeckEntry(deck=deck, card_code=c, count=n) for c, n in entries.items())
    return deck


def create_war(client: Any, **overrides: Any) -> Any:
    body: dict[str, Any] = {"game_type": "the-war", "opponent": {"kind": "human"}, "seed": 1941}
    body.update(overrides)
    return client.post("/api/games/", body, format="json")


def drive_to_the_end(*, game_id: str, clients: dict[str, Any], spectator: Any = None) -> dict[str, Any]:
    """Play every human seat through the API (the engine's bots choosing from the seat's own view and legal
    actions) until the game ends, checking every answer with the oracle."""
    oracle = TheWarOracle(game_id)
    catalog = None
    bots: dict[str, Any] = {}
    counts: dict[str, Any] = {"actions": 0, "responses": 0, "secrets": 0, "oracle": oracle}
    seen = dict.fromkeys(clients, 0)

    def checked(seat: str | None, response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.json()
        payload = response.json()
        counts["secrets"] += oracle.check(payload, seat)
        counts["responses"] += 1
        return payload

    for step in range(MAX_STEPS):
        views = {s: checked(s, c.get(f"/api/games/{game_id}/view/")) for s, c in clients.items()}
        if spectator is not None and step % 5 == 0:
            watched = checked(None, spectator.get(f"/api/games/{game_id}/spectate/"))
            assert not watched["view"].get("legal_actions")
        for seat, v in views.items():
            assert v["game_type"] == "the-war" and v["view"]["game"] == "the-war" and v["seat"] == seat
            assert "hand" not in v["view"]["players"][v["view"]["opponent"]]
            assert "deck" not in v["view"]["players"][seat] and isinstance(
                v["view"]["players"][seat]["deck_size"], int)
        if step % 4 == 0:
            for seat, client in clients.items():
                log = checked(seat, client.get(f"/api/games/{game_id}/events/?since={seen[seat]}"))
                for entry in log["entries"]:
                    assert all(e["visible_to"] in ("all", seat) for e in entry["events"])
                if log["entries"]:
                    seen[seat] = log["entries"][-1]["seq"]
        if next(iter(views.values()))["status"] == "finished":
            assert counts["secrets"] > counts["responses"], "the checks were not vacuous"
            return counts
        movers = [seat for seat, v in views.items() if v["your_turn"]]
        assert len(movers) == 1, views
        seat = movers[0]
        if catalog is None:
            catalog = oracle.state.catalog
            bots = {s: tw.HeuristicBot(catalog=catalog, salt=s) for s in clients}
        view = views[seat]["view"]
        legal = [tw.Action.from_json(a) for a in view["decision"]["legal_actions"]]  # as in every game
        assert legal and view["legal_actions"] == view["decision"]["legal_actions"]  # the deprecated copy
        for other, v in views.items():
            if other != seat:
                assert v["view"]["legal_actions"] == [] and "legal_actions" not in v["view"]["decision"]
        action = bots[seat].choose(view, legal, seat)
        checked(seat, clients[seat].post(
            f"/api/games/{game_id}/actions/",
            {"version": views[seat]["version"], "action": action.to_json()},
            format="json",
        ))
        counts["actions"] += 1
    pytest.fail(f"the game did not end within {MAX_STEPS} steps")


def test_two_users_play_the_war_from_saved_casual_decks_to_the_end(api, alice, bob, carol):
    mine, theirs = war_deck(alice, SMALL), war_deck(bob, SMALL)
    created = create_war(api(alice), my_deck={"deck_id": mine.pk}, options={"casual": True},
                         spectators={"allowed": True})
    assert created.status_code == 201, created.json()
    game = created.json()
    gid = game["id"]
    assert game["game_type"] == "the-war" and game["status"] == "open" and game["my_seat"] == "p1"
    joined = api(bob).post(f"/api/games/{gid}/join/", {"deck": {"deck_id": theirs.pk}}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.json()
    seats = {s["seat"]: s for s in joined.json()["seats"]}
    assert seats["p2"]["nation"] == "red-army" and seats["p2"]["player"] == "bob"

    clients = {"p1": api(alice), "p2": api(bob)}
    counts = drive_to_the_end(game_id=gid, clients=clients, spectator=api(carol))
    stored = Game.objects.get(pk=gid)
    assert stored.status == "finished" and stored.winner in ("p1", "p2")
    assert counts["actions"] == GameAction.objects.filter(game=stored, kind="action").count()
    oracle: TheWarOracle = counts["oracle"]
    for seat, client in clients.items():  # the stream: the same entries, then an end event
        streamed, text = stream_entries(client, gid)
        assert [e["seq"] for e in streamed] == list(range(1, stored.last_seq + 1)) and "event: end" in text
        oracle.check(streamed, seat)
    oracle.check(api(carol).get(f"/api/games/{gid}/spectate/").json(), None)
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["game_type"] == "the-war"
    assert state_digest(game_rebuild_state(game=stored).to_json()) == replay["final_state_sha256"]


def test_a_user_plays_the_war_against_the_bot_to_the_end(api, alice):
    created = create_war(api(alice), my_deck={"deck_id": war_deck(alice, SMALL).pk}, seat="p2",
                         opponent_deck={"deck_id": war_deck(alice, SMALL).pk},
                         opponent={"kind": "bot", "bot": "heuristic"}, options={"casual": True}, seed=7)
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["status"] == "active" and game["my_seat"] == "p2"
    drive_to_the_end(game_id=game["id"], clients={"p2": api(alice)})
    assert Game.objects.get(pk=game["id"]).status == "finished"


def test_the_casual_size_rule_is_checked_at_creation_and_at_join(api, alice, bob):
    small = war_deck(alice, SMALL)
    refused = create_war(api(alice), my_deck={"deck_id": small.pk}, opponent_deck={"starter":
                         "tw-starter-wehrmacht"}, options={"casual": True})
    assert refused.status_code == 400 and refused.json()["code"] == "illegal_matchup"
    assert "deck_size_mismatch" in {v["code"] for v in refused.json()["violations"]}
    not_casual = create_war(api(alice), my_deck={"deck_id": small.pk})  # 60 cards unless casual
    assert not_casual.status_code == 400 and not_casual.json()["code"] == "illegal_matchup"
    game = create_war(api(alice), my_deck={"deck_id": small.pk}, options={"casual": True}).json()
    join = api(bob).post(f"/api/games/{game['id']}/join/", {"deck": {"starter": "tw-starter-wehrmacht"}},
                         format="json")
    assert join.status_code == 400 and join.json()["code"] == "illegal_matchup"
    assert Game.objects.get(pk=game["id"]).status == "open"


def test_starters_play_and_a_battlecards_deck_is_not_a_the_war_deck(api, alice, bob, catalog_rows):
    other = Deck.objects.create(owner=alice, name="bc", game="battlecards", nation="GB")
    wrong = create_war(api(alice), my_deck={"deck_id": other.pk})
    assert wrong.status_code == 404 and wrong.json()["code"] == "deck_not_found"
    game = create_war(api(alice), my_deck={"starter": "tw-starter-red-army"},
                      opponent_deck={"starter": "tw-starter-wehrmacht"}).json()
    joined = api(bob).post(f"/api/games/{game['id']}/join/", {}, format="json").json()
    assert joined["status"] == "active"
    resigned = api(bob).post(f"/api/games/{game['id']}/resign/", {}, format="json")
    assert resigned.status_code == 200 and resigned.json()["winner"] == "p1"
    for client in (api(alice), api(bob)):  # finished by resignation: nobody acts, in either place (issue 37)
        view = client.get(f"/api/games/{game['id']}/view/").json()["view"]
        assert view["status"] == "finished" and view["legal_actions"] == []
        assert view["decision"].get("legal_actions", []) == []


def test_a_user_plays_the_war_against_the_search_bot_to_the_end(api, alice):
    """Issue 40: {"kind": "bot", "bot": "search-1"} seats the information-set search bot for The War; it
    plays from its seat's view (the `table` of public facts rebuilds the pending steps) to the end of the
    game, every answer the player reads checked by the hidden-information oracle."""
    created = create_war(api(alice), my_deck={"deck_id": war_deck(alice, SMALL).pk}, seat="p1",
                         opponent_deck={"deck_id": war_deck(alice, SMALL).pk},
                         opponent={"kind": "bot", "bot": "search-1"}, options={"casual": True}, seed=11)
    assert created.status_code == 201, created.json()
    game = created.json()
    assert {s["seat"]: s.get("bot") for s in game["seats"]}["p2"] == "search-1"
    drive_to_the_end(game_id=game["id"], clients={"p1": api(alice)})
    finished = Game.objects.get(pk=game["id"])
    assert finished.status == "finished"
    assert GameAction.objects.filter(game=finished, seat="p2", by_bot=True).exists()
    assert game_rebuild_state(game=finished).to_json() == finished.state
