"""The ?q= search language through the API: the issue's examples, warnings, 400 codes, combination with the
other filters and ordering, and a property test against a plain-Python filter over the catalog rows."""

from __future__ import annotations

import operator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cards.battlecards.selectors import catalog_dicts
from cards.search import MAX_LENGTH, MAX_TERMS
from vocabulary.battlecards import ABILITY_SCHEMA, KINDS, UNIT_CLASSES

ARSENAL = "/api/arsenal-cards/"


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def search(client, url: str, query: str, **params) -> dict:
    response = client.get(url, {"q": query, "page_size": 500, **params})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] <= 500
    return body


def found(client, query: str, url: str = ARSENAL, **params) -> set[str]:
    return {r["code"] for r in search(client, url, query, **params)["results"]}


# ------------------------------------------------------------------------------------ plain-Python oracle

CMP = {
    ":": operator.eq,
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Rows:
    """The arsenal cards as plain dicts (catalog_dicts) with what the oracle needs precomputed."""

    def __init__(self):
        data = catalog_dicts()
        sides = {n["code"]: n["side"] for n in data["nations"]}
        in_sets: dict[str, set[str]] = {}
        for s in data["sets"]:
            for entry in s["entries"]:
                in_sets.setdefault(entry["card"], set()).add(s["code"])
        self.cards = []
        for a in data["arsenal"]:
            commander = bool({"general", "leader"} & set(a["classes"]))
            self.cards.append(
                {
                    **a,
                    "side": sides[a["nation"]],
                    "sets": in_sets.get(a["code"], set()),
                    "commander": commander,
                    "effective_max": 1 if commander else a["max_per_deck"],
                    "estimated": any(p["source"] == "estimated" for p in a["provenance"].values()),
                    "ability_kinds": {ab["kind"] for ab in a["abilities"]},
                }
            )
        self.nations = sorted(sides)
        self.sets = sorted(s["code"] for s in data["sets"])


_ROWS: list[Rows] = []


def _rows_once() -> Rows:
    if not _ROWS:
        _ROWS.append(Rows())
    return _ROWS[0]


def number_matches(value, op: str, n: int) -> bool:
    if op == "!=":
        return value != n
    return value is not None and CMP[op](value, n)


def term_matches(card: dict, key: str, op: str, value: str) -> bool:
    v = value.lower()
    eq = op != "!="
    if key in ("name", "code", None):
        fields = [card["name"], card["code"]] if key is None else [card[key]]
        if op in ("=", "!="):
            return any(f.lower() == v for f in fields) == eq
        return any(v in f.lower() for f in fields)
    if key == "nation":
        return (card["nation"].lower() == v) == eq
    if key in ("side", "kind"):
        return (card[key] == v) == eq
    if key == "class":
        return (v in card["classes"]) == eq
    if key == "ability":
        return (v in card["ability_kinds"]) == eq
    if key == "set":
        return (v in card["sets"]) == eq
    if key == "is":
        flag = {
            "estimated": card["estimated"],
            "seed": not card["estimated"],
            "ukrainian": card["ukrainian"],
            "variant": card["variant_of"] is not None,
            "commander": card["commander"],
        }[v]
        return flag == eq
    if key == "phase" and v == "none":
        return (card["phase"] is None) == eq
    if key == "max" and v == "unlimited":
        return (card["effective_max"] is None) == eq
    if key == "phase":
        return number_matches(card["phase"], op, int(v))
    if key == "max":
        return number_matches(card["effective_max"], op, int(v))
    if key == "points":
        return number_matches(card["points"], op, int(v))
    stat, target = key.split(".")
    return number_matches(card[{"att": "attack", "def": "defense"}[stat]][target], op, int(v))


def evaluate(card: dict, node) -> bool | None:
    """None: the node has no usable term (the server drops it)."""
    kind = node[0]
    if kind == "term":
        _, key, op, value, usable = node
        return term_matches(card, key, op, value) if usable else None
    if kind == "not":
        inner = evaluate(card, node[1])
        return None if inner is None else not inner
    values = [v for v in (evaluate(card, child) for child in node[1]) if v is not None]
    if not values:
        return None
    return all(values) if kind == "and" else any(values)


def render(node) -> str:
    kind = node[0]
    if kind == "term":
        _, key, op, value, _ = node
        shown = f'"{value}"' if " " in value or value.lower() in ("or", "and") else value
        return shown if key is None else f"{key}{op}{shown}"
    if kind == "not":
        child = node[1]
        return "-" + (render(child) if child[0] == "term" else f"({render(child)})")
    joiner = " or " if kind == "or" else st_and_joiner(node)
    return joiner.join(render(c) if c[0] in ("term", "not") else f"({render(c)})" for c in node[1])


def st_and_joiner(node) -> str:
    return " and " if len(node[1]) % 2 else " "


ROWS_FOR_STRATEGY = {
    "nations": ["GB", "DE", "US", "JP", "RU", "de", "gb"],
    "sets": ["gb-we-starter", "de-we-starter", "gb-we-expansion", "us-starter", "jp-expansion", "ru-starter"],
}
OPS = st.sampled_from([":", "=", "!=", "<", "<=", ">", ">="])
EQ_OPS = st.sampled_from([":", ":", "!="])


def usable(key, op, value):
    return st.just(("term", key, op, value, True))


numbers = st.integers(0, 30).map(str)
terms = st.one_of(
    st.tuples(EQ_OPS, st.sampled_from(ROWS_FOR_STRATEGY["nations"])).flatmap(
        lambda t: usable("nation", *t)
    ),
    st.tuples(EQ_OPS, st.sampled_from(["allies", "axis"])).flatmap(lambda t: usable("side", *t)),
    st.tuples(EQ_OPS, st.sampled_from(KINDS)).flatmap(lambda t: usable("kind", *t)),
    st.tuples(EQ_OPS, st.sampled_from(UNIT_CLASSES)).flatmap(lambda t: usable("class", *t)),
    st.tuples(EQ_OPS, st.sampled_from(sorted(ABILITY_SCHEMA))).flatmap(lambda t: usable("ability", *t)),
    st.tuples(EQ_OPS, st.sampled_from(ROWS_FOR_STRATEGY["sets"])).flatmap(lambda t: usable("set", *t)),
    st.tuples(EQ_OPS, st.sampled_from(["estimated", "seed", "ukrainian", "variant", "commander"])).flatmap(
        lambda t: usable("is", *t)
    ),
    st.tuples(OPS, st.integers(0, 5).map(str)).flatmap(lambda t: usable("phase", *t)),
    st.tuples(EQ_OPS, st.just("none")).flatmap(lambda t: usable("phase", *t)),
    st.tuples(OPS, st.integers(0, 5).map(str)).flatmap(lambda t: usable("max", *t)),
    st.tuples(EQ_OPS, st.just("unlimited")).flatmap(lambda t: usable("max", *t)),
    st.tuples(OPS, numbers).flatmap(lambda t: usable("points", *t)),
    st.tuples(
        st.sampled_from([f"{s}.{t}" for s in ("att", "def") for t in ("ground", "air", "sea")]), OPS, numbers
    ).flatmap(lambda t: usable(*t)),
    st.tuples(
        st.sampled_from([":", "=", "!="]), st.sampled_from(["tiger", "class", "gun", "88", "Spit"])
    ).flatmap(lambda t: usable("name", *t)),
    st.sampled_from(["tiger", "zero", "infantry", "de-", "panzer iii"]).map(
        lambda w: ("term", None, ":", w, True)
    ),
    # unusable: an unknown key, a value outside the key's vocabulary, an operator the key does not take
    st.sampled_from([("colour", ":", "red"), ("kind", ":", "space"), ("class", "<", "tank")]).map(
        lambda t: ("term", *t, False)
    ),
)
queries = st.recursive(
    terms,
    lambda children: st.one_of(
        children.map(lambda c: ("not", c)),
        st.lists(children, min_size=2, max_size=3).map(lambda cs: ("and", cs)),
        st.lists(children, min_size=2, max_size=3).map(lambda cs: ("or", cs)),
    ),
    max_leaves=6,
)


@pytest.mark.slow
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(node=queries)
def test_random_queries_equal_a_plain_python_filter(client, catalog_rows, node):
    rows = _rows_once()
    expected = [evaluate(card, node) for card in rows.cards]
    query = render(node)
    response = client.get(ARSENAL, {"q": query, "page_size": 500})
    if all(e is None for e in expected):
        assert response.status_code == 400, (query, response.content)
        assert response.json()["code"] == "query_unusable"
        return
    assert response.status_code == 200, (query, response.content)
    got = {r["code"] for r in response.json()["results"]}
    assert got == {card["code"] for card, e in zip(rows.cards, expected, strict=True) if e}, query


# ------------------------------------------------------------------------------------------ the examples


class TestExamples:
    def test_issue_examples(self, client, catalog_rows):
        rows = Rows().cards
        air_de = {c["code"] for c in rows if c["nation"] == "DE" and c["kind"] == "air" and c["points"] < 15}
        assert found(client, "nation:de kind:air points<15") == air_de and air_de
        art = {
            c["code"]
            for c in rows
            if "artillery" in c["classes"] and c["phase"] == 1 and not c.get("variant_of")
        }
        assert found(client, "class:artillery phase:1 -is:variant") == art and art
        strong = {
            c["code"]
            for c in rows
            if (c["attack"]["ground"] or 0) >= 12
            and c["defense"]["air"] is not None
            and c["defense"]["air"] <= 5
        }
        assert found(client, "att.ground>=12 def.air<=5") == strong and strong
        guns = {c["code"] for c in rows if c["ability_kinds"] & {"autokill", "big_guns"}}
        assert found(client, "ability:autokill or ability:big_guns") == guns and guns
        tigers = {c["code"] for c in rows if "tiger" in c["name"].lower()}
        assert found(client, 'name:"tiger"') == tigers and {"de-tiger-i", "de-tiger-ii"} <= tigers
        exp = {
            c["code"]
            for c in rows
            if "de-we-expansion" in c["sets"] and c["effective_max"] == 1 and c["side"] == "axis"
        }
        assert found(client, "set:de-we-expansion max:1 side:axis") == exp and exp

    def test_parentheses_and_negation(self, client, catalog_rows):
        got = found(client, "nation:gb (class:tank or class:fighter) -points>=10")
        rows = Rows().cards
        assert got == {
            c["code"]
            for c in rows
            if c["nation"] == "GB" and {"tank", "fighter"} & set(c["classes"]) and not c["points"] >= 10
        }
        assert got

    def test_quoted_names_keep_spaces(self, client, catalog_rows):
        assert found(client, 'name:"queen elizabeth"') == {"gb-queen-elizabeth"}
        assert found(client, 'name="Tiger I Tank"') == {"de-tiger-i"}

    def test_combines_with_filters_and_ordering(self, client, catalog_rows):
        body = search(client, ARSENAL, "kind:sea", nation="GB", ordering="-points")
        points = [r["points"] for r in body["results"]]
        assert points == sorted(points, reverse=True) and points
        assert {r["nation"] for r in body["results"]} == {"GB"}
        assert {r["kind"] for r in body["results"]} == {"sea"}
        assert body["warnings"] == []

    def test_without_q_there_are_no_warnings(self, client, catalog_rows):
        assert "warnings" not in client.get(ARSENAL).json()


class TestWarningsAndErrors:
    def test_unusable_terms_are_warnings_and_the_rest_applies(self, client, catalog_rows):
        body = search(client, ARSENAL, "nation:jp colour:red kind:space")
        assert {r["code"][:3] for r in body["results"]} == {"jp-"}
        assert len(body["warnings"]) == 2
        assert 'unknown key "colour"' in body["warnings"][0]
        assert "unknown kind" in body["warnings"][1]

    def test_bad_numbers_and_operators_are_warnings(self, client, catalog_rows):
        body = search(client, ARSENAL, "points<abc class>tank nation:xx tiger")
        assert {r["code"] for r in body["results"]} == found(client, "tiger")
        assert len(body["warnings"]) == 3

    @pytest.mark.parametrize(
        ("query", "code"),
        [
            ("colour:red", "query_unusable"),
            ("kind:space or -class:robot", "query_unusable"),
            ("(nation:de", "query_syntax"),
            ("nation:de or", "query_syntax"),
            ("x" * (MAX_LENGTH + 1), "query_too_long"),
            (" ".join(["tiger"] * (MAX_TERMS + 1)), "query_too_complex"),
            ("(tiger " * 20 + "x" + ")" * 20, "query_too_complex"),
            ("-" * 30 + "tiger", "query_too_complex"),
        ],
    )
    def test_bad_queries_are_400_with_a_code(self, client, catalog_rows, query, code):
        response = client.get(ARSENAL, {"q": query})
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["status"] == 400 and body["code"] == code and body["detail"]

    def test_unusable_query_lists_its_warnings(self, client, catalog_rows):
        body = client.get(ARSENAL, {"q": "colour:red"}).json()
        assert body["warnings"] == ['"colour:red": unknown key "colour"; term ignored']


class TestOtherCatalogs:
    def test_conflict_cards(self, client, catalog_rows):
        data = catalog_dicts()["conflict_cards"]
        kept = {
            c["code"]
            for c in data
            if c["category"] == "kept" and c["action_number"] >= 10 and c["set"] == "we-conflict-starter"
        }
        query = "category:kept action>=10 set:we-conflict-starter"
        assert found(client, query, "/api/conflict-cards/") == kept
        assert kept
        assert found(client, "effect:counterattack", "/api/conflict-cards/") == {
            c["code"] for c in data if c["effect"] == "counterattack"
        }

    def test_battlecards(self, client, catalog_rows):
        data = catalog_dicts()["battlecards"]
        assert found(client, "aggressor:gb vp>=5", "/api/battlecards/") == {
            b["code"] for b in data if b["aggressor"] == "GB" and b["victory_points"] >= 5
        }
        assert found(client, "is:homeland theater:we", "/api/battlecards/") == {
            "we-invasion-of-britain",
            "we-battle-for-germany",
        }
        assert found(client, "is:homeland", "/api/battlecards/") == {  # one per side in every theater
            "we-invasion-of-britain",
            "we-battle-for-germany",
            "pac-invasion-of-the-united-states",
            "pac-invasion-of-japan",
            "ef-battle-for-moscow",
            "ef-battle-of-berlin",
        }

    def test_keys_are_per_catalog(self, client, catalog_rows):
        body = client.get("/api/battlecards/", {"q": "points<10"}).json()
        assert body["code"] == "query_unusable"


@pytest.mark.parametrize(
    ("url", "query"),
    [
        (ARSENAL, "nation:de (class:tank or ability:autokill) set:de-we-starter max<=3 -is:estimated"),
        ("/api/conflict-cards/", "category:kept or set:we-conflict-starter"),
        ("/api/battlecards/", "aggressor:gb or homeland:de"),
    ],
)
def test_query_count_does_not_grow_with_page_size(client, catalog_rows, url, query):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cards.list_forms import tables

    counts = []
    for size in (2, 200):
        cache.clear()  # measure the work, not the response cache
        tables.clear()  # nor the forms an earlier page built (cards.list_forms)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, {"q": query, "page_size": size})
        assert response.status_code == 200, response.content
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
