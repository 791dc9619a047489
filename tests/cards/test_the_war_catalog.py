"""The War's cards in the catalog (issue 23, step 2): loaded by load_catalog through the same three-way merge
as the other catalogs, served under /api/the-war/ like the Battlecards and Battlefront catalogs (envelope,
filters, ordering, ?q=, ETag, error shape), in the admin with their provenance, in the bulk file, and drawn as
SVG faces that mark estimated values. The data itself is checked against the rulebook by
tests/cards/test_the_war_cards.py; here every seed value the API shows must be the fixture's.
"""

from __future__ import annotations

import gzip
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cards.models import FixtureState
from cards.the_war.models import TheWarCard, TheWarStarter, TheWarStarterEntry
from cards.the_war.services import THE_WAR_FIXTURE_DIR
from tests.cards.conftest import list_query_counts

CARDS_DOC = json.loads((THE_WAR_FIXTURE_DIR / "cards.json").read_text(encoding="utf-8"))
STARTERS_DOC = json.loads((THE_WAR_FIXTURE_DIR / "starters.json").read_text(encoding="utf-8"))
FIXTURE = CARDS_DOC["cards"]
BY_CODE = {c["code"]: c for c in FIXTURE}
CARDS = "/api/the-war/cards/"
STARTERS = "/api/the-war/starters/"
CHANGES = "/api/the-war/changes/"
SVG = "{http://www.w3.org/2000/svg}"
SEED_VALUES = [
    (c["code"], key) for c in FIXTURE for key, p in sorted(c["provenance"].items()) if p["source"] == "seed"
]


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def everything(client, url: str, **params) -> list[dict]:
    response = client.get(url, {"page_size": 500, **params})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] == len(body["results"]) and body["next"] is None
    return body["results"]


def value_at(card: dict[str, Any], key: str) -> Any:
    """The value a provenance key names: "attack", "text.0", "restrictions.<name>", "cost.fuel", ..."""
    head, _, part = key.partition(".")
    value = card.get(head)
    if not part:
        return value
    if isinstance(value, dict):
        return value.get(part)
    if part.isdigit():
        return value[int(part)]
    if head in ("cost", "yields", "attack_cost", "maintenance"):
        return next((item for item in value if item["resource"] == part), None)
    return part in value  # features / restrictions: the name is listed


# ------------------------------------------------------------------------------------------ the fixture


def test_every_seed_value_the_api_shows_is_the_fixtures(client, catalog_rows):
    served = {c["code"]: c for c in everything(client, CARDS)}
    assert list(served) == list(BY_CODE)
    assert len(SEED_VALUES) > 200
    for code, key in SEED_VALUES:
        fixture_value = value_at(BY_CODE[code], key)
        if isinstance(fixture_value, dict) and "resource" in fixture_value:
            fixture_value = {"resource_cards_only": False, **fixture_value}
        assert value_at(served[code], key) == fixture_value, (code, key)
        assert served[code]["provenance"][key] == BY_CODE[code]["provenance"][key]


def test_the_api_serves_every_field_of_the_fixture(client, catalog_rows):
    served = {c["code"]: c for c in everything(client, CARDS)}
    for code, row in BY_CODE.items():
        card = served[code]
        for key, value in row.items():
            if key == "cost":
                value = [{"resource_cards_only": False, **item} for item in value]
            assert card[key] == value, (code, key)
        estimated = sorted(k for k, p in row["provenance"].items() if p["source"] == "estimated")
        assert card["estimated"] == estimated
        assert card["cost_total"] == sum(item["amount"] for item in row.get("cost", []))


