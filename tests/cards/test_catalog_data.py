"""The catalog data in fixtures/catalog/ against the source documents (pure: no database).

FAQ_ROWS is transcribed from the DECK CUSTOMIZATION tables of battlecards-faq-v1.6.txt: (printed name, printed
max per deck or None for "-", printed points, printed count or None). A Ukrainian-marked price ("9/8*") is two
rows: the base card and "<name> [Ukrainian]" at the price after the slash.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from vocabulary.battlecards import (
    ABILITY_SCHEMA,
    CONFLICT_CATEGORIES,
    CONFLICT_EFFECTS,
    DEFAULT_CATALOG_DIR,
    KINDS,
    UNIT_CLASSES,
    Catalog,
    read_fixture_dicts,
    validate_ability,
)

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "tools" / "estimate_stats.py"

FAQ_ROWS: dict[str, list[tuple[str, int | None, int, int | None]]] = {
    "gb-we-starter": [
        ("3.7 INCH ANTI-AIRCRAFT ARTILLERY", None, 10, None),
        ("6 POUND GUN", None, 7, None),
        ("17 POUND GUN", None, 10, None),
        ("25 POUND GUN", None, 11, None),
        ("40mm BOFORS ANTI-AIRCRAFT ARTILLERY", None, 7, None),
        ("AVRO LANCASTER BOMBER", None, 15, None),
        ("BRITISH INFANTRY", None, 4, None),
        ("CHURCHILL, LEADER", 1, 13, None),
        ("CHURCHILL, TANK", None, 7, None),
        ("CRUSADER TANK", None, 7, None),
        ("CVE CLASS ESCORT CARRIER", None, 18, None),
        ("DeHAVILLAND MOSQUITO FIGHTER", None, 8, None),
        ("HAWKER HURRICANE", None, 9, None),
        ("HAWKER TYPHOON", None, 8, None),
        ("HOOD CLASS BATTLECRUISER", None, 19, None),
        ("ILLUSTRIUS CLASS FLEET CARRIER", None, 21, None),
        ("J-CLASS DESTROYER", None, 11, None),
        ("KING GEORGE V CLASS BATTLESHIP", None, 19, None),
        ("MONTGOMERY, GENERAL", 1, 13, None),
        ("NELSON CLASS BATTLESHIP", None, 21, None),
        ("QUEEN ELIZABETH CLASS BATTLESHIP", None, 15, None),
        ("ROYAL SOVEREIGN CLASS BATTLESHIP", None, 14, None),
        ("STUART HONEY TANK", None, 7, None),
        ("SUPERMARINE SPITFIRE", None, 10, None),
        ("VICK-ARM WELLINGTON BOMBER", None, 13, None),
    ],
    "de-we-starter": [
        ("ADMIRAL HIPPER CLASS CRUISER", None, 14, None),
        ("BISMARCK CLASS BATTLESHIP", None, 21, None),
        ("DEUTSCHLAND CLASS BATTLESHIP", None, 13, None),
        ("FLAK 37mm", None, 7, None),
        ("FLAK 88mm", None, 10, None),
        ("FLAK 128mm", None, 11, None),
        ("FOCKE WULF FW-190 FIGHTER", None, 11, None),
        ("GERMAN INFANTRY", None, 4, None),
        ("HE-111 BOMBER", None, 14, None),
        ("HITLER, LEADER", 1, 13, None),
        ("JAGDPANTHER", None, 7, None),
        ("JU-87 DIVE BOMBER", None, 8, None),
        ("JU-188 BOMBER", None, 15, None),
        ("LEIPZIG CLASS CRUISER", None, 13, None),
        ("ME-109 FIGHTER", None, 10, None),
        ("ME-410 FIGHTER BOMBER", None, 11, None),
        ("NURNBERG CLASS CRUISER", None, 14, None),
        ("PANTHER G TANK", None, 9, None),
        ("PANZER III TANK", None, 7, None),
        ("ROMMEL, GENERAL", 1, 15, None),
        ("SCHARNHORST CLASS BATTLESHIP", None, 19, None),
        ("SCHLESIEN CLASS BATTLESHIP", None, 14, None),
        ("TIGER I TANK", None, 11, None),
        ("TIGER II TANK", None, 12, None),
        ("U-BOAT", None, 13, None),
        ("Z1934-1936 DESTROYER", None, 11, None),
    ],
    "gb-we-expansion": [
        ("French Resistance Infantry", None, 4, None),
        ("Radar Detection Device", None, 7, None),
        ("Renalt R-35 Tank", None, 6, None),
        ("Renown Class Battleship", None, 13, None),
        ("Kent Class Cruiser", None, 13, None),
        ("Saboteurs OSS Agents", 2, 15, None),
        ("Sherman Firefly Tank", None, 8, None),
        ("Southampton Class Cruiser", None, 14, None),
        ("Special Air Service Infantry", None, 13, None),
        ("T-Class Submarine", None, 12, None),
        ("Ultra Code Crackers", 1, 30, None),
    ],
    "de-we-expansion": [
        ('31" Railroad Gun', None, 12, None),
        ("Aquila Class Fleet Carrier", None, 27, None),
        ("Mussolini, Leader", 1, 13, None),
        ("Waffen SS Infantry", None, 13, None),
        ("Cavour Class Battleship", None, 17, None),
        ("Doria Class Battleship", None, 17, None),
        ("Graf Zeppellin Class Fleet Carrier", None, 24, None),
        ("Halftrack", None, 7, None),
        ("Me-163 Rocket Interceptor", None, 14, None),
        ("Littorio Class Battleship", None, 20, None),
        ("M1340 Tank", None, 6, None),
        ("Me-262 Jet Fighter", None, 12, None),
        ("U-Flak Boat", None, 12, None),
        ("Italian Infantry", None, 4, None),
        ("V-2 Rocket", 3, 9, None),
    ],
    "us-starter": [
        ("F4U Corsair", None, 11, 2),
        ("B-17", None, 16, 2),
        ("B-29", None, 19, 1),
        ("B-25", None, 12, 2),
        ("P-47", None, 12, 1),
        ("Grumman Hellcat", None, 11, 1),
        ("P-51", None, 12, 2),
        ("P-38", None, 11, 2),
        ("US Infantry", None, 4, 2),
        ("US Marines", None, 5, 2),
        ("Sherman Tank", None, 8, 2),
        ("Grant Tank", None, 6, 2),
        ("M-18 Hellcat", None, 9, 1),
        ("US Bofors AA", None, 7, 2),
        ("90mm AA", None, 10, 1),
        ("3” AA", None, 11, 1),
        ("75mm Pack Howitzer", None, 9, 2),
        ("100mm Gun", None, 10, 1),
        ("US Coastal Gun", None, 19, 1),
        ("Franklin D. Roosevelt", 1, 13, 1),
        ("General Douglas Macarthur", 1, 16, 1),
        ("Gato Class Submarine", None, 13, 2),
        ("Fletcher Destroyer", None, 10, 3),
        ("Atlanta Class Cruiser", None, 13, 1),
        ("Pensacola Class Cruiser", None, 14, 1),
        ("Independence Carrier", None, 22, 2),
        ("Essex Class Carrier", None, 34, 2),
        ("Lexington Class Carrier", None, 36, 1),
        ("Iowa Class Battleship", None, 21, 1),
        ("Tennessee Battleship", None, 19, 1),
        ("South Dakota Class Battleship", None, 20, 1),
        ("Colorado Battleship", None, 18, 1),
        ("Pennsylvania Battleship", None, 19, 1),
        ("Nevada Battleship", None, 15, 1),
    ],
    "jp-starter": [
        ("25mm AA Gun", None, 8, 2),
        ("75mm AA Gun", None, 9, 1),
        ("150mm AA Gun", None, 10, 1),
        ("47mm Gun", None, 8, 1),
        ("75mm Gun", None, 9, 2),
        ("100mm Gun", None, 12, 1),
        ("Japanese Coastal Gun", None, 20, 1),
        ("Japanese Infantry", None, 4, 4),
        ("Emperor Hirohito", 1, 13, 1),
        ("Type 95 Tank", None, 6, 1),
        ("Type 89B Tank", None, 6, 2),
        ("Type 97 Tank", None, 7, 1),
        ("Type I Tank Destroyer", None, 7, 1),
        ("KI-84 Hurricane", None, 12, 1),
        ("A6M Zero Sen", None, 11, 3),
        ("KI-43 Falcon", None, 10, 2),
        ("KI-45 Dragon Slayer", None, 11, 1),
        ("KI-61 Flying Swallow", None, 11, 1),
        ("KI-51 Type 99", None, 10, 1),
        ("KI-21 Sally", None, 11, 1),
        ("KI-48 Lilly", None, 11, 1),
        ("G4M Type I", None, 11, 1),
        ("AICHI D3A Val", None, 11, 1),
        ("Kongo Class Battlecruiser", None, 18, 1),
        ("Fuso Class Battleship", None, 19, 1),
        ("Ise Class Battleship", None, 18, 1),
        ("Nagato Class Battleship", None, 20, 1),
        ("Yamato Class Battleship", None, 23, 1),
        ("Kaiyo Class Carrier", None, 18, 2),
        ("Akagi Class Carrier", None, 34, 1),
        ("Shokaku Class Carrier", None, 32, 1),
        ("Kaga Class Carrier", None, 23, 1),
        ("Kaidai Class Submarine", None, 14, 2),
        ("Type B1 Sub", None, 16, 1),
        ("Akizuki Class Destroyer", None, 13, 2),
        ("Mogami Class Cruiser", None, 14, 1),
        ("Takao Class Cruiser", None, 15, 1),
        ("Admiral Yamamoto", 1, 16, 1),
    ],
    "us-expansion": [
        ("Australian Infantry", None, 4, None),
        ("B-24 Liberator", None, 14, None),
        ("Flying Tigers", 1, 12, None),
        ("P-39 Aircobra", None, 10, None),
        ("P-40 Warhawk", None, 9, None),
        ("B-26 Marauder", None, 12, None),
        ("A-26 Invader", None, 14, None),
        ("Grumman Wildcat", None, 10, None),
        ("Special Intercept", 1, 14, None),
        ("US Rangers", None, 13, None),
        ("Radar", None, 7, None),
        ("Stuart M-5", None, 7, None),
        ("M-36 Slugger", None, 7, None),
        ("155mm Long Tom", None, 11, None),
        ("Surge of Production", 1, 30, None),
        ("Wyoming Class Battleship", None, 14, None),
        ("New Mexico Class Battleship", None, 19, None),
        ("North Carolina Class Battleship", None, 20, None),
        ("New York Class Battleship", None, 14, None),
        ("Wasp Class Carrier", None, 21, None),
        ("Northampton Class Cruiser", None, 15, None),
        ("Sims Class Destroyer", None, 8, None),
    ],
    "jp-expansion": [
        ("Japanese Samurai", None, 12, None),
        ("General Tojo", 1, 13, None),
        ("Slave Labor Fortifactions", 1, 20, None),
        ("KI-44 Demon", None, 11, None),
        ("KI-100 Type 5", None, 12, None),
        ("J2M Thunderbolt", None, 12, None),
        ("G3M/L3Y Nell", None, 10, None),
        ("KI-67 Peggy", None, 15, None),
        ("P1Y Milky Way", None, 13, None),
        ("D4Y Comet", None, 12, None),
        ("MXY-7 Cherry Blossom", None, 18, None),
        ("Taiho Class Carrier", None, 22, None),
        ("Soryu Class Carrier", None, 31, None),
        ("Sen Toku Class Submarine", None, 17, None),
        ("Shimakaze Class Destroyer", None, 13, None),
        ("Fubuki Class Destroyer", None, 11, None),
        ("Furutaka Class Cruiser", None, 12, None),
        ("Tone Class Cruiser", None, 14, None),
        ("Myoko Class Cruiser", None, 15, None),
    ],
    "ru-starter": [
        ("Ilyushin Il-2", None, 11, 3),
        ("Ilyushin Il-4", None, 14, 1),
        ("Lavochkin La-3", None, 9, 1),
        ("Lavochkin La-5", None, 9, 2),
        ("Polikarpov I-16", None, 9, 1),
        ("Yak-7", None, 9, 1),
        ("Yak-9", None, 10, 2),
        ("Petlyakov Pe-2", None, 10, 1),
        ("37mm AA Gun", None, 8, 1),
        ("76mm AA Gun", None, 9, 1),
        ("85mm AA Gun", None, 10, 1),
        ("85mm AA Gun [Ukrainian]", None, 9, 1),
        ("107mm M-60", None, 10, 1),
        ("57mm ZIS-2", None, 9, 1),
        ("76mm Field Cannon", None, 9, 2),
        ("76mm Field Cannon [Ukrainian]", None, 8, 1),
        ("Katyusha BM-13", None, 13, 1),
        ("General Zhukov", 1, 16, None),
        ("Soviet (Red Horde) Infantry", None, 7, 5),
        ("Ukrainian Infantry", None, 3, 2),
        ("Joseph Stalin", 1, 13, 1),
        ("SU-85 Tank Destroyer", None, 7, 1),
        ("BT-7 Fast Tank", None, 8, 0),
        ("BT-7 Fast Tank [Ukrainian]", None, 7, 1),
        ("T-26 Light Tank", None, 7, 2),
        ("T-26 Light Tank [Ukrainian]", None, 6, 1),
        ("T-34/76 Medium Tank", None, 9, 2),
        ("T-34/76 Medium Tank [Ukrainian]", None, 8, 1),
        ("T-34/85 Medium Tank", None, 10, 1),
        ("British Naval Air Support", 1, 20, 1),
        ("Petropavlovsk Class Battleship", None, 17, 2),
        ("Kirov/Maxim Gorki Class Heavy Cruiser", None, 14, 2),
        ("Krasnyi Kavkas Class Cruiser", None, 13, 1),
        ("Gnevny Class Destroyer", None, 11, 2),
        ("SCH Class Submarine", None, 13, 2),
    ],
    "de-ef-starter": [
        ("He-111 Bomber", None, 14, 2),
        ("Ju-188 Bomber", None, 15, 1),
        ("Ju-87 Dive Bomber", None, 8, 2),
        ("Focke Wulf 190 Fighter", None, 11, 1),
        ("Messerschmidt BF-110", None, 9, 2),
        ("Messerschmidt Me-109", None, 10, 2),
        ("Messerschmidt Me-410", None, 11, 1),
        ("Flak 128mm", None, 11, 3),
        ("Flak 37mm", None, 7, 2),
        ("Flak 88mm", None, 10, 3),
        ("31 inch Railroad Gun", None, 12, 1),
        ("Finish STUG III", None, 6, 1),
        ("General Paulos", 1, 14, 1),
        ("SD KFZ 251 Halftrack", None, 7, 1),
        ("Finish Infantry", None, 5, 2),
        ("Finish Ski Troopers", None, 13, 1),
        ("German Infantry", None, 4, 5),
        ("Adolf Hitler", None, 13, 1),
        ("Jagdpanther SPG", None, 7, 1),
        ("Tiger I Heavy Tank", None, 11, 1),
        ("Tiger II Heavy Tank", None, 12, 1),
        ("Finish T-26 Light Tank", None, 6, 2),
        ("Panther G Medium Tank", None, 9, 2),
        ("Panzer III Medium Tank", None, 7, 1),
        ("Bismarck G Class Battleship (Tirpitz)", None, 21, 1),
        ("Deutschland Class Battleship", None, 13, 1),
        ("Scharnhorst Class Battleship", None, 19, 1),
        ("Admiral Hipper Class Cruiser", None, 14, 2),
        ("Z1934-1936 Class Destroyer", None, 11, 2),
        ("U-boat Class Submarine", None, 13, 3),
    ],
    "ru-expansion": [
        ("Ilyushin Il-10", None, 13, None),
        ("Tupolev Tu-2", None, 15, None),
        ("Lavochkin La-7", None, 10, None),
        ("Mig-3", None, 10, None),
        ("P-39 Aircobra", None, 10, None),
        ("Yak-3", None, 11, None),
        ("M1937 Soviet 152mm Gun", None, 12, None),
        ("Partisans, Warsaw Uprising", 1, 12, None),
        ("Spy Ring, Red Orchestra", 1, 20, None),
        ("IS-2 Heavy Tank", None, 12, None),
        ("KV-1 Heavy Tank", None, 10, None),
        ("KV-2 Heavy Tank", None, 11, None),
        ("T-60 Light Tank", None, 6, None),
        ("T-70 Light Tank", None, 7, None),
        ("T-28 Medium Tank", None, 6, None),
        ("Pallada/Aurora Class Protected Cruiser", None, 13, None),
    ],
    "de-ef-expansion": [
        ("Ju-88 Bomber", None, 13, None),
        ("Me-262 Jet Fighter", None, 12, None),
        ("Panzerzug Armored Train", None, 16, None),
        ("105mm Field Cannon", None, 10, None),
        ("17cm Kanone 18", None, 12, None),
        ("General Guderian", 1, 15, None),
        ("Romanian Infantry", None, 4, None),
        ("Waffen SS", None, 13, None),
    ],
}

PRINTED_TOTALS = {
    "gb-we-starter": 502,
    "de-we-starter": 503,
    "us-starter": 675,
    "jp-starter": 633,
    "ru-starter": 500,
    "de-ef-starter": 500,
}
NATION_OF_SET = {
    "gb-we-starter": "GB",
    "gb-we-expansion": "GB",
    "de-we-starter": "DE",
    "de-we-expansion": "DE",
    "de-ef-starter": "DE",
    "de-ef-expansion": "DE",
    "us-starter": "US",
    "us-expansion": "US",
    "jp-starter": "JP",
    "jp-expansion": "JP",
    "ru-starter": "RU",
    "ru-expansion": "RU",
}
STAT_FIELDS = ("points", "max_per_deck", "kind", "classes", "attack", "defense", "phase", "abilities")


@pytest.fixture(scope="module")
def raw() -> dict:
    return read_fixture_dicts(DEFAULT_CATALOG_DIR)


@pytest.fixture(scope="module")
def estimator():
    spec = importlib.util.spec_from_file_location("estimate_stats", TOOLS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entry_key(catalog: Catalog, entry) -> str:
    card = catalog.arsenal[entry.card]
    return entry.printed_name + (" [Ukrainian]" if card.variant_of else "")


def ab(catalog: Catalog, code: str, kind: str) -> dict:
    ability = catalog.arsenal[code].ability(kind)
    assert ability is not None, f"{code} lacks {kind}"
    return ability.to_dict()


# ---------------------------------------------------------------- FAQ tables


@pytest.mark.parametrize("set_code", sorted(FAQ_ROWS))
def test_every_faq_row_is_in_its_set_with_printed_points_max_and_count(catalog, set_code):
    card_set = catalog.sets[set_code]
    entries = {entry_key(catalog, e): e for e in card_set.entries}
    assert sorted(entries) == sorted(row[0] for row in FAQ_ROWS[set_code])
    for printed, max_per_deck, points, count in FAQ_ROWS[set_code]:
        entry = entries[printed]
        card = catalog.arsenal[entry.card]
        assert card.points == points, printed
        assert card.nation == NATION_OF_SET[set_code]
        assert card.code.startswith(card.nation.lower() + "-") and card.code == card.code.lower()
        if card.is_general or card.is_leader:
            assert card.max_per_deck == 1 and card.effective_max_per_deck == 1, printed
            assert max_per_deck in (1, None)
        else:
            assert card.max_per_deck == max_per_deck, printed
        if count is not None:
            assert entry.count == count and entry.count_provenance == "seed", printed


def test_the_catalog_holds_exactly_the_listed_arsenal_cards(catalog):
    listed = {e.card for s in catalog.sets.values() for e in s.entries}
    assert listed == set(catalog.arsenal)
    per_nation = Counter(c.nation for c in catalog.arsenal.values())
    assert per_nation == {"GB": 36, "DE": 53, "US": 56, "JP": 57, "RU": 51}


def test_a_card_printed_in_two_lists_of_one_nation_is_one_card(catalog):
    we, ef = catalog.sets["de-we-starter"], catalog.sets["de-ef-starter"]
    names = {e.card: e.printed_name for e in we.entries}
    shared = {e.card: (names[e.card], e.printed_name) for e in ef.entries if e.card in names}
    assert shared["de-tiger-i"] == ("TIGER I TANK", "Tiger I Heavy Tank")
    assert shared["de-bismarck"] == ("BISMARCK CLASS BATTLESHIP", "Bismarck G Class Battleship (Tirpitz)")
    assert shared["de-hitler"] == ("HITLER, LEADER", "Adolf Hitler")
    assert {"de-admiral-hipper", "de-halftrack", "de-31-inch-railroad-gun"} <= (
        set(shared) | {e.card for e in catalog.sets["de-ef-starter"].entries}
    )
    ef_exp = {e.card for e in catalog.sets["de-ef-expansion"].entries}
    assert {"de-me-262", "de-waffen-ss"} <= ef_exp & {e.card for e in catalog.sets["de-we-expansion"].entries}


def test_cards_of_different_nations_stay_different(catalog):
    assert catalog.arsenal["us-p39"].nation == "US" and catalog.arsenal["ru-p39"].nation == "RU"
    assert catalog.arsenal["us-100mm-gun"].points == 10 and catalog.arsenal["jp-100mm-gun"].points == 12


def test_ukrainian_variants_are_their_own_cards(catalog):
    variants = {c.code: c for c in catalog.arsenal.values() if c.variant_of}
    assert set(variants) == {
        "ru-85mm-aa-ukr",
        "ru-76mm-field-cannon-ukr",
        "ru-bt7-ukr",
        "ru-t26-ukr",
        "ru-t34-76-ukr",
    }
    for card in variants.values():
        base = catalog.arsenal[card.variant_of]
        assert card.ukrainian and base.points - card.points == 1 and base.classes == card.classes
    bt7 = {e.card: e.count for e in catalog.sets["ru-starter"].entries if e.card.startswith("ru-bt7")}
    assert bt7 == {"ru-bt7": 0, "ru-bt7-ukr": 1}


def test_names_fix_obvious_typos_and_keep_the_printed_name(catalog):
    fixed = {
        "gb-illustrious": "Illustrious Class Fleet Carrier",
        "gb-renault-r35": "Renault R-35 Tank",
        "jp-slave-labor-fortifications": "Slave Labor Fortifications",
        "de-paulus": "General Paulus",
        "de-finnish-infantry": "Finnish Infantry",
        "de-graf-zeppelin": "Graf Zeppelin Class Fleet Carrier",
    }
    for code, name in fixed.items():
        assert catalog.arsenal[code].name == name
    printed = {e.card: e.printed_name for s in catalog.sets.values() for e in s.entries}
    assert printed["gb-renault-r35"] == "Renalt R-35 Tank"
    assert printed["de-graf-zeppelin"] == "Graf Zeppellin Class Fleet Carrier"


# ---------------------------------------------------------------- sets


@pytest.mark.parametrize(("set_code", "points"), [("gb-we-starter", 502), ("de-we-starter", 503)])
def test_western_europe_starters_have_47_cards_and_their_printed_points(catalog, set_code, points):
    card_set = catalog.sets[set_code]
    counts = card_set.arsenal_counts()
    assert sum(counts.values()) == 47 == card_set.printed_cards
    assert sum(catalog.arsenal[c].points * n for c, n in counts.items()) == points == card_set.printed_points
    for entry in card_set.entries:
        assert entry.count >= 1 and entry.count_provenance == "estimated"
        card = catalog.arsenal[entry.card]
        if card.is_general or card.is_leader:
            assert entry.count == 1


@pytest.mark.parametrize("set_code", ["us-starter", "jp-starter", "ru-starter", "de-ef-starter"])
def test_printed_count_starters_match_and_record_any_total_difference(catalog, raw, set_code):
    card_set = catalog.sets[set_code]
    counts = card_set.arsenal_counts()
    assert sum(counts.values()) == card_set.printed_cards == 50
    total = sum(catalog.arsenal[c].points * n for c, n in counts.items())
    assert card_set.printed_points == PRINTED_TOTALS[set_code]
    notes = next(s["notes"] for s in raw["sets"] if s["code"] == set_code)
    difference = card_set.printed_points - total
    if difference:
        assert f"differs from the sum of the printed cards ({total}) by {difference}" in notes
    else:
        assert "DISCREPANCY" not in notes
    estimated = [e.card for e in card_set.entries if e.count_provenance == "estimated"]
    assert estimated == (["ru-zhukov"] if set_code == "ru-starter" else [])


def test_russian_starter_total_is_one_point_above_its_cards(catalog):
    counts = catalog.sets["ru-starter"].arsenal_counts()
    assert sum(catalog.arsenal[c].points * n for c, n in counts.items()) == 499


@pytest.mark.parametrize("set_code", ["gb-we-expansion", "de-we-expansion"])
def test_western_europe_expansion_packs_fill_20_cards_with_their_own_conflict_cards(catalog, set_code):
    card_set = catalog.sets[set_code]
    arsenal = sum(card_set.arsenal_counts().values())
    conflict = len(catalog.conflict_deck("WE", set_codes=[set_code]))
    assert arsenal + conflict == 20 == card_set.printed_cards
    assert conflict > 0


# ---------------------------------------------------------------- provenance and schema


def test_every_arsenal_stat_has_provenance_with_a_note(raw):
    for card in raw["arsenal"]:
        prov = card["provenance"]
        for field in STAT_FIELDS:
            assert field in prov, (card["code"], field)
        for key, value in prov.items():
            assert value["source"] in ("seed", "estimated") and value["note"], (card["code"], key)
        assert prov["points"]["source"] == "seed" and prov["max_per_deck"]["source"] == "seed"


def test_every_class_ability_and_effect_is_in_the_vocabulary(raw):
    for card in raw["arsenal"]:
        assert card["kind"] in KINDS and set(card["classes"]) <= set(UNIT_CLASSES)
        kinds = [a["kind"] for a in card["abilities"]]
        assert len(kinds) == len(set(kinds)), card["code"]
        for ability in card["abilities"]:
            assert ability["kind"] in ABILITY_SCHEMA
            validate_ability(ability, where=card["code"])
    for card in raw["conflict_cards"]:
        assert card["category"] in CONFLICT_CATEGORIES and card["effect"] in CONFLICT_EFFECTS
        assert set(card["params"]) == set(CONFLICT_EFFECTS[card["effect"]])
        assert "[text:" not in card["text"], "sources belong in provenance, not in the card text"
        fields = {"name", "text", "effect", "category", "action_number", "count"}
        assert fields <= set(card["provenance"]), card["code"]
        for field, value in card["provenance"].items():
            assert value["source"] in ("seed", "estimated") and value["note"], (card["code"], field)
    for battle in raw["battlecards"]:
        assert {"aggressor", "aggressor_forces", "defender_forces", "victory_points", "action_number"} <= set(
            battle["provenance"]
        )


def test_stats_stay_on_the_action_number_scale(catalog):
    for card in catalog.arsenal.values():
        stats = (*card.attack.to_dict().values(), *card.defense.to_dict().values())
        values = [v for v in stats if v is not None]
        assert all(1 <= v <= 20 for v in values), card.code
        if card.is_combat_unit:
            assert card.phase in (1, 2, 3, 4), card.code
            assert any(v is not None for v in card.attack.to_dict().values())
        else:
            assert card.phase is None and not values
        if "submarine" in card.classes:
            assert card.attack.air is None
        if "tank" in card.classes:
            assert card.attack.sea is None


def test_the_estimator_is_idempotent_and_produced_the_files(raw, estimator):
    assert estimator.compute_all(raw["arsenal"]) == raw["arsenal"]
    for path in sorted((DEFAULT_CATALOG_DIR / "arsenal").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert estimator.dump(estimator.compute_all(json.loads(text))) == text


def test_the_estimator_recomputes_estimates_and_keeps_seeds(raw, estimator):
    qe = next(c for c in raw["arsenal"] if c["code"] == "gb-queen-elizabeth")
    tampered = json.loads(json.dumps(qe))
    tampered["attack"] = {"ground": 1, "air": 1, "sea": 1}  # seed: kept
    tampered["defense"] = {"ground": 1, "air": 1, "sea": 1}  # estimated: recomputed
    out = estimator.compute_card(tampered)
    assert out["attack"] == {"ground": 1, "air": 1, "sea": 1}
    assert out["defense"] == qe["defense"]


# ---------------------------------------------------------------- stats the FAQ states


def test_queen_elizabeth_with_a_destroyer_and_the_j_class_with_a_carrier(catalog):
    qe, j, ill = (
        catalog.arsenal[c] for c in ("gb-queen-elizabeth", "gb-j-class-destroyer", "gb-illustrious")
    )
    support = ab(catalog, "gb-j-class-destroyer", "ship_support")["bonus"]
    assert [v + support for v in (qe.attack.ground, qe.attack.air, qe.attack.sea)] == [13, 16, 19]
    bonuses = ab(catalog, "gb-illustrious", "carrier_bonus")["bonuses"]
    assert bonuses == [5, 5]
    assert [v + bonuses[0] for v in (j.attack.ground, j.attack.air, j.attack.sea)] == [14, 18, 14]
    assert [v + sum(bonuses) for v in (j.attack.ground, j.attack.air, j.attack.sea)] == [19, 23, 19]
    assert ill.defense.air + bonuses[1] == 18


def test_every_submarine_has_defense_3_and_the_submarine_special(catalog):
    subs = [c for c in catalog.arsenal.values() if "submarine" in c.classes]
    assert {c.code for c in subs} == {
        "de-u-boat",
        "de-u-flak-boat",
        "gb-t-class-submarine",
        "us-gato",
        "jp-kaidai",
        "jp-type-b1",
        "jp-sen-toku",
        "ru-sch-submarine",
    }
    for sub in subs:
        assert (sub.defense.ground, sub.defense.air, sub.defense.sea) == (3, 3, 3)
        assert sub.has("submarine")


def test_infantry_support_and_the_17_pounder_against_tigers(catalog):
    gun, tiger1, tiger2 = (catalog.arsenal[c] for c in ("gb-17-pound-gun", "de-tiger-i", "de-tiger-ii"))
    bonus = ab(catalog, "gb-infantry", "infantry_support")["bonus"]
    assert bonus == 2 and gun.attack.ground + 2 * bonus == 16
    # a hit is defense < action number <= attack: a good shot at a Tiger 1, a decent one at a Tiger 2
    assert gun.attack.ground + 2 * bonus > tiger2.defense.ground > tiger1.defense.ground
    flak = catalog.arsenal["de-flak-88mm"]
    assert flak.defense.ground + bonus == 6
    for card in catalog.arsenal.values():
        if card.is_infantry:
            assert card.phase == 4 and ab(catalog, card.code, "infantry_support")["bonus"] == 2


def test_artillery_support_targets(catalog):
    assert ab(catalog, "de-flak-88mm", "artillery_support")["target_kinds"] == ["ground", "air", "sea"]
    assert ab(catalog, "gb-3-7-inch-aa", "artillery_support")["target_kinds"] == ["air"]


def test_generals(catalog):
    assert ab(catalog, "de-rommel", "general_aura")["defense"] == 2
    assert {k: v for k, v in ab(catalog, "ru-zhukov", "general_aura").items() if k != "kind"} == {
        "attack": 2,
        "defense": 2,
    }
    assert catalog.arsenal["ru-zhukov"].phase == 3
    monty = ab(catalog, "gb-montgomery", "autokill")
    assert monty["max_defense"] >= 4 and monty["max_defense"] < 6 and monty["target_kinds"] == ["ground"]
    for card in catalog.arsenal.values():
        if card.is_general:
            assert card.has("general_aura") and card.has("autokill")
            assert ab(catalog, card.code, "autokill")["requires_infantry"] is False
            assert card.effective_max_per_deck == 1


def test_armor_autokill_needs_infantry_and_special_forces_autokill_first_round(catalog):
    for code in ("de-tiger-i", "de-tiger-ii", "de-panther-g", "ru-is-2"):
        assert ab(catalog, code, "autokill")["requires_infantry"] is True
    for code in ("gb-sas", "de-waffen-ss"):
        assert ab(catalog, code, "autokill")["first_round_only"] is True
        assert catalog.arsenal[code].is_infantry
    oss = catalog.arsenal["gb-oss-saboteurs"]
    assert not oss.has("autokill")
    assert ab(catalog, "gb-oss-saboteurs", "sabotage")["target_classes"] == ["general", "leader"]


def test_ships_guns_leaders_and_devices(catalog):
    assert catalog.arsenal["de-admiral-hipper"].has("big_guns")
    for code in ("gb-nelson", "de-bismarck", "jp-yamato", "us-iowa"):
        assert catalog.arsenal[code].has("heavy_guns")
    for code in ("gb-avro-lancaster", "de-he-111", "de-ju-188", "us-b17", "us-b29", "us-b24"):
        assert catalog.arsenal[code].has("double_attack")
    for card in catalog.arsenal.values():
        if card.is_leader:
            assert ab(catalog, card.code, "leader")["draw"] == 1 and card.kind == "ground"
            assert not card.is_combat_unit
    assert catalog.arsenal["gb-radar"].has("radar") and catalog.arsenal["us-radar"].has("radar")
    assert catalog.arsenal["gb-ultra"].has("codebreaker")
    v2 = catalog.arsenal["de-v2-rocket"]
    assert v2.has("v2_rocket") and v2.kind == "ground" and v2.attack.is_empty()
    for code in ("us-special-intercept", "ru-spy-ring"):
        assert catalog.arsenal[code].has("intelligence")
    for code in ("us-surge-of-production", "jp-slave-labor-fortifications"):
        assert catalog.arsenal[code].has("industry")


# ---------------------------------------------------------------- the Western European conflict deck


def test_the_starter_conflict_deck_has_50_cards_with_the_battlecard_list(catalog):
    deck = catalog.conflict_deck("WE", set_codes=["we-conflict-starter"])
    assert len(deck) == 50 == catalog.sets["we-conflict-starter"].printed_cards
    assert deck.count("we-battlecard-list") == 1
    assert catalog.conflict["we-battlecard-list"].effect == "battlecard-list"
    numbers = Counter()
    for code in set(deck):
        card = catalog.conflict.get(code) or catalog.battlecards[code]
        assert 1 <= card.action_number <= 20
        numbers[card.action_number] += deck.count(code)
    assert set(numbers) == set(range(1, 21)) and min(numbers.values()) >= 2


def test_starter_battlecards_are_worth_76_victory_points(catalog):
    battles = [b for b in catalog.battlecards.values() if b.set_code == "we-conflict-starter"]
    assert sum(b.victory_points * b.count for b in battles) == 76
    names = {b.name for b in battles}
    assert {
        "Invasion of Normandy",
        "Invasion of France & Belgium",
        "Battle for France",
        "Battle of the Baltic Sea",
        "Battle of Britain",
        "Battle in the North Atlantic",
        "Battle of Taranto",
        "Battle of the Atlantic",
        "Invasion of Luxembourg",
        "Invasion of Britain",
        "Battle for Germany",
    } <= names


def test_every_named_conflict_card_is_in_the_starter_deck(catalog):
    effects = {c.effect for c in catalog.conflict.values() if c.set_code == "we-conflict-starter"}
    # Kamikaze and Russian Winter are the Pacific and Eastern Front decks' own (estimated) cards
    assert effects == set(CONFLICT_EFFECTS) - {"kamikaze", "russian-winter"}
    starters = ("we-conflict-starter", "pac-conflict-starter", "ef-conflict-starter")
    assert {c.effect for c in catalog.conflict.values() if c.set_code in starters} == set(CONFLICT_EFFECTS)
    chem = catalog.conflict["we-chemical-warfare"]
    assert chem.param("attack") == 13
    build_ups = {
        (c.param("draw"), c.param("deploy")) for c in catalog.conflict.values() if c.effect == "build-up"
    }
    assert {(1, 1), (2, 2)} <= build_ups
    assert all(c.param("draw") == 3 for c in catalog.conflict.values() if c.effect == "replenish")


def test_battlecard_details_from_the_faq(catalog):
    b = catalog.battlecards
    normandy = b["we-invasion-of-normandy"]
    assert normandy.aggressor == "GB" and normandy.aggressor_forces.non_artillery_ground_required
    assert normandy.special_victory == "defender-wins-if-aggressor-ground-destroyed"
    prereq = b["we-battle-for-france"].prerequisites
    assert [(p.holder, p.battlecard) for p in prereq] == [("DE", "we-invasion-of-france-belgium")]
    assert "artillery" in b["we-battle-of-the-baltic-sea"].defender_forces.optional_ground_classes
    britain = b["we-battle-of-britain"]
    assert britain.aggressor == "DE" and britain.aggressor_forces.kinds() == ("air",)
    assert britain.defender_forces.optional_ground_classes == ("anti-aircraft-artillery",)
    for code in ("we-battle-in-the-north-atlantic", "we-battle-of-the-atlantic"):
        assert not b[code].aggressor_forces.ground and not b[code].defender_forces.ground
    assert b["we-battle-of-taranto"].aggressor_forces.kinds() == ("air", "sea")
    assert b["we-battle-of-taranto"].defender_forces.kinds() == ("air", "sea")
    assert b["we-invasion-of-luxembourg"].aggressor == "DE"
    for code, home in (("we-invasion-of-britain", "GB"), ("we-battle-for-germany", "DE")):
        assert b[code].homeland_of == home and b[code].emergency_deployment
        assert b[code].aggressor != home


def test_more_points_never_buy_a_weaker_unit_of_the_same_profile(catalog, estimator, raw):
    """Cost and strength agree: same profile and abilities, more points -> attack + defense not lower."""
    groups: dict[tuple, list] = {}
    for d in raw["arsenal"]:
        card = catalog.arsenal[d["code"]]
        if not card.is_combat_unit:
            continue
        key = (estimator.profile_key(d), tuple(sorted(json.dumps(a.to_dict()) for a in card.abilities)))
        total = sum(v or 0 for v in (*card.attack.to_dict().values(), *card.defense.to_dict().values()))
        groups.setdefault(key, []).append((card.points, total, card.code))
    compared = 0
    for members in groups.values():
        members.sort()
        for (p1, t1, c1), (p2, t2, c2) in zip(members, members[1:], strict=False):
            if p2 > p1:
                compared += 1
                assert t2 >= t1, f"{c2} ({p2} pts, {t2}) is weaker than {c1} ({p1} pts, {t1})"
    assert compared > 50
