"""The War's fixture loader: reads and checks cards and starters against the rulebook's vocabulary."""


import json
import re
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from vocabulary.the_war.cards import (
    Ability,
    Bonus,
    CardDef,
    CostItem,
    Effect,
    Elimination,
    Provenance,
    StarterDef,
    Target,
    TheWarCatalog,
    TheWarDataError,
)
from vocabulary.the_war.terms import (
    BOMBERS,
    GAME,
    SECTIONS,
    SUBTYPES,
    AbilityKind,
    Action,
    Army,
    Category,
    Domain,
    EffectKind,
    Feature,
    HeroMode,
    Rarity,
    Resource,
    ResourceKind,
    Restriction,
    S,
    Side,
    Source,
    UnitSubtype,
    UnitType,
    When,
)

# --------------------------------------------------------------------------------------------- loader

CODE_RE = re.compile(r"^tw-[a-z0-9]+(?:-[a-z0-9]+)*$")
CARD_FIELDS = frozenset(CardDef.__slots__) - {"__weakref__"}
CARD_REQUIRED = frozenset({"code", "title", "category", "army", "provenance"})
# The fields a provenance entry may describe (sub-values as "field.part" are allowed, e.g. "cost.fuel").
PROVENANCE_FIELDS = CARD_FIELDS - {"code", "provenance"}
STARTER_PROVENANCE = frozenset({"name", "army", "entries"})