def test_a_card_by_code(client, catalog_rows):
    response = client.get(CARDS + "tw-kv-1-1940/")
    assert response.status_code == 200
    card = response.json()
    assert card["url"] == "http://testserver/api/the-war/cards/tw-kv-1-1940/"
    assert card["face_url"] == "http://testserver/api/the-war/cards/tw-kv-1-1940/face.svg"
    assert {k: card[k] for k in ("title", "number", "rarity", "subtype", "line", "attack", "defense")} == {
        "title": "KV-1 (1940)",
        "number": "ST-005",
        "rarity": "U",
        "subtype": "heavy-tank",
        "line": 1,
        "attack": 4,
        "defense": 4,
    }
    assert [(c["resource"], c["amount"]) for c in card["cost"]] == [("depot", 1), ("plant", 5), ("fuel", 1)]
    assert card["attack_cost"] == [{"resource": "fuel", "amount": 1, "resource_cards_only": False}]
    assert card["max_copies"] == 4 and card["estimated"] == ["army"]
    depot = client.get(CARDS + "tw-depot/").json()
    assert depot["max_copies"] is None and depot["army"] is None and depot["resource_kind"] == "basic"
    hero = next(c for c in FIXTURE if c["category"] == "hero")
    assert client.get(CARDS + hero["code"] + "/").json()["max_copies"] == 1


