"""A game's frozen card definitions: the snapshot rebuilds exactly the definitions it was taken from."""

from __future__ import annotations

from cards.battlecards.snapshot import snapshot_dicts
from games.catalog_snapshot import catalog_from_snapshot, snapshot_hash


def test_snapshot_rebuilds_equal_definitions_for_every_card(catalog):
    codes = set(catalog.arsenal) | set(catalog.conflict) | set(catalog.battlecards)
    rebuilt = catalog_from_snapshot(snapshot_dicts(catalog, codes))
    assert dict(rebuilt.arsenal) == dict(catalog.arsenal)
    assert dict(rebuilt.conflict) == dict(catalog.conflict)
    assert dict(rebuilt.battlecards) == dict(catalog.battlecards)
    assert dict(rebuilt.nations) == dict(catalog.nations)


def test_snapshot_keeps_only_the_cards_a_game_uses_plus_prerequisite_battles(catalog):
    some_arsenal = sorted(catalog.arsenal)[:3]
    battle = next((b for b in catalog.battlecards.values() if b.prerequisites), None)
    codes = set(some_arsenal) | ({battle.code} if battle else set())
    snap = snapshot_dicts(catalog, codes)
    assert sorted(c["code"] for c in snap["arsenal"]) == some_arsenal
    if battle:
        kept = {b["code"] for b in snap["battlecards"]}
        assert battle.code in kept
        assert {p.battlecard for p in battle.prerequisites} <= kept
    assert snap["conflict_cards"] == []


def test_snapshot_hash_is_stable_and_content_sensitive(catalog):
    codes = sorted(catalog.arsenal)[:5]
    first = snapshot_dicts(catalog, codes)
    assert snapshot_hash(first) == snapshot_hash(snapshot_dicts(catalog, reversed(codes)))
    first["arsenal"][0]["points"] += 1
    assert snapshot_hash(first) != snapshot_hash(snapshot_dicts(catalog, codes))
