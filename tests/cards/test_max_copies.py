"""Max copies per card has one home (`vocabulary.battlecards.max_copies`, issue 23): the catalog API, its
filter and `?q=` search, the card face, deck rules and the engine's set-up all give the same answer.

The mini catalog's Hitler is a leader whose MAX / DECK is printed empty (no limit): "only one representation
of each LEADER or GENERAL" makes it 1 everywhere; Montgomery (general) prints 1; the Ukrainian infantry
prints 2; the other cards have no limit.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from decks.rules import validate_deck
from games.engine import GameSetup, new_game
from games.engine.core.errors import SetupError
from tests.cards.conftest import MINI
from vocabulary.battlecards import max_copies, read_fixture_dicts


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def copies_by_code() -> dict[str, int | None]:
    """Copies per deck of every mini arsenal card, read from the fixture dicts through the vocabulary."""
    return {
        d["code"]: max_copies(classes=d["classes"], max_per_deck=d["max_per_deck"])
        for d in read_fixture_dicts(MINI)["arsenal"]
    }


def listed(client: APIClient, **params) -> set[str]:
    response = client.get("/api/arsenal-cards/", {"page_size": 500, **params})
    assert response.status_code == 200, response.content
    return {r["code"] for r in response.json()["results"]}


def test_the_vocabulary_makes_a_leader_single_whatever_its_list_prints():
    assert copies_by_code() == {
        "DE-HITLER": 1,  # leader, printed with no limit
        "GB-MONTY": 1,  # general, printed 1
        "DE-INF": None,
        "DE-INF-UA": 2,  # printed 2
        "DE-UBOAT": None,
        "GB-INF": None,
        "GB-SPIT": None,
    }
    assert max_copies(classes=("general", "tank"), max_per_deck=3) == 1
    assert max_copies(classes=("rocket",), max_per_deck=3) == 3


def test_catalog_api_filter_search_and_face_follow_the_vocabulary(client, mini_catalog):
    copies = copies_by_code()
    for code, card in mini_catalog.arsenal.items():
        assert card.effective_max_per_deck == copies[code]
        body = client.get(f"/api/arsenal-cards/{code}/").json()
        assert body["max_per_deck"] == card.max_per_deck
        assert body["effective_max_per_deck"] == copies[code], code
    singles = {code for code, n in copies.items() if n == 1}
    unlimited = {code for code, n in copies.items() if n is None}
    assert listed(client, max_per_deck=1) == singles
    assert listed(client, max_per_deck="unlimited") == unlimited
    assert listed(client, q="max:1") == singles
    assert listed(client, q="max:unlimited") == unlimited
    assert listed(client, max_per_deck=2) == listed(client, q="max>1") == {"DE-INF-UA"}
    face = client.get("/api/arsenal-cards/DE-HITLER/face.svg")
    assert face.status_code == 200
    assert "max 1 per deck" in face.content.decode()


def test_deck_rules_and_engine_set_up_allow_one_leader(mini_catalog):
    entries = {"DE-INF": 38, "DE-HITLER": 2}
    violations = validate_deck(mini_catalog, nation="DE", entries=entries).violations
    assert [(v.code, v.card, v.limit, v.actual) for v in violations] == [
        ("general_leader_single", "DE-HITLER", 1, 2)
    ]
    assert validate_deck(mini_catalog, nation="DE", entries={"DE-INF": 39, "DE-HITLER": 1}).is_valid

    setup = GameSetup(
        seed=1,
        decks={"axis": ("DE-INF", "DE-HITLER", "DE-HITLER"), "allies": ("GB-INF",)},
        nations={"axis": "DE", "allies": "GB"},
        conflict_deck=(),
    )
    with pytest.raises(SetupError, match="only one copy per deck"):
        new_game(mini_catalog, setup)
