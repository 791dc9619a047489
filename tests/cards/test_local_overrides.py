"""load_catalog keeps the edits made in the admin (issue 21, item 0).

The fixtures are the source of the shipped catalog, an admin edit is a local override that every load keeps
and reports; the fixtures are applied only where they changed since the last load; a fixture change meeting
an edited field keeps the edit and is listed as a conflict (command output, the Fixture states admin page);
`--reset` applies the fixtures as they are. The catalog version and the change feed follow the rows."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from cards.battlecards.selectors import catalog_dicts
from cards.battlefront.services import BATTLEFRONT_FIXTURE
from cards.fixture_merge import merge_tables
from cards.models import (
    ArsenalCard,
    BattlefrontCard,
    CatalogVersion,
    FixtureState,
    Nation,
    Ruling,
    SetMembership,
)
from cards.selectors import catalog_definitions
from cards.services import catalog_after_admin_edit
from vocabulary.battlecards import DEFAULT_CATALOG_DIR


def load(path: Path, *extra: str) -> str:
    out = io.StringIO()
    call_command("load_catalog", "--path", str(path), *extra, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def spitfire(cards):
    return next(c for c in cards if c["code"] == "GB-SPIT")


def admin_edit_spitfire_points(points: int) -> CatalogVersion:
    """What the arsenal card admin does on save: write the row, then catalog_after_admin_edit."""
    ArsenalCard.objects.filter(code="GB-SPIT").update(points=points)
    return catalog_after_admin_edit(source="admin:editor")


def latest() -> CatalogVersion:
    return CatalogVersion.objects.order_by("-id").first()


def changes(client, since: str) -> dict:
    response = client.get("/api/catalog/changes/", {"since": since})
    assert response.status_code == 200, response.content
    return response.json()["tables"]


def row_snapshot() -> list[tuple]:
    return list(ArsenalCard.objects.order_by("code").values_list("pk", "code", "name", "points")) + list(
        SetMembership.objects.order_by("pk").values_list("pk", "card__code", "count")
    )


@pytest.fixture
def mini(empty_catalog, mini_dir) -> Path:
    load(mini_dir)
    return mini_dir


def test_an_edit_through_the_admin_survives_load_catalog(admin_client, mini):
    nation = Nation.objects.get(code="GB")
    response = admin_client.post(
        reverse("admin:cards_nation_change", args=[nation.pk]),
        {"code": "GB", "name": "United Kingdom", "side": "allies"},
    )
    assert response.status_code == 302
    edited = latest()
    assert edited.source == "admin:admin"

    output = load(mini)

    assert Nation.objects.get(code="GB").name == "United Kingdom"
    assert catalog_definitions().nations["GB"].name == "United Kingdom"
    assert "catalog: fixtures unchanged since last load" in output
    assert "catalog: 1 local overrides kept" in output
    assert "nations GB: name = 'United Kingdom' (fixtures: 'British')" in output
    assert latest().pk == edited.pk  # the version recorded by the admin edit is still the truth
    state = FixtureState.objects.get(name="catalog")
    assert [(o["table"], o["code"], o["field"], o["conflict"]) for o in state.overrides] == [
        ("nations", "GB", "name", False)
    ]


def test_an_unchanged_fixture_load_changes_nothing(mini):
    admin_edit_spitfire_points(12)
    before, versions = row_snapshot(), CatalogVersion.objects.count()

    output = load(mini)

    assert row_snapshot() == before  # no row written: the primary keys and values are the same
    assert CatalogVersion.objects.count() == versions
    assert "catalog unchanged" in output and "catalog: fixtures unchanged since last load" in output
    assert "arsenal: 7 (0 created, 0 updated, 0 deleted)" in output
    assert ArsenalCard.objects.get(code="GB-SPIT").points == 12


def test_a_fixture_change_to_another_field_and_another_row_is_applied(mini, client):
    edited = admin_edit_spitfire_points(12)
    edit_json(mini / "arsenal" / "gb.json", lambda cards: spitfire(cards).update(name="Spitfire Mk IX"))
    edit_json(mini / "arsenal" / "gb.json", lambda cards: cards[0].update(points=5))  # GB-INF

    output = load(mini)

    card = ArsenalCard.objects.get(code="GB-SPIT")
    assert (card.name, card.points) == ("Spitfire Mk IX", 12)
    assert ArsenalCard.objects.get(code="GB-INF").points == 5
    assert "catalog: fixtures changed since the last load: applied" in output
    assert "arsenal: 7 (0 created, 2 updated, 0 deleted)" in output
    assert "arsenal GB-SPIT: points = 12 (fixtures: 10)" in output and "CONFLICT" not in output
    version = latest()
    assert version.pk != edited.pk and version.contents == catalog_dicts()
    assert "rows kept from the admin" in version.source
    assert changes(client, edited.content_hash)["arsenal"]["changed"] == {
        "GB-INF": ["points"],
        "GB-SPIT": ["name"],
    }


def test_a_fixture_change_meeting_an_edit_keeps_the_edit_and_lists_the_conflict(mini, admin_client):
    edited = admin_edit_spitfire_points(12)
    edit_json(mini / "arsenal" / "gb.json", lambda cards: spitfire(cards).update(points=11))

    output = load(mini)

    assert ArsenalCard.objects.get(code="GB-SPIT").points == 12
    assert "1 in conflict with a fixture change" in output
    assert "arsenal GB-SPIT: points = 12 (fixtures: 11) [CONFLICT: the fixtures changed it too]" in output
    assert latest().pk == edited.pk  # the rows did not change
    state = FixtureState.objects.get(name="catalog")
    assert state.conflict_count == 1
    # the conflict stays listed on later loads, and on the admin page, until resolved
    assert "[CONFLICT" in load(mini)
    page = admin_client.get(reverse("admin:cards_fixturestate_change", args=[state.pk])).content.decode()
    assert "GB-SPIT: points = 12 (fixtures: 11)" in page and "conflict" in page
    listing = admin_client.get(reverse("admin:cards_fixturestate_changelist")).content.decode()
    assert "Battlecards catalog" in listing


def test_reset_restores_the_fixtures_and_the_version_says_so(mini, client):
    edited = admin_edit_spitfire_points(12)
    edit_json(mini / "arsenal" / "gb.json", lambda cards: spitfire(cards).update(points=11))
    load(mini)

    output = load(mini, "--reset")

    assert ArsenalCard.objects.get(code="GB-SPIT").points == 11
    assert "catalog: reset to the fixtures" in output
    assert "discarded: arsenal GB-SPIT: points = 12 (fixtures: 11)" in output
    assert FixtureState.objects.get(name="catalog").overrides == []
    version = latest()
    assert version.pk != edited.pk and version.contents == catalog_dicts()
    assert changes(client, edited.content_hash)["arsenal"]["changed"] == {"GB-SPIT": ["points"]}
    assert "local overrides" not in load(mini)  # and the next load has nothing to keep


def test_a_database_loaded_before_fixture_states_existed_keeps_its_admin_edits(mini):
    """Upgrading: no FixtureState yet; the newest version a load recorded holds the fixtures it applied."""
    FixtureState.objects.all().delete()
    admin_edit_spitfire_points(12)

    output = load(mini)

    assert ArsenalCard.objects.get(code="GB-SPIT").points == 12
    assert "arsenal GB-SPIT: points = 12 (fixtures: 10)" in output
    assert FixtureState.objects.filter(name="catalog").exists()


def test_a_row_deleted_in_the_admin_stays_deleted(mini):
    ArsenalCard.objects.filter(code="GB-SPIT").delete()
    catalog_after_admin_edit(source="admin:editor")
    edit_json(mini / "arsenal" / "gb.json", lambda cards: cards[0].update(points=5))

    output = load(mini)

    assert not ArsenalCard.objects.filter(code="GB-SPIT").exists()
    assert ArsenalCard.objects.get(code="GB-INF").points == 5
    assert "arsenal GB-SPIT: row deleted locally" in output


def test_a_fixture_change_that_no_longer_fits_an_edit_is_refused_and_writes_nothing(mini):
    ArsenalCard.objects.filter(code="GB-SPIT").delete()
    catalog_after_admin_edit(source="admin:editor")
    before = row_snapshot()

    def add_spitfire_to_the_german_set(sets):
        sets[1]["entries"].append({"card": "GB-SPIT", "count": 9})

    edit_json(mini / "sets.json", add_spitfire_to_the_german_set)
    with pytest.raises(Exception, match="does not fit the rows edited in the admin.*--reset"):
        load(mini)
    assert row_snapshot() == before


def test_battlefront_edits_are_kept_and_reset(catalog_rows, tmp_path):
    BattlefrontCard.objects.filter(code="bf-heavy-tanks").update(force=1)
    data = json.loads(BATTLEFRONT_FIXTURE.read_text(encoding="utf-8"))
    heavy = next(c for c in data["cards"] if c["code"] == "bf-heavy-tanks")
    heavy["force"] = 8  # the file changes the edited field (printed 9): a conflict
    light = next(c for c in data["cards"] if c["code"] == "bf-light-tanks")
    light["name"] = "Light Tank Company"  # and another row: applied
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    output = load(DEFAULT_CATALOG_DIR, "--battlefront", str(path))

    assert BattlefrontCard.objects.get(code="bf-heavy-tanks").force == 1
    assert BattlefrontCard.objects.get(code="bf-light-tanks").name == "Light Tank Company"
    assert "battlefront_cards bf-heavy-tanks: force = 1 (fixtures: 8) [CONFLICT" in output
    output = load(DEFAULT_CATALOG_DIR, "--battlefront", str(path), "--reset")
    assert BattlefrontCard.objects.get(code="bf-heavy-tanks").force == 8
    assert "battlefront: reset to the fixtures" in output


def test_ruling_edits_are_kept_and_reset(catalog_rows):
    ruling = Ruling.objects.get(key="faq-cards-21")
    fixture_answer = ruling.answer
    Ruling.objects.filter(pk=ruling.pk).update(answer="Local house ruling.")
    ruling.arsenal_cards.clear()

    output = load(DEFAULT_CATALOG_DIR)

    ruling.refresh_from_db()
    assert ruling.answer == "Local house ruling." and not ruling.arsenal_cards.exists()
    assert "rulings faq-cards-21: answer = 'Local house ruling.'" in output
    assert "rulings faq-cards-21: arsenal_cards = []" in output
    load(DEFAULT_CATALOG_DIR, "--reset")
    ruling.refresh_from_db()
    assert ruling.answer == fixture_answer and ruling.arsenal_cards.filter(code="ru-zhukov").exists()


@pytest.mark.parametrize(
    ("base", "local", "fixture", "expected", "conflicts"),
    [
        ({"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 1, "b": 3}, {"a": 2, "b": 3}, []),  # both applied
        ({"a": 1}, {"a": 2}, {"a": 3}, {"a": 2}, ["a"]),  # the edit wins, flagged
        ({"a": 1}, {"a": 3}, {"a": 3}, {"a": 3}, []),  # the same change on both sides
        ({"a": 1}, {"a": 1}, {"a": 3}, {"a": 3}, []),  # not edited: the fixture change applies
        (None, {"a": 2}, None, {"a": 2}, []),  # a row added in the admin is kept
        ({"a": 1}, None, {"a": 1}, None, []),  # a row deleted in the admin stays deleted
        ({"a": 1}, None, {"a": 4}, None, [""]),  # ... even when the fixtures change it (flagged)
        ({"a": 1}, {"a": 2}, None, {"a": 2}, [""]),  # an edited row the fixtures delete is kept (flagged)
        ({"a": 1}, {"a": 1}, None, None, []),  # an untouched row the fixtures delete goes
    ],
)
def test_three_way_merge_of_one_row(base, local, fixture, expected, conflicts):
    def table(row):
        return {"t": [] if row is None else [{"code": "x", **row}]}

    result = merge_tables(base=table(base), local=table(local), fixture=table(fixture), tables=["t"])
    assert result.rows["t"] == table(expected)["t"]
    assert sorted(f for (_t, _c, f) in result.conflict_keys) == conflicts
