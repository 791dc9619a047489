from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_share_catalog_snapshots"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="game",
            name="catalog_snapshot",
        ),
    ]
