"""tests/catalog_snapshot.py: after a flush, the catalog written back from its snapshot tables is the catalog
a load gives (what `catalog_rows` relies on in the transactional tests), on the database the suite runs on."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import models

from cards.models import CatalogVersion
from tests import catalog_snapshot


def _rows() -> dict[str, list[dict]]:
    out = {}
    for model in catalog_snapshot.catalog_models():
        # the times a load stamps (FixtureState.checked_at: when load_catalog last ran)
        stamps = [f.attname for f in model._meta.concrete_fields if isinstance(f, models.DateTimeField)
                  and (f.auto_now or f.auto_now_add or f.name == "checked_at")]
        out[model._meta.label] = [{k: v for k, v in row.items() if k not in stamps}
                                  for row in model.objects.order_by("pk").values()]
    return out


@pytest.mark.django_db(transaction=True)
def test_a_restored_catalog_is_the_loaded_one_and_new_rows_get_fresh_ids(catalog_db):
    call_command("flush", interactive=False, verbosity=0)
    assert catalog_snapshot.taken() and catalog_snapshot.empty()
    catalog_snapshot.restore()
    restored = _rows()
    assert CatalogVersion.objects.filter(content_hash=catalog_db).count() == 1
    assert sum(len(rows) for rows in restored.values()) > 2000
    call_command("load_catalog", stdout=io.StringIO())  # idempotent: a complete catalog is left as it is
    assert _rows() == restored
    # the id sequences were moved past the restored rows: a new row does not collide
    new = CatalogVersion.objects.create(content_hash="0" * 64)
    assert new.pk > max(row["id"] for row in restored["cards.CatalogVersion"])
