"""The Battlefront cards (issue 15, part 1): the 70 printed cards and the optional Special cards with each
nationality's uses, loaded by load_catalog, served under /api/battlefront/ like the Battlecards catalog.

"A test checks all 70 rows against the seed": the seed's CARD LIST is parsed here on its own (not with
fixtures/tools/extract_battlefront.py) and compared with the API; skipped when the seed is not beside the
repository (failed under CI=true: tests/conftest.py's `seed_document`). The committed fixture is always
compared with the API and with what the rules say about the deck, so CI checks something without the seed too.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cards.battlefront.services import BATTLEFRONT_FIXTURE
from cards.models import BattlefrontCard, BattlefrontCardAbility, BattlefrontSpecialUse
from tests.cards.conftest import list_query_counts

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = json.loads(BATTLEFRONT_FIXTURE.read_text(encoding="utf-8"))
CARDS = "/api/battlefront/cards/"
USES = "/api/battlefront/special-uses/"


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def everything(client, url: str, **params) -> list[dict]:
    response = client.get(url, {"page_size": 500, **params})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] == len(body["results"]) and body["next"] is None
    return body["results"]


# ------------------------------------------------------------------------------ the seed, parsed on its own


@pytest.fixture
def seed_lines(seed_document) -> list[str]:
    """The lines of battlefront-rules.txt (the test skips without it, fails under CI=true)."""
    text = seed_document("battlefront-rules.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()]


def seed_type_letters(lines: list[str]) -> dict[str, str]:
    """CARD LIST NOTATION: "T = Tank" -> {"Tank": "T"}."""
    start = lines.index("CARD LIST NOTATION") + 1
    letters = {}
    for line in lines[start:]:
        if " = " not in line:
            break
        letter, name = line.split(" = ")
        letters[name] = letter
    return letters


def seed_cards(lines: list[str]) -> list[tuple[str, str, int, str]]:
    """(name, type letter, force, notes) of each CARD LIST row: the name is every word before the first
    type letter that is followed by a number; the notes are whatever follows the force."""
    letters = set(seed_type_letters(lines).values())
    start = lines.index("CARD LIST") + 2  # the heading, then "Card Name: Type Force Notes:"
    assert lines[start - 1].startswith("Card Name:")
    rows = []
    for line in lines[start:]:
        if line.startswith("OPTIONAL"):
            break
        words = line.split()
        i = next(i for i in range(1, len(words) - 1) if words[i] in letters and words[i + 1].isdigit())
        rows.append((" ".join(words[:i]), words[i], int(words[i + 1]), " ".join(words[i + 2 :])))
    return rows


def seed_special_uses(lines: list[str]) -> list[tuple[str, str, str | None, int | None, str]]:
    """(nationality name, use name, type letter or None, force or None, printed text) per printed use."""
    start = lines.index("OPTIONAL SPECIAL CARDS RULES")
    uses, nationality = [], None
    for line in lines[start:]:
        if header := re.fullmatch(r"\*(\w+) can use Special Cards as:", line):
            nationality = header[1]
            continue
        if nationality is None or line.startswith("Share with"):
            continue
        text = line.removesuffix(" or")  # "Human Wave (...) or" / "Manpower (...)": two alternatives
        typed = re.match(r"(.+?) \((\w)\) Force = (\d+)", text)
        if typed:
            uses.append((nationality, typed[1], typed[2], int(typed[3]), text))
        else:
            uses.append((nationality, text.split(":")[0], None, None, text))
    return uses


def expected_abilities(notes: str, letters: dict[str, str]) -> list[dict]:
    """The notes read as the issue says: Scout, an extra card of a type, an opposing type negated."""
    letters = {**letters, "Fort": letters["Fortification"]}  # "Opposing Fort Negated"
    words = notes.split()
    if not words:
        return []
    if notes == "Scout":
        return [{"kind": "scout"}]
    if words[:3] == ["Play", "an", "Extra"]:
        return [{"kind": "extra", "type": letters[words[3]]}]
    if words[0] == "Opposing" and words[2] == "Negated":
        return [{"kind": "negate", "type": letters[words[1]], "wording": "opposing_negated"}]
    if words[:2] == ["Negate", "Opposing"]:
        return [{"kind": "negate", "type": letters[words[2]], "wording": "negate_opposing"}]
    raise AssertionError(f"a note the issue does not describe: {notes!r}")


def test_all_70_cards_match_the_seed(client, catalog_rows, seed_lines):
    rows = seed_cards(seed_lines)
    assert len(rows) == 70
    letters = seed_type_letters(seed_lines)
    served = everything(client, CARDS, special="false")
    assert len(served) == 70
    for (name, letter, force, notes), card in zip(rows, served, strict=True):  # printed order
        assert (card["name"], card["type"], card["force"], card["notes"]) == (name, letter, force, notes)
        assert card["abilities"] == expected_abilities(notes, letters), name
        assert card["type_name"] == next(n for n, lt in letters.items() if lt == letter)
        assert card["is_special"] is False and card["optional_rule"] == ""


def test_the_special_uses_match_the_seed(client, catalog_rows, seed_lines):
    printed = seed_special_uses(seed_lines)
    served = everything(client, USES)
    assert len(printed) == len(served) == 7
    for (nationality, name, letter, force, text), use in zip(printed, served, strict=True):
        assert (use["nationality_name"], use["name"], use["type"], use["force"], use["text"]) == (
            nationality,
            name,
            letter,
            force,
            text,
        )


def test_the_committed_fixture_is_what_the_extractor_writes_from_the_seed(seed_document):
    import subprocess
    import sys

    seed_document("battlefront-rules.txt")  # the tool finds it the same way (fixtures/tools/seeds.py)
    tool = ROOT / "fixtures" / "tools" / "extract_battlefront.py"
    done = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------- the committed fixture (always runs)


def test_the_api_serves_exactly_the_committed_fixture(client, catalog_rows):
    served = everything(client, CARDS)
    expected = FIXTURE["cards"] + FIXTURE["special_cards"]
    assert [c["code"] for c in served] == [c["code"] for c in expected]
    for card, row in zip(served, expected, strict=True):
        assert {k: card[k] for k in ("name", "type", "force", "notes", "abilities")} == {
            k: row[k] for k in ("name", "type", "force", "notes", "abilities")
        }
    uses = everything(client, USES)
    assert [{k: u[k] for k in FIXTURE["special_uses"][0]} for u in uses] == FIXTURE["special_uses"]


def test_the_rows_round_trip_to_the_committed_fixture(catalog_rows, django_assert_max_num_queries):
    """What the database holds, in the file's shape, is the file (four queries whatever the size)."""
    from cards.battlefront.selectors import battlefront_dicts

    with django_assert_max_num_queries(4):
        rows = battlefront_dicts()
    assert rows == {k: FIXTURE[k] for k in ("cards", "special_cards", "special_uses")}