class _Reader:
    """Typed access to one JSON object; every error names where it is."""

    def __init__(self, where: str, data: Any, allowed: frozenset[str] | set[str]) -> None:
        if not isinstance(data, dict):
            raise TheWarDataError(f"{where}: expected an object, got {type(data).__name__}")
        unknown = set(data) - set(allowed)
        if unknown:
            raise TheWarDataError(f"{where}: unknown field(s) {sorted(unknown)}")
        self.where, self.data = where, data

    def err(self, key: str, problem: str) -> TheWarDataError:
        return TheWarDataError(f"{self.where}.{key}: {problem} (got {self.data.get(key)!r})")

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def str_(self, key: str, *, required: bool = False, pattern: re.Pattern[str] | None = None) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.err(key, "is required")
            return None
        if (
            not isinstance(value, str)
            or not value.strip()
            or (pattern is not None and not pattern.match(value))
        ):
            raise self.err(
                key, "must be a non-empty string" + (f" matching {pattern.pattern}" if pattern else "")
            )
        return value

    def int_(self, key: str, *, low: int = 0, high: int = 99) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.err(key, f"must be an integer from {low} to {high}")
        return value

    def bool_(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise self.err(key, "must be true or false")
        return value

    def enum(self, key: str, enum: type[StrEnum], *, required: bool = False) -> Any:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.err(key, "is required")
            return None
        try:
            return enum(value)
        except ValueError:
            raise self.err(key, f"must be one of {[e.value for e in enum]}") from None

    def list_(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.err(key, "must be a list")
        return value

    def enums(self, key: str, enum: type[StrEnum]) -> tuple[Any, ...]:
        out = []
        for i, item in enumerate(self.list_(key)):
            try:
                out.append(enum(item))
            except ValueError:
                raise TheWarDataError(
                    f"{self.where}.{key}[{i}]: {item!r} is not in the rulebook's vocabulary "
                    f"{[e.value for e in enum]}"
                ) from None
        if len(set(out)) != len(out):
            raise self.err(key, "repeats a value")
        return tuple(out)


def _costs(where: str, items: list[Any]) -> tuple[CostItem, ...]:
    out = []
    for i, raw in enumerate(items):
        r = _Reader(f"{where}[{i}]", raw, {"resource", "amount", "resource_cards_only"})
        amount = r.int_("amount", low=1, high=20)
        if amount is None:
            raise r.err("amount", "is required")
        out.append(
            CostItem(r.enum("resource", Resource, required=True), amount, r.bool_("resource_cards_only"))
        )
    if len({c.resource for c in out}) != len(out):
        raise TheWarDataError(f"{where}: a resource is listed twice")
    return tuple(out)


def _target(where: str, raw: Any) -> Target:
    r = _Reader(where, raw, {"side", "unit_types", "subtypes", "domain", "line", "elite"})
    elite = r.data.get("elite")
    if elite is not None and not isinstance(elite, bool):
        raise r.err("elite", "must be true, false or null")
    return Target(
        side=r.enum("side", Side) or Side.OWN,
        unit_types=r.enums("unit_types", UnitType),
        subtypes=r.enums("subtypes", UnitSubtype),
        domain=r.enum("domain", Domain),
        line=r.int_("line", low=1, high=2),
        elite=elite,
    )


def _effect(where: str, raw: Any) -> Effect:
    r = _Reader(where, raw, {"kind", "target", "attack", "defense", "amount", "action", "feature", "when"})
    kind = r.enum("kind", EffectKind, required=True)
    effect = Effect(
        kind=kind,
        target=_target(f"{where}.target", r.data.get("target", {})),
        attack=r.int_("attack", low=-9, high=9) or 0,
        defense=r.int_("defense", low=-9, high=9) or 0,
        amount=r.int_("amount", low=1, high=20),
        action=r.enum("action", Action),
        feature=r.enum("feature", Feature),
        when=r.enum("when", When) or When.ALWAYS,
    )
    needs = {
        EffectKind.MODIFY: effect.attack or effect.defense,
        EffectKind.FORBID: effect.action,
        EffectKind.GRANT_FEATURE: effect.feature,
        EffectKind.DAMAGE: effect.amount,
        EffectKind.DECK_HIT: effect.amount,
    }
    if kind in needs and not needs[kind]:
        raise TheWarDataError(
            f"{where}: a {kind} effect needs its value (attack/defense, action, feature, amount)"
        )
    return effect


def _provenance(where: str, raw: Any, fields: frozenset[str] | None = None) -> dict[str, Provenance]:
    if not isinstance(raw, dict) or not raw:
        raise TheWarDataError(f"{where}: provenance must be a non-empty object")
    out = {}
    for key, entry in raw.items():
        if key.split(".")[0] not in (PROVENANCE_FIELDS if fields is None else fields):
            raise TheWarDataError(f"{where}.{key}: provenance of an unknown field")
        r = _Reader(f"{where}.{key}", entry, {"source", "section", "quote", "note"})
        source = r.enum("source", Source, required=True)
        if source == Source.SEED:
            section = r.str_("section", required=True)
            if section not in SECTIONS:
                raise r.err("section", f"must be a heading of the rulebook {list(SECTIONS)}")
            out[key] = Provenance(source, section=section, quote=r.str_("quote", required=True))
        else:
            out[key] = Provenance(source, note=r.str_("note", required=True))
    return out


def parse_card(raw: Any, where: str = "card") -> CardDef:
    """One card from its JSON object; raises TheWarDataError on any bad or missing value."""
    r = _Reader(where, raw, CARD_FIELDS)
    code = r.str_("code", required=True, pattern=CODE_RE)
    where = r.where = f"{where} {code}"
    missing = CARD_REQUIRED - {k for k in r.data if k == "army" or r.data.get(k) is not None}
    if missing:
        raise TheWarDataError(f"{where}: missing field(s) {sorted(missing)}")
    category = r.enum("category", Category, required=True)
    subtype = r.enum("subtype", UnitSubtype)
    unit_type = r.enum("unit_type", UnitType)
    elimination = None
    if r.has("elimination"):
        e = _Reader(f"{where}.elimination", r.data["elimination"], {"deck_cards", "breakthrough_power"})
        elimination = Elimination(e.int_("deck_cards", low=1), e.int_("breakthrough_power", low=1))
    abilities = []
    for i, a in enumerate(r.list_("abilities")):
        ar = _Reader(f"{where}.abilities[{i}]", a, {"kind", "value", "cost", "rotate"})
        abilities.append(
            Ability(
                kind=ar.enum("kind", AbilityKind, required=True),
                value=ar.int_("value", low=1, high=20),
                cost=_costs(f"{where}.abilities[{i}].cost", ar.list_("cost")),
                rotate=ar.bool_("rotate") if "rotate" in a else True,
            )
        )
    bonuses = []
    for i, b in enumerate(r.list_("bonuses")):
        br = _Reader(f"{where}.bonuses[{i}]", b, {"against", "attack", "defense"})
        against = tuple(br.list_("against"))
        allowed = {t.value for t in UnitType} | {s.value for s in UnitSubtype}
        if not against or any(a not in allowed for a in against):
            raise br.err("against", "must list unit types or subtypes of the rulebook")
        bonuses.append(
            Bonus(against, br.int_("attack", low=-9, high=9) or 0, br.int_("defense", low=-9, high=9) or 0)
        )
    card = CardDef(
        code=code,
        title=r.str_("title", required=True),
        category=category,
        army=r.enum("army", Army),
        provenance=_provenance(f"{where}.provenance", r.data.get("provenance")),
        number=r.str_("number"),
        rarity=r.enum("rarity", Rarity),
        cost=_costs(f"{where}.cost", r.list_("cost")),
        resource_kind=r.enum("resource_kind", ResourceKind),
        yields=_costs(f"{where}.yields", r.list_("yields")),
        unit_type=unit_type,
        subtype=subtype,
        line=r.int_("line", low=1, high=2),
        attack=r.int_("attack", high=20),
        defense=r.int_("defense", high=20),
        aa_attack=r.int_("aa_attack", low=1, high=20),
        bombing_power=r.int_("bombing_power", low=1, high=20),
        deck_hit=r.int_("deck_hit", low=1, high=20),
        bonuses=tuple(bonuses),
        features=r.enums("features", Feature),
        restrictions=r.enums("restrictions", Restriction),
        attack_cost=_costs(f"{where}.attack_cost", r.list_("attack_cost")),
        abilities=tuple(abilities),
        effects=tuple(_effect(f"{where}.effects[{i}]", e) for i, e in enumerate(r.list_("effects"))),
        elimination=elimination,
        maintenance=_costs(f"{where}.maintenance", r.list_("maintenance")),
        location=r.bool_("location"),
        hero_mode=r.enum("hero_mode", HeroMode),
        rotate_to_play=r.enums("rotate_to_play", Feature),
        text=_texts(r),
    )
    _check_consistency(where, card)
    return card


def _texts(r: _Reader) -> tuple[str, ...]:
    lines = r.list_("text")
    if any(not isinstance(line, str) or not line.strip() for line in lines):
        raise r.err("text", "must be a list of non-empty strings")
    return tuple(lines)


def _check_consistency(where: str, c: CardDef) -> None:
    """The category decides which values a card has."""

    def bad(problem: str) -> TheWarDataError:
        return TheWarDataError(f"{where}: {problem}")

    is_unit = c.category == Category.UNIT or (c.category == Category.HERO and c.hero_mode == HeroMode.UNIT)
    unit_values = (c.unit_type, c.subtype, c.line, c.attack, c.defense)
    if is_unit:
        if any(v is None for v in unit_values):
            raise bad("a unit needs unit_type, subtype, line, attack and defense")
        if c.subtype not in SUBTYPES[c.unit_type]:
            raise bad(f"subtype {c.subtype} is not a subtype of {c.unit_type}")
    elif any(v is not None for v in (c.unit_type, c.subtype, c.line, c.aa_attack, c.bombing_power)) or any(
        (c.features, c.restrictions, c.bonuses, c.attack_cost, c.abilities)
    ):
        raise bad(
            f"a {c.category} card has no unit type, subtype, line, AA attack, bombing power, features, "
            "restrictions, bonuses, attack cost or abilities"
        )
    if not is_unit and c.attack is not None:
        raise bad("only units have an attack")
    if c.category == Category.RESOURCE:
        if c.resource_kind is None or not c.yields or c.defense is None:
            raise bad('a resource card needs resource_kind, yields and its "defense" parameter')
        if c.cost:
            raise bad("a resource card is put into play, not paid for: it has no cost")
        if c.resource_kind == ResourceKind.BASIC and (len(c.yields) != 1 or c.yields[0].amount != 1):
            raise bad('a basic resource "yields a single amount of specified resource"')
        if c.resource_kind == ResourceKind.BASIC and c.army is not None:
            raise bad("basic resources belong to no army")
    elif c.resource_kind is not None or c.yields:
        raise bad("only resource cards have resource_kind and yields")
    elif not is_unit and c.defense is not None:
        raise bad("only units and resource cards have a defense")
    elif not c.cost:
        raise bad("every card but a resource has a cost")
    if c.category != Category.BATTLEFIELD_CONDITION and (c.elimination or c.maintenance or c.location):
        raise bad("only battlefield conditions have elimination, maintenance or location")
    if c.location and c.army is not None:
        raise bad('locations "affect both sides": they belong to no army')
    if (c.category == Category.HERO) != (c.hero_mode is not None):
        raise bad("hero_mode is required for heroes and only for them")
    if (
        c.category in (Category.IMPROVEMENT, Category.BATTLEFIELD_CONDITION, Category.SPECIAL)
        and not c.effects
    ):
        raise bad(f"a {c.category} card needs its effects")
    if c.bombing_power is not None and c.unit_type != UnitType.AIR:
        raise bad("bombing power is an aircraft parameter")
    if c.subtype in BOMBERS and c.bombing_power is None:
        raise bad("bombers and ground-attack aircraft have a bombing power")
    if c.subtype in (S.LIGHT_AA, S.HEAVY_AA) and c.aa_attack is None:
        raise bad("AA artillery has an AA attack")
    heads = {key.split(".")[0] for key in c.provenance}
    for name in sorted(PROVENANCE_FIELDS - heads):
        value = getattr(c, name)
        if not (value is None or value == () or value is False):
            raise bad(f"{name} has a value but no provenance (every value is seed or estimated)")
    for key in c.provenance:
        head = key.split(".")[0]
        value = getattr(c, head)
        if (value is None or value == () or value is False) and head not in (
            "army",
            "features",
            "location",
            "line",
        ):
            raise bad(f"provenance for {key}, which has no value")


def parse_starter(raw: Any, cards: Mapping[str, CardDef], where: str = "starter") -> StarterDef:
    r = _Reader(where, raw, {"code", "name", "army", "entries", "provenance"})
    code = r.str_("code", required=True, pattern=CODE_RE)
    entries: dict[str, int] = {}
    for i, entry in enumerate(r.list_("entries")):
        er = _Reader(f"{where} {code}.entries[{i}]", entry, {"card", "count"})
        card = er.str_("card", required=True)
        count = er.int_("count", low=1, high=60)
        if card not in cards:
            raise er.err("card", "is not a card of cards.json")
        if count is None:
            raise er.err("count", "is required")
        if card in entries:
            raise er.err("card", "is listed twice")
        entries[card] = count
    return StarterDef(
        code=code,
        name=r.str_("name", required=True),
        army=r.enum("army", Army, required=True),
        entries=entries,
        provenance=_provenance(f"{where} {code}.provenance", r.data.get("provenance"), STARTER_PROVENANCE),
    )


def parse_catalog(cards_doc: Any, starters_doc: Any, *, rules_revision: int | None = None) -> TheWarCatalog:
    """Both fixture documents, validated; raises TheWarDataError naming the first bad value.
    `rules_revision`: the engine rules revision a game's snapshot records (None: the engine's current)."""
    if rules_revision is not None and (type(rules_revision) is not int or rules_revision < 1):
        raise TheWarDataError(f"rules_revision: expected a positive integer, got {rules_revision!r}")
    for name, doc, key in (("cards.json", cards_doc, "cards"), ("starters.json", starters_doc, "starters")):
        if not isinstance(doc, dict) or doc.get("game") != GAME or not isinstance(doc.get(key), list):
            raise TheWarDataError(f'{name}: expected {{"game": "{GAME}", "{key}": [...]}}')
    cards: dict[str, CardDef] = {}
    titles: dict[str, str] = {}
    for i, raw in enumerate(cards_doc["cards"]):
        card = parse_card(raw, f"cards.json[{i}]")
        if card.code in cards:
            raise TheWarDataError(f"cards.json[{i}]: duplicate code {card.code}")
        if card.title in titles:
            raise TheWarDataError(
                f"cards.json[{i}]: title {card.title!r} is also {titles[card.title]}'s: "
                "two cards are identical if they have the same title"
            )
        cards[card.code] = card
        titles[card.title] = card.code
    starters: dict[str, StarterDef] = {}
    for i, raw in enumerate(starters_doc["starters"]):
        starter = parse_starter(raw, cards, f"starters.json[{i}]")
        if starter.code in starters or starter.code in cards:
            raise TheWarDataError(f"starters.json[{i}]: duplicate code {starter.code}")
        starters[starter.code] = starter
    return TheWarCatalog(cards=cards, starters=starters, rules_revision=rules_revision)


FIXTURE_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "the_war"


def load_catalog(directory: Path | str = FIXTURE_DIR) -> TheWarCatalog:
    """Read and validate `cards.json` and `starters.json` of `directory` (default fixtures/the_war/)."""
    directory = Path(directory)
    docs = []
    for name in ("cards.json", "starters.json"):
        try:
            docs.append(json.loads((directory / name).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as exc:
            raise TheWarDataError(f"{name}: cannot be read as JSON: {exc}") from exc
    return parse_catalog(*docs)
