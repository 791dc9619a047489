"""Tide of Iron's Strategy cards: the vocabulary of the fixtures and their loader (pure Python).

Source (the law of this game): `../shared/seeds/tide-of-iron-strategy-cards.txt`, the rules of the
Strategy-card system. It names two cards ("Increased Priority", "Sustained Blanket"), three decks
(Artillery I, Artillery II, Air Support) and the off-board keywords. Every value it states is `seed` with the
quote it rests on (a test finds every quote in the text); everything else is `estimated` with its method
(fixtures/README.md, "Tide of Iron"). No Django, no app imports.

Files (fixtures/tide_of_iron/):

    cards.json   {"game", "source", "cards": [card]}; a card:
        code         stable code "toi-<name>"
        title        the card's title
        deck         the code of the Strategy deck the card belongs to
        cost         the command cost (an integer >= 0)
        phase        action | command: the words topmost in the text box ("Action Phase", "Command Phase")
        play_area    true: the card is "placed in your play area" (lasting effect) instead of discarded
        keywords     [{keyword, value?, suppressive?, success_on?}] in resolution order (Keyword)
        effects      [{kind: "cost-reduction", card_type, amount, minimum}] (lasting, applied by the referee)
        text         the card's text lines
        provenance   {field: {source: "seed", quote} | {source: "estimated", note}} for every value
    decks.json   {"game", "source", "decks": [deck], "scenarios": [scenario]}
        deck:      {code, title, entries: [{card, count}], provenance}
        scenario:  {code, title, seats: {axis|allies: {decks: [deck codes], start_draw, status_draw}},
                    provenance}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

GAME = "tide-of-iron"
TEXT = "../shared/seeds/tide-of-iron-strategy-cards.txt"
FIXTURE_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "tide_of_iron"
SEATS = ("axis", "allies")
# "Off-board area attacks (i.e., those from Strategy cards) score successes on results of "5" and "6"
# unless stated otherwise on the card." (the same for Wide Blast Radius)
DEFAULT_SUCCESS_ON = 5


class Phase(StrEnum):
    ACTION = "action"  # "the words "Action Phase" topmost in their text box"
    COMMAND = "command"  # "the words "Command Phase" topmost [...] during the Spend Command step"


class Keyword(StrEnum):
    ESTABLISH_CONTACT = "establish-contact"  # (X): the target number of one die
    TARGET_HEX = "target-hex"
    DETERMINE_DRIFT = "determine-drift"
    AREA_ATTACK = "area-attack"  # (X): attack strength against the target hex
    WIDE_BLAST_RADIUS = "wide-blast-radius"  # (X): attack strength against each adjacent hex


VALUED = {Keyword.ESTABLISH_CONTACT, Keyword.AREA_ATTACK, Keyword.WIDE_BLAST_RADIUS}
ATTACKS = {Keyword.AREA_ATTACK, Keyword.WIDE_BLAST_RADIUS}


class EffectKind(StrEnum):
    COST_REDUCTION = "cost-reduction"  # "When you activate another Artillery card, its cost is reduced by 1"


class Source(StrEnum):
    SEED = "seed"
    ESTIMATED = "estimated"


class TideOfIronDataError(ValueError):
    """A fixture value outside the vocabulary (the message names where)."""


@dataclass(frozen=True, slots=True)
class KeywordDef:
    keyword: Keyword
    value: int | None = None
    suppressive: bool = False
    success_on: int = DEFAULT_SUCCESS_ON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"keyword": self.keyword.value}
        if self.value is not None:
            out["value"] = self.value
        if self.keyword in ATTACKS:
            out["suppressive"] = self.suppressive
            out["success_on"] = self.success_on
        return out


@dataclass(frozen=True, slots=True)
class CardDef:
    code: str
    title: str
    deck: str
    cost: int
    phase: Phase
    play_area: bool
    keywords: tuple[KeywordDef, ...]
    effects: tuple[dict[str, Any], ...]
    text: tuple[str, ...]
    provenance: dict[str, dict[str, str]]


@dataclass(frozen=True, slots=True)
class DeckDef:
    code: str
    title: str
    entries: tuple[tuple[str, int], ...]
    provenance: dict[str, dict[str, str]]


@dataclass(frozen=True, slots=True)
class ScenarioDef:
    code: str
    title: str
    seats: dict[str, dict[str, Any]]
    provenance: dict[str, dict[str, str]]


@dataclass(frozen=True, slots=True)
class TideOfIronFixtures:
    """The checked fixture documents (cards, decks, scenarios with their provenance) the catalog loader
    stores; the engine's frozen per-match catalog is games.engine.tide_of_iron.TideOfIronCatalog."""

    cards: dict[str, CardDef]
    decks: dict[str, DeckDef]
    scenarios: dict[str, ScenarioDef]


