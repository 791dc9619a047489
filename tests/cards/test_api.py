"""The read API: every filter, ordering, pagination, detail by code, error shapes, constant query counts.

Expectations are computed from the catalog definitions (vocabulary.battlecards), run once against the small
mini catalog and once against the real one, so the tests follow the data.
"""

from __future__ import annotations

import statistics

import pytest
from rest_framework.test import APIClient

from tests.cards.conftest import list_query_counts
from vocabulary.battlecards import KINDS, Catalog

LISTS = {
    "nations": "/api/nations/",
    "theaters": "/api/theaters/",
    "sets": "/api/sets/",
    "arsenal": "/api/arsenal-cards/",
    "conflict": "/api/conflict-cards/",
    "battlecards": "/api/battlecards/",
}


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def fetch_all(client: APIClient, url: str) -> list[dict]:
    """Every result of a list endpoint, following the absolute `next` links."""
    results: list[dict] = []
    next_url: str | None = url
    while next_url:
        response = client.get(next_url)
        assert response.status_code == 200, response.content
        body = response.json()
        results.extend(body["results"])
        next_url = body["next"]
    return results


def codes(client: APIClient, url: str) -> set[str]:
    sep = "&" if "?" in url else "?"
    found = [r["code"] for r in fetch_all(client, f"{url}{sep}page_size=500")]
    assert len(found) == len(set(found)), "a card was listed twice"
    return set(found)


def effective_max(card) -> int | None:
    return card.effective_max_per_deck


def is_estimated(card) -> bool:
    return "estimated" in dict(card.provenance).values()