def test_the_fixture_is_the_deck_the_rules_describe():
    """"The deck contains 1 copy of every card in the card list": seven types (CARD LIST NOTATION), and in
    the printed list each type has one card of each force 1-10; "Include 5 'Special' cards (Type = X)"."""
    cards = FIXTURE["cards"]
    assert len(cards) == 70
    assert len({c["code"] for c in cards}) == 70 and len({c["name"] for c in cards}) == 70
    by_type = Counter(c["type"] for c in cards)
    assert by_type == dict.fromkeys("LIPTASF", 10)
    for letter in "LIPTASF":
        assert sorted(c["force"] for c in cards if c["type"] == letter) == list(range(1, 11))
    assert [(s["type"], s["force"]) for s in FIXTURE["special_cards"]] == [("X", None)] * 5
    assert FIXTURE["estimated"] is False


def test_a_card_by_code(client, catalog_rows):
    response = client.get(CARDS + "bf-replacement-officer/")
    assert response.status_code == 200
    assert response.json() == {
        "code": "bf-replacement-officer",
        "url": "http://testserver/api/battlefront/cards/bf-replacement-officer/",
        "face_url": "http://testserver/api/battlefront/cards/bf-replacement-officer/face.svg",
        "name": "Replacement Officer",
        "type": "L",
        "type_name": "Leader",
        "force": 2,
        "notes": "Negate Opposing Leader",
        "abilities": [{"kind": "negate", "type": "L", "wording": "negate_opposing"}],
        "is_special": False,
        "optional_rule": "",
        "position": 42,
    }
    special = client.get(CARDS + "bf-special-3/").json()
    assert special["type"] == "X" and special["force"] is None and special["optional_rule"] == "special_cards"
    intelligence = client.get(USES + "bf-use-gb-intelligence/").json()
    assert intelligence["abilities"] == [{"kind": "scout"}, {"kind": "extra", "type": "L"}]
    assert intelligence["type"] == "L" and intelligence["force"] == 7 and intelligence["nationality"] == "GB"


