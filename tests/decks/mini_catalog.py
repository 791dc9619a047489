"""A small hand-made catalog for pure rule tests: every rule is exercised with known numbers.

GB (allies) and DE (axis) fight in WE; US (allies) has no set; SU (allies) fights in EF.
Starters: GB-S (44 cards), DE-S (45 cards) and SU-S.
Expansion pack WE-X1 holds GB and DE arsenal cards and two conflict cards; WE-X2 holds DE cards only and one
conflict card. The starter conflict deck (set WE-C) has 3 cards plus the battlecard list.
"""

from __future__ import annotations

from vocabulary.battlecards import Catalog


def _card(code, name, nation, kind="ground", classes=("infantry",), points=4, max_per_deck=None, **extra):
    attack = {"ground": 5, "air": None, "sea": None}
    defense = {"ground": 3, "air": 3, "sea": 3}
    return {
        "code": code,
        "name": name,
        "nation": nation,
        "kind": kind,
        "classes": list(classes),
        "points": points,
        "max_per_deck": max_per_deck,
        "attack": attack,
        "defense": defense,
        "phase": 4,
        **extra,
    }


ARSENAL = [
    _card("GB-INF", "British Infantry", "GB", points=4),
    _card("GB-TANK", "Crusader Tank", "GB", classes=("tank",), points=7),
    _card("GB-SPIT", "Supermarine Spitfire", "GB", kind="air", classes=("fighter",), points=10),
    _card("GB-MONTY", "Montgomery, General", "GB", classes=("general",), points=13, max_per_deck=1),
    _card("GB-CHURCHILL-L", "Churchill, Leader", "GB", classes=("leader",), points=13, max_per_deck=1),
    _card("GB-ULTRA", "Ultra Code Crackers", "GB", classes=("special",), points=30, max_per_deck=1),
    _card("GB-OSS", "Saboteurs OSS Agents", "GB", classes=("special-forces",), points=15, max_per_deck=2),
    _card("GB-FIREFLY", "Sherman Firefly Tank", "GB", classes=("tank",), points=8),
    _card("DE-INF", "German Infantry", "DE", points=4),
    _card("DE-TIGER1", "Tiger I Tank", "DE", classes=("tank",), points=11),
    _card("DE-ME109", "Me-109 Fighter", "DE", kind="air", classes=("fighter",), points=10),
    _card("DE-HITLER", "Hitler, Leader", "DE", classes=("leader",), points=13),  # prints "-": still single
    _card("DE-ROMMEL", "Rommel, General", "DE", classes=("general",), points=15, max_per_deck=1),
    _card("DE-V2", "V-2 Rocket", "DE", classes=("rocket",), points=9, max_per_deck=3),
    _card("DE-ME262", "Me-262 Jet Fighter", "DE", kind="air", classes=("jet",), points=12),
    _card("DE-HALFTRACK", "Halftrack", "DE", classes=("armored-car",), points=7),
    _card("US-INF", "US Infantry", "US", points=4),
    _card("SU-T34", "T-34/76 Medium Tank", "SU", classes=("tank",), points=9),
    _card(
        "SU-T34-UA",
        "T-34/76 Medium Tank (Ukrainian)",
        "SU",
        classes=("tank",),
        points=8,
        ukrainian=True,
        variant_of="SU-T34",
    ),
    _card("SU-INF", "Soviet Infantry", "SU", points=7),
    _card("SU-UA-INF", "Ukrainian Infantry", "SU", points=3, ukrainian=True),  # no Soviet card: no discount
]

GB_STARTER = {"GB-INF": 20, "GB-TANK": 12, "GB-SPIT": 10, "GB-MONTY": 1, "GB-CHURCHILL-L": 1}  # 44 cards
DE_STARTER = {"DE-INF": 20, "DE-TIGER1": 12, "DE-ME109": 11, "DE-HITLER": 1, "DE-ROMMEL": 1}  # 45 cards
PACK_X1 = {"GB-FIREFLY": 3, "GB-OSS": 2, "DE-V2": 3, "DE-ME262": 2}
PACK_X2 = {"DE-HALFTRACK": 4, "DE-V2": 1}  # with WE-X1: 4 V-2 rockets, over the max of 3


def _entries(counts, printed=None):
    printed = printed or {}
    return [
        {"card": code, "count": count, "printed_name": printed.get(code, "")}
        for code, count in counts.items()
    ]


SETS = [
    {
        "code": "GB-S",
        "name": "British Starter",
        "kind": "starter",
        "nation": "GB",
        "theater": "WE",
        "printed_points": 450,
        "printed_cards": 44,
        "entries": _entries(GB_STARTER, {"GB-SPIT": "SUPERMARINE SPITFIRE MK IX"}),
    },
    {
        "code": "DE-S",
        "name": "German Starter",
        "kind": "starter",
        "nation": "DE",
        "theater": "WE",
        "printed_points": None,
        "printed_cards": 45,
        "entries": _entries(DE_STARTER),
    },
    {
        "code": "WE-C",
        "name": "Western Europe conflict deck",
        "kind": "conflict",
        "nation": None,
        "theater": "WE",
        "entries": [],
    },
    {
        "code": "WE-X1",
        "name": "Western Europe Expansion 1",
        "kind": "expansion",
        "nation": None,
        "theater": "WE",
        "entries": _entries(PACK_X1),
    },
    {
        "code": "WE-X2",
        "name": "Western Europe Expansion 2",
        "kind": "expansion",
        "nation": "DE",
        "theater": "WE",
        "entries": _entries(PACK_X2),
    },
    {
        "code": "SU-S",
        "name": "Russian Starter",
        "kind": "starter",
        "nation": "SU",
        "theater": "EF",
        "entries": _entries({"SU-T34": 20, "SU-T34-UA": 5, "SU-INF": 20}),
    },
]


def _conflict(code, set_code, count=1, category="military-build-up", effect="build-up", params=None):
    return {
        "code": code,
        "name": code.title(),
        "theater": "WE",
        "set": set_code,
        "count": count,
        "category": category,
        "action_number": 7,
        "effect": effect,
        "params": {"draw": 1, "deploy": 1} if params is None else params,
    }


CONFLICT = [
    _conflict("WE-LIST", "WE-C", category="battlecard-list", effect="battlecard-list", params={}),
    _conflict("WE-BUILD", "WE-C", count=2),
    _conflict("WE-X1-BUILD", "WE-X1", count=2),
    _conflict("WE-X2-BUILD", "WE-X2"),
]

_FORCES = {"ground": True, "air": False, "sea": False}
BATTLECARDS = [
    {
        "code": "WE-B-FRANCE",
        "name": "Battle for France",
        "theater": "WE",
        "set": "WE-C",
        "count": 1,
        "action_number": 9,
        "aggressor": "DE",
        "aggressor_forces": _FORCES,
        "defender_forces": _FORCES,
        "victory_points": 5,
    },
]


def mini_catalog() -> Catalog:
    return Catalog.from_dicts(
        nations=[
            {"code": "GB", "name": "British", "side": "allies"},
            {"code": "DE", "name": "German", "side": "axis"},
            {"code": "US", "name": "United States", "side": "allies"},
            {"code": "SU", "name": "Russian", "side": "allies"},
        ],
        theaters=[
            {"code": "WE", "name": "Western Europe"},
            {"code": "PAC", "name": "Pacific"},
            {"code": "EF", "name": "East Front"},
        ],
        sets=SETS,
        arsenal=ARSENAL,
        conflict_cards=CONFLICT,
        battlecards=BATTLECARDS,
    )
