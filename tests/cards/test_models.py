"""Model validation (used by the admin forms): abilities, effect params and provenance follow the engine."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cards.models import ArsenalCard
from tests.cards.factories import ArsenalCardFactory, ConflictCardFactory, SetMembershipFactory

pytestmark = pytest.mark.django_db


def test_a_card_with_valid_abilities_passes_full_clean():
    card = ArsenalCardFactory(abilities=[{"kind": "infantry_support", "bonus": 2}])
    card.full_clean()


@pytest.mark.parametrize(
    ("abilities", "message"),
    [
        ([{"kind": "laser"}], "unknown ability kind 'laser'"),
        ([{"kind": "infantry_support"}], "params missing=['bonus']"),
        ([{"kind": "infantry_support", "bonus": "two"}], "must be an integer"),
        ([{"kind": "infantry_support", "bonus": True}], "must be an integer"),
        ({"kind": "submarine"}, "must be a list"),
    ],
)
def test_abilities_outside_the_engine_schema_are_rejected(abilities, message):
    card = ArsenalCardFactory.build(nation=ArsenalCardFactory().nation, abilities=abilities)
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        card.full_clean()


def test_provenance_sources_must_be_seed_or_estimated():
    card = ArsenalCardFactory.build(
        nation=ArsenalCardFactory().nation, provenance={"points": {"source": "guess"}}
    )
    with pytest.raises(ValidationError, match="seed or estimated"):
        card.full_clean()


def test_conflict_effect_params_must_match_the_effect():
    card = ConflictCardFactory()
    card.full_clean()
    card.params = {"draw": 2}
    with pytest.raises(ValidationError, match="takes params"):
        card.full_clean()
    card.effect = "teleport"
    with pytest.raises(ValidationError, match="unknown effect"):
        card.full_clean()


def test_the_admin_form_reports_bad_abilities_instead_of_failing(admin_client):
    membership = SetMembershipFactory()
    card = membership.card
    url = reverse("admin:cards_arsenalcard_change", args=[card.pk])
    data = {
        "code": card.code,
        "name": card.name,
        "nation": card.nation.pk,
        "kind": "ground",
        "points": 4,
        "abilities": '[{"kind": "laser"}]',
        "provenance": "{}",
        "class_links-TOTAL_FORMS": 0,
        "class_links-INITIAL_FORMS": 0,
        "memberships-TOTAL_FORMS": 0,
        "memberships-INITIAL_FORMS": 0,
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "unknown ability kind" in response.content.decode()
    assert ArsenalCard.objects.get(pk=card.pk).abilities == []
