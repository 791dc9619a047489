"""Every model change has its migration (a fresh `make run` migrates to exactly the models)."""
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db
@pytest.mark.postgresql_only(reason="lz4 TOAST compression is a PostgreSQL column setting")
def test_the_game_state_column_is_compressed_with_lz4_where_postgresql_has_it():
    """Every action writes the state column again: lz4 compresses it at less than half pglz's CPU
    (games/migrations/0016_state_lz4.py). SQLite, or a PostgreSQL built without lz4: left as it was."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        if not cursor.fetchone()[0]:
            pytest.skip("this PostgreSQL has no lz4")
        cursor.execute(
            "SELECT attcompression FROM pg_attribute"
            " WHERE attrelid = 'games_game'::regclass AND attname = 'state'"
        )
        assert cursor.fetchone()[0] == "l"


@pytest.mark.django_db
def test_the_action_log_is_indexed_by_game_once():
    """The unique (game, seq) index serves every lookup of a game's log (it leads with the game); the
    foreign key's own index on the game alone was a second insertion per appended row, dropped
    (games/migrations/0021_gameaction_game_index_dropped.py)."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "games_gameaction")
    indexed = [c["columns"] for c in constraints.values() if c["index"] or c["unique"]]
    assert ["game_id", "seq"] in indexed
    assert ["game_id"] not in indexed
    assert any(c["foreign_key"] == ("games_game", "id") for c in constraints.values())  # the key stays
    if connection.vendor == "postgresql":  # and the planner reads a game's log through it
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(
                "EXPLAIN SELECT seq FROM games_gameaction WHERE game_id = %s ORDER BY seq",
                ["00000000-0000-4000-8000-000000000000"],
            )
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "games_action_seq_unique" in plan, plan