CODE = re.compile(r"^toi-[a-z0-9]+(-[a-z0-9]+)*$")
CARD_FIELDS = (
    "code",
    "title",
    "deck",
    "cost",
    "phase",
    "play_area",
    "keywords",
    "effects",
    "text",
    "provenance",
)


def _bad(where: str, message: str) -> TideOfIronDataError:
    return TideOfIronDataError(f"{where}: {message}")


def _int(where: str, value: Any, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(where, f"must be an integer {low}..{high} (not {value!r})")
    return value


def _str(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(where, "must be a non-empty string")
    return value


def _provenance(where: str, raw: Any, required: set[str]) -> dict[str, dict[str, str]]:
    if not isinstance(raw, dict):
        raise _bad(where, "provenance must be an object")
    out: dict[str, dict[str, str]] = {}
    for name, p in raw.items():
        if not isinstance(p, dict) or p.get("source") not in {s.value for s in Source}:
            raise _bad(f"{where}.provenance.{name}", "source must be seed or estimated")
        if p["source"] == Source.SEED and not isinstance(p.get("quote"), str):
            raise _bad(f"{where}.provenance.{name}", "a seed value quotes the text")
        if p["source"] == Source.ESTIMATED and not isinstance(p.get("note"), str):
            raise _bad(f"{where}.provenance.{name}", "an estimated value writes its method in a note")
        out[name] = dict(p)
    missing = sorted(required - set(out))
    if missing:
        raise _bad(where, f"values without provenance: {missing}")
    return out


def _keyword(where: str, raw: Any) -> KeywordDef:
    if not isinstance(raw, dict) or raw.get("keyword") not in {k.value for k in Keyword}:
        raise _bad(where, f"keyword must be one of {[k.value for k in Keyword]}")
    kw = Keyword(raw["keyword"])
    extra = set(raw) - {"keyword", "value", "suppressive", "success_on"}
    if extra:
        raise _bad(where, f"unknown fields {sorted(extra)}")
    value = raw.get("value")
    if kw in VALUED:
        value = _int(f"{where}.value", value, 1, 20)
    elif value is not None:
        raise _bad(where, f"{kw.value} takes no value")
    suppressive = raw.get("suppressive", False)
    if not isinstance(suppressive, bool) or (suppressive and kw not in ATTACKS):
        raise _bad(where, "suppressive is a boolean of an attack keyword")
    success_on = _int(f"{where}.success_on", raw.get("success_on", DEFAULT_SUCCESS_ON), 1, 6)
    return KeywordDef(kw, value, suppressive, success_on)


def _effect(where: str, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict) or raw.get("kind") != EffectKind.COST_REDUCTION:
        raise _bad(where, f"effect kind must be one of {[e.value for e in EffectKind]}")
    _str(f"{where}.card_type", raw.get("card_type"))
    _int(f"{where}.amount", raw.get("amount"), 1, 9)
    _int(f"{where}.minimum", raw.get("minimum", 0), 0, 9)
    return {
        "kind": raw["kind"],
        "card_type": raw["card_type"],
        "amount": raw["amount"],
        "minimum": raw.get("minimum", 0),
    }


def parse_card(raw: Any, where: str = "card") -> CardDef:
    if not isinstance(raw, dict):
        raise _bad(where, "a card is an object")
    extra = set(raw) - set(CARD_FIELDS)
    if extra:
        raise _bad(where, f"unknown fields {sorted(extra)}")
    code = _str(f"{where}.code", raw.get("code"))
    if not CODE.match(code):
        raise _bad(where, f"code {code!r} is not toi-<lowercase-words>")
    where = f"card {code}"
    if raw.get("phase") not in {p.value for p in Phase}:
        raise _bad(where, "phase is action or command")
    if not isinstance(raw.get("play_area", False), bool):
        raise _bad(where, "play_area is a boolean")
    keywords = tuple(_keyword(f"{where}.keywords.{i}", k) for i, k in enumerate(raw.get("keywords") or []))
    kinds = [k.keyword for k in keywords]
    if Keyword.DETERMINE_DRIFT in kinds and Keyword.TARGET_HEX not in kinds:
        raise _bad(where, "drift starts from the target hex: determine-drift needs target-hex")
    if any(k in kinds for k in ATTACKS) and Keyword.TARGET_HEX not in kinds:
        raise _bad(where, "an area attack needs a target hex")
    text = raw.get("text") or []
    if not isinstance(text, list) or not all(isinstance(t, str) for t in text):
        raise _bad(where, "text is a list of strings")
    required = {"title", "deck", "cost", "phase", "play_area"}
    required |= {f"keywords.{i}" for i in range(len(keywords))}
    required |= {f"effects.{i}" for i in range(len(raw.get("effects") or []))}
    required |= {f"text.{i}" for i in range(len(text))}
    return CardDef(
        code=code,
        title=_str(f"{where}.title", raw.get("title")),
        deck=_str(f"{where}.deck", raw.get("deck")),
        cost=_int(f"{where}.cost", raw.get("cost"), 0, 20),
        phase=Phase(raw["phase"]),
        play_area=bool(raw.get("play_area", False)),
        keywords=keywords,
        effects=tuple(_effect(f"{where}.effects.{i}", e) for i, e in enumerate(raw.get("effects") or [])),
        text=tuple(text),
        provenance=_provenance(where, raw.get("provenance"), required),
    )


def parse_deck(raw: Any, cards: dict[str, CardDef]) -> DeckDef:
    if not isinstance(raw, dict) or set(raw) - {"code", "title", "entries", "provenance"}:
        raise _bad("deck", "a deck is {code, title, entries, provenance}")
    code = _str("deck.code", raw.get("code"))
    where = f"deck {code}"
    entries = []
    for i, e in enumerate(raw.get("entries") or []):
        if not isinstance(e, dict) or e.get("card") not in cards:
            raise _bad(f"{where}.entries.{i}", f"unknown card {e!r}")
        if cards[e["card"]].deck != code:
            raise _bad(f"{where}.entries.{i}", f"card {e['card']} belongs to deck {cards[e['card']].deck}")
        entries.append((e["card"], _int(f"{where}.entries.{i}.count", e.get("count"), 1, 20)))
    if not entries:
        raise _bad(where, "a deck has cards")
    return DeckDef(
        code,
        _str(f"{where}.title", raw.get("title")),
        tuple(entries),
        _provenance(where, raw.get("provenance"), {"title", "entries"}),
    )


def parse_scenario(raw: Any, decks: dict[str, DeckDef]) -> ScenarioDef:
    if not isinstance(raw, dict) or set(raw) - {"code", "title", "seats", "provenance"}:
        raise _bad("scenario", "a scenario is {code, title, seats, provenance}")
    code = _str("scenario.code", raw.get("code"))
    where = f"scenario {code}"
    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, dict) or set(seats_raw) != set(SEATS):
        raise _bad(where, f"seats names each of {list(SEATS)}")
    seats: dict[str, dict[str, Any]] = {}
    for seat in SEATS:
        s = seats_raw[seat]
        if not isinstance(s, dict) or set(s) != {"decks", "start_draw", "status_draw"}:
            raise _bad(f"{where}.{seat}", "a seat is {decks, start_draw, status_draw}")
        if not isinstance(s["decks"], list) or any(d not in decks for d in s["decks"]):
            raise _bad(f"{where}.{seat}.decks", "unknown deck")
        if len(set(s["decks"])) != len(s["decks"]):
            raise _bad(f"{where}.{seat}.decks", "a deck is listed twice")
        seats[seat] = {
            "decks": list(s["decks"]),
            "start_draw": _int(f"{where}.start_draw", s["start_draw"], 0, 9),
            "status_draw": _int(f"{where}.status_draw", s["status_draw"], 0, 9),
        }
    return ScenarioDef(
        code,
        _str(f"{where}.title", raw.get("title")),
        seats,
        _provenance(where, raw.get("provenance"), {"title", "seats"}),
    )


def parse_catalog(cards_doc: Any, decks_doc: Any) -> TideOfIronFixtures:
    """Both documents checked against the vocabulary (TideOfIronDataError naming the first bad value)."""
    for name, doc, key in (("cards.json", cards_doc, "cards"), ("decks.json", decks_doc, "decks")):
        if not isinstance(doc, dict) or doc.get("game") != GAME or not isinstance(doc.get(key), list):
            raise TideOfIronDataError(f"{name}: {{'game': {GAME!r}, '{key}': [...]}}")
    cards: dict[str, CardDef] = {}
    for raw in cards_doc["cards"]:
        card = parse_card(raw)
        if card.code in cards:
            raise _bad(f"card {card.code}", "code listed twice")
        cards[card.code] = card
    decks: dict[str, DeckDef] = {}
    for raw in decks_doc["decks"]:
        deck = parse_deck(raw, cards)
        if deck.code in decks:
            raise _bad(f"deck {deck.code}", "code listed twice")
        decks[deck.code] = deck
    orphans = sorted(c.code for c in cards.values() if c.deck not in decks)
    if orphans:
        raise _bad("cards", f"in no deck: {orphans}")
    scenarios = {}
    for raw in decks_doc.get("scenarios") or []:
        sc = parse_scenario(raw, decks)
        scenarios[sc.code] = sc
    return TideOfIronFixtures(cards, decks, scenarios)


def read_documents(directory: Path | str = FIXTURE_DIR) -> tuple[dict[str, Any], dict[str, Any]]:
    root = Path(directory)
    return (
        json.loads((root / "cards.json").read_text(encoding="utf-8")),
        json.loads((root / "decks.json").read_text(encoding="utf-8")),
    )


def load_catalog(directory: Path | str = FIXTURE_DIR) -> TideOfIronFixtures:
    return parse_catalog(*read_documents(directory))