def test_unknown_code_is_a_404_in_the_error_shape(client, catalog_rows):
    for url in (CARDS + "bf-no-such-card/", USES + "bf-use-xx-nothing/", CARDS + "gb-infantry/"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {"status": 404, "code": "not_found", "detail": "Not found."}


# --------------------------------------------------------------------------------------- filters and order


def codes(client, query: str, url: str = CARDS) -> list[str]:
    response = client.get(url + "?" + query)
    assert response.status_code == 200, response.json()
    return [row["code"] for row in response.json()["results"]]


def fixture_codes(pred) -> list[str]:
    return [c["code"] for c in FIXTURE["cards"] + FIXTURE["special_cards"] if pred(c)]


def has(card: dict, **params) -> bool:
    return any(all(a.get(k) == v for k, v in params.items()) for a in card["abilities"])


@pytest.mark.parametrize(
    ("query", "pred"),
    [
        ("type=T", lambda c: c["type"] == "T"),
        ("type=L&type=F", lambda c: c["type"] in "LF"),
        ("force=10", lambda c: c["force"] == 10),
        ("force_min=4&force_max=5", lambda c: c["force"] is not None and 4 <= c["force"] <= 5),
        ("ability=scout", lambda c: has(c, kind="scout")),
        ("ability=extra&ability=scout", lambda c: has(c, kind="extra") or has(c, kind="scout")),
        ("ability=none&special=false", lambda c: not c["abilities"] and c["type"] != "X"),
        ("negates=T", lambda c: has(c, kind="negate", type="T")),
        ("negates=F", lambda c: has(c, kind="negate", type="F")),
        ("extra=I", lambda c: has(c, kind="extra", type="I")),
        ("wording=negate_opposing", lambda c: has(c, wording="negate_opposing")),
        ("special=true", lambda c: c["type"] == "X"),
        ("name=tank", lambda c: "tank" in c["name"].lower()),
        ("notes=negated", lambda c: "negated" in c["notes"].lower()),
        ("search=officer", lambda c: "officer" in c["name"].lower()),
        ("type=A&extra=S", lambda c: c["type"] == "A" and has(c, kind="extra", type="S")),
    ],
)
def test_filters(client, catalog_rows, query, pred):
    assert codes(client, query + "&page_size=100") == fixture_codes(pred)


def test_the_filters_the_issue_names(client, catalog_rows):
    """"has scout", "negates tank", "allows extra infantry" are queries on the ability rows."""
    assert codes(client, "ability=scout") == [
        "bf-armored-cars",
        "bf-ranger-units",
        "bf-reconnaissance-planes",
        "bf-experienced-officer",
        "bf-infiltration",
    ]
    assert codes(client, "negates=T") == [
        "bf-tank-destroyers",
        "bf-anti-tank-guns",
        "bf-tank-buster",
        "bf-tank-obstacles",
    ]
    assert codes(client, "extra=I") == [
        "bf-infantry-tanks",
        "bf-reserve-units",
        "bf-paratroop-jump",
        "bf-frontal-assault",
        "bf-bunkers",
    ]


def test_ordering(client, catalog_rows):
    ordered = client.get(CARDS + "?ordering=-force,name&special=false&page_size=7").json()["results"]
    assert [c["force"] for c in ordered] == [10] * 7
    assert [c["name"] for c in ordered] == sorted(c["name"] for c in ordered)
    by_type = codes(client, "ordering=type&force=1")
    assert [FIXTURE_TYPES[c] for c in by_type] == sorted(FIXTURE_TYPES[c] for c in by_type)
    assert codes(client, "ordering=-position&page_size=1") == ["bf-special-5"]


FIXTURE_TYPES = {c["code"]: c["type"] for c in FIXTURE["cards"] + FIXTURE["special_cards"]}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("nationality=RU", ["bf-use-ru-human-wave", "bf-use-ru-manpower"]),
        ("type=none", ["bf-use-us-industrial-giant"]),
        ("type=S", ["bf-use-ru-human-wave", "bf-use-jp-bonzai-charge"]),
        ("extra=I", ["bf-use-ru-human-wave", "bf-use-jp-bonzai-charge"]),
        ("ability=scout", ["bf-use-gb-intelligence"]),
        ("ability=discard_and_draw", ["bf-use-us-industrial-giant"]),
        ("force_min=8", ["bf-use-de-panzer-tanks", "bf-use-ru-manpower", "bf-use-jp-underground-complexes"]),
        ("ordering=-force,code&force_min=10", ["bf-use-de-panzer-tanks"]),
    ],
)
def test_special_use_filters(client, catalog_rows, query, expected):
    assert codes(client, query, USES) == expected


