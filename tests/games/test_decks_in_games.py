"""Games from the deck builder's decks: own decks, public decks, and other players' private decks."""

from __future__ import annotations

import pytest

from decks.models import Deck
from games.models import Game
from tests.decks.factories import DeckFactory
from tests.games.conftest import DE, GB, game_body
from vocabulary.battlecards import load_catalog_dir

pytestmark = pytest.mark.django_db


def _starter_entries(code: str) -> dict[str, int]:
    return load_catalog_dir().sets[code].arsenal_counts()


def _deck(owner, nation: str, entries: dict[str, int], *, public: bool = False) -> Deck:
    name = f"{owner.username}'s {nation}"
    return DeckFactory(owner=owner, name=name, nation=nation, is_public=public, entries=entries)


def test_my_own_deck_against_a_public_deck(catalog_rows, api, alice, bob):
    mine = _deck(alice, "GB", _starter_entries(GB))
    theirs = _deck(bob, "DE", _starter_entries(DE), public=True)
    response = api(alice).post(
        "/api/games/",
        game_body(my_deck={"deck_id": mine.pk}, opponent_deck={"deck_id": theirs.pk}),
        format="json",
    )
    assert response.status_code == 201, response.json()
    seats = {s["seat"]: s for s in response.json()["seats"]}
    assert seats["allies"]["deck_source"] == {"deck_id": mine.pk, "name": mine.name, "public": False}
    game = Game.objects.get(pk=response.json()["id"])
    assert sorted(game.setup["decks"]["axis"]) == sorted(
        code for code, n in _starter_entries(DE).items() for _ in range(n)
    )


def test_another_players_private_deck_is_not_found(catalog_rows, api, alice, bob):
    private = _deck(bob, "DE", _starter_entries(DE))
    response = api(alice).post("/api/games/", game_body(opponent_deck={"deck_id": private.pk}), format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "deck_not_found"
    assert not Game.objects.exists()


def test_an_illegal_deck_cannot_start_a_game(catalog_rows, api, alice):
    entries = dict(list(_starter_entries(GB).items())[:3])  # far below the 40-card minimum
    small = _deck(alice, "GB", entries)
    response = api(alice).post("/api/games/", game_body(my_deck={"deck_id": small.pk}), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_matchup" and body["violations"]
    assert not Game.objects.exists()
