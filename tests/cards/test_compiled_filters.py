"""Catalog lists compiled per filter shape (config.compiled_filters, cards.list_forms): for any combination of
filters, orderings and pages, valid or not, the compiled path answers with the same status and the same body,
byte for byte, as the queryset path (the FilterSet, its form and the ORM), after running the same SQL
statements with the same parameters; a shape is compiled once and later requests of it build no FilterSet and
no queryset; the number of statements does not grow with the filters; a catalog change shows at once."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cards import list_forms
from cards.models import ArsenalCard, Battlecard, CardSet, ConflictCard, Nation, Theater, UnitClass
from cards.services import catalog_cache_clear
from config.filters import SharedFormFilterSet
from config.http_cache import local_bodies


@pytest.fixture(autouse=True)
def _every_request_misses(monkeypatch, no_shared_response_cache):
    monkeypatch.setattr(list_forms, "VERIFY", True)  # every compiled request re-checks its shape's SQL
    list_forms.plans.clear()
    _warmed.clear()


def _get(client: APIClient, url: str, *, compiled: bool) -> tuple[int, bytes, list[tuple[str, tuple]]]:
    """(status, body, the SQL statements run with their parameters) of one request that misses the response
    cache, on the compiled path or on the queryset path."""
    statements: list[tuple[str, tuple]] = []

    def record(execute, sql, params, many, context):
        # (psycopg's Jsonb wrappers compare by identity: compare what they wrap)
        statements.append((sql, tuple((type(p), p.obj) if hasattr(p, "obj") else p for p in params or ())))
        return execute(sql, params, many, context)

    list_forms.COMPILED = compiled
    try:
        local_bodies.clear()
        with connection.execute_wrapper(record):
            response = client.get(url)
    finally:
        list_forms.COMPILED = True
    return response.status_code, response.content, statements


def _same_answer(client: APIClient, url: str) -> int:
    compiled = _get(client, url, compiled=True)
    orm = _get(client, url, compiled=False)
    assert compiled[:2] == orm[:2], url
    if compiled[0] == 200:  # (a refusal may validate twice: the compiled path then the queryset path's 4xx)
        assert compiled[2] == orm[2], url  # the same statements, with the same parameters, in the same order
    return compiled[0]


_warmed: set[str] = set()  # the lists warmed in this test (its hypothesis examples share the built forms)


def _warm(client: APIClient, path: str) -> None:
    """Every form of the list built and checked under the current token (no request below builds one)."""
    if path in _warmed:
        return
    _warmed.add(path)
    for _ in range(2):
        local_bodies.clear()
        assert client.get(f"{path}?page_size=500").status_code == 200


# ------------------------------------------------------------------------------------ the strategies

NUMBER = st.one_of(
    st.integers(-(2**33), 2**33).map(str),
    st.integers(-3, 30).map(str),
    st.sampled_from(
        ["", "1.5", "-0.5", "1e1", "abc", "NaN", "2147483647", "-2147483648", "2147483648", " 7"]
    ),
)
BOOL = st.sampled_from(["true", "false", "1", "0", "yes", "no", "TRUE", "maybe", ""])
PAGE = st.sampled_from(["1", "2", "3", "9", "999", "0", "-1", "x", "last", ""])
PAGE_SIZE = st.sampled_from(["1", "7", "50", "500", "1000", "0", "x", ""])


def _ordering(fields: list[str]) -> st.SearchStrategy[str]:
    term = st.sampled_from([*fields, *(f"-{f}" for f in fields), "bogus", ""])
    return st.lists(term, min_size=1, max_size=3).map(",".join)


def _values(options: list[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from([*options, "bogus", ""]), min_size=1, max_size=3)


def _query(draw, params: dict[str, st.SearchStrategy]) -> str:
    names = draw(st.lists(st.sampled_from(sorted(params)), max_size=6, unique=True))
    pairs: list[tuple[str, str]] = []
    for name in names:
        value = draw(params[name])
        for item in value if isinstance(value, list) else [value]:
            pairs.append((name, item))
    return urlencode(pairs)


def _arsenal_params() -> dict[str, st.SearchStrategy]:
    nations = sorted(Nation.objects.values_list("code", flat=True))
    sets = sorted(CardSet.objects.values_list("code", flat=True))[:12]
    classes = sorted(UnitClass.objects.values_list("code", flat=True))
    variants = ArsenalCard.objects.filter(variant_of__isnull=False)
    cards = sorted(variants.values_list("variant_of__code", flat=True))
    params: dict[str, st.SearchStrategy] = {
        "nation": _values(nations),
        "side": st.sampled_from(["allies", "axis", "neutral", ""]),
        "set": _values(sets),
        "kind": _values(["ground", "air", "sea", "support"]),
        "class": _values(classes),
        "phase": _values(["1", "2", "3", "4", "none"]),
        "provenance": st.sampled_from(["estimated", "seed", "x"]),
        "max_per_deck": st.sampled_from(["1", "2", "unlimited", "0", "x"]),
        "ukrainian": BOOL,
        "variant_of": st.sampled_from([*cards[:5], "nope", ""]),
        "ordering": _ordering(["code", "name", "points", "kind", "phase", "nation", "attack_ground",
                               "defense_sea", "max_per_deck"]),
        "page": PAGE,
        "page_size": PAGE_SIZE,
    }
    for stat in ("points", "attack_ground", "attack_air", "attack_sea", "defense_ground", "defense_air",
                 "defense_sea"):
        params[f"{stat}_min"] = NUMBER
        params[f"{stat}_max"] = NUMBER
    return params


PROPERTY = settings(
    max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


@PROPERTY
@given(data=st.data())
def test_any_arsenal_filter_combination_answers_as_the_queryset_path(catalog_rows, data):
    client = APIClient()
    _warm(client, "/api/arsenal-cards/")
    query = data.draw(st.composite(_query)(_arsenal_params()))
    _same_answer(client, f"/api/arsenal-cards/?{query}")


def _other_params(path: str) -> dict[str, st.SearchStrategy]:
    theaters = _values(sorted(Theater.objects.values_list("code", flat=True)))
    nations = _values(sorted(Nation.objects.values_list("code", flat=True)))
    common = {"page": PAGE, "page_size": PAGE_SIZE}
    if path == "/api/conflict-cards/":
        sets = _values(sorted(ConflictCard.objects.values_list("card_set__code", flat=True).distinct()))
        return {**common, "theater": theaters, "set": sets, "category": _values(["military-build-up", "x"]),
                "effect": _values(["build-up", "x"]), "action_number": NUMBER,
                "provenance": st.sampled_from(["seed", "estimated"]),
                "ordering": _ordering(["code", "name", "count", "action_number", "effect"])}
    if path == "/api/battlecards/":
        sets = _values(sorted(Battlecard.objects.values_list("card_set__code", flat=True).distinct()))
        aggressor = st.sampled_from(["DE", "GB", "x", ""])
        return {**common, "theater": theaters, "set": sets, "aggressor": aggressor,
                "homeland": nations, "is_homeland": BOOL, "victory_points_min": NUMBER,
                "victory_points_max": NUMBER, "emergency_deployment": BOOL,
                "ordering": _ordering(["code", "name", "victory_points", "aggressor"])}
    if path == "/api/sets/":
        return {**common, "kind": st.sampled_from(["starter", "booster", "x", ""]), "nation": nations,
                "side": st.sampled_from(["allies", "axis", "x"]), "theater": theaters,
                "ordering": _ordering(["code", "name", "kind", "printed_points"])}
    return {**common, "side": st.sampled_from(["allies", "axis", "x", ""]),
            "ordering": _ordering(["code", "name", "side"])}


@PROPERTY
@given(data=st.data(), path=st.sampled_from(["/api/conflict-cards/", "/api/battlecards/", "/api/sets/",
                                             "/api/nations/"]))
def test_any_filter_combination_of_the_other_lists_answers_as_the_queryset_path(catalog_rows, data, path):
    client = APIClient()
    _warm(client, path)
    query = data.draw(st.composite(_query)(_other_params(path)))
    _same_answer(client, f"{path}?{query}")


# ------------------------------------------------------------------------------------------ named cases

CASES = [
    "points_min=-5",  # below a positive column's range: no condition at all
    "points_min=3000000000",  # beyond the filter's bound: its 400
    "points_max=-1",  # below the range of a "<=": no row, no statement
    "points_min=1.5&points_max=9.9",
    "attack_ground_min=5&ordering=-attack_ground,name",
    "kind=air&kind=air&kind=sea",
    "kind=air&class=fighter&nation=DE&nation=GB",
    "nation=ZZ",
    "nation=",
    "kind=bogus",
    "ordering=bogus",
    "ordering=-points,",
    "ukrainian=maybe",
    "ukrainian=true",
    "side=axis&page=2&page_size=7",
    "side=axis&page=99",
    "kind=air&page=99",
    "kind=air&page=2&page_size=3",
    "points_min=abc&page_size=0",  # both invalid: the filter's 400 comes first, as before
    "points_min=3&page_size=0",
    "page=last&page_size=7",
    "phase=none&points_min=2",
    "max_per_deck=unlimited",
    "variant_of=nope",
]


@pytest.mark.parametrize("query", CASES)
def test_named_cases_answer_as_the_queryset_path(catalog_rows, query):
    client = APIClient()
    _warm(client, "/api/arsenal-cards/")
    served = list_forms.plans.served
    status = _same_answer(client, f"/api/arsenal-cards/?{query}")
    fallback = "phase" in query or "max_per_deck" in query or "page=last" in query
    assert (list_forms.plans.served > served) == (status == 200 and not fallback), query


def test_errors_keep_their_status_and_body(catalog_rows):
    client = APIClient()
    refused = [("points_min=abc", "points_min"), ("kind=bogus", "kind"), ("ordering=bogus", "ordering"),
               ("ukrainian=maybe", "ukrainian"), ("nation=ZZ", "nation")]
    for query, field in refused:
        local_bodies.clear()
        response = client.get(f"/api/arsenal-cards/?{query}")
        assert response.status_code == 400 and list(response.json()["errors"]) == [field], query


# ------------------------------------------------------------------------------ compiled once, then bound


def test_a_shape_is_compiled_once_and_later_requests_build_no_filterset(catalog_rows, monkeypatch):
    monkeypatch.setattr(list_forms, "VERIFY", False)
    client = APIClient()
    _warm(client, "/api/arsenal-cards/")
    first = _get(client, "/api/arsenal-cards/?points_min=3&kind=air&ordering=-points", compiled=True)
    compiled = list_forms.plans.compiled
    built: list[int] = []
    original = SharedFormFilterSet.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(SharedFormFilterSet, "__init__", counting)
    again = _get(client, "/api/arsenal-cards/?points_min=5&kind=sea&ordering=-points", compiled=True)
    assert first[0] == again[0] == 200 and first[1] != again[1]
    assert list_forms.plans.compiled == compiled and not built
    assert again[2][-1][0] == first[2][-1][0]  # the same SQL text, other parameters


def test_the_statements_do_not_grow_with_the_filters(catalog_rows, monkeypatch):
    monkeypatch.setattr(list_forms, "VERIFY", False)
    client = APIClient()
    _warm(client, "/api/arsenal-cards/")
    queries = ["page_size=50", "points_min=1", "points_min=1&points_max=20&attack_ground_min=2&side=axis"
               "&ukrainian=false&ordering=-points,name&page_size=10"]
    for query in queries:  # compile each shape
        _get(client, f"/api/arsenal-cards/?{query}", compiled=True)
    counts = [len(_get(client, f"/api/arsenal-cards/?{q}&page=1", compiled=True)[2]) for q in queries]
    orm = len(_get(client, f"/api/arsenal-cards/?{queries[0]}", compiled=False)[2])
    assert counts == [orm] * 3  # the page's keys with the total count: one statement, whatever the filters


def test_a_catalog_change_shows_at_once_on_a_compiled_shape(catalog_rows, settings):
    settings.CATALOG_TOKEN_SECONDS = 0
    client = APIClient()
    url = "/api/arsenal-cards/?points_min={}&ordering=-points"
    top = _get(client, url.format(1), compiled=True)
    card = ArsenalCard.objects.order_by("points", "code").first()
    ArsenalCard.objects.filter(pk=card.pk).update(points=4321)
    catalog_cache_clear()
    status, body, _ = _get(client, url.format(4000), compiled=True)  # the same shape, already compiled
    assert status == 200 and top[0] == 200
    results = json.loads(body)["results"]
    assert [(c["code"], c["points"]) for c in results] == [(card.code, 4321)]


# ------------------------------------------------------------------ every catalog list, from its own form


def _catalog_lists() -> list[tuple[str, type]]:
    """(path, view class) of every catalog list with a FilterSet (cards.apis.CatalogViewSet)."""
    from django.urls import get_resolver

    from cards.apis import CatalogViewSet

    found = []
    for pattern in get_resolver().url_patterns:
        for inner in getattr(pattern, "url_patterns", [pattern]):
            callback = getattr(inner, "callback", None)
            cls = getattr(callback, "cls", None)
            actions = getattr(callback, "actions", {}) or {}
            listed = cls and issubclass(cls, CatalogViewSet) and actions.get("get") == "list"
            if listed and getattr(cls, "filterset_class", None):
                route = str(pattern.pattern) + str(inner.pattern)
                if "<" not in route and "(?P" not in route and "format" not in route:
                    found.append(("/" + route.replace("^", "").replace("$", "").replace("\\", ""), cls))
    return sorted(set(found), key=lambda item: item[0])


def _form_params(cls) -> dict[str, st.SearchStrategy]:
    """Values for each filter of the view's form: its choices (and a bad one) or numbers and words."""
    from config.compiled_filters import binding_for

    params: dict[str, st.SearchStrategy] = {"page": PAGE, "page_size": PAGE_SIZE}
    for bound in binding_for(cls.filterset_class).filters:
        choices = [str(c[0]) for c in getattr(bound.field, "choices", []) or [] if str(c[0])][:12]
        if bound.name == "ordering":
            params[bound.name] = _ordering([c.lstrip("-") for c in choices if not c.startswith("-")][:8])
        elif choices:
            params[bound.name] = _values(choices)
        else:
            params[bound.name] = st.one_of(NUMBER, BOOL, st.sampled_from(["GB", "DE", "WE", "a", "x"]))
    return params


def test_every_catalog_list_is_found():
    paths = [path for path, _ in _catalog_lists()]
    assert "/api/arsenal-cards/" in paths and "/api/the-war/cards/" in paths and len(paths) >= 10, paths


@PROPERTY
@given(data=st.data())
def test_any_filter_of_any_catalog_list_answers_as_the_queryset_path(catalog_rows, data):
    path, cls = data.draw(st.sampled_from(_catalog_lists()))
    client = APIClient()
    _warm(client, path)
    query = data.draw(st.composite(_query)(_form_params(cls)))
    _same_answer(client, f"{path}?{query}")
