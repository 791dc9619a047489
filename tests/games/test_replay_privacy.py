"""Issue 11 (privacy): what a finished game's public replay shows to people who did not play it."""

from __future__ import annotations

import pytest

from tests.decks.factories import DeckFactory
from tests.games.conftest import GB, game_body, json_strings

pytestmark = pytest.mark.django_db

BOT = {"kind": "bot", "bot": "random"}


def _private_gb_deck(owner, catalog, *, public: bool = False):
    entries = catalog.sets[GB].arsenal_counts()
    return DeckFactory(owner=owner, name="secret plan", nation="GB", is_public=public, entries=entries)


def _finished_bot_game(api, user, **overrides) -> str:
    created = api(user).post("/api/games/", game_body(opponent=BOT, **overrides), format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    if created.json()["status"] != "finished":
        assert api(user).post(f"/api/games/{gid}/resign/").status_code == 200
    return gid


def test_a_private_decks_list_is_not_published_by_the_replay(catalog_rows, catalog, api, alice, carol):
    deck = _private_gb_deck(alice, catalog)
    gid = _finished_bot_game(api, alice, my_deck={"deck_id": deck.pk})

    mine = api(alice).get(f"/api/games/{gid}/replay/").json()
    assert mine["setup"]["decks"]["allies"] and mine["catalog"]["arsenal"] and mine["actions"] is not None
    assert mine["deck_lists_public"] is False

    for viewer in (api(None), api(carol)):
        response = viewer.get(f"/api/games/{gid}/replay/")
        assert response.status_code == 200
        public = response.json()
        assert public["deck_lists_public"] is False
        assert "decks" not in public["setup"] and public["catalog"] is None and public["actions"] is None
        assert all(e["visible_to"] == "all" for entry in public["log"] for e in entry["events"])
        assert all(entry["action"] is None for entry in public["log"] if entry["kind"] == "action")
        # cards never shown on the table (still in a deck at the end) appear nowhere
        never_played = set(mine["setup"]["decks"]["allies"]) - json_strings(public["log"])
        assert never_played and not never_played & json_strings(public)


@pytest.mark.parametrize("public_deck", [True, False])
def test_starters_and_public_decks_have_a_whole_public_replay(catalog_rows, catalog, api, alice, public_deck):
    overrides = {}
    if public_deck:
        overrides["my_deck"] = {"deck_id": _private_gb_deck(alice, catalog, public=True).pk}
    gid = _finished_bot_game(api, alice, **overrides)
    public = api(None).get(f"/api/games/{gid}/replay/").json()
    assert public["deck_lists_public"] is True
    assert public["setup"]["decks"]["allies"] and public["catalog"]["arsenal"]
    assert public["actions"] is not None


def test_a_game_cancelled_before_it_started_is_never_public(create_game, api, alice, bob):
    gid = create_game(alice)["id"]
    assert api(alice).post(f"/api/games/{gid}/resign/").status_code == 200  # cancelled: nobody joined
    for viewer in (api(None), api(bob)):
        assert viewer.get(f"/api/games/{gid}/").status_code == 404
        assert viewer.get(f"/api/games/{gid}/replay/").status_code == 404
    assert api(alice).get(f"/api/games/{gid}/replay/").status_code == 200  # its creator still sees it


def test_a_game_played_to_the_end_between_starters_stays_public(two_player_game, api, alice):
    gid = two_player_game["id"]
    assert api(alice).post(f"/api/games/{gid}/resign/").status_code == 200
    assert api(None).get(f"/api/games/{gid}/replay/").json()["setup"]["decks"]
