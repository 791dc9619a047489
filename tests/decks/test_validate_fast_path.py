"""Issue 42's cheaper deck check gives the same answers: the plain input path equals the serializer's (data
or error), the early-stopping comparison equals cap_singles, the per-catalog set counts equal what they
cache, and the catalog's version is read at most every CATALOG_TOKEN_SECONDS (at once after a change)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.exceptions import APIException

from cards.selectors import catalog_cache_forget_token, catalog_definitions
from config.api_input import validated_input
from config.errors import DomainError
from decks import rules
from decks.rules.deck import capped_equal, nation_set_counts
from decks.serializers import DeckValidateInputSerializer, deck_validate_input, plain_entries

GB = [{"card": "gb-infantry", "count": 20}, {"card": "gb-spitfire", "count": 18}]

BODIES: list[Any] = [
    {"nation": "GB", "entries": GB},
    {"game": "battlecards", "nation": "GB", "entries": GB},
    {"game": "the-war", "nation": "red-army", "entries": [{"card": "x-1", "count": 2}]},
    {"game": "the_war", "nation": "red-army", "entries": [{"card": "x-1", "count": 2}]},  # an old alias
    {"game": "battlefront", "nation": "GB", "entries": GB},
    {"game": "chess", "nation": "GB", "entries": GB},
    {"game": None, "nation": "GB", "entries": GB},
    {"nation": " GB ", "entries": GB},
    {"nation": "", "entries": GB},
    {"nation": None, "entries": GB},
    {"nation": 7, "entries": GB},
    {"nation": "G" * 17, "entries": GB},
    {"nation": "G\x00B", "entries": GB},
    {"entries": GB},
    {"nation": "GB"},
    {"nation": "GB", "entries": []},
    {"nation": "GB", "entries": {}},
    {"nation": "GB", "entries": {"gb-infantry": 20, "gb-spitfire": 18}},
    {"nation": "GB", "entries": "gb-infantry"},
    {"nation": "GB", "entries": None},
    {"nation": "GB", "entries": [{"card": " gb-infantry ", "count": 20}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": "20"}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 20.0}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 2.5}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": True}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 0}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 100}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": -3}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry"}]},
    {"nation": "GB", "entries": [{"count": 2}]},
    {"nation": "GB", "entries": [{"card": "", "count": 2}]},
    {"nation": "GB", "entries": [{"card": 12, "count": 2}]},
    {"nation": "GB", "entries": [{"card": "c" * 65, "count": 2}]},
    {"nation": "GB", "entries": [{"card": "c" * 64, "count": 2}]},
    {"nation": "GB", "entries": [{"card": "gb\ud800", "count": 2}]},
    {"nation": "GB", "entries": [{"card": "gb\tinf", "count": 2}]},
    {"nation": "GB", "entries": [{"card": "gb-infantry", "count": 2, "note": "extra key"}]},
    {"nation": "GB", "entries": [GB[0], GB[0]]},
    {"nation": "GB", "entries": [GB[0], {"card": "gb-infantry", "count": 0}]},
    {"nation": "GB", "entries": [["gb-infantry", 2]]},
    {"nation": "GB", "entries": [{"card": f"gb-{n}", "count": 1} for n in range(501)]},
    {"nation": "GB", "entries": GB, "is_public": True},
    ["GB", GB],
    "GB",
]


def outcome(check, body: Any) -> tuple[str, Any]:
    try:
        return "data", dict(check(body))
    except (APIException, DomainError) as error:
        detail = (error.detail, getattr(error, "code", None), getattr(error, "extra", None))
        return type(error).__name__, detail


def serializer_outcome(body: Any) -> tuple[str, Any]:
    return outcome(lambda b: validated_input(DeckValidateInputSerializer, b), body)


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_plain_path_answers_as_the_serializer_does(body):
    assert outcome(deck_validate_input, body) == serializer_outcome(body)


def test_the_bodies_above_cover_answers_of_every_kind():
    kinds = {serializer_outcome(body)[0] for body in BODIES}
    assert kinds == {"data", "ValidationError", "ValidationFailed"}, kinds


def test_plain_entries_are_taken_without_the_serializer_and_others_are_not():
    assert plain_entries(GB) == GB
    assert plain_entries([{"card": "gb-infantry", "count": "20"}]) is None
    assert plain_entries([{"card": "gb-infantry ", "count": 20}]) is None
    assert plain_entries([]) is None


def test_the_early_stopping_comparison_equals_cap_singles(catalog):
    rng = random.Random(42)
    codes = sorted(catalog.arsenal)[:80]
    singles = [c for c in codes if catalog.arsenal[c].is_single_copy]
    assert singles, "the sample needs single-copy cards"
    for _ in range(2000):
        counts = {c: rng.randint(1, 4) for c in rng.sample(codes, rng.randint(0, 6))}
        capped = rules.cap_singles(counts, catalog)
        wanted = dict(capped) if rng.random() < 0.5 else {**capped, rng.choice(codes): rng.randint(1, 4)}
        if rng.random() < 0.3 and wanted:
            wanted.pop(next(iter(wanted)))
        assert capped_equal(counts, wanted, catalog) == (capped == wanted)


def test_the_nations_set_counts_are_its_packs_and_starters(catalog):
    for nation in ("GB", "DE", "US", "RU"):
        packs, starters = nation_set_counts(catalog, nation)
        assert [code for code, _ in packs] == [p.code for p in rules.packs_of(catalog, nation=nation)]
        assert [code for code, _ in starters] == [s.code for s in rules.starters_of(catalog, nation)]
        for code, counts in packs:
            assert counts == rules.set_arsenal_counts(catalog.sets[code], catalog, nation)
        for code, counts in starters:
            assert counts == rules.set_arsenal_counts(catalog.sets[code], catalog)
        assert nation_set_counts(catalog, nation) is not None
        assert nation_set_counts(catalog, nation)[0] is packs  # kept for the same catalog object


def test_official_compositions_are_still_found(catalog):
    for nation, starter in (("GB", "gb-we-starter"), ("DE", "de-we-starter")):
        base = rules.set_arsenal_counts(catalog.sets[starter], catalog)
        for copies in (1, 2):
            entries = {code: count * copies for code, count in base.items()}
            found = rules.official_composition(catalog, rules.cap_singles(entries, catalog), nation)
            assert found is not None and (found.starter, found.copies, found.packs) == (starter, copies, ())
        assert rules.official_composition(catalog, {**base, next(iter(base)): 99}, nation) is None


@pytest.mark.django_db
def test_the_catalog_version_is_read_at_most_every_token_period(catalog_rows, settings):
    settings.CATALOG_TOKEN_SECONDS = 60
    catalog_cache_forget_token()
    with CaptureQueriesContext(connection) as first:
        built = catalog_definitions()
    with CaptureQueriesContext(connection) as again:
        assert catalog_definitions() is built
    assert len(first) >= 1 and len(again) == 0
    catalog_cache_forget_token()  # what a change made in this process does (cards.services)
    with CaptureQueriesContext(connection) as after_change:
        assert catalog_definitions() == built
    assert len(after_change) >= 1
    settings.CATALOG_TOKEN_SECONDS = 0
    with CaptureQueriesContext(connection) as unmemoised:
        catalog_definitions()
    assert len(unmemoised) >= 1
    catalog_cache_forget_token()


def test_the_usual_body_builds_no_serializer(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the serializer was built")

    monkeypatch.setattr("decks.serializers.validated_input", refuse)
    data = deck_validate_input({"nation": "GB", "entries": GB})
    assert data == {"game": "battlecards", "nation": "GB", "entries": {"gb-infantry": 20, "gb-spitfire": 18}}
    with pytest.raises(AssertionError, match="serializer was built"):
        deck_validate_input({"nation": "GB", "entries": [{"card": "gb-infantry", "count": "20"}]})
