"""Move every game's own copy of its catalog snapshot into CatalogSnapshot rows, one per content hash."""

import hashlib
import json

from django.db import migrations


def _digest(snapshot):
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def share(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    CatalogSnapshot = apps.get_model("games", "CatalogSnapshot")
    rows = Game.objects.filter(snapshot__isnull=True).values_list("pk", "snapshot_hash", "catalog_snapshot")
    for pk, digest, data in rows.iterator(chunk_size=100):
        if not data:  # an open game not dealt yet
            continue
        digest = digest or _digest(data)
        CatalogSnapshot.objects.get_or_create(hash=digest, defaults={"data": data})
        Game.objects.filter(pk=pk).update(snapshot_id=digest, snapshot_hash=digest)


def unshare(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    CatalogSnapshot = apps.get_model("games", "CatalogSnapshot")
    for snapshot in CatalogSnapshot.objects.iterator(chunk_size=20):
        Game.objects.filter(snapshot_id=snapshot.pk).update(catalog_snapshot=snapshot.data)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_catalogsnapshot"),
    ]

    operations = [
        migrations.RunPython(share, unshare),
    ]