def test_unknown_code_is_a_404_in_the_error_shape(client, catalog_rows):
    for url in (CARDS + "tw-no-such-card/", STARTERS + "tw-kv-1-1940/", CARDS + "bf-tank-destroyers/"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {"status": 404, "code": "not_found", "detail": "Not found."}
    face = client.get(CARDS + "tw-nothing/face.svg")
    assert face.status_code == 404 and face.json()["code"] == "not_found"


def test_the_starters(client, catalog_rows):
    starters = everything(client, STARTERS)
    assert [s["code"] for s in starters] == [s["code"] for s in STARTERS_DOC["starters"]]
    for served, row in zip(starters, STARTERS_DOC["starters"], strict=True):
        assert served["army"] == row["army"] and served["name"] == row["name"]
        assert [{"card": e["card"], "count": e["count"]} for e in served["entries"]] == row["entries"]
        assert all(e["title"] == BY_CODE[e["card"]]["title"] for e in served["entries"])
        assert served["card_count"] == 60
    assert [s["code"] for s in everything(client, STARTERS, army="wehrmacht")] == [
        s["code"] for s in STARTERS_DOC["starters"] if s["army"] == "wehrmacht"
    ]


# --------------------------------------------------------------------------------------- filters and order


def codes(client, query: str, url: str = CARDS) -> list[str]:
    response = client.get(url + "?" + query)
    assert response.status_code == 200, response.json()
    return [row["code"] for row in response.json()["results"]]


def fixture_codes(pred) -> list[str]:
    return [c["code"] for c in FIXTURE if pred(c)]


def total(c: dict) -> int:
    return sum(item["amount"] for item in c.get("cost", []))


def seeded(c: dict) -> bool:
    return any(p["source"] == "seed" for p in c["provenance"].values())


@pytest.mark.parametrize(
    ("query", "pred"),
    [
        ("category=hero", lambda c: c["category"] == "hero"),
        ("category=improvement&category=special", lambda c: c["category"] in ("improvement", "special")),
        ("army=wehrmacht", lambda c: c["army"] == "wehrmacht"),
        ("army=none", lambda c: c["army"] is None),
        ("unit_type=air", lambda c: c.get("unit_type") == "air"),
        (
            "subtype=heavy-tank&subtype=medium-tank",
            lambda c: c.get("subtype") in ("heavy-tank", "medium-tank"),
        ),
        ("line=2", lambda c: c.get("line") == 2),
        ("rarity=U", lambda c: c.get("rarity") == "U"),
        ("resource_kind=special", lambda c: c.get("resource_kind") == "special"),
        (
            "feature=elite&feature=breakthrough",
            lambda c: {"elite", "breakthrough"} & set(c.get("features", [])),
        ),
        (
            "restriction=cannot-be-blocked-by-infantry",
            lambda c: "cannot-be-blocked-by-infantry" in c.get("restrictions", []),
        ),
        ("ability=salvo", lambda c: any(a["kind"] == "salvo" for a in c.get("abilities", []))),
        ("ability=none&category=unit", lambda c: not c.get("abilities") and c["category"] == "unit"),
        ("resource=fuel", lambda c: any(i["resource"] == "fuel" for i in c.get("cost", []))),
        ("resource_cards_only=true", lambda c: any(i.get("resource_cards_only") for i in c.get("cost", []))),
        ("attack_min=4&defense_max=3", lambda c: (c.get("attack") or -1) >= 4 and c.get("defense", 99) <= 3),
        ("attack=3", lambda c: c.get("attack") == 3),
        ("aa=true", lambda c: c.get("aa_attack") is not None),
        ("cost_min=6", lambda c: total(c) >= 6),
        ("cost=0", lambda c: total(c) == 0),
        ("location=true", lambda c: c.get("location", False)),
        ("seed=true", seeded),
        ("seed=false", lambda c: not seeded(c)),
        ("title=tiger", lambda c: "tiger" in c["title"].lower()),
        ("text=infantry", lambda c: any("infantry" in line.lower() for line in c.get("text", []))),
        ("search=stuka", lambda c: "stuka" in c["title"].lower() or "stuka" in c["code"]),
    ],
)
def test_filters(client, catalog_rows, query, pred):
    expected = fixture_codes(pred)
    assert expected, f"{query} matches nothing: a weak test"
    assert codes(client, query + "&page_size=500") == expected


def test_ordering(client, catalog_rows):
    ordered = client.get(CARDS, {"ordering": "-attack,title", "category": "unit", "page_size": 500}).json()
    attacks = [c["attack"] for c in ordered["results"]]
    assert attacks == sorted(attacks, reverse=True)
    top = [c["title"] for c in ordered["results"] if c["attack"] == attacks[0]]
    assert top == sorted(top)
    by_cost = client.get(CARDS, {"ordering": "cost", "page_size": 500}).json()["results"]
    assert [c["cost_total"] for c in by_cost] == sorted(total(c) for c in FIXTURE)
    assert codes(client, "ordering=-position&page_size=1") == [FIXTURE[-1]["code"]]
    assert codes(client, "ordering=-seed_values&page_size=1") == [
        max(FIXTURE, key=lambda c: sum(p["source"] == "seed" for p in c["provenance"].values()))["code"]
    ]


@pytest.mark.parametrize(
    "url",
    [
        CARDS + "?category=tank",
        CARDS + "?army=soviet",
        CARDS + "?subtype=flying-tank",
        CARDS + "?line=3",
        CARDS + "?feature=invisible",
        CARDS + "?attack_min=many",
        CARDS + "?seed=perhaps",
        CARDS + "?ordering=colour",
        CARDS + "?page_size=0",
        STARTERS + "?army=allies",
    ],
)
def test_bad_filter_values_are_400_in_the_error_shape(client, catalog_rows, url):
    response = client.get(url)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["status"] == 400 and body["code"] == "invalid" and body["detail"]
    assert "ETag" not in response


@pytest.mark.parametrize(
    ("query", "pred"),
    [
        ("type:heavy-tank attack>=4", lambda c: c.get("subtype") == "heavy-tank" and c["attack"] >= 4),
        ("t:armored army:wehrmacht", lambda c: c.get("unit_type") == "armored" and c["army"] == "wehrmacht"),
        ("feature:elite or f:breakthrough", lambda c: {"elite", "breakthrough"} & set(c.get("features", []))),
        ("cat:condition", lambda c: c["category"] == "battlefield-condition"),
        ("category:unit cost<=3", lambda c: c["category"] == "unit" and total(c) <= 3),
        ("fuel>=2", lambda c: any(i["resource"] == "fuel" and i["amount"] >= 2 for i in c.get("cost", []))),
        ("is:hero", lambda c: c["category"] == "hero"),
        ("is:location", lambda c: c.get("location", False)),
        ("army:none -is:basic", lambda c: c["army"] is None and c.get("resource_kind") != "basic"),
        ("-is:estimated category:unit", lambda c: seeded(c) and c["category"] == "unit"),
        ("aa>=3", lambda c: (c.get("aa_attack") or 0) >= 3),
        ("rarity:u", lambda c: c.get("rarity") == "U"),
        (
            "restriction:cannot-attack line=1",
            lambda c: "cannot-attack" in c.get("restrictions", []) and c.get("line") == 1,
        ),
        ("text:infantry", lambda c: any("infantry" in line.lower() for line in c.get("text", []))),
        ("name:tiger", lambda c: "tiger" in c["title"].lower()),
        ("tiger", lambda c: "tiger" in c["title"].lower() or "tiger" in c["code"]),
    ],
)
def test_the_search_language(client, catalog_rows, query, pred):
    response = client.get(CARDS, {"q": query, "page_size": 500})
    assert response.status_code == 200, response.json()
    body = response.json()
    expected = fixture_codes(pred)
    assert expected, f"{query} matches nothing: a weak test"
    assert [c["code"] for c in body["results"]] == expected
    assert body["warnings"] == []


def test_search_language_errors_and_warnings(client, catalog_rows):
    body = client.get(CARDS, {"q": "category:hero colour:red"}).json()
    assert body["count"] == 4 and body["warnings"] == ['"colour:red": unknown key "colour"; term ignored']
    body = client.get(CARDS, {"q": "type:horse"}).json()
    assert body["code"] == "query_unusable" and "horse" in body["warnings"][0]
    assert client.get(CARDS, {"q": "(type:armored"}).json()["code"] == "query_syntax"


# ---------------------------------------------------------------------- query counts, caching, schema, root


def test_list_query_count_is_constant(client, catalog_rows, django_assert_num_queries):
    """The version token, the page's keys with the count (one statement), and the rows this process holds no
    form of yet (cards.list_forms): the same count whatever the page size or filters."""
    cold, warm = list_query_counts(client, CARDS, (2, 500), feature="elite", ordering="cost")
    assert cold[0] == cold[1] and warm[0] == warm[1] == 2, (cold, warm)
    assert list_query_counts(client, CARDS, (500,), q="is:unit") == ([cold[0]], [2])
    with django_assert_num_queries(4):  # token, page keys and count, the rows, their prefetched entries
        assert client.get(STARTERS, {"page_size": 50}).status_code == 200
    with django_assert_num_queries(2):  # the same rows again (a response-cache miss): token, keys and count
        assert client.get(STARTERS, {"page_size": 50, "ordering": "-code"}).status_code == 200


def test_etag_and_cache_control_like_the_catalog(client, catalog_rows, django_capture_on_commit_callbacks):
    url = CARDS + "tw-kv-1-1940/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "public" in first["Cache-Control"] and "max-age=" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    face = client.get(url + "face.svg")
    assert client.get(url + "face.svg", HTTP_IF_NONE_MATCH=face["ETag"]).status_code == 304
    TheWarCard.objects.filter(code="tw-kv-1-1940").update(attack=1)  # the rows drift from the file
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_catalog", "--reset", stdout=io.StringIO())  # resetting to the file restores them
    after = client.get(url)
    assert after.json() == first.json() and after["ETag"] != first["ETag"]
    assert client.get(url + "face.svg", HTTP_IF_NONE_MATCH=face["ETag"]).status_code == 200


def test_the_schema_documents_the_endpoints(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path in (
        CARDS,
        CARDS + "{code}/",
        CARDS + "{code}/face.svg",
        STARTERS,
        STARTERS + "{code}/",
        CHANGES,
    ):
        assert path in paths
        # public like the other catalogs: no credentials declared (no padlock in Swagger UI)
        assert paths[path]["get"]["security"] == paths["/api/battlefront/cards/"]["get"]["security"] == []
    params = {p["name"] for p in paths[CARDS]["get"]["parameters"]}
    assert {"category", "army", "unit_type", "subtype", "line", "feature", "restriction", "ability"} <= params
    assert {"resource", "resource_cards_only", "attack_min", "defense_max", "cost_max", "seed"} <= params
    assert {"title", "text", "q", "search", "ordering", "page", "page_size"} <= params
    card = schema["components"]["schemas"]["TheWarCard"]["properties"]
    assert card["cost"]["items"]["properties"]["resource_cards_only"]["type"] == "boolean"
    features = card["features"]["items"]
    enum = (
        schema["components"]["schemas"][features["$ref"].rsplit("/", 1)[1]]
        if "$ref" in features
        else features
    )
    assert "elite" in enum["enum"]
    assert card["provenance"]["additionalProperties"]["properties"]["source"]["enum"] == ["seed", "estimated"]
    body = client.get("/api/").json()
    assert body["the_war_cards"] == "http://testserver/api/the-war/cards/"
    assert body["the_war_starters"] == "http://testserver/api/the-war/starters/"
    assert body["the_war_changes"] == "http://testserver/api/the-war/changes/"


# ------------------------------------------------------------------------------------------------ faces


def face(client, code: str) -> ET.Element:
    response = client.get(f"{CARDS}{code}/face.svg")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("image/svg+xml")
    return ET.fromstring(response.content)


def marked(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter() if "est" in (t.get("class") or "").split()]


def test_the_face_draws_the_card_and_marks_estimated_values(client, catalog_rows):
    root = face(client, "tw-kv-1-1940")
    assert root.get("viewBox") == "0 0 250 350"
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "KV-1 (1940)" in " ".join(texts)
    assert "1D 5P 1F" in texts  # the printed cost, not marked
    assert "4" in texts  # attack and defense 4/4, printed: no mark
    assert "ST-005 · U · The War" in texts
    # the army is the one estimated value of KV-1 (1940)
    marks = marked(root)
    assert "Red Army*" in marks
    assert not any(m.startswith(("4", "1D")) for m in marks)
    assert any("estimated value" in m for m in marks)  # the legend


def test_a_wholly_estimated_card_marks_its_values(client, catalog_rows):
    card = next(c for c in FIXTURE if not seeded(c) and c["category"] == "unit")
    root = face(client, card["code"])
    marks = marked(root)
    assert f"{card['attack']}*" in marks and f"{card['defense']}*" in marks
    letters = {"depot": "D", "plant": "P", "fuel": "F"}
    cost = " ".join(f"{i['amount']}{letters[i['resource']]}" for i in card["cost"])
    assert f"{cost}*" in marks  # the estimated cost


def test_every_face_renders(client, catalog_rows):
    for code in BY_CODE:
        root = face(client, code)
        assert root.get("data-code") == code


# ------------------------------------------------------------------------------------------------ bulk


def test_the_bulk_file_holds_the_war(client, catalog_rows):
    from cards.the_war.selectors import the_war_dicts, the_war_version_hash

    response = client.get("/api/bulk/catalog.json.gz")
    assert response.status_code == 200
    document = json.loads(gzip.decompress(response.content))
    assert document["the_war"] == {"version": the_war_version_hash(), **the_war_dicts()}
    assert [c["code"] for c in document["the_war"]["cards"]] == list(BY_CODE)
    assert [s["code"] for s in document["the_war"]["starters"]] == [
        s["code"] for s in STARTERS_DOC["starters"]
    ]
    kv1 = next(c for c in document["the_war"]["cards"] if c["code"] == "tw-kv-1-1940")
    assert kv1["provenance"] == BY_CODE["tw-kv-1-1940"]["provenance"]


def test_an_edit_rebuilds_the_bulk_file(client, catalog_rows, django_capture_on_commit_callbacks):
    from cards.the_war.services import the_war_after_admin_edit

    client.get("/api/bulk/catalog.json.gz")
    with django_capture_on_commit_callbacks(execute=True):
        TheWarCard.objects.filter(code="tw-kv-1-1940").update(attack=9)
        the_war_after_admin_edit()
    document = json.loads(gzip.decompress(client.get("/api/bulk/catalog.json.gz").content))
    assert next(c for c in document["the_war"]["cards"] if c["code"] == "tw-kv-1-1940")["attack"] == 9


def the_war_version(client) -> str:
    return json.loads(gzip.decompress(client.get("/api/bulk/catalog.json.gz").content))["the_war"]["version"]


def test_the_change_feed_lists_what_changed_since_a_version(
    admin_client, client, catalog_rows, tmp_path, django_capture_on_commit_callbacks
):
    held = the_war_version(client)
    unchanged = client.get(CHANGES, {"since": held[:10]})
    assert unchanged.status_code == 200
    assert unchanged.json() == {
        "from_version": held,
        "to_version": held,
        "changed": False,
        "tables": {t: {"added": [], "changed": {}, "removed": []} for t in ("cards", "starters")},
    }
    # a load that changes the files: a card changed and one added
    data = json.loads(json.dumps(CARDS_DOC))
    next(c for c in data["cards"] if c["code"] == "tw-kv-1-1940")["defense"] = 5
    new = json.loads(json.dumps(BY_CODE["tw-depot"]))
    new.update(code="tw-depot-2", title="Depot 2")
    data["cards"].append(new)
    with django_capture_on_commit_callbacks(execute=True):
        load(write(tmp_path, data))
    # and an edit in the admin (a starter's name)
    starter = TheWarStarter.objects.get(code=STARTERS_DOC["starters"][0]["code"])
    page = admin_client.get(f"/admin/cards/thewarstarter/{starter.pk}/change/")
    form = page.context["adminform"].form
    post = {name: form[name].value() for name in form.fields}
    post["name"] = "Renamed starter"
    post["provenance"] = json.dumps(starter.provenance)
    for formset in page.context["inline_admin_formsets"]:
        fs = formset.formset
        post.update(
            {f"{fs.prefix}-{k}": v for k, v in fs.management_form.initial.items()},
        )
        for i, f in enumerate(fs.forms):
            post.update({f"{fs.prefix}-{i}-{n}": f[n].value() for n in f.fields if f[n].value() is not None})
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/admin/cards/thewarstarter/{starter.pk}/change/", post)
    assert response.status_code == 302, response.content.decode()[-3000:]
    body = client.get(CHANGES, {"since": held}).json()
    assert body["changed"] is True and body["to_version"] == the_war_version(client) != held
    assert body["tables"]["cards"] == {
        "added": ["tw-depot-2"],
        "changed": {"tw-kv-1-1940": ["defense"]},
        "removed": [],
    }
    assert body["tables"]["starters"]["changed"] == {starter.code: ["name"]}


@pytest.mark.parametrize(
    ("since", "status", "code"),
    [("", 400, "invalid"), ("xyz", 400, "invalid"), ("0123456789abcdef", 404, "unknown_version")],
)
def test_the_change_feed_errors(client, catalog_rows, since, status, code):
    response = client.get(CHANGES, {"since": since})
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["status"] == status


# ------------------------------------------------------------------------------------------------ loading


def load(path: Path | None = None, *extra: str) -> str:
    out = io.StringIO()
    args = ["load_catalog", "--skip-battlefront", *extra] + (["--the-war", str(path)] if path else [])
    call_command(*args, stdout=out)
    return out.getvalue()


def snapshot() -> list[tuple]:
    return [
        *TheWarCard.objects.order_by("code").values_list(
            "pk", "code", "title", "attack", "provenance", "position"
        ),
        *TheWarStarterEntry.objects.order_by("pk").values_list("pk", "starter__code", "card__code", "count"),
    ]


def write(tmp_path: Path, cards: dict, starters: dict | None = None) -> Path:
    (tmp_path / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    (tmp_path / "starters.json").write_text(json.dumps(starters or STARTERS_DOC), encoding="utf-8")
    return tmp_path


def test_load_catalog_is_idempotent(catalog_rows):
    before = snapshot()
    out = load()
    assert f"the_war_cards: {len(FIXTURE)} (0 created, 0 updated, 0 deleted)" in out
    assert "the_war_starters: 2 (0 created, 0 updated, 0 deleted)" in out
    assert "the_war: fixtures unchanged since last load" in out
    assert snapshot() == before  # not a row rewritten: the primary keys of the entries are the same


def test_skip_the_war_leaves_the_rows_alone(catalog_rows, tmp_path):
    data = json.loads(json.dumps(CARDS_DOC))
    data["cards"][0]["title"] = "Renamed"
    write(tmp_path, data)
    out = io.StringIO()
    call_command("load_catalog", "--skip-the-war", "--the-war", str(tmp_path), stdout=out)
    assert "the_war" not in out.getvalue()
    assert TheWarCard.objects.get(code=FIXTURE[0]["code"]).title == FIXTURE[0]["title"]


def test_a_changed_file_updates_creates_and_deletes_by_code(catalog_rows, tmp_path):
    data = json.loads(json.dumps(CARDS_DOC))
    kv1 = next(c for c in data["cards"] if c["code"] == "tw-kv-1-1940")
    kv1["defense"] = 5
    new = json.loads(json.dumps(BY_CODE["tw-kv-1-1940"]))
    new.update(code="tw-kv-2", title="KV-2")
    data["cards"].append(new)
    unused = next(
        c["code"]
        for c in FIXTURE
        if all(c["code"] not in {e["card"] for e in s["entries"]} for s in STARTERS_DOC["starters"])
    )
    data["cards"] = [c for c in data["cards"] if c["code"] != unused]
    untouched = TheWarCard.objects.get(code="tw-depot").pk
    out = load(write(tmp_path, data))
    assert f"the_war_cards: {len(FIXTURE)} (1 created, 1 updated, 1 deleted)" in out
    assert TheWarCard.objects.get(code="tw-kv-1-1940").defense == 5
    assert TheWarCard.objects.get(code="tw-kv-2").title == "KV-2"
    assert not TheWarCard.objects.filter(code=unused).exists()
    assert TheWarCard.objects.get(code="tw-depot").pk == untouched
    out = load()  # the committed files again
    assert f"the_war_cards: {len(FIXTURE)} (1 created, 1 updated, 1 deleted)" in out
    assert TheWarCard.objects.get(code="tw-kv-1-1940").defense == 4


def test_two_cards_may_swap_titles_in_one_load(catalog_rows, tmp_path):
    """Titles are unique: a load that swaps two titles moves them aside first instead of failing."""
    data = json.loads(json.dumps(CARDS_DOC))
    first, second = data["cards"][0], data["cards"][1]
    first["title"], second["title"] = second["title"], first["title"]
    out = load(write(tmp_path, data))
    assert f"the_war_cards: {len(FIXTURE)} (0 created, 2 updated, 0 deleted)" in out
    assert TheWarCard.objects.get(code=first["code"]).title == FIXTURE[1]["title"]
    assert TheWarCard.objects.get(code=second["code"]).title == FIXTURE[0]["title"]


def test_an_admin_edit_is_kept_by_the_next_load_and_reset_discards_it(admin_client, catalog_rows, tmp_path):
    card = TheWarCard.objects.get(code="tw-kv-1-1940")
    card.attack = 6
    card.save()
    out = load()
    assert "the_war: 1 local overrides kept" in out
    assert "the_war_cards tw-kv-1-1940: attack = 6 (fixtures: 4)" in out
    assert TheWarCard.objects.get(code="tw-kv-1-1940").attack == 6
    state = FixtureState.objects.get(name="the_war")
    assert [(o["code"], o["field"], o["conflict"]) for o in state.overrides] == [
        ("tw-kv-1-1940", "attack", False)
    ]
    # a fixture change elsewhere on the card is applied; one meeting the edit keeps the edit (a conflict)
    data = json.loads(json.dumps(CARDS_DOC))
    kv1 = next(c for c in data["cards"] if c["code"] == "tw-kv-1-1940")
    kv1.update(defense=5, attack=3)
    out = load(write(tmp_path, data))
    kv = TheWarCard.objects.get(code="tw-kv-1-1940")
    assert (kv.attack, kv.defense) == (6, 5)
    assert "[CONFLICT: the fixtures changed it too]" in out
    out = load(None, "--reset")
    assert "the_war: reset to the fixtures" in out and "discarded: the_war_cards tw-kv-1-1940: attack" in out
    kv = TheWarCard.objects.get(code="tw-kv-1-1940")
    assert (kv.attack, kv.defense) == (4, 4)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][0].update(category="vehicle"), "category"),
        (lambda d: d["cards"][0].update(features=["invisible"]), "not in the rulebook's vocabulary"),
        (lambda d: d["cards"][1].update(code=d["cards"][0]["code"]), "duplicate code"),
        (lambda d: d["cards"][1].update(title=d["cards"][0]["title"]), "same title"),
        (lambda d: d["cards"][0]["provenance"].pop("attack"), "no provenance"),
        (lambda d: d.pop("cards"), "expected"),
    ],
)
def test_an_invalid_file_is_refused_and_changes_nothing(catalog_rows, tmp_path, change, message):
    data = json.loads(json.dumps(CARDS_DOC))
    change(data)
    before = snapshot()
    with pytest.raises(CommandError, match=message):
        load(write(tmp_path, data))
    assert snapshot() == before


