"""The War's card data (issue 23, part 1): fixtures/the_war/*.json against the rulebook, the vocabulary's
loader and validator, and the cost estimator. Pure: no database.

Values marked `seed` are read against `../shared/seeds/the-war-rules.txt` (found by fixtures/tools/seeds.py,
through tests/conftest.py's `require_seed`). When the rulebook is missing these tests skip with the reason,
unless CI=true, where they fail. Everything else runs on the committed fixtures.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_seed
from vocabulary.the_war import (
    SECTIONS,
    SUBTYPES,
    Category,
    Feature,
    TheWarDataError,
    UnitSubtype,
    load_catalog,
    parse_catalog,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "the_war"
CARDS_DOC = json.loads((FIXTURES / "cards.json").read_text(encoding="utf-8"))
STARTERS_DOC = json.loads((FIXTURES / "starters.json").read_text(encoding="utf-8"))
CARDS = {c["code"]: c for c in CARDS_DOC["cards"]}
BY_TITLE = {c["title"]: c for c in CARDS_DOC["cards"]}
CATALOG = load_catalog()


def _tool(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "fixtures" / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rulebook() -> str:
    return require_seed("the-war-rules.txt").read_text(encoding="utf-8")


def seed_values() -> list[tuple[str, str, dict[str, str]]]:
    return [
        (card["code"], key, prov)
        for card in CARDS_DOC["cards"]
        for key, prov in card["provenance"].items()
        if prov["source"] == "seed"
    ]


SEED_VALUES = seed_values()


# ------------------------------------------------------------------------------ seed values vs the rulebook


def section_text(rulebook: str, section: str) -> str:
    """The text of one section: from its heading line to the next heading of SECTIONS."""
    lines = rulebook.splitlines()
    starts = {line.strip(): i for i, line in enumerate(lines) if line.strip() in SECTIONS}
    assert section in starts, f"heading {section!r} is not a line of the rulebook"
    begin = starts[section]
    end = min((i for i in starts.values() if i > begin), default=len(lines))
    return "\n".join(lines[begin:end])


@pytest.mark.parametrize(("code", "key", "prov"), SEED_VALUES, ids=[f"{c}:{k}" for c, k, _ in SEED_VALUES])
def test_every_seed_quote_occurs_verbatim_in_its_section(rulebook, code, key, prov):
    assert prov["quote"] in section_text(rulebook, prov["section"]), (code, key, prov["quote"])


SUBTYPE_WORDS = {
    "heavy-tank": ["heavy tank"], "medium-tank": ["medium tank"], "light-tank": ["light", "tank"],
    "self-propelled-gun": ["spg", "sp atg"], "anti-tank-gun": ["at-gun", "atg"], "infantry": ["infantry"],
    "bomber": ["bomber"], "ground-attack-aircraft": ["ground-attack", "ga aircraft"], "fighter": ["fighter"],
    "light-aa-artillery": ["light aa"], "howitzer": ["howitzer"], "armored-car": ["armored car"],
    "paratroopers": ["paratroopers"], "troop-carrying-aircraft": ["troop-carrying aircraft"],
}  # fmt: skip
TYPE_WORDS = {"armored": ["armoured", "armored", "tank"], "infantry": ["infantry"]}
ARMY_WORDS = {"red-army": ["soviet"], "wehrmacht": ["german"], None: ["both sides"]}
AGAINST_WORDS = {"armored": ["against armored"], "infantry": ["against infantry"]}
FEATURE_WORDS = {"targeted-attack": "targeted attack", "breakthrough": "breakthrough"}
RESTRICTION_WORDS = {
    "cannot-be-blocked-by-infantry": ["blocked by infantry"],
    "cannot-block-heavy-tanks": ["can't block heavy tanks"],
    "cannot-attack": ["can't attack"],
    "cannot-block": ["or block"],
    "fixed-position": ["can't change their position", "can't move", "can't be moved", "except for air force"],
    "blocked-only-by-fighters": ["except fighters"],
    "first-line-targets-only": ["only units at the 1st line"],
}
CATEGORY_WORDS = {
    "resource": ["in game text", "resources"],
    "improvement": ["improved with"],
    "battlefield-condition": ["bfc"],
}


def _name_in(title: str, quote: str) -> bool:
    name, q = title.casefold(), quote.casefold()
    plural = name[:-1] + "ies" if name.endswith("y") else name + "s"
    return name in q or plural in q


def check_seed_value(card: dict[str, Any], key: str, quote: str) -> None:
    """The value the card stores is the one the quote states (one rule per kind of value)."""
    head, _, part = key.partition(".")
    q = quote.casefold()
    if head == "title":
        assert _name_in(card["title"], quote)
    elif head in ("attack", "defense"):
        assert f"{card['attack']}/{card['defense']}" in quote
    elif head == "aa_attack":
        assert f"aa attack {card['aa_attack']}" in q
    elif head == "bombing_power":
        assert f"bombing power {card['bombing_power']}" in q
    elif head == "bonuses":
        for bonus in card["bonuses"]:
            assert f"+{bonus['attack']}/{bonus['defense']}" in quote
            assert any(w in q for against in bonus["against"] for w in AGAINST_WORDS[against])
    elif head == "cost":
        amounts = {i["resource"]: i["amount"] for i in card["cost"]}
        d, p, f = (amounts.get(r, 0) for r in ("depot", "plant", "fuel"))
        # the resource example calls the depot "supply" (fixtures/README.md, The War: the text's slips)
        assert f"{d}/{p}/{f}" in quote or all(
            s in quote for s in (f'{d} "supply"', f'{p} "plants"', f'{f} "fuel"')
        )
    elif head == "number":
        assert card["number"] in quote
    elif head == "rarity":
        assert f"Rarity: {card['rarity']}" in quote
    elif head == "subtype":
        assert any(w in q for w in SUBTYPE_WORDS[card["subtype"]])
    elif head == "unit_type":  # stated ("Armoured"), or the printed subtype is one of the type's subtypes
        subtype_printed = any(w in q for w in SUBTYPE_WORDS.get(card["subtype"], []))
        assert any(w in q for w in TYPE_WORDS.get(card["unit_type"], [])) or (
            subtype_printed and card["subtype"] in SUBTYPES[card["unit_type"]]
        )
    elif head == "category":
        words = SUBTYPE_WORDS.get(card.get("subtype"), []) + CATEGORY_WORDS.get(card["category"], [])
        assert any(w in q for w in words) or _name_in(card["title"], quote)
    elif head == "army":
        assert any(w in q for w in ARMY_WORDS[card["army"]])
    elif head == "line":
        n = card["line"]
        assert f"line: {n}" in q or f"{n}{'st' if n == 1 else 'nd'} line" in q
    elif head == "features":
        if part:
            assert part in card["features"] and FEATURE_WORDS[part] in q
        else:  # the KV-1: heavy tanks "don't bear targeted attack feature"
            assert "don't bear targeted attack" in q and "targeted-attack" not in card["features"]
    elif head == "restrictions":
        assert part in card["restrictions"] and any(w in q for w in RESTRICTION_WORDS[part])
    elif head == "attack_cost":
        assert card["attack_cost"] == [{"resource": "fuel", "amount": 1, "resource_cards_only": False}]
        assert quote.split("(")[0].count("{F}") == 1
    elif head == "elimination":
        n = card["elimination"][part]
        assert (f"{n} cards" in q) if part == "deck_cards" else (f"total power {n}" in q)
    elif head == "effects":
        effect = card["effects"][int(part)]
        if effect["kind"] == "modify":
            assert f"{effect.get('attack', 0):+d}/{effect.get('defense', 0):+d}" in quote
        elif effect["kind"] == "forbid":
            words = {"targeted-attack": "targeted attacks", "attack": "can't attack"}[effect["action"]]
            assert words in q
        elif effect["kind"] == "enable-lend-lease":
            assert "lend-lease" in q
        else:  # Panic, Capture: "cannot be targeted with cards" - they target units, never elite ones
            assert _name_in(card["title"], quote) and effect["target"]["elite"] is False
    elif head == "resource_kind":
        assert card["resource_kind"] in q
    elif head == "yields":
        assert "single" in q and [y["amount"] for y in card["yields"]] == [1]
    elif head == "location":
        assert card["location"] is True and "location" in q
    elif head == "abilities":
        assert any(a["kind"].replace("-", " ") in q for a in card["abilities"])
    elif head == "text":
        assert card["text"][int(part)] == quote
    else:
        pytest.fail(f"no check for a seed value of {key!r}: add one")


@pytest.mark.parametrize(("code", "key", "prov"), SEED_VALUES, ids=[f"{c}:{k}" for c, k, _ in SEED_VALUES])
def test_every_seed_value_matches_its_quote(rulebook, code, key, prov):
    assert prov["quote"] in rulebook
    check_seed_value(CARDS[code], key, prov["quote"])


# ------------------------------------------------------------------------------ the cards the rulebook names

NAMED = [
    "KV-1 (1940)", "T-34/76", "45 mm AT-gun", "Reinforced rifle company", "Sturmgeschutz III",
    "Sturmgrenadiere",
    'PzKpfw VI "Tiger"', "PAK-35", "SU-76i", "T-90", "Il-2", "Ju-87 STUKA", "Bf-109E", "SdKfz 10/4",
    "Waffen SS", "Guardsmen", "Awarded infantryman", "River", "Panic", "Capture", "Lend-lease",
    "Paratroopers",
    "Troop-carrying aircraft", "Depot", "Plant", "Fuel",
]  # fmt: skip
# The examples' generic units: (subtype, attack, defense, extra printed values)
GENERIC = {
    "tw-ba-10": ("armored-car", 2, 2, {"cost": [1, 2, 1]}),
    "tw-pzkpfw-iii": ("medium-tank", 3, 3, {}),
    "tw-is-2": ("heavy-tank", 5, 4, {}),
    "tw-grenadiere": ("infantry", 3, 2, {}),
    "tw-m-30-howitzer": ("howitzer", 1, 1, {}),
    "tw-37mm-aa-gun-61-k": ("light-aa-artillery", 1, 2, {"aa_attack": 3}),
    "tw-yak-1": ("fighter", 3, 3, {}),
}


@pytest.mark.parametrize("title", NAMED)
def test_every_card_the_rulebook_names_is_there_with_a_seed_title(title):
    card = BY_TITLE[title]
    assert card["provenance"]["title"]["source"] == "seed"


@pytest.mark.parametrize("code", sorted(GENERIC))
def test_generic_example_units_have_seed_values_and_estimated_names_and_armies(code):
    subtype, attack, defense, extra = GENERIC[code]
    card, prov = CARDS[code], CARDS[code]["provenance"]
    assert (card["subtype"], card["attack"], card["defense"]) == (subtype, attack, defense)
    assert all(prov[k]["source"] == "seed" for k in ("subtype", "attack", "defense", *extra))
    assert prov["title"]["source"] == prov["army"]["source"] == "estimated"
    if "cost" in extra:
        assert [i["amount"] for i in card["cost"]] == extra["cost"]
    if "aa_attack" in extra:
        assert card["aa_attack"] == extra["aa_attack"]


def test_kv_1_1940_is_the_printed_unit_card():
    kv = CATALOG.cards["tw-kv-1-1940"]
    assert (kv.number, kv.rarity, kv.subtype, kv.unit_type) == ("ST-005", "U", "heavy-tank", "armored")
    assert (kv.attack, kv.defense, kv.line) == (4, 4, 1)
    assert [(c.resource, c.amount) for c in kv.cost] == [("depot", 1), ("plant", 5), ("fuel", 1)]
    assert "cannot-be-blocked-by-infantry" in kv.restrictions and "targeted-attack" not in kv.features
    assert [(c.resource, c.amount) for c in kv.attack_cost] == [("fuel", 1)]
    assert {k for k, p in kv.provenance.items() if p.source == "estimated"} == {"army"}


def test_river_is_a_location_of_no_army_with_both_ways_to_eliminate_it():
    river = CATALOG.cards["tw-river"]
    assert river.category == "battlefield-condition" and river.location and river.army is None
    assert (river.elimination.deck_cards, river.elimination.breakthrough_power) == (4, 3)
    kinds = [(e.kind, e.action, e.attack, e.defense, e.when, e.target.side) for e in river.effects]
    assert ("forbid", "targeted-attack", 0, 0, "always", "both") in kinds
    assert ("modify", None, -2, -1, "attacking", "both") in kinds
    assert ("forbid", "attack", 0, 0, "always", "both") in kinds


def test_tiger_breaks_through_and_the_at_guns_gain_against_armored_units():
    tiger = CATALOG.cards["tw-pzkpfw-vi-tiger"]
    assert (tiger.attack, tiger.defense, tiger.subtype) == (5, 4, "heavy-tank")
    assert "breakthrough" in tiger.features
    for code in ("tw-45mm-at-gun", "tw-pak-35"):
        (bonus,) = CATALOG.cards[code].bonuses
        assert (bonus.against, bonus.attack, bonus.defense) == (("armored",), 1, 2)


# ------------------------------------------------------------------------------ the pool and its starters


def test_every_value_has_provenance_and_every_title_is_unique():
    assert len(BY_TITLE) == len(CARDS)
    for card in CARDS_DOC["cards"]:
        heads = {key.split(".")[0] for key in card["provenance"]}
        values = {k: v for k, v in card.items() if k not in ("code", "provenance")}
        present = {k for k, v in values.items() if v not in (None, [], False)}
        assert present <= heads, (card["code"], present - heads)
        assert re.fullmatch(r"tw-[a-z0-9]+(-[a-z0-9]+)*", card["code"])


def test_the_starters_cover_every_category_subtype_and_feature_the_rulebook_defines():
    used = [CATALOG.cards[code] for s in CATALOG.starters.values() for code in s.entries]
    assert {c.category for c in used} == set(Category)
    assert {c.subtype for c in used if c.subtype} == set(UnitSubtype)
    assert {f for c in used for f in c.features} == set(Feature)
    assert {c.resource_kind for c in used if c.resource_kind} == {"basic", "special"}
    assert {c.hero_mode for c in used if c.hero_mode} == {"improvement", "special", "unit"}
    conditions = [c for c in used if c.category == "battlefield-condition"]
    assert any(c.location for c in conditions) and any(c.maintenance for c in conditions)
    assert any(c.elimination and c.elimination.deck_cards for c in conditions)
    assert any(c.elimination and c.elimination.breakthrough_power for c in conditions)
    assert set(SUBTYPES) == {c.unit_type for c in used if c.unit_type}


@pytest.mark.parametrize("starter", sorted(CATALOG.starters))
def test_each_starter_is_one_army_with_15_distinct_non_resource_titles(starter):
    s = CATALOG.starters[starter]
    cards = [CATALOG.cards[code] for code in s.entries]
    assert sum(s.entries.values()) == 60
    assert len({c.title for c in cards if c.category != "resource"}) >= 15
    assert {c.army for c in cards} <= {s.army, None}


def test_both_armies_have_a_starter():
    assert sorted(s.army for s in CATALOG.starters.values()) == ["red-army", "wehrmacht"]


def test_the_pool_size_table_in_the_readme_is_the_measured_one():
    readme = (ROOT / "fixtures" / "README.md").read_text(encoding="utf-8")
    assert _tool("the_war_cards").summary(CARDS_DOC, STARTERS_DOC) in readme


# ------------------------------------------------------------------------------ tools


def test_the_cost_estimator_check_is_clean(capsys):
    assert _tool("the_war_costs").main(["--check"]) == 0, capsys.readouterr().out


def test_the_cost_method_reproduces_both_printed_costs():
    costs = _tool("the_war_costs")
    for code, printed in costs.CALIBRATION.items():
        assert costs.as_triple(costs.estimate_cost(CARDS[code])) == printed


def test_the_cost_estimator_reports_a_stale_cost():
    costs = _tool("the_war_costs")
    cards = copy.deepcopy(CARDS_DOC["cards"])
    t34 = next(c for c in cards if c["code"] == "tw-t-34-76")
    t34["cost"][0]["amount"] += 1
    assert costs.problems(cards) == [f"tw-t-34-76: cost {t34['cost']} is stale, the method gives "
                                     f"{costs.estimate_cost(t34)}"]  # fmt: skip


def test_the_generated_fixtures_are_current(capsys):
    assert _tool("the_war_cards").main(["--check"]) == 0, capsys.readouterr().out


# ------------------------------------------------------------------------------ the loader rejects bad data


def mutate(code: str, change) -> tuple[dict, dict]:
    cards, starters = copy.deepcopy(CARDS_DOC), copy.deepcopy(STARTERS_DOC)
    change(next(c for c in cards["cards"] if c["code"] == code), cards, starters)
    return cards, starters


BAD = {
    "unknown feature": ("tw-t-34-76", lambda c, *_: c["features"].append("stealth"), "vocabulary"),
    "unknown category": ("tw-t-34-76", lambda c, *_: c.update(category="vehicle"), "category"),
    "unknown subtype": ("tw-t-34-76", lambda c, *_: c.update(subtype="super-heavy-tank"), "subtype"),
    "subtype of another type": ("tw-t-34-76", lambda c, *_: c.update(subtype="fighter"), "not a subtype"),
    "negative attack": ("tw-t-34-76", lambda c, *_: c.update(attack=-1), "attack"),
    "attack as text": ("tw-t-34-76", lambda c, *_: c.update(attack="3"), "attack"),
    "line 3": ("tw-t-34-76", lambda c, *_: c.update(line=3), "line"),
    "unknown field": ("tw-t-34-76", lambda c, *_: c.update(speed=5), "unknown field"),
    "bad code": ("tw-t-34-76", lambda c, *_: c.update(code="T34"), "code"),
    "unknown army": ("tw-t-34-76", lambda c, *_: c.update(army="us-army"), "army"),
    "unknown resource": ("tw-t-34-76", lambda c, *_: c["cost"][0].update(resource="gold"), "resource"),
    "zero cost amount": ("tw-t-34-76", lambda c, *_: c["cost"][0].update(amount=0), "amount"),
    "resource twice": ("tw-t-34-76", lambda c, *_: c["cost"].append(dict(c["cost"][0])), "twice"),
    "seed without quote": ("tw-t-34-76", lambda c, *_: c["provenance"]["attack"].pop("quote"), "quote"),
    "unknown section": (
        "tw-t-34-76", lambda c, *_: c["provenance"]["attack"].update(section="Foreword"), "heading"
    ),
    "estimated without note": ("tw-t-60", lambda c, *_: c["provenance"]["attack"].pop("note"), "note"),
    "value without provenance": ("tw-t-60", lambda c, *_: c["provenance"].pop("attack"), "no provenance"),
    "basic resource of an army": ("tw-depot", lambda c, *_: c.update(army="wehrmacht"), "no army"),
    "location of an army": ("tw-river", lambda c, *_: c.update(army="red-army"), "both sides"),
    "unit without defense": ("tw-t-60", lambda c, *_: c.update(defense=None), "defense"),
    "bomber without bombing power": ("tw-pe-2", lambda c, *_: c.pop("bombing_power"), "bombing power"),
    "special with bombing power": ("tw-panic", lambda c, *_: c.update(bombing_power=3), "bombing power"),
    "improvement with a feature": (
        "tw-awarded-infantryman", lambda c, *_: c.update(features=["elite"]), "features"
    ),
    "special card without effects": ("tw-panic", lambda c, *_: c.pop("effects"), "effects"),
    "unknown effect": ("tw-panic", lambda c, *_: c["effects"][0].update(kind="teleport"), "kind"),
    "modify without value": (
        "tw-awarded-infantryman", lambda c, *_: c["effects"][0].update(attack=0, defense=0), "needs its value"
    ),
    "duplicate code": ("tw-t-60", lambda c, cards, _: cards["cards"].append(copy.deepcopy(c)), "duplicate"),
    "duplicate title": (
        "tw-t-60", lambda c, cards, _: cards["cards"].append({**copy.deepcopy(c), "code": "tw-t-60-bis"}),
        "same title",
    ),
    "starter with an unknown card": (
        "tw-t-60",
        lambda c, _, s: s["starters"][0]["entries"].append({"card": "tw-nope", "count": 1}),
        "not a card",
    ),
    "starter count 0": ("tw-t-60", lambda c, _, s: s["starters"][0]["entries"][0].update(count=0), "count"),
    "wrong game": ("tw-t-60", lambda c, cards, _: cards.update(game="battlecards"), "the-war"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_the_loader_rejects_bad_data_with_a_clear_error(case):
    code, change, words = BAD[case]
    cards, starters = mutate(code, change)
    with pytest.raises(TheWarDataError, match=re.escape(words)):
        parse_catalog(cards, starters)


def test_the_loader_reports_an_unreadable_file(tmp_path):
    (tmp_path / "cards.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "starters.json").write_text("{}", encoding="utf-8")
    with pytest.raises(TheWarDataError, match="cards.json: cannot be read"):
        load_catalog(tmp_path)


def test_the_committed_fixtures_load():
    assert len(CATALOG.cards) == len(CARDS_DOC["cards"]) and len(CATALOG.starters) == 2
    assert Counter(c.category for c in CATALOG.cards.values())["unit"] > 50
