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


def test_a_private_decks_name_and_id_are_shown_only_to_its_owner_wherever_a_game_is_shown(
    catalog_rows, catalog, api, client, alice, bob, carol
):
    """Issue 34 (8): alice plays her private deck against bob (a starter); its name and id are redacted
    for everyone but alice, as its list is: the game's detail, the game lists, the replay, the spectator
    answers and the site's pages, while the game is played and after it."""
    deck = DeckFactory(
        owner=alice, name="Operation Sealion Secret", nation="GB", is_public=False,
        entries=catalog.sets[GB].arsenal_counts(),
    )
    secrets = {deck.name, f"deck {deck.pk}: {deck.name}"}
    created = api(alice).post(
        "/api/games/", game_body(my_deck={"deck_id": deck.pk}, spectators={"allowed": True}), format="json"
    )
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]

    def seat_of(game: dict, seat: str = "allies") -> dict:
        return next(s for s in game["seats"] if s["seat"] == seat)

    def redacted(game: dict) -> bool:
        seat = seat_of(game)
        return seat["deck_label"] == "a private deck" and seat["deck_source"] == {"public": False}

    def shown(game: dict) -> bool:
        seat = seat_of(game)
        label = f"deck {deck.pk}: {deck.name}"
        return seat["deck_source"].get("deck_id") == deck.pk and seat["deck_label"] == label

    def site(user, path: str) -> str:
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(path)
        assert response.status_code == 200, path
        return response.content.decode()

    # open: the lobby's joinable games (API and site) show bob the deck only as private
    joinable = api(bob).get("/api/games/?joinable=true").json()["results"]
    assert [redacted(g) for g in joinable if g["id"] == gid] == [True]
    assert not secrets & json_strings(joinable) and deck.name not in site(bob, "/play/")
    assert shown(created.json())
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200

    for phase in ("active", "finished"):
        if phase == "finished":
            assert api(alice).post(f"/api/games/{gid}/resign/").status_code == 200
        assert shown(api(alice).get(f"/api/games/{gid}/").json())
        assert [shown(g) for g in api(alice).get("/api/games/").json()["results"] if g["id"] == gid] == [True]
        answers = [
            api(bob).get(f"/api/games/{gid}/").json(),
            api(bob).get("/api/games/").json()["results"],
            api(carol).get(f"/api/games/{gid}/spectate/").json(),
            api(carol).get(f"/api/games/{gid}/spectate/events/").json(),
            site(bob, f"/play/{gid}/"),
            site(bob, "/play/"),
            site(carol, f"/play/{gid}/watch/"),
        ]
        assert redacted(answers[0]) and [redacted(g) for g in answers[1] if g["id"] == gid] == [True]
        if phase == "finished":
            for viewer in (None, carol, bob):
                public = api(viewer).get(f"/api/games/{gid}/").json()
                replay = api(viewer).get(f"/api/games/{gid}/replay/").json()
                assert redacted(public) and seat_of(replay)["deck"] == "a private deck"
                answers += [public, replay, site(viewer, f"/play/{gid}/replay/")]
            mine = api(alice).get(f"/api/games/{gid}/replay/").json()
            assert seat_of(mine)["deck"] == f"deck {deck.pk}: {deck.name}"
        for answer in answers:
            text = answer if isinstance(answer, str) else " ".join(json_strings(answer))
            assert not [s for s in secrets if s in text], phase


def test_the_owner_of_a_private_deck_given_to_the_bot_sees_its_name_others_do_not(
    catalog_rows, catalog, api, alice, carol
):
    """The deck's owner, not the seat's player: alice gives the bot her private German deck."""
    from tests.games.conftest import DE

    deck = DeckFactory(owner=alice, name="Bot Fodder", nation="DE", is_public=False,
                       entries=catalog.sets[DE].arsenal_counts())
    gid = _finished_bot_game(api, alice, opponent_deck={"deck_id": deck.pk})
    seats = {s["seat"]: s for s in api(alice).get(f"/api/games/{gid}/").json()["seats"]}
    assert seats["axis"]["kind"] == "bot" and seats["axis"]["deck_source"]["name"] == "Bot Fodder"
    others = {s["seat"]: s for s in api(carol).get(f"/api/games/{gid}/").json()["seats"]}
    assert others["axis"]["deck_label"] == "a private deck"
    assert others["axis"]["deck_source"] == {"public": False}
    assert others["allies"]["deck_source"] == seats["allies"]["deck_source"] == {"starter": GB}  # public