@pytest.mark.parametrize(
    "url",
    [
        CARDS + "?type=Q",
        CARDS + "?type=tank",
        CARDS + "?force=ten",
        CARDS + "?force_min=x",
        CARDS + "?ability=fly",
        CARDS + "?negates=X",
        CARDS + "?extra=Z",
        CARDS + "?wording=maybe",
        CARDS + "?special=perhaps",
        CARDS + "?ordering=colour",
        CARDS + "?page_size=0",
        USES + "?nationality=FR",
        USES + "?type=X",
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
        ("type:tank force>=7", lambda c: c["type"] == "T" and c["force"] >= 7),
        ("t:I f<3", lambda c: c["type"] == "I" and c["force"] < 3),
        ("extra:infantry", lambda c: has(c, kind="extra", type="I")),
        ("negates:fort or neg:plane", lambda c: any(has(c, kind="negate", type=t) for t in "FP")),
        ("is:scout -type:L", lambda c: has(c, kind="scout") and c["type"] != "L"),
        ("is:special", lambda c: c["type"] == "X"),
        ("ability:none type:S", lambda c: not c["abilities"] and c["type"] == "S"),
        ("notes:extra force=10", lambda c: "extra" in c["notes"].lower() and c["force"] == 10),
        ("bombers", lambda c: "bombers" in c["name"].lower()),
    ],
)
def test_the_search_language(client, catalog_rows, query, pred):
    response = client.get(CARDS, {"q": query, "page_size": 100})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [c["code"] for c in body["results"]] == fixture_codes(pred)
    assert body["warnings"] == []


def test_search_language_errors_and_warnings(client, catalog_rows):
    body = client.get(CARDS, {"q": "type:tank colour:red"}).json()
    assert body["count"] == 10 and body["warnings"] == ['"colour:red": unknown key "colour"; term ignored']
    body = client.get(CARDS, {"q": "type:horse"}).json()
    assert body["code"] == "query_unusable" and "horse" in body["warnings"][0]
    assert client.get(CARDS, {"q": "(type:T"}).json()["code"] == "query_syntax"


# ---------------------------------------------------------------------- query counts, caching, schema, root


@pytest.mark.parametrize("url", [CARDS, USES])
def test_list_query_count_does_not_grow_with_page_size(client, catalog_rows, url):
    cold, warm = list_query_counts(client, url, (2, 500), ability="extra")
    assert cold[0] == cold[1] and warm[0] == warm[1] == 2, (cold, warm)


def test_list_costs_at_most_four_queries(client, catalog_rows, django_assert_max_num_queries):
    """The version token, the page's keys with the count, and the page's rows with their prefetched
    abilities the first time this process shows them (cards.list_forms); then only token, keys and count."""
    with django_assert_max_num_queries(4):
        assert client.get(CARDS, {"page_size": 500, "negates": "T"}).status_code == 200
    with django_assert_max_num_queries(2):  # the same rows in another order: a response-cache miss
        assert client.get(CARDS, {"page_size": 500, "negates": "T", "ordering": "-force"}).status_code == 200


def test_etag_and_cache_control_like_the_catalog(client, catalog_rows, django_capture_on_commit_callbacks):
    url = CARDS + "bf-tank-brigade/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "public" in first["Cache-Control"] and "max-age=" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    BattlefrontCard.objects.filter(code="bf-tank-brigade").update(force=1)  # the rows drift from the file
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_catalog", "--skip-battlefront", stdout=io.StringIO())  # no Battlefront change...
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_catalog", "--reset", stdout=io.StringIO())  # ... resetting to the file restores it
    after = client.get(url)
    assert after.json() == first.json() and after["ETag"] != first["ETag"]


def test_the_schema_documents_the_endpoints(client, db):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["paths"]
    for path in (CARDS, CARDS + "{code}/", USES, USES + "{code}/"):
        assert path in paths
    params = {p["name"] for p in paths[CARDS]["get"]["parameters"]}
    assert {"type", "force", "force_min", "force_max", "ability", "negates", "extra", "wording"} <= params
    assert {"special"} <= params
    assert {"name", "notes", "q", "search", "ordering", "page", "page_size"} <= params
    body = client.get("/api/").json()
    assert body["battlefront_cards"] == "http://testserver/api/battlefront/cards/"
    assert body["battlefront_special_uses"] == "http://testserver/api/battlefront/special-uses/"


# ------------------------------------------------------------------------------------------------ loading


def load(path: Path | None = None, *extra: str) -> str:
    out = io.StringIO()
    args = ["load_catalog", *extra] + (["--battlefront", str(path)] if path else [])
    call_command(*args, stdout=out)
    return out.getvalue()


def snapshot() -> list[tuple]:
    return [
        *BattlefrontCard.objects.order_by("code").values_list(
            "pk", "code", "name", "card_type", "force", "notes", "is_special", "optional_rule", "position"
        ),
        *BattlefrontCardAbility.objects.order_by("pk").values_list("pk", "card__code", "kind", "card_type"),
        *BattlefrontSpecialUse.objects.order_by("code").values_list("pk", "code", "name", "force", "text"),
    ]


