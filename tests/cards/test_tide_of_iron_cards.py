"""Tide of Iron's Strategy cards (issue 27): fixtures/tide_of_iron/*.json against the text, and the
vocabulary's validator. Pure: no database.

Every `seed` value is read against `../shared/seeds/tide-of-iron-strategy-cards.txt` (its quote occurs in the
text, and the value is the one the sentence states); everything else is `estimated` with a written method.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from tests.conftest import require_seed
from vocabulary.tide_of_iron import TideOfIronDataError, load_catalog, parse_catalog

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "tide_of_iron"
CARDS_DOC = json.loads((FIXTURES / "cards.json").read_text(encoding="utf-8"))
DECKS_DOC = json.loads((FIXTURES / "decks.json").read_text(encoding="utf-8"))
CARDS = {c["code"]: c for c in CARDS_DOC["cards"]}
CATALOG = load_catalog()


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def text() -> str:
    return _norm(require_seed("tide-of-iron-strategy-cards.txt").read_text(encoding="utf-8"))


def _provenances():
    for card in CARDS_DOC["cards"]:
        for key, p in card["provenance"].items():
            yield card["code"], key, p
    for item in DECKS_DOC["decks"] + DECKS_DOC["scenarios"]:
        for key, p in item["provenance"].items():
            yield item["code"], key, p


def test_every_seed_quote_occurs_in_the_text(text):
    seeds = [(code, key, p["quote"]) for code, key, p in _provenances() if p["source"] == "seed"]
    assert len(seeds) >= 10
    for code, key, quote in seeds:
        assert _norm(quote) in text, f"{code}.{key}: {quote!r} is not in the text"


def test_every_estimated_value_writes_its_method():
    for code, key, p in _provenances():
        if p["source"] == "estimated":
            assert p["note"].startswith("estimated: ") and "fixtures/README.md, Tide of Iron" in p["note"], (
                code,
                key,
            )


def test_increased_priority_reads_as_the_text_states(text):
    """ "Increased Priority" reads: "When you activate another Artillery card, its cost is reduced by 1 (to a
    minimum of 0).\""""
    card = CARDS["toi-increased-priority"]
    assert card["title"] == "Increased Priority" and "“Increased Priority” reads" in text
    assert card["text"] == [
        "When you activate another Artillery card, its cost is reduced by 1 (to a minimum of 0)."
    ]
    assert card["effects"] == [
        {"kind": "cost-reduction", "card_type": "Artillery", "amount": 1, "minimum": 0}
    ]
    assert {card["provenance"][k]["source"] for k in ("title", "text.0", "effects.0")} == {"seed"}
    # "This ability affects all of the other cards in the Artillery I and the Artillery II deck."
    assert CATALOG.decks[card["deck"]].title in ("Artillery I", "Artillery II")


def test_sustained_blanket_has_every_keyword_and_number_of_the_worked_example():
    card = CARDS["toi-sustained-blanket"]
    assert card["title"] == "Sustained Blanket"
    assert card["keywords"] == [
        {"keyword": "establish-contact", "value": 4},  # "the target number (4 in this example)"
        {"keyword": "target-hex"},  # "2. Target Hex"
        {"keyword": "determine-drift"},  # "3. Determine Drift"
        # "4. Suppressive Area Attack [...] strength indicated on the card (4 in this example)"
        {"keyword": "area-attack", "value": 4, "suppressive": True},
        # "This attack has a suppressive wide blast radius of strength 3."
        {"keyword": "wide-blast-radius", "value": 3, "suppressive": True},
    ]
    assert all(card["provenance"][f"keywords.{i}"]["source"] == "seed" for i in range(5))
    # "the “Sustained Blanket” Artillery Strategy card": an Artillery deck
    assert "Artillery" in CATALOG.decks[card["deck"]].title
    # "scoring successes on results of "5" and "6"": the default of every off-board attack
    assert {k.success_on for k in CATALOG.cards["toi-sustained-blanket"].keywords} == {5}


def test_the_three_decks_the_text_names():
    titles = {d["title"]: d for d in DECKS_DOC["decks"]}
    assert set(titles) == {"Artillery I", "Artillery II", "Air Support"}
    for deck in titles.values():
        assert deck["provenance"]["title"]["source"] == "seed"
        assert deck["provenance"]["entries"]["source"] == "estimated"


def test_only_the_named_cards_carry_seed_titles():
    seed_titles = {c["title"] for c in CARDS_DOC["cards"] if c["provenance"]["title"]["source"] == "seed"}
    assert seed_titles == {"Increased Priority", "Sustained Blanket"}


def test_every_card_is_in_exactly_its_deck_and_every_scenario_names_known_decks():
    for deck in CATALOG.decks.values():
        for code, _ in deck.entries:
            assert CATALOG.cards[code].deck == deck.code
    in_decks = {code for d in CATALOG.decks.values() for code, _ in d.entries}
    assert in_decks == set(CATALOG.cards)
    assert CATALOG.scenarios
    for sc in CATALOG.scenarios.values():
        assert set(sc.seats) == {"axis", "allies"}
        assert all(sc.seats[s]["decks"] for s in sc.seats)


def test_the_generator_writes_the_committed_fixtures():
    from fixtures.tools.tide_of_iron_cards import documents

    cards, decks = documents()
    assert json.loads(json.dumps(cards, ensure_ascii=False)) == CARDS_DOC
    assert json.loads(json.dumps(decks, ensure_ascii=False)) == DECKS_DOC


@pytest.mark.parametrize(
    "path, value, message",
    [
        (("cards", 1, "keywords", 0, "keyword"), "flank-attack", "keyword must be one of"),
        (("cards", 1, "phase"), "status", "phase is action or command"),
        (("cards", 1, "cost"), -1, "cost"),
        (("cards", 1, "provenance"), {}, "without provenance"),
        (("cards", 1, "keywords", 1, "keyword"), "area-attack", "value"),
    ],
)
def test_the_validator_refuses_values_outside_the_vocabulary(path, value, message):
    cards = copy.deepcopy(CARDS_DOC)
    target = cards
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(TideOfIronDataError, match=message):
        parse_catalog(cards, DECKS_DOC)


def test_drift_needs_a_target_hex():
    cards = copy.deepcopy(CARDS_DOC)
    cards["cards"][1]["keywords"] = [{"keyword": "determine-drift"}]
    cards["cards"][1]["provenance"] = {
        k: v for k, v in cards["cards"][1]["provenance"].items() if not k.startswith("keywords.")
    } | {"keywords.0": {"source": "estimated", "note": "x"}}
    with pytest.raises(TideOfIronDataError, match="needs target-hex"):
        parse_catalog(cards, DECKS_DOC)
