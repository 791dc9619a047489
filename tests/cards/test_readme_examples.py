"""Every catalog search example the README shows (and the OpenAPI `q` examples) finds cards in the loaded
catalog (issue 21, item 10). The examples are parsed out of README.md, so they cannot drift."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]  # the front door and the guides
CATALOG_LISTS = re.compile(
    r"^/api/(arsenal-cards|conflict-cards|battlecards|battlefront/cards|battlefront/special-uses)/$"
)


def readme_examples() -> list[tuple[str, dict[str, str], bool]]:
    """(path, query parameters, whether the README shows it answering with warnings) of each example."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in DOCS)
    examples = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            if not line.startswith("GET /api/"):
                continue
            url = re.split(r"\s{2,}#", line[len("GET ") :])[0].strip()  # drop a trailing "   # comment"
            path, _, query = url.partition("?")
            if query and CATALOG_LISTS.match(path):
                examples.append((path, dict(parse_qsl(query)), '"warnings": [' in block))
    return examples


EXAMPLES = readme_examples()


def test_the_readme_shows_search_examples():
    searches = [params["q"] for _path, params, _warned in EXAMPLES if "q" in params]
    assert len(searches) >= 10  # the search section and the Battlefront section


@pytest.mark.parametrize(
    ("path", "params", "warned"), EXAMPLES, ids=[f"{p} {sorted(q.values())}" for p, q, _ in EXAMPLES]
)
def test_every_readme_search_example_finds_cards(client, catalog_rows, path, params, warned):
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] >= 1, f"{path}?{params} finds nothing"
    if not warned:  # an example that does not show warnings has every term used
        assert not body.get("warnings"), body["warnings"]


def test_every_openapi_search_example_finds_cards(client, catalog_rows):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    checked = 0
    for path, operations in schema["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["name"] != "q":
                continue
            for example in parameter.get("examples", {}).values():
                body = client.get(path, {"q": example["value"]}).json()
                assert body["count"] >= 1 and not body.get("warnings"), (path, example["value"], body)
                checked += 1
    assert checked >= 4  # arsenal cards, conflict cards, battlecards, Battlefront cards
