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
