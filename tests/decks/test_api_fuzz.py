"""Whatever JSON a client sends, the deck API answers in the common shape and never with a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

CODES = st.sampled_from(["gb-infantry", "de-tiger-i", "gb-montgomery", "nope", "", "x" * 70])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    CODES,
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ENTRY = st.fixed_dictionaries(
    {"card": st.one_of(CODES, JSON), "count": st.one_of(st.integers(-5, 120), JSON)}
)
ENTRIES = st.one_of(
    st.lists(ENTRY, max_size=6), st.dictionaries(CODES, st.integers(-3, 120), max_size=4), JSON
)
DECK_REF = st.one_of(
    st.fixed_dictionaries({"deck_id": st.one_of(st.integers(-3, 10**6), JSON)}),
    st.fixed_dictionaries(
        {"starter": st.one_of(st.sampled_from(["gb-we-starter", "de-we-starter", "x"]), JSON)}
    ),
    st.fixed_dictionaries(
        {"nation": st.one_of(st.sampled_from(["GB", "DE", "XX"]), JSON), "entries": ENTRIES}
    ),
    JSON,
)
CONFLICT = st.one_of(
    st.fixed_dictionaries(
        {
            "theater": st.one_of(st.sampled_from(["WE", "PAC", "XX"]), JSON),
            "mode": st.one_of(st.sampled_from(["thin", "fat", "packs"]), JSON),
            "packs": st.one_of(st.lists(st.sampled_from(["gb-we-expansion", "us-expansion", "x"])), JSON),
        }
    ),
    JSON,
)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def assert_clean(response):
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        assert {"status", "code", "detail"} <= set(response.json())


@FUZZ
@given(nation=st.one_of(st.sampled_from(["GB", "DE", "XX"]), JSON), entries=ENTRIES)
def test_validate_never_fails(anon_client, nation, entries):
    assert_clean(
        anon_client.post(reverse("deck-validate"), {"nation": nation, "entries": entries}, format="json")
    )


@FUZZ
@given(a=DECK_REF, b=DECK_REF, conflict=CONFLICT)
def test_matchup_never_fails(anon_client, a, b, conflict):
    assert_clean(
        anon_client.post(reverse("deck-matchup"), {"a": a, "b": b, "conflict": conflict}, format="json")
    )


@FUZZ
@given(payload=st.one_of(JSON, st.fixed_dictionaries({"name": JSON, "nation": JSON, "text": JSON})))
def test_import_never_fails(owner_client, payload):
    assert_clean(owner_client.post(reverse("deck-import"), payload, format="json"))


@FUZZ
@given(
    payload=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {
                "name": st.one_of(st.text(max_size=130), JSON),
                "nation": st.one_of(st.sampled_from(["GB", "DE"]), JSON),
                "is_public": JSON,
                "entries": ENTRIES,
            }
        ),
    )
)
def test_create_never_fails(owner_client, payload):
    assert_clean(owner_client.post(reverse("deck-list"), payload, format="json"))
