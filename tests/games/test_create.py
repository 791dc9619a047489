"""Creating games: deck references, the deck and matchup rules, options, seeds and the frozen catalog."""

from __future__ import annotations

import hashlib

import pytest

from cards.models import ArsenalCard
from games.catalog_snapshot import catalog_from_snapshot, snapshot_hash
from games.models import Game
from tests.games.conftest import game_body

pytestmark = pytest.mark.django_db


def test_a_game_records_its_setup_seed_commitment_and_catalog(catalog_rows, api, alice):
    response = api(alice).post(
        "/api/games/", game_body(options={"larger_standing_armies": True}), format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "open" and body["my_seat"] == "allies"
    assert body["seed"] is None and body["seed_salt"] is None  # revealed only after the end
    game = Game.objects.get(pk=body["id"])
    assert game.seed == 20020101
    assert body["seed_hash"] == hashlib.sha256(f"{game.seed}:{game.seed_salt}".encode()).hexdigest()
    assert game.catalog_hash == catalog_rows and game.catalog_version
    assert game.setup["options"]["larger_standing_armies"] is True
    assert game.setup["nations"] == {"axis": "DE", "allies": "GB"}
    assert len(game.setup["decks"]["allies"]) == 47 and len(game.setup["decks"]["axis"]) == 47
    assert game.conflict_choice["theater"] == "WE"
    assert game.snapshot_hash == snapshot_hash(game.snapshot.data)
    used = set(game.setup["decks"]["allies"]) | set(game.setup["decks"]["axis"])
    assert {c["code"] for c in game.snapshot.data["arsenal"]} == used


def test_without_a_seed_the_server_draws_one_and_two_games_differ(catalog_rows, api, alice):
    body = game_body()
    del body["seed"]
    first = api(alice).post("/api/games/", body, format="json").json()
    second = api(alice).post("/api/games/", body, format="json").json()
    assert first["seed_hash"] != second["seed_hash"]


def test_choosing_the_seed_does_not_let_a_player_reproduce_the_deal(catalog_rows, api, alice):
    """QA finding: with the raw seed, a player could replay it on a throwaway game and learn the other
    seat's hand. The deal uses the seed mixed with the secret salt, recomputable once both are published."""
    one = Game.objects.get(pk=api(alice).post("/api/games/", game_body(seed=5), format="json").json()["id"])
    two = Game.objects.get(pk=api(alice).post("/api/games/", game_body(seed=5), format="json").json()["id"])
    assert one.seed == two.seed == 5
    assert one.state != two.state and one.seed_hash != two.seed_hash  # fresh secret salt each time
    for game in (one, two):
        expected = int(hashlib.sha256(f"deal:{game.seed}:{game.seed_salt}".encode()).hexdigest()[:16], 16)
        assert game.setup["seed"] == expected


def test_editing_the_catalog_never_changes_an_existing_game(catalog_rows, api, alice):
    game = Game.objects.get(pk=api(alice).post("/api/games/", game_body(), format="json").json()["id"])
    code = game.setup["decks"]["allies"][0]
    before = catalog_from_snapshot(game.snapshot.data).arsenal[code]
    ArsenalCard.objects.filter(code=code).update(points=99, attack_ground=1)
    game.refresh_from_db()
    after = catalog_from_snapshot(game.snapshot.data, game.snapshot_hash).arsenal[code]
    assert after == before and after.points != 99


@pytest.mark.parametrize(
    ("overrides", "status", "code"),
    [
        ({"my_deck": {"starter": "no-such-set"}}, 404, "starter_not_found"),
        ({"my_deck": {"deck_id": 999999}}, 404, "deck_not_found"),
        ({"my_deck": {}}, 400, "invalid"),
        ({"my_deck": {"starter": "gb-we-starter", "deck_id": 1}}, 400, "invalid"),
        ({"opponent_deck": {"starter": "gb-we-starter"}}, 400, "illegal_matchup"),  # both allies
        ({"opponent": {"kind": "alien"}}, 400, "invalid"),
        ({"opponent": {"kind": "bot", "bot": "genius"}}, 400, "invalid"),
        ({"options": {"no_such_rule": True}}, 400, "invalid_options"),
        ({"options": {"larger_standing_armies": "yes"}}, 400, "invalid_options"),
        # issue 12: games follow the rulebook, which has no round limit (the cap is for simulations only)
        ({"options": {"max_battle_rounds": 25}}, 400, "invalid_options"),
        ({"seed": -1}, 400, "invalid"),
        ({"conflict": {"theater": "PAC"}}, 400, "illegal_matchup"),
        ({"conflict": {"mode": "thin", "packs": ["de-we-expansion"]}}, 400, "illegal_matchup"),
    ],
)
def test_bad_requests_are_refused_with_a_code_and_create_nothing(
    catalog_rows, api, alice, overrides, status, code
):
    response = api(alice).post("/api/games/", game_body(**overrides), format="json")
    assert response.status_code == status, response.json()
    body = response.json()
    assert body["code"] == code and body["detail"]
    assert not Game.objects.exists()


def test_a_full_conflict_deck_with_expansions_can_be_chosen(catalog_rows, api, alice):
    response = api(alice).post("/api/games/", game_body(conflict={"mode": "fat"}), format="json")
    if response.status_code == 400:  # the FAQ: expansion conflict cards need their packs' arsenal cards too
        assert response.json()["code"] == "illegal_matchup"
        return
    thin = Game.objects.get(pk=api(alice).post("/api/games/", game_body(), format="json").json()["id"])
    fat = Game.objects.get(pk=response.json()["id"])
    assert len(fat.setup["conflict_deck"]) > len(thin.setup["conflict_deck"])


@pytest.mark.parametrize(
    ("mine", "theirs", "theater"),
    [("us-starter", "jp-starter", "PAC"), ("ru-starter", "de-ef-starter", "EF")],
)
def test_every_theater_can_host_a_game(catalog_rows, api, alice, mine, theirs, theater):
    """The Pacific and Eastern Front conflict decks (estimated, fixtures/README.md) make these theaters
    playable: before them, such a game was refused with 400 theater_not_playable."""
    body = game_body(my_deck={"starter": mine}, opponent_deck={"starter": theirs})
    response = api(alice).post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["id"])
    assert game.setup["conflict_deck"] and all(
        c.startswith(theater.lower() + "-") for c in game.setup["conflict_deck"]
    )
