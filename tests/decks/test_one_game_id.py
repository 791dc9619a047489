"""One id per game (issue 35 §3): The War is "the-war" in decks too. Stored decks are migrated, every answer
says the one id, and the old id "the_war" is still read on input for one release (normalised)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from decks.models import Deck
from tests.decks.conftest import as_list

RED_STARTER = "tw-starter-red-army"


@pytest.fixture
def red_entries(anon_client) -> dict[str, int]:
    body = anon_client.get(reverse("starter-detail", args=[RED_STARTER])).json()
    return {row["card"]: row["count"] for row in body["entries"]}


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_stored_the_war_decks_to_the_one_id_and_back(owner):
    executor = MigrationExecutor(connection)
    executor.migrate([("decks", "0003_deck_game")])
    old = executor.loader.project_state([("decks", "0003_deck_game")]).apps.get_model("decks", "Deck")
    war = old.objects.create(owner_id=owner.pk, name="Red", game="the_war", nation="red-army")
    gb = old.objects.create(owner_id=owner.pk, name="GB", game="battlecards", nation="GB")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Deck.objects.get(pk=war.pk).game == "the-war"
    assert Deck.objects.get(pk=gb.pk).game == "battlecards"
    executor = MigrationExecutor(connection)
    executor.migrate([("decks", "0003_deck_game")])
    assert old.objects.get(pk=war.pk).game == "the_war"
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
@pytest.mark.parametrize("sent", ["the-war", "the_war"])
def test_a_deck_sent_with_either_id_is_stored_and_answered_with_the_one_id(owner_client, red_entries, sent):
    body = {"name": "Red", "game": sent, "nation": "red-army", "entries": as_list(red_entries)}
    created = owner_client.post(reverse("deck-list"), body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["game"] == "the-war"
    assert Deck.objects.get(pk=created.json()["id"]).game == "the-war"
    for query in ("the-war", "the_war"):
        listed = owner_client.get(reverse("deck-list"), {"game": query}).json()["results"]
        assert [d["id"] for d in listed] == [created.json()["id"]]
    starters = owner_client.get(reverse("starter-list"), {"game": sent}).json()
    assert starters and {s["game"] for s in starters} == {"the-war"}
    text = owner_client.get(reverse("deck-export", args=[created.json()["id"]])).content.decode()
    assert "# game: the-war\n" in text


@pytest.mark.django_db
def test_an_old_id_in_an_imported_list_reads_and_an_unknown_game_is_a_400(owner_client):
    imported = owner_client.post(
        reverse("deck-import"),
        {"nation": "red-army", "text": "# name: X\n# game: the_war\n2 KV-1 (1940)\n"},
        format="json",
    )
    assert imported.status_code == 201, imported.json()
    assert imported.json()["game"] == "the-war"
    for game in ("the war", "battlefront", "tide-of-iron"):
        refused = owner_client.post(
            reverse("deck-list"), {"name": "X", "game": game, "nation": "GB", "entries": []}, format="json"
        )
        assert refused.status_code == 400 and "game" in refused.json()["errors"], refused.json()
