"""Card faces as SVG through the API, and rendered in a real headless browser (Debian's chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from cards.models import ArsenalCard

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def face(client, url: str) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("image/svg+xml")
    return ET.fromstring(response.content)


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def name_of(root: ET.Element) -> str:
    name = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "name")
    return " ".join("".join(span.itertext()) for span in name.iter(f"{SVG}tspan"))


class TestArsenalFace:
    def test_draws_the_cards_data(self, client, catalog_rows):
        root = face(client, "/api/arsenal-cards/gb-illustrious/face.svg")
        assert root.get("viewBox") == "0 0 250 350"
        assert name_of(root) == "Illustrious Class Fleet Carrier"
        lines = texts(root)
        assert "British (GB), allies" in lines and "Sea unit" in lines and "fleet-carrier" in lines
        assert any(line.startswith("Carrier bonus: bonuses 5, 5") for line in lines)
        assert "21" in lines and "no limit" in lines

    def test_estimated_values_are_marked_and_explained(self, client, catalog_rows):
        root = face(client, "/api/arsenal-cards/gb-illustrious/face.svg")
        defense = next(t for t in root.iter(f"{SVG}text") if "".join(t.itertext()).startswith("Defense"))
        cells = [("".join(s.itertext()), s.get("class")) for s in defense.iter(f"{SVG}tspan")][1:]
        # the FAQ states the air defense (13, Ships 4); ground and sea defense are estimated
        assert cells == [("7*", "est"), ("13", None), ("8*", "est")]
        legend = [t for t in root.iter(f"{SVG}text") if "legend" in (t.get("class") or "")]
        assert legend and "estimated" in "".join(legend[0].itertext())

    def test_a_card_without_estimates_has_no_marks(self, client, catalog_rows):
        card = ArsenalCard.objects.filter(estimated=False).first()
        if card is None:  # every arsenal card has some estimated value: check the marks follow provenance
            card = ArsenalCard.objects.get(code="gb-queen-elizabeth")
            root = face(client, f"/api/arsenal-cards/{card.code}/face.svg")
            attack = next(t for t in root.iter(f"{SVG}text") if "".join(t.itertext()).startswith("Attack"))
            assert "*" not in "".join(attack.itertext())  # 11/14/17 are the FAQ's (Ships 3)
            return
        root = face(client, f"/api/arsenal-cards/{card.code}/face.svg")
        assert not any("*" in line for line in texts(root))

    def test_names_are_escaped(self, client, catalog_rows):
        ArsenalCard.objects.filter(code="de-tiger-i").update(name='Tiger <I> & "friends"')
        from cards.services import catalog_after_admin_edit

        catalog_after_admin_edit(source="test")  # a new catalog version: the cached face is dropped
        root = face(client, "/api/arsenal-cards/de-tiger-i/face.svg")
        assert name_of(root) == 'Tiger <I> & "friends"'

    def test_etag_and_not_modified(self, client, catalog_rows):
        first = client.get("/api/arsenal-cards/de-tiger-i/face.svg")
        again = client.get("/api/arsenal-cards/de-tiger-i/face.svg", HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304

    def test_unknown_card_is_a_404_in_the_error_shape(self, client, catalog_rows):
        response = client.get("/api/arsenal-cards/xx-none/face.svg")
        assert response.status_code == 404 and response.json()["code"] == "not_found"

    def test_card_json_links_to_the_face(self, client, catalog_rows):
        body = client.get("/api/arsenal-cards/", {"page_size": 1}).json()["results"][0]
        assert body["face_url"].endswith(f"/api/arsenal-cards/{body['code']}/face.svg")
        assert client.get(body["face_url"]).status_code == 200


def test_conflict_card_face_has_the_action_number_in_two_corners(client, catalog_rows):
    root = face(client, "/api/conflict-cards/we-chemical-warfare/face.svg")
    assert name_of(root) == "Chemical Warfare"
    actions = [t for t in root.iter(f"{SVG}text") if "action" in (t.get("class") or "")]
    assert len(actions) == 2 and {"".join(t.itertext()).rstrip("*") for t in actions} == {"6"}
    assert "rotate(180" in actions[1].get("transform")
    assert any("make a 13" in line and "point Air attack" in line for line in texts(root))


def test_battlecard_face(client, catalog_rows):
    root = face(client, "/api/battlecards/we-battle-for-france/face.svg")
    lines = texts(root)
    assert name_of(root) == "Battle for France"
    assert "Aggressor: GB*" in lines
    assert any(line.startswith("DE must hold Invasion of France") for line in lines)
    assert "ground + air*" in lines and "6" in lines


def corner_labels(root: ET.Element) -> list[tuple[str, str | None]]:
    labels = [t for t in root.iter(f"{SVG}text") if "corner" in (t.get("class") or "").split()]
    return [("".join(t.itertext()), t.get("transform")) for t in labels]


@pytest.mark.parametrize(
    "url",
    ["/api/battlecards/we-battle-for-france/face.svg", "/api/conflict-cards/we-chemical-warfare/face.svg"],
)
def test_the_action_number_is_labelled_in_both_corners(client, catalog_rows, url):
    """A battlecard showed "8*" twice without saying what it is: each corner now says "action"."""
    root = face(client, url)
    actions = [t for t in root.iter(f"{SVG}text") if "action" in (t.get("class") or "").split()]
    labels = corner_labels(root)
    assert len(actions) == 2 and [text for text, _ in labels] == ["action", "action"]
    # the label turns with its number: the upright one, and the one upside down in the opposite corner
    assert [transform for _, transform in labels] == [a.get("transform") for a in actions]


class TestBattlefrontFace:
    def test_draws_the_cards_data(self, client, catalog_rows):
        root = face(client, "/api/battlefront/cards/bf-tank-destroyers/face.svg")
        assert root.get("viewBox") == "0 0 250 350"
        assert name_of(root) == "Tank Destroyers"
        lines = texts(root)
        assert "Tank" in lines and "Opposing Tank Negated" in lines and "Battlefront · card 7 of 70" in lines
        force = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "force")
        assert "".join(force.itertext()) == "7"
        assert not any("*" in line for line in lines)  # every Battlefront value is printed in the rules

    def test_a_special_card_lists_each_nationalitys_use(self, client, catalog_rows):
        from cards.models import BattlefrontSpecialUse

        root = face(client, "/api/battlefront/cards/bf-special-1/face.svg")
        lines = " ".join(texts(root))
        assert "no force of its own" in lines and not any(t.get("class") == "force" for t in root.iter())
        for use in BattlefrontSpecialUse.objects.all():
            assert use.get_nationality_display() + ":" in lines
        assert "Germans: Panzer Tanks (T) Force = 10" in lines

    def test_card_json_links_to_the_face(self, client, catalog_rows):
        body = client.get("/api/battlefront/cards/bf-tank-brigade/").json()
        assert body["face_url"] == "http://testserver/api/battlefront/cards/bf-tank-brigade/face.svg"
        listed = client.get("/api/battlefront/cards/", {"page_size": 3}).json()["results"]
        assert all(card["face_url"].endswith(f"/{card['code']}/face.svg") for card in listed)
        assert client.get(body["face_url"]).status_code == 200

    def test_etag_not_modified_and_an_admin_edit_redraws(
        self, client, catalog_rows, django_capture_on_commit_callbacks
    ):
        from cards.battlefront.services import battlefront_after_admin_edit
        from cards.models import BattlefrontCard

        url = "/api/battlefront/cards/bf-tank-brigade/face.svg"
        first = client.get(url)
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        with django_capture_on_commit_callbacks(execute=True):
            BattlefrontCard.objects.filter(code="bf-tank-brigade").update(name="Armoured Brigade")
            battlefront_after_admin_edit()
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 200 and again["ETag"] != first["ETag"]
        assert name_of(ET.fromstring(again.content)) == "Armoured Brigade"

    def test_unknown_card_is_a_404_in_the_error_shape(self, client, catalog_rows):
        response = client.get("/api/battlefront/cards/bf-nothing/face.svg")
        assert response.status_code == 404 and response.json()["code"] == "not_found"


# ------------------------------------------------------------------------------------- a real browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no chromium here (.ci/run installs Debian's chromium)",
)
@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/arsenal-cards/de-tiger-i/face.svg", "Tiger I Tank"),
        ("/api/conflict-cards/we-counterattack/face.svg", "Counterattack"),
        ("/api/battlecards/we-invasion-of-normandy/face.svg", "Invasion of Normandy"),
        ("/api/battlefront/cards/bf-tank-destroyers/face.svg", "Tank Destroyers"),
        ("/api/battlefront/cards/bf-special-1/face.svg", "Special"),
        ("/api/the-war/cards/tw-kv-1-1940/face.svg", "KV-1 (1940)"),
        ("/api/the-war/cards/tw-river/face.svg", "River"),
    ],
)
def test_faces_render_in_headless_chromium(client, catalog_rows, tmp_path: Path, url, name):
    from PIL import Image

    assert CHROMIUM, "chromium is required in CI"
    svg = tmp_path / "face.svg"
    svg.write_bytes(client.get(url).content)
    png = tmp_path / "face.png"
    # one browser run both paints the face and prints the document it parsed
    shot = chromium("--window-size=250,350", f"--screenshot={png}", "--dump-dom", svg.as_uri())
    assert png.exists(), shot.stderr[-2000:]
    image = Image.open(png).convert("RGB")
    assert image.size == (250, 350)
    colours = image.getcolors(250 * 350)  # [(count, (r, g, b))]
    # not blank: many colours and most of the card is not the page's white
    assert len(colours) > 20
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert white < 0.1 * 250 * 350
    # the name is drawn: white glyph pixels inside the coloured title band (x 20-230, y 14-60)
    band = image.crop((20, 14, 230, 60))
    band_colours = band.getcolors(210 * 46)
    light = sum(n for n, (r, g, b) in band_colours if min(r, g, b) > 200)
    dark = sum(n for n, (r, g, b) in band_colours if max(r, g, b) < 130)
    assert light > 150 and dark > 0.5 * 210 * 46
    # and the browser's DOM of the rendered document holds the name as text
    assert shot.returncode == 0, shot.stderr[-2000:]
    assert f"<title>{name}</title>" in shot.stdout or name in shot.stdout
    assert 'class="name"' in shot.stdout