def test_load_catalog_is_idempotent(catalog_rows):
    before = snapshot()
    out = load()
    assert "battlefront_cards: 75 (0 created, 0 updated, 0 deleted)" in out
    assert "battlefront_special_uses: 7 (0 created, 0 updated, 0 deleted)" in out
    assert snapshot() == before  # not a row rewritten: the primary keys of the ability rows are the same


def test_a_changed_file_updates_creates_and_deletes_by_code(catalog_rows, tmp_path):
    data = json.loads(BATTLEFRONT_FIXTURE.read_text(encoding="utf-8"))
    light = next(c for c in data["cards"] if c["code"] == "bf-light-tanks")
    light.update(force=3, notes="Scout", abilities=[{"kind": "scout"}])
    data["cards"].append(
        {"code": "bf-test-card", "name": "Test Card", "type": "P", "force": 4, "notes": "", "abilities": []}
    )
    data["special_uses"] = [u for u in data["special_uses"] if u["code"] != "bf-use-jp-underground-complexes"]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    untouched = BattlefrontCard.objects.get(code="bf-heavy-tanks").pk
    out = load(path)
    # updated: Light Tanks, and the five Special cards, which move one place down the printed order
    assert "battlefront_cards: 76 (1 created, 6 updated, 0 deleted)" in out
    assert "battlefront_special_uses: 6 (0 created, 0 updated, 1 deleted)" in out
    card = BattlefrontCard.objects.get(code="bf-light-tanks")
    assert (card.force, card.notes) == (3, "Scout")
    assert [a.as_dict() for a in card.abilities.all()] == [{"kind": "scout"}]
    assert BattlefrontCard.objects.get(code="bf-test-card").position == 71  # after the 70, before specials
    assert not BattlefrontSpecialUse.objects.filter(code="bf-use-jp-underground-complexes").exists()
    assert BattlefrontCard.objects.get(code="bf-heavy-tanks").pk == untouched
    out = load()  # the committed file again
    assert "battlefront_cards: 75 (0 created, 6 updated, 1 deleted)" in out
    assert "battlefront_special_uses: 7 (1 created, 0 updated, 0 deleted)" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][0].update(type="Q"), "unknown card type"),
        (lambda d: d["cards"][0].update(force=11), "outside 1-10"),
        (lambda d: d["cards"][0].update(force=None), "force is required"),
        (lambda d: d["cards"][0].update(abilities=[{"kind": "fly"}]), "unknown ability kind"),
        (lambda d: d["cards"][0].update(abilities=[{"kind": "extra"}]), "takes exactly"),
        (lambda d: d["cards"][1].update(code="bf-armored-cars"), "duplicate codes"),
        (lambda d: d["special_cards"][0].update(force=3), "no force of its own"),
        (lambda d: d["special_uses"][0].update(nationality="FR"), "unknown nationality"),
        (lambda d: d.pop("special_uses"), "needs the lists"),
    ],
)
def test_an_invalid_file_is_refused_and_changes_nothing(catalog_rows, tmp_path, change, message):
    data = json.loads(BATTLEFRONT_FIXTURE.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot()
    with pytest.raises(CommandError, match=message):
        load(path)
    assert snapshot() == before


def test_a_missing_or_broken_file_is_a_command_error(catalog_rows, tmp_path):
    with pytest.raises(CommandError, match="missing"):
        load(tmp_path / "nothing.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        load(tmp_path / "broken.json")


# ------------------------------------------------------------------------------------------------- admin


@pytest.mark.parametrize(
    ("query", "pred"),
    [
        ("card_type__exact=A", lambda c: c["type"] == "A"),
        ("force__exact=3", lambda c: c["force"] == 3),
        ("ability=scout", lambda c: has(c, kind="scout")),
        ("ability=none", lambda c: not c["abilities"]),
        ("negates=T", lambda c: has(c, kind="negate", type="T")),
        ("extra=P", lambda c: has(c, kind="extra", type="P")),
        ("is_special__exact=1", lambda c: c["type"] == "X"),
        ("q=officer", lambda c: "officer" in c["name"].lower()),
    ],
)
def test_admin_changelist_filters(admin_client, catalog_rows, query, pred):
    response = admin_client.get(f"/admin/cards/battlefrontcard/?{query}")
    assert response.status_code == 200
    shown = sorted(card.code for card in response.context["cl"].result_list)
    assert shown == sorted(fixture_codes(pred))
