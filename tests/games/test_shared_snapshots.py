"""Issue 11 (abuse): a game no longer carries its own ~54 KB copy of the catalog: snapshots are stored once
per catalog hash and shared; existing games are moved over by a data migration and keep replaying."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from games.catalog_snapshot import snapshot_hash
from games.models import CatalogSnapshot, Game
from tests.games.conftest import game_body

BOT = {"kind": "bot", "bot": "random"}


@pytest.mark.django_db
def test_games_dealt_from_the_same_cards_share_one_snapshot(create_game, api, alice, bob):
    # rows committed by the browser tests' live server may be there already (they are not flushed)
    snapshots, games = set(CatalogSnapshot.objects.values_list("hash", flat=True)), Game.objects.count()
    first = create_game(alice, opponent=BOT)
    second = create_game(alice, opponent=BOT, seed=7)
    assert api(alice).post(f"/api/games/{first['id']}/resign/").status_code in (200, 409)
    assert len(set(CatalogSnapshot.objects.values_list("hash", flat=True)) - snapshots) <= 1
    shared = CatalogSnapshot.objects.get(hash=first["snapshot_hash"])
    assert shared.hash == snapshot_hash(shared.data) == first["snapshot_hash"] == second["snapshot_hash"]
    assert Game.objects.count() == games + 2
    assert {str(pk) for pk in shared.games.values_list("pk", flat=True)} >= {first["id"], second["id"]}
    replay = api(alice).get(f"/api/games/{first['id']}/replay/").json()
    assert replay["catalog"] == shared.data
    out = io.StringIO()
    call_command("verify_games", first["id"], second["id"], stdout=out)
    assert "2 game(s) checked, 0 differ" in out.getvalue()


@pytest.mark.django_db
def test_a_game_dealt_from_a_stored_snapshot_does_not_read_its_data_back(create_game, alice):
    """The ~54 KB of JSON an existing snapshot holds is neither fetched nor decoded at a creation: the game
    needs only the row's key (games.services.deal.catalog_snapshot_get_or_create)."""
    first = create_game(alice, opponent=BOT)
    with CaptureQueriesContext(connection) as queries:
        second = create_game(alice, opponent=BOT, seed=7)
    assert second["snapshot_hash"] == first["snapshot_hash"]
    read = [q["sql"] for q in queries.captured_queries if '"games_catalogsnapshot"' in q["sql"]]
    assert read, "the snapshot row is looked up"
    assert not any('"games_catalogsnapshot"."data"' in sql for sql in read), read
    assert CatalogSnapshot.objects.get(hash=second["snapshot_hash"]).data  # stored whole


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_moves_existing_snapshots_into_shared_rows(catalog_rows, api, alice):
    created = api(alice).post("/api/games/", game_body(opponent=BOT), format="json").json()
    snapshot = CatalogSnapshot.objects.get().data
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0003_catalogsnapshot")])  # back to one copy per game
    old = MigrationExecutor(connection).loader.project_state(("games", "0003_catalogsnapshot")).apps
    OldGame = old.get_model("games", "Game")
    OldSnapshot = old.get_model("games", "CatalogSnapshot")
    assert OldGame.objects.get(pk=created["id"]).catalog_snapshot == snapshot
    OldGame.objects.update(snapshot=None)
    OldSnapshot.objects.all().delete()
    base = OldGame.objects.get(pk=created["id"])
    for seed in (1, 2):  # two more old-style games with the same cards
        base.pk = None
        base.id = None
        base.seed = seed
        base.save()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert CatalogSnapshot.objects.count() == 1
    assert Game.objects.filter(snapshot_id=snapshot_hash(snapshot)).count() == 3
    out = io.StringIO()
    call_command("verify_games", created["id"], stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
