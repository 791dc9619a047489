"""Property: whatever valid catalog is loaded (and reloaded over another), the database gives back the
very same engine definitions, and loading it a second time changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.battlecards.selectors import catalog_dicts
from cards.selectors import catalog_definitions
from cards.services import catalog_load
from vocabulary.battlecards import ABILITY_SCHEMA, KINDS, UNIT_CLASSES, Catalog

NATIONS = [
    {"code": "GB", "name": "British", "side": "allies"},
    {"code": "DE", "name": "German", "side": "axis"},
]
THEATERS = [{"code": "WE", "name": "Western Europe"}]
CODES = [f"C{i}" for i in range(8)]
stat = st.one_of(st.none(), st.integers(0, 25))
text = st.text(alphabet="abcdefgh XYZ-'", max_size=12)
provenance = st.dictionaries(
    st.sampled_from(["points", "attack", "defense", "phase", "count"]),
    st.fixed_dictionaries({"source": st.sampled_from(["seed", "estimated"]), "note": text}),
    max_size=3,
)


def param(typ):
    if typ is int:
        return st.integers(0, 12)
    if typ is bool:
        return st.booleans()
    return st.lists(st.sampled_from(KINDS), min_size=1, max_size=3, unique=True)


ability = st.sampled_from(sorted(ABILITY_SCHEMA)).flatmap(
    lambda kind: st.fixed_dictionaries(
        {"kind": st.just(kind), **{name: param(typ) for name, typ in ABILITY_SCHEMA[kind].items()}}
    )
)


@st.composite
def catalogs(draw) -> dict:
    codes = draw(st.lists(st.sampled_from(CODES), min_size=1, max_size=len(CODES), unique=True))
    arsenal = []
    for code in codes:
        arsenal.append(
            {
                "code": code,
                "name": draw(text),
                "nation": draw(st.sampled_from(["GB", "DE"])),
                "kind": draw(st.sampled_from(KINDS)),
                "classes": draw(st.lists(st.sampled_from(UNIT_CLASSES), min_size=1, max_size=3, unique=True)),
                "points": draw(st.integers(0, 40)),
                "max_per_deck": draw(st.one_of(st.none(), st.integers(1, 3))),
                "attack": {k: draw(stat) for k in KINDS},
                "defense": {k: draw(stat) for k in KINDS},
                "phase": draw(st.one_of(st.none(), st.integers(1, 4))),
                "abilities": draw(st.lists(ability, max_size=2)),
                "ukrainian": draw(st.booleans()),
                "variant_of": draw(st.one_of(st.none(), st.sampled_from(codes))),
                "provenance": draw(provenance),
            }
        )
    entries = [
        {
            "card": code,
            "printed_name": draw(text),
            "count": draw(st.one_of(st.none(), st.integers(1, 6))),
            "count_provenance": draw(st.sampled_from(["seed", "estimated"])),
            "count_note": "",
        }
        for code in draw(st.permutations(codes))[: draw(st.integers(0, len(codes)))]
    ]
    sets = [
        {
            "code": "S1",
            "name": "Starter",
            "kind": "starter",
            "nation": "GB",
            "theater": "WE",
            "printed_points": draw(st.one_of(st.none(), st.integers(0, 600))),
            "printed_cards": None,
            "notes": "",
            "entries": entries,
        },
        {
            "code": "WE-C",
            "name": "Conflict",
            "kind": "conflict",
            "nation": None,
            "theater": "WE",
            "printed_points": None,
            "printed_cards": 50,
            "notes": "",
            "entries": [],
        },
    ]
    battle_codes = draw(st.lists(st.sampled_from(["B1", "B2", "B3"]), min_size=1, unique=True))
    battlecards = []
    for code in battle_codes:
        others = [c for c in battle_codes if c != code]
        battlecards.append(
            {
                "code": code,
                "name": draw(text),
                "theater": "WE",
                "set": "WE-C",
                "count": draw(st.integers(1, 2)),
                "action_number": draw(st.integers(1, 15)),
                "aggressor": draw(st.sampled_from(["GB", "DE", "drawing-player"])),
                "aggressor_forces": {k: draw(st.booleans()) for k in KINDS},
                "defender_forces": {k: draw(st.booleans()) for k in KINDS}
                | {"optional_ground_classes": draw(st.lists(st.sampled_from(["artillery"]), max_size=1))},
                "prerequisites": [
                    {"holder": draw(st.sampled_from(["GB", "axis"])), "battlecard": other}
                    for other in (draw(st.lists(st.sampled_from(others), unique=True)) if others else [])
                ],
                "victory_points": draw(st.integers(0, 12)),
                "homeland_of": draw(st.one_of(st.none(), st.sampled_from(["GB", "DE"]))),
                "emergency_deployment": draw(st.booleans()),
                "special_victory": draw(st.one_of(st.none(), st.just("aggressor-loses-if-no-ground"))),
                "provenance": draw(provenance),
            }
        )
    conflict = [
        {
            "code": "K1",
            "name": "Build-up",
            "theater": "WE",
            "set": "WE-C",
            "count": draw(st.integers(1, 6)),
            "category": "military-build-up",
            "action_number": draw(st.integers(1, 15)),
            "effect": "build-up",
            "params": {"draw": draw(st.integers(1, 3)), "deploy": draw(st.integers(1, 3))},
            "text": draw(text),
        },
    ]
    return {
        "nations": NATIONS,
        "theaters": THEATERS,
        "sets": sets,
        "arsenal": arsenal,
        "conflict_cards": conflict,
        "battlecards": battlecards,
    }


@pytest.mark.usefixtures("empty_catalog")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=catalogs())
def test_loaded_rows_give_back_the_same_definitions(data):
    expected = Catalog.from_dicts(**data)
    first = catalog_load(raw=data, source="hypothesis")
    assert catalog_definitions() == expected
    again = catalog_load(raw=data, source="hypothesis")
    assert not again.changed
    assert again.content_hash == first.content_hash
    assert Catalog.from_dicts(**catalog_dicts()) == expected
