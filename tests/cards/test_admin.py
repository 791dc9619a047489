"""The catalog admin renders for a superuser: every model's changelist, add and change pages, every filter."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from cards.models import ArsenalCard, CatalogVersion, Nation, UnitClass

CARD_MODELS = [model for model in admin.site._registry if model._meta.app_label == "cards"]


def test_every_cards_model_is_registered():
    from django.apps import apps

    assert set(CARD_MODELS) == set(apps.get_app_config("cards").get_models())


@pytest.mark.parametrize("model", CARD_MODELS, ids=lambda m: m._meta.model_name)
def test_changelist_add_and_change_pages_render(admin_client, catalog_rows, model):
    opts = model._meta
    changelist = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200
    searched = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist") + "?q=a")
    assert searched.status_code == 200
    obj = model.objects.order_by("pk").first()
    assert obj is not None, f"the catalog has no {opts.verbose_name}"
    change = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
    assert change.status_code == 200
    model_admin = admin.site._registry[model]
    if model_admin.has_add_permission(change.wsgi_request):
        assert admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add")).status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        "provenance=estimated",
        "provenance=seed",
        "phase=none",
        "phase=2",
        "kind__exact=air",
        "ukrainian__exact=1",
    ],
)
def test_arsenal_filters_render_and_filter(admin_client, catalog_rows, query):
    response = admin_client.get(reverse("admin:cards_arsenalcard_changelist") + f"?{query}")
    assert response.status_code == 200
    shown = response.context["cl"].result_count
    expected = {
        "provenance=estimated": ArsenalCard.objects.filter(estimated=True),
        "provenance=seed": ArsenalCard.objects.filter(estimated=False),
        "phase=none": ArsenalCard.objects.filter(phase__isnull=True),
        "phase=2": ArsenalCard.objects.filter(phase=2),
        "kind__exact=air": ArsenalCard.objects.filter(kind="air"),
        "ukrainian__exact=1": ArsenalCard.objects.filter(ukrainian=True),
    }[query]
    assert shown == expected.count()


def test_class_nation_and_set_filters(admin_client, catalog_rows):
    tank = UnitClass.objects.get(code="tank")
    url = reverse("admin:cards_arsenalcard_changelist")
    response = admin_client.get(f"{url}?classes__id__exact={tank.pk}")
    assert response.status_code == 200
    assert response.context["cl"].result_count == ArsenalCard.objects.filter(classes=tank).count()
    nation = Nation.objects.first()
    response = admin_client.get(f"{url}?nation__id__exact={nation.pk}")
    assert response.context["cl"].result_count == ArsenalCard.objects.filter(nation=nation).count()


def test_change_page_shows_the_provenance_table(admin_client, catalog_rows):
    card = ArsenalCard.objects.filter(estimated=True).first()
    response = admin_client.get(reverse("admin:cards_arsenalcard_change", args=[card.pk]))
    assert b'class="provenance"' in response.content
    assert b"estimated" in response.content


def test_an_admin_edit_records_a_new_catalog_version(admin_client, catalog_rows):
    nation = Nation.objects.get(code="GB")
    before = CatalogVersion.objects.count()
    response = admin_client.post(
        reverse("admin:cards_nation_change", args=[nation.pk]),
        {"code": "GB", "name": "United Kingdom", "side": "allies"},
    )
    assert response.status_code == 302
    assert CatalogVersion.objects.count() == before + 1
    latest = CatalogVersion.objects.order_by("-id").first()
    assert latest.source == "admin:admin"
    from cards.selectors import catalog_definitions

    assert catalog_definitions().nations["GB"].name == "United Kingdom"


def test_catalog_versions_are_read_only(admin_client, catalog_rows):
    assert admin_client.get(reverse("admin:cards_catalogversion_add")).status_code == 403
