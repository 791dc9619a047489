"""The action log is append-only: on PostgreSQL a trigger refuses any UPDATE of a log row."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_gameaction_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_gameaction is append-only: log entries are never changed'
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS games_gameaction_no_update ON games_gameaction;
CREATE TRIGGER games_gameaction_no_update BEFORE UPDATE ON games_gameaction
    FOR EACH ROW EXECUTE FUNCTION games_gameaction_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_gameaction_no_update ON games_gameaction;
DROP FUNCTION IF EXISTS games_gameaction_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
