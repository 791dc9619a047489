import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_gameaction_append_only"),
    ]

    operations = [
        migrations.CreateModel(
            name="CatalogSnapshot",
            fields=[
                ("hash", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("data", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.AddField(
            model_name="game",
            name="snapshot",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="games",
                to="games.catalogsnapshot",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="snapshot_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        # A default, so that unapplying 0005 can add the column back to existing rows.
        migrations.AlterField(
            model_name="game",
            name="catalog_snapshot",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