class TestArsenalFilters:
    def test_nation_and_side(self, client, loaded: Catalog):
        for nation in loaded.nations.values():
            expected = {c.code for c in loaded.arsenal.values() if c.nation == nation.code}
            assert codes(client, f"/api/arsenal-cards/?nation={nation.code}") == expected
        for side in ("allies", "axis"):
            expected = {c.code for c in loaded.arsenal.values() if c.side == side}
            assert codes(client, f"/api/arsenal-cards/?side={side}") == expected

    def test_set(self, client, loaded: Catalog):
        for card_set in loaded.sets.values():
            expected = {e.card for e in card_set.entries}
            assert codes(client, f"/api/arsenal-cards/?set={card_set.code}") == expected

    def test_kind_class_phase(self, client, loaded: Catalog):
        for kind in KINDS:
            expected = {c.code for c in loaded.arsenal.values() if c.kind == kind}
            assert codes(client, f"/api/arsenal-cards/?kind={kind}") == expected
        for unit_class in {cls for c in loaded.arsenal.values() for cls in c.classes}:
            expected = {c.code for c in loaded.arsenal.values() if unit_class in c.classes}
            assert codes(client, f"/api/arsenal-cards/?class={unit_class}") == expected
        for phase in (1, 2, 3, 4):
            expected = {c.code for c in loaded.arsenal.values() if c.phase == phase}
            assert codes(client, f"/api/arsenal-cards/?phase={phase}") == expected
        never = {c.code for c in loaded.arsenal.values() if c.phase is None}
        assert codes(client, "/api/arsenal-cards/?phase=none") == never
        assert codes(client, "/api/arsenal-cards/?phase=none&phase=4") == never | {
            c.code for c in loaded.arsenal.values() if c.phase == 4
        }

    def test_ability(self, client, loaded: Catalog):
        kinds = {a.kind for c in loaded.arsenal.values() for a in c.abilities}
        assert kinds
        for kind in kinds:
            expected = {c.code for c in loaded.arsenal.values() if c.has(kind)}
            assert codes(client, f"/api/arsenal-cards/?ability={kind}") == expected

    def test_points_range(self, client, loaded: Catalog):
        points = sorted(c.points for c in loaded.arsenal.values())
        low, high = points[len(points) // 4], int(statistics.median(points))
        expected = {c.code for c in loaded.arsenal.values() if low <= c.points <= high}
        assert codes(client, f"/api/arsenal-cards/?points_min={low}&points_max={high}") == expected

    @pytest.mark.parametrize("stat", ["attack", "defense"])
    @pytest.mark.parametrize("kind", KINDS)
    def test_stat_ranges(self, client, loaded: Catalog, stat, kind):
        values = sorted(v for c in loaded.arsenal.values() if (v := getattr(c, stat).vs(kind)) is not None)
        threshold = int(statistics.median(values))
        at_least = {c.code for c in loaded.arsenal.values() if (getattr(c, stat).vs(kind) or -1) >= threshold}
        at_most = {
            c.code
            for c in loaded.arsenal.values()
            if getattr(c, stat).vs(kind) is not None and getattr(c, stat).vs(kind) <= threshold
        }
        assert codes(client, f"/api/arsenal-cards/?{stat}_{kind}_min={threshold}") == at_least
        assert codes(client, f"/api/arsenal-cards/?{stat}_{kind}_max={threshold}") == at_most

    def test_max_per_deck_is_the_effective_limit(self, client, loaded: Catalog):
        unlimited = {c.code for c in loaded.arsenal.values() if effective_max(c) is None}
        assert codes(client, "/api/arsenal-cards/?max_per_deck=unlimited") == unlimited
        for limit in {effective_max(c) for c in loaded.arsenal.values()} - {None}:
            expected = {c.code for c in loaded.arsenal.values() if effective_max(c) == limit}
            assert codes(client, f"/api/arsenal-cards/?max_per_deck={limit}") == expected

    def test_generals_and_leaders_count_as_one_per_deck(self, client, loaded: Catalog):
        commanders = {c.code for c in loaded.arsenal.values() if c.is_general or c.is_leader}
        assert commanders
        assert commanders <= codes(client, "/api/arsenal-cards/?max_per_deck=1")
        for code in commanders:
            assert client.get(f"/api/arsenal-cards/{code}/").json()["effective_max_per_deck"] == 1

    def test_provenance_and_ukrainian(self, client, loaded: Catalog):
        estimated = {c.code for c in loaded.arsenal.values() if is_estimated(c)}
        assert codes(client, "/api/arsenal-cards/?provenance=estimated") == estimated
        assert codes(client, "/api/arsenal-cards/?provenance=seed") == set(loaded.arsenal) - estimated
        ukrainian = {c.code for c in loaded.arsenal.values() if c.ukrainian}
        assert codes(client, "/api/arsenal-cards/?ukrainian=true") == ukrainian
        assert codes(client, "/api/arsenal-cards/?ukrainian=false") == set(loaded.arsenal) - ukrainian

    def test_search_matches_name_and_code(self, client, loaded: Catalog):
        term = "infantry"
        expected = {
            c.code for c in loaded.arsenal.values() if term in c.name.lower() or term in c.code.lower()
        }
        assert expected
        assert codes(client, f"/api/arsenal-cards/?search={term}") == expected

    def test_filters_combine(self, client, loaded: Catalog):
        nation = next(iter(loaded.nations))
        expected = {c.code for c in loaded.arsenal.values() if c.nation == nation and c.kind == "ground"}
        assert codes(client, f"/api/arsenal-cards/?nation={nation}&kind=ground") == expected


class TestOrderingAndPagination:
    def test_ordering_by_points_then_name_descending(self, client, loaded: Catalog):
        results = fetch_all(client, "/api/arsenal-cards/?ordering=points,-name&page_size=500")
        keys = [(r["points"], r["name"]) for r in results]
        for (p1, n1), (p2, n2) in zip(keys, keys[1:], strict=False):
            assert p1 < p2 or (p1 == p2 and n1 >= n2)
        assert len(results) == len(loaded.arsenal)

    def test_default_ordering_is_by_code(self, client, loaded: Catalog):
        results = fetch_all(client, "/api/arsenal-cards/?page_size=500")
        assert [r["code"] for r in results] == sorted(loaded.arsenal)

    def test_pages_cover_everything_once_with_absolute_links(self, client, loaded: Catalog):
        first = client.get("/api/arsenal-cards/?page_size=2&ordering=-points").json()
        assert first["count"] == len(loaded.arsenal)
        assert len(first["results"]) == 2
        assert first["previous"] is None
        assert first["next"].startswith("http://testserver/api/arsenal-cards/?")
        second = client.get(first["next"]).json()
        assert second["previous"].startswith("http://testserver/api/arsenal-cards/")
        everything = fetch_all(client, "/api/arsenal-cards/?page_size=3&ordering=-points")
        assert sorted(r["code"] for r in everything) == sorted(loaded.arsenal)

    def test_page_out_of_range_is_a_404_in_the_error_shape(self, client, loaded: Catalog):
        response = client.get("/api/arsenal-cards/?page=9999")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"

    @pytest.mark.parametrize("name", list(LISTS))
    def test_query_count_does_not_grow_with_page_size(self, client, loaded: Catalog, name):
        """Whatever its size, a page that misses the response cache: the version token, the page's keys with
        the count (one statement), and the first time this process shows its rows, those rows with their
        prefetches."""
        cold, warm = list_query_counts(client, LISTS[name], (5, 200))
        assert cold[0] == cold[1] and warm[0] == warm[1] == 2, (cold, warm)


class TestDetail:
    def test_every_card_by_code(self, client, loaded: Catalog):
        card = next(iter(loaded.arsenal.values()))
        body = client.get(f"/api/arsenal-cards/{card.code}/").json()
        assert body["code"] == card.code
        assert body["name"] == card.name
        assert body["nation"] == card.nation
        assert body["side"] == card.side
        assert tuple(body["classes"]) == card.classes
        assert body["attack"] == card.attack.to_dict()
        assert body["defense"] == card.defense.to_dict()
        assert body["abilities"] == [a.to_dict() for a in card.abilities]
        assert {k: v["source"] for k, v in body["provenance"].items()} == dict(card.provenance)
        assert {s["set"] for s in body["sets"]} == {
            s.code for s in loaded.sets.values() if any(e.card == card.code for e in s.entries)
        }
        for name, table in (
            ("nations", loaded.nations),
            ("sets", loaded.sets),
            ("theaters", loaded.theaters),
        ):
            code = next(iter(table))
            assert client.get(f"{LISTS[name]}{code}/").json()["code"] == code

    def test_conflict_and_battlecards_by_code(self, client, mini_catalog: Catalog):
        card = mini_catalog.conflict["WE-BUILDUP"]
        body = client.get("/api/conflict-cards/WE-BUILDUP/").json()
        assert (body["set"], body["effect"], body["params"]) == (
            card.set_code,
            "build-up",
            {"draw": 2, "deploy": 2},
        )
        assert body["estimated"] is True
        body = client.get("/api/battlecards/WE-BRITAIN/").json()
        assert body["homeland_of"] == "GB"
        assert body["prerequisites"] == [
            {"holder": "DE", "battlecard": "WE-FRANCE"},
            {"holder": "axis", "battlecard": "WE-BFRANCE"},
        ]
        assert body["defender_forces"]["optional_ground_classes"] == ["anti-aircraft-artillery"]

    def test_variant_links(self, client, mini_catalog: Catalog):
        assert client.get("/api/arsenal-cards/DE-INF-UA/").json()["variant_of"] == "DE-INF"
        assert client.get("/api/arsenal-cards/DE-INF/").json()["variants"] == ["DE-INF-UA"]
        assert codes(client, "/api/arsenal-cards/?variant_of=DE-INF") == {"DE-INF-UA"}

    @pytest.mark.parametrize("name", list(LISTS))
    def test_unknown_code_is_a_404_in_the_error_shape(self, client, mini_catalog, name):
        response = client.get(f"{LISTS[name]}NO-SUCH-CODE/")
        assert response.status_code == 404
        assert response.json() == {"status": 404, "code": "not_found", "detail": "Not found."}


class TestSets:
    def test_entries_and_printed_versus_computed_totals(self, client, loaded: Catalog):
        for body in fetch_all(client, "/api/sets/?page_size=500"):
            card_set = loaded.sets[body["code"]]
            assert [e["card"] for e in body["entries"]] == [e.card for e in card_set.entries]
            counted = [e for e in card_set.entries if e.count is not None]
            cards = sum(e.count for e in counted) if counted else None
            points = sum(e.count * loaded.arsenal[e.card].points for e in counted) if counted else None
            assert (body["computed_cards"], body["computed_points"]) == (cards, points)
            assert body["printed_cards"] == card_set.printed_cards
            assert body["printed_points"] == card_set.printed_points
            if card_set.printed_points is not None:
                assert body["points_difference"] == (points or 0) - card_set.printed_points
            else:
                assert body["points_difference"] is None
            if card_set.printed_cards is not None:
                assert body["cards_difference"] == (cards or 0) - card_set.printed_cards
            assert body["unknown_count_entries"] == len(card_set.entries) - len(counted)

    def test_mini_starter_totals(self, client, mini_catalog):
        body = client.get("/api/sets/WE-GB/").json()
        # 2 x infantry (4) + 1 x Montgomery (13); the Spitfire's count is unknown.
        assert (body["computed_cards"], body["computed_points"]) == (3, 21)
        assert (body["cards_difference"], body["points_difference"], body["unknown_count_entries"]) == (
            -1,
            -9,
            1,
        )

    def test_set_filters(self, client, loaded: Catalog):
        for kind in ("starter", "expansion", "conflict"):
            expected = {s.code for s in loaded.sets.values() if s.kind == kind}
            assert codes(client, f"/api/sets/?kind={kind}") == expected
        nation = next(iter(loaded.nations))
        assert codes(client, f"/api/sets/?nation={nation}") == {
            s.code for s in loaded.sets.values() if s.nation == nation
        }


class TestConflictAndBattlecardFilters:
    def test_conflict_filters(self, client, loaded: Catalog):
        cards = loaded.conflict.values()
        for attr, param in (
            ("theater", "theater"),
            ("set_code", "set"),
            ("category", "category"),
            ("effect", "effect"),
        ):
            for value in {getattr(c, attr) for c in cards}:
                expected = {c.code for c in cards if getattr(c, attr) == value}
                assert codes(client, f"/api/conflict-cards/?{param}={value}") == expected
        assert codes(client, "/api/conflict-cards/") == set(loaded.conflict)

    def test_battlecard_filters(self, client, loaded: Catalog):
        cards = loaded.battlecards.values()
        for attr, param in (
            ("theater", "theater"),
            ("set_code", "set"),
            ("aggressor", "aggressor"),
            ("homeland_of", "homeland"),
        ):
            for value in {getattr(c, attr) for c in cards} - {None}:
                expected = {c.code for c in cards if getattr(c, attr) == value}
                assert codes(client, f"/api/battlecards/?{param}={value}") == expected
        homelands = {c.code for c in cards if c.homeland_of}
        assert codes(client, "/api/battlecards/?is_homeland=true") == homelands
        assert codes(client, "/api/battlecards/") == set(loaded.battlecards)

    def test_mini_values(self, client, mini_catalog):
        assert codes(client, "/api/conflict-cards/?effect=chemical-warfare") == {"WE-CHEM"}
        assert codes(client, "/api/conflict-cards/?category=kept") == {"WE-CHEM"}
        assert codes(client, "/api/battlecards/?homeland=GB") == {"WE-BRITAIN"}
        assert codes(client, "/api/battlecards/?aggressor=DE") == {"WE-FRANCE", "WE-BRITAIN"}
        assert codes(client, "/api/battlecards/?provenance=estimated") == {"WE-BFRANCE"}


@pytest.mark.parametrize(
    "url",
    [
        "/api/arsenal-cards/?points_min=abc",
        "/api/arsenal-cards/?attack_air_max=1.x",
        "/api/arsenal-cards/?phase=9",
        "/api/arsenal-cards/?ordering=bogus",
        "/api/arsenal-cards/?ordering=points,secret_field",
        "/api/arsenal-cards/?max_per_deck=0",
        "/api/arsenal-cards/?max_per_deck=lots",
        "/api/arsenal-cards/?kind=space",
        "/api/arsenal-cards/?class=wizard",
        "/api/arsenal-cards/?ability=laser",
        "/api/arsenal-cards/?side=neutral",
        "/api/arsenal-cards/?provenance=maybe",
        "/api/arsenal-cards/?nation=ATLANTIS",
        "/api/arsenal-cards/?set=NO-SET",
        "/api/sets/?kind=booster",
        "/api/conflict-cards/?category=nonsense",
        "/api/conflict-cards/?effect=nonsense",
        "/api/battlecards/?victory_points_min=many",
        "/api/battlecards/?homeland=ATLANTIS",
        "/api/nations/?ordering=-population",
    ],
)
def test_bad_filter_values_are_400_in_the_error_shape(client, mini_catalog, url):
    response = client.get(url)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["status"] == 400 and body["code"] == "invalid"
    assert body["detail"]
    assert set(body["errors"]) <= {url.split("?")[1].split("=")[0]}


def test_the_api_is_read_only(client, mini_catalog, admin_user):
    client.force_authenticate(admin_user)
    response = client.post("/api/arsenal-cards/", {"code": "X"}, format="json")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert client.delete("/api/arsenal-cards/GB-INF/").status_code == 405


def test_api_root_links_the_catalog(client, db):
    body = client.get("/api/").json()
    for key, path in {
        "nations": "nations",
        "theaters": "theaters",
        "sets": "sets",
        "arsenal_cards": "arsenal-cards",
        "conflict_cards": "conflict-cards",
        "battlecards": "battlecards",
    }.items():
        assert body[key] == f"http://testserver/api/{path}/"


def test_schema_and_docs_are_served(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/arsenal-cards/",
        "/api/arsenal-cards/{code}/",
        "/api/sets/",
        "/api/battlecards/{code}/",
    ):
        assert path in paths
    params = {p["name"] for p in paths["/api/arsenal-cards/"]["get"]["parameters"]}
    assert {
        "nation",
        "class",
        "phase",
        "ability",
        "attack_air_min",
        "max_per_deck",
        "provenance",
        "ordering",
        "search",
        "page",
        "page_size",
    } <= params
    assert client.get("/api/docs/").status_code == 200


def test_the_catalog_schema_generates_without_warnings(db):
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator(patterns=[path("api/", include("cards.urls"))]).get_schema(
            request=None, public=True
        )
    assert not GENERATOR_STATS, (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache))
    examples = schema["paths"]["/api/arsenal-cards/{code}/"]["get"]["responses"]["200"]["content"]
    assert examples["application/json"]["examples"]
