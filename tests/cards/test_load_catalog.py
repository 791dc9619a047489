"""load_catalog: complete, idempotent, keyed by code; the DB definitions equal the fixture definitions."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.battlecards.canonical import normalize_catalog
from cards.battlecards.selectors import catalog_dicts
from cards.canonical import content_hash
from cards.models import (
    ArsenalCard,
    Battlecard,
    BattlecardPrerequisite,
    CardSet,
    CatalogVersion,
    ConflictCard,
    Nation,
    SetMembership,
    Theater,
)
from cards.selectors import catalog_definitions
from cards.services import catalog_after_admin_edit
from vocabulary.battlecards import DEFAULT_CATALOG_DIR, load_catalog_dir, read_fixture_dicts


def load(path: Path | str = DEFAULT_CATALOG_DIR, *extra: str) -> str:
    out = io.StringIO()
    call_command("load_catalog", "--path", str(path), *extra, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.django_db
class TestRealCatalog:
    def test_every_fixture_row_is_loaded(self, catalog):
        load()
        assert set(Nation.objects.values_list("code", flat=True)) == set(catalog.nations)
        assert set(Theater.objects.values_list("code", flat=True)) == set(catalog.theaters)
        assert set(CardSet.objects.values_list("code", flat=True)) == set(catalog.sets)
        assert set(ArsenalCard.objects.values_list("code", flat=True)) == set(catalog.arsenal)
        assert set(ConflictCard.objects.values_list("code", flat=True)) == set(catalog.conflict)
        assert set(Battlecard.objects.values_list("code", flat=True)) == set(catalog.battlecards)
        assert SetMembership.objects.count() == sum(len(s.entries) for s in catalog.sets.values())
        assert BattlecardPrerequisite.objects.count() == sum(
            len(b.prerequisites) for b in catalog.battlecards.values()
        )

    def test_definitions_from_the_database_equal_the_fixture_definitions(self):
        load()
        assert catalog_definitions() == load_catalog_dir()

    def test_rows_serialise_back_to_the_normalised_fixture_data(self):
        load()
        assert catalog_dicts() == normalize_catalog(read_fixture_dicts(DEFAULT_CATALOG_DIR))

    def test_second_load_changes_nothing_and_says_so(self):
        load()
        versions = CatalogVersion.objects.count()
        output = load()
        current = CatalogVersion.objects.order_by("-id").first()
        assert f"catalog unchanged (hash {current.content_hash[:12]})" in output
        assert "0 created, 0 updated, 0 deleted" in output
        assert " created," in output and "catalog loaded" not in output
        assert CatalogVersion.objects.count() == versions

    def test_version_hash_is_the_content_hash_of_the_fixture_data(self):
        load()
        version = CatalogVersion.objects.order_by("-id").first()
        assert version.content_hash == content_hash(
            normalize_catalog(read_fixture_dicts(DEFAULT_CATALOG_DIR))
        )
        assert version.counts["arsenal"] == ArsenalCard.objects.count()

    def test_estimated_flag_follows_provenance(self, catalog):
        load()
        estimated = set(ArsenalCard.objects.filter(estimated=True).values_list("code", flat=True))
        assert estimated == {
            c.code for c in catalog.arsenal.values() if "estimated" in dict(c.provenance).values()
        }


@pytest.mark.usefixtures("empty_catalog")
class TestUpsert:
    def test_counts_are_printed(self, mini_dir):
        output = load(mini_dir)
        assert "arsenal: 7 (7 created, 0 updated, 0 deleted)" in output
        assert "battlecards: 3 (3 created, 0 updated, 0 deleted)" in output

    def test_changed_values_update_rows_in_place(self, mini_dir):
        load(mini_dir)
        pk = ArsenalCard.objects.get(code="GB-SPIT").pk
        edit_json(mini_dir / "arsenal" / "gb.json", lambda cards: cards[2].update(points=11))
        output = load(mini_dir)
        assert "arsenal: 7 (0 created, 1 updated, 0 deleted)" in output
        card = ArsenalCard.objects.get(code="GB-SPIT")
        assert (card.pk, card.points) == (pk, 11)
        assert CatalogVersion.objects.count() == 2
        assert catalog_definitions() == load_catalog_dir(mini_dir)

    def test_vanished_codes_are_deleted_and_memberships_replaced(self, mini_dir):
        load(mini_dir)

        def drop_spitfire(sets):
            sets[0]["entries"] = [e for e in sets[0]["entries"] if e["card"] != "GB-SPIT"]

        edit_json(mini_dir / "sets.json", drop_spitfire)
        edit_json(mini_dir / "arsenal" / "gb.json", lambda cards: cards.pop(2))
        output = load(mini_dir)
        assert "arsenal: 6 (0 created, 0 updated, 1 deleted)" in output
        assert "sets: 3 (0 created, 1 updated, 0 deleted)" in output
        assert not ArsenalCard.objects.filter(code="GB-SPIT").exists()
        entries = list(
            SetMembership.objects.filter(card_set__code="WE-GB").values_list("card__code", flat=True)
        )
        assert entries == ["GB-INF", "GB-MONTY"]
        assert catalog_definitions() == load_catalog_dir(mini_dir)

    def test_rows_edited_since_the_load_are_kept_and_reported_and_reset_restores_them(self, mini_dir):
        load(mini_dir)
        ArsenalCard.objects.filter(code="GB-INF").update(points=99)
        output = load(mini_dir)
        assert "arsenal: 7 (0 created, 0 updated, 0 deleted)" in output
        assert "arsenal GB-INF: points = 99 (fixtures: 4)" in output
        assert ArsenalCard.objects.get(code="GB-INF").points == 99
        output = load(mini_dir, "--reset")
        assert "arsenal: 7 (0 created, 1 updated, 0 deleted)" in output
        assert "discarded: arsenal GB-INF: points = 99 (fixtures: 4)" in output
        assert ArsenalCard.objects.get(code="GB-INF").points == 4

    def test_variant_and_prerequisites_keep_their_references_and_order(self, mini_dir):
        load(mini_dir)
        assert ArsenalCard.objects.get(code="DE-INF-UA").variant_of.code == "DE-INF"
        britain = Battlecard.objects.get(code="WE-BRITAIN")
        links = list(britain.prerequisite_links.order_by("position").values_list("holder", "requires__code"))
        assert links == [("DE", "WE-FRANCE"), ("axis", "WE-BFRANCE")]
        assert britain.homeland_of.code == "GB"

    def test_schema_error_is_a_command_error_and_nothing_is_written(self, mini_dir):
        edit_json(
            mini_dir / "arsenal" / "gb.json", lambda cards: cards[0]["abilities"].append({"kind": "laser"})
        )
        with pytest.raises(CommandError, match="unknown ability kind 'laser'"):
            load(mini_dir)
        assert not ArsenalCard.objects.exists()
        assert not CatalogVersion.objects.exists()

    def test_a_missing_required_key_is_named(self, mini_dir):
        edit_json(mini_dir / "arsenal" / "de.json", lambda cards: cards[0].pop("points"))
        with pytest.raises(CommandError, match="lacks the required key 'points'"):
            load(mini_dir)

    def test_reference_to_a_missing_set_is_a_command_error(self, mini_dir):
        edit_json(mini_dir / "conflict" / "we.json", lambda d: d["conflict_cards"][0].update(set="NOPE"))
        with pytest.raises(CommandError, match="WE-LIST: unknown set NOPE"):
            load(mini_dir)

    def test_failure_midway_rolls_back_the_whole_load(self, mini_dir):
        load(mini_dir)
        edit_json(mini_dir / "arsenal" / "gb.json", lambda cards: cards[2].update(points=11))
        edit_json(mini_dir / "conflict" / "we.json", lambda d: d["battlecards"][0].update(theater="XX"))
        with pytest.raises(CommandError, match="unknown theater XX"):
            load(mini_dir)
        assert ArsenalCard.objects.get(code="GB-SPIT").points == 10

    def test_missing_directory_and_bad_json_are_command_errors(self, mini_dir, tmp_path):
        with pytest.raises(CommandError, match="not found"):
            load(tmp_path / "nowhere")
        (mini_dir / "sets.json").write_text("{not json")
        with pytest.raises(CommandError, match="not valid JSON"):
            load(mini_dir)

    def test_unknown_keys_are_reported(self, mini_dir):
        edit_json(mini_dir / "arsenal" / "gb.json", lambda cards: cards[0].update(flavour="Tommies"))
        err = io.StringIO()
        call_command("load_catalog", "--path", str(mini_dir), stdout=io.StringIO(), stderr=err)
        assert "arsenal has keys the catalog does not store: ['flavour']" in err.getvalue()

    def test_unknown_nested_keys_are_reported(self, mini_dir):
        edit_json(mini_dir / "sets.json", lambda sets: sets[0]["entries"][0].update(rarity="common"))
        err = io.StringIO()
        call_command("load_catalog", "--path", str(mini_dir), stdout=io.StringIO(), stderr=err)
        assert "sets.entries has keys the catalog does not store: ['rarity']" in err.getvalue()


def test_definitions_cache_follows_admin_edits(mini_dir, empty_catalog):
    load(mini_dir)
    before = catalog_definitions()
    assert before.arsenal["GB-SPIT"].points == 10
    ArsenalCard.objects.filter(code="GB-SPIT").update(
        points=12, provenance={"points": {"source": "estimated"}}
    )
    version = catalog_after_admin_edit(source="admin:test")
    assert version.source == "admin:test"
    after = catalog_definitions()
    assert after.arsenal["GB-SPIT"].points == 12
    assert ArsenalCard.objects.get(code="GB-SPIT").estimated is True


@pytest.mark.django_db
class TestEnsureAdmin:
    def test_creates_the_superuser_once_and_prints_the_password_once(self, django_user_model):
        out = io.StringIO()
        call_command("ensure_admin", stdout=out)
        password = out.getvalue().split("password: ")[1].split()[0]
        user = django_user_model.objects.get(username="admin")
        assert user.is_superuser and user.is_staff and user.check_password(password)
        again = io.StringIO()
        call_command("ensure_admin", stdout=again)
        assert "already exists" in again.getvalue()
        assert password not in again.getvalue()
        assert django_user_model.objects.get(username="admin").check_password(password)

    def test_the_password_is_printed_last_inside_a_frame(self, django_user_model):
        out = io.StringIO()
        call_command("ensure_admin", stdout=out, no_color=True)
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        assert set(lines[0]) == {"="} and set(lines[-1]) == {"="}  # the frame closes the output
        assert any("password: " in line for line in lines[1:-1])

    def test_make_run_creates_the_admin_right_before_serving(self):
        from pathlib import Path

        makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
        recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
        steps = [line.strip() for line in recipe.splitlines()[1:] if line.strip()]
        assert "ensure_admin" in steps[-2] and "runserver" in steps[-1]