def test_a_missing_or_broken_file_is_a_command_error(catalog_rows, tmp_path):
    with pytest.raises(CommandError, match="missing"):
        load(tmp_path)
    (tmp_path / "cards.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        load(tmp_path)


# ------------------------------------------------------------------------------------------------- admin


@pytest.mark.parametrize(
    ("query", "pred"),
    [
        ("category__exact=hero", lambda c: c["category"] == "hero"),
        ("army__exact=wehrmacht", lambda c: c["army"] == "wehrmacht"),
        ("subtype__exact=fighter", lambda c: c.get("subtype") == "fighter"),
        ("provenance=seed", seeded),
        ("provenance=estimated", lambda c: not seeded(c)),
        ("feature=elite", lambda c: "elite" in c.get("features", [])),
        ("resource=fuel", lambda c: any(i["resource"] == "fuel" for i in c.get("cost", []))),
        ("q=tiger", lambda c: "tiger" in c["title"].lower()),
    ],
)
def test_admin_changelist_filters(admin_client, catalog_rows, query, pred):
    response = admin_client.get(f"/admin/cards/thewarcard/?{query}")
    assert response.status_code == 200
    shown = sorted(card.code for card in response.context["cl"].result_list)
    assert shown == sorted(fixture_codes(pred)) and shown


def test_admin_change_page_shows_the_provenance_with_estimated_values_marked(admin_client, catalog_rows):
    card = TheWarCard.objects.get(code="tw-kv-1-1940")
    page = admin_client.get(f"/admin/cards/thewarcard/{card.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "ATK / DEF: 4/4" in html and "Types and categories of cards" in html
    assert "ESTIMATED" in html and "the army that fielded this equipment" in html
    starter = TheWarStarter.objects.first()
    assert admin_client.get(f"/admin/cards/thewarstarter/{starter.pk}/change/").status_code == 200
    assert admin_client.get("/admin/cards/thewarstarter/").status_code == 200


def test_an_admin_edit_outside_the_vocabulary_is_refused(admin_client, catalog_rows):
    card = TheWarCard.objects.get(code="tw-kv-1-1940")
    page = admin_client.get(f"/admin/cards/thewarcard/{card.pk}/change/")
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    for name in (
        "bonuses",
        "features",
        "restrictions",
        "attack_cost",
        "abilities",
        "effects",
        "maintenance",
        "text",
        "yields",
        "provenance",
    ):
        data[name] = json.dumps(getattr(card, name))
    data["features"] = json.dumps(["invisible"])
    response = admin_client.post(f"/admin/cards/thewarcard/{card.pk}/change/", data)
    assert response.status_code == 200  # the form again, with the error
    assert "not in the rulebook" in response.content.decode()
    assert TheWarCard.objects.get(pk=card.pk).features == []
    data["features"] = json.dumps({"elite": True})  # not even a list: a form error, not a 500
    response = admin_client.post(f"/admin/cards/thewarcard/{card.pk}/change/", data)
    assert response.status_code == 200 and "Must be a JSON list." in response.content.decode()
    data["features"] = json.dumps([])
    data["attack"] = 5
    response = admin_client.post(f"/admin/cards/thewarcard/{card.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert TheWarCard.objects.get(pk=card.pk).attack == 5


def test_every_loaded_card_passes_the_admins_validation_zero_values_included(catalog_rows):
    """The admin validates a card as the loader does: an estimated 0 (the Ju-52's attack) is a value, not an
    empty field, so saving any loaded card unchanged in the admin is never refused."""
    assert TheWarCard.objects.get(code="tw-ju-52").attack == 0
    for card in TheWarCard.objects.all():
        card.full_clean()
